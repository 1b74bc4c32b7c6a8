"""The rent a plan is compared with, said with its basis: cards × hours × rate, reserved or on demand (blind review
19). q17: "the rent yardstick's on-demand ¥35,144–¥38,455 for 4 L20s does not follow from the 14.63 CNY/card-hour
shown" (3.1 of the 4 GPUs are billed on average, with storage on top: the product was never printed beside it);
q33: "'renting the same setup' at ¥2,027–4,322 appears to price 4 GPUs at the reserved rate, not the 6 deployed" (it
was the load's rent, 2 GPUs reserved and 1.1 on demand, beside a fleet of 6 running all month).

``reserved_deployed`` prices the GPUs a plan deploys reserved for a year, every hour (what an owned fleet that runs
all month is weighed against); ``on_demand`` and ``reserved`` say how the cost table's figures were multiplied out,
factor by factor, from the same numbers ``memo_cost_formula`` prints in its full row.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.memo_cost_formula import _n, _price_factor, _r
from advisor.plan.printed_factors import fit


def _common(c: Any) -> dict[str, Any] | None:
    price, ov = c.cloud_per_gpu_hour, c.cloud_overhead
    if price is None or ov is None:
        return None
    return {"hours": _n(HOURS_PER_MONTH), "currency": c.currency, **_price_factor(price, ov)}


def on_demand(c: Any) -> dict[str, Any] | str:
    """"3.1 of the 4 GPUs billed on average × 730 h × 14.6 CNY/GPU·h × 1.06–1.16": the on-demand month's product
    (``cloud_on_demand_monthly``); "" where a factor is unknown."""
    common = _common(c)
    if common is None or not c.cloud_billed_gpus or c.per_job:
        return ""
    if c.cloud_billed_gpus >= c.gpus:  # every GPU billed every hour
        return {"tr": "review30.rent_basis.on_demand_all", "gpus": c.gpus, **common}
    return {"tr": "review30.rent_basis.on_demand", "billed": _n(c.cloud_billed_gpus), "gpus": c.gpus, **common}


def reserved(c: Any) -> dict[str, Any] | str:
    """The reserved month's product (``cloud_monthly``): the always-on floor reserved and the rest on demand on
    average, or every GPU reserved; "" where a factor is unknown."""
    common, mf, fl = _common(c), c.cloud_monthly_factor, c.cloud_reserved_floor
    if common is None or mf is None or c.cloud_monthly is None or c.per_job:
        return ""
    discount = fit((mf.low, mf.high))[0]
    if fl is not None:
        return {"tr": "review30.rent_basis.floor", "reserved": fl["gpus"], "discount": discount,
                "burst": _r(fl["burst_low"], fl["burst_high"]), **common}
    return {"tr": "review30.rent_basis.all", "gpus": c.gpus, "discount": discount, **common}


def reserved_deployed(c: Any, gpus: int) -> tuple[tuple[float, float], dict[str, Any]] | None:
    """``gpus`` (the plan's deployed GPUs) reserved for a year, every hour: (low, high) a month in the plan's currency
    and its basis clause; None where a factor is unknown."""
    common, mf, price, ov = _common(c), c.cloud_monthly_factor, c.cloud_per_gpu_hour, c.cloud_overhead
    if common is None or mf is None or gpus <= 0:
        return None
    # in the units clouds rent the part in: whole servers where it comes only so (an 8-card Ascend or SXM node: q08's
    # 12 deployed are rented as 2 nodes of 8), as the cost model rents it (``cloud_warm``)
    warm = c.cloud_warm or {}
    unit = int(warm.get("unit_gpus") or 1) if warm.get("whole_server") else 1
    rented = math.ceil(gpus / unit) * unit
    low = rented * HOURS_PER_MONTH * price.low * (1 + ov.low) * mf.low
    high = rented * HOURS_PER_MONTH * price.high * (1 + ov.high) * mf.high
    basis = {"tr": "review30.rent_basis.deployed", "gpus": rented, "discount": fit((mf.low, mf.high))[0], **common}
    if rented != gpus:
        basis.update(tr="review30.rent_basis.deployed_whole", unit=unit, deployed=gpus)
    return (low, high), basis


__all__ = ["on_demand", "reserved", "reserved_deployed"]
