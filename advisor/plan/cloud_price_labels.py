"""The cloud prices named by what each one bills, where they bill different GPUs (s18-apiweigh, issue 25).

On demand bills the GPUs the load keeps busy (the always-on replica around the clock, the others only for the
peak's hours: 3.1 of 4 GPUs on average), while a monthly/reserved commitment pays for every GPU all month. The cost
table printed "on demand 6,165–16,599; monthly/reserved 5,569–18,206", and blind reviewers read a reserved price
above on demand as a contradiction (q33, q36, q42). Where the two bill different GPU counts, each says which.
"""

from __future__ import annotations

from typing import Any


def scaled(costs: Any) -> bool:
    """On demand bills fewer GPUs than the plan has (scaled to the load), a commitment all of them; not a job's."""
    billed = costs.cloud_billed_gpus
    return not costs.per_job and billed is not None and 0 < billed < costs.gpus


def _gpus(n: float) -> str:
    return f"{n:.0f}" if n == int(n) else f"{n:.1f}"


def label_params(costs: Any) -> dict[str, Any]:
    """The GPU counts the labels name: billed on average on demand, and all of them."""
    return {"billed": billed_text(costs), "gpus": costs.gpus}


def billed_text(costs: Any) -> str:
    """GPUs billed on average on demand: "2.7", or "2.2–2.6" where the bursts' share is an assumed range."""
    r = getattr(costs, "cloud_billed_gpus_range", None)
    if r is not None and _gpus(r.low) != _gpus(r.high):
        return f"{_gpus(r.low)}–{_gpus(r.high)}"
    return _gpus(float(costs.cloud_billed_gpus or 0))


def _three_figures(n: float) -> str:
    return f"{n:,.0f}" if n == int(n) or n >= 100 else f"{n:.3g}"


def billed_range_text(costs: Any) -> str:
    """The GPUs billed in the cost row's worked product: each end of an assumed range at three significant figures,
    the precision of the row's other factors, so that they multiply to the printed total (q36: 2.07 read "2.1" put
    the product 1.6 % off its 13,274 CNY). The price labels keep one decimal, as a single average is rounded there
    and worked out to three figures in the row."""
    r = getattr(costs, "cloud_billed_gpus_range", None)
    if r is not None and _three_figures(r.low) != _three_figures(r.high):
        return f"{_three_figures(r.low)}–{_three_figures(r.high)}"
    return billed_text(costs)


def on_demand_key(costs: Any) -> str:
    return "memo.apiweigh18.cost.on_demand_scaled" if scaled(costs) else "memo4.cost.on_demand"


def reserved_key(costs: Any) -> str:
    return "memo.apiweigh18.cost.reserved_all" if scaled(costs) else "memo4.cost.reserved"


__all__ = ["billed_range_text", "billed_text", "label_params", "on_demand_key", "reserved_key", "scaled"]
