"""The cloud cost worked out in the memo, factor by factor (issue 25, s15-batchcost).

Reviewers could not redo the memo's cloud figures: 8 GPUs × 35.6 h × 4.89 CNY/GPU·h is 1,393 CNY, the memo said
1,812, because egress, storage and management (a sourced 30–50 % on top of the GPU rate) were multiplied in unseen.
Since s22-uplift22c the share is its components (advisor.plan.cloud_overhead), named with their sources in brackets.
This row prints every factor of the product (GPUs × hours × price per GPU-hour × (1 + that share)) with the share's
source, and the spot ratio where a spot price is shown, so the printed range is the product of printed numbers.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import (
    burst_bill,
    cloud_price_labels,
    memo_overhead,
    memo_text15,
    printed_factors,
    reserved_floor,
    warm_floor,
)
from advisor.plan.cost import HOURS_PER_MONTH


def _n(v: float) -> str:
    """Three significant figures (the precision the price is printed with), thousands separated."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def _r(lo: float, hi: float) -> str:
    a, b = _n(lo), _n(hi)
    return a if a == b else f"{a}–{b}"


def _count(gpus: float) -> float | int:
    """The number the plural choice reads (1 GPU, 2 GPUs, 1.5 GPUs billed)."""
    return int(gpus) if gpus == int(gpus) else gpus


def _supported(costs: Any) -> bool:
    """The rented bill carries a support plan (AWS only, ``cloud_overhead.support_applies``)."""
    return any(p.name == "support" for p in (getattr(costs, "cloud_overhead_parts", None) or []))


def _price_factor(price: Any, ov: Any, hours: Any = None) -> dict[str, str]:
    """The price per GPU-hour and the uplift factor (and a job's billed hours, where given), printed so that their
    product is the printed total's (``printed_factors``: q16's 14.63 read "14.6" left the product 0.2 % short of the
    total beside it; q29's 124.4 billed hours read "124")."""
    ranges = [(price.low, price.high), (1 + ov.low, 1 + ov.high)]
    if hours is not None:
        ranges.append((hours.low, hours.high))
    texts = printed_factors.fit(*ranges)
    out = {"price": texts[0], "factor": texts[1]}
    if hours is not None:
        out["hours"] = texts[2]
    return out


def job_sentence(costs: Any) -> dict[str, Any] | None:
    """A ``then`` sentence of the binding constraint (``{"tr": key, …}``) that works out a batch job's priced cost
    (q29: "15,793 GPU-hours … about 100,802–269,070 CNY" read as 1.3–1.5 × the listed price with no reason)."""
    c = costs
    od, price, ov, gpus, hours = (c.cloud_on_demand_monthly, c.cloud_per_gpu_hour, c.cloud_overhead,
                                  c.cloud_billed_gpus, c.billed_hours)
    if od is None or price is None or ov is None or not gpus or hours is None:
        return None
    out: dict[str, Any] = {
        "tr": "uplift22c.job_worked" if _supported(c) else "prices25.job_worked", "gpus": _count(gpus),
        "currency": c.currency, **_price_factor(price, ov, hours),
        "share": f"{ov.low * 100:.0f}–{ov.high * 100:.0f}", "cost": _r(od.low, od.high), "spot": ""}
    if c.cloud_spot_monthly is not None and c.cloud_spot_factor is not None:
        out["tr"] = "uplift22c.job_worked_spot" if _supported(c) else "prices25.job_worked_spot"
        out["spot_factor"] = _r(c.cloud_spot_factor.low, c.cloud_spot_factor.high)
        out["spot"] = _r(c.cloud_spot_monthly.low, c.cloud_spot_monthly.high)
    return out


def formula_row(costs: Any, lang: str, *, reserved: bool = True, hybrid: bool = False) -> tuple[str, str] | None:
    """(label, value) of the on-demand cloud cost as a product of its factors; None where a factor is unknown.
    ``reserved``: with the monthly/reserved price worked out too (not for a hybrid, which rents only its peaks).
    ``hybrid``: the row is the comparison with renting a hybrid's whole setup, and its note says so (s23-burst23)."""
    c = costs
    od, price, ov, gpus = c.cloud_on_demand_monthly, c.cloud_per_gpu_hour, c.cloud_overhead, c.cloud_billed_gpus
    if od is None or price is None or ov is None or not gpus:
        return None
    if c.per_job and c.billed_hours is None:
        return None
    params = {
        "gpus": _count(gpus), "hours": _n(HOURS_PER_MONTH),
        **_price_factor(price, ov, c.billed_hours if c.per_job else None),
        "currency": c.currency,
        "share": f"{ov.low * 100:.0f}–{ov.high * 100:.0f}",
        "source": memo_text15.price_source(ov.source, lang), "date": ov.date, "grade": ov.grade,
        "cost": _r(od.low, od.high), "overhead": memo_overhead.parts_text(c, lang),
    }
    hours = params["hours"]
    # s22-uplift22c: the share's components (storage, support, egress where public traffic flows) with their sources
    parts = bool(params["overhead"])
    key = ("uplift22c.formula_job" if parts else "memo.batchcost15.formula_job") if c.per_job else \
        ("uplift22c.formula_month" if parts else "memo.batchcost15.formula_month")
    billed = cloud_price_labels.billed_range_text(c)
    if not c.per_job and "–" in billed:  # an assumed range of burst days: each end billed its own GPUs (q36)
        key = "uplift22c.formula_month_range" if parts else "cost19.formula_month_range"
        params["billed"] = billed
    value = translate(lang, key, **params)
    if not c.per_job:  # which GPUs run every hour: the always-on replica, the N+1 spare, whole servers (s16-capacity)
        value += (burst_bill.billed_note(c, lang) if hybrid else "") or warm_floor.billed_note(c, lang)
    mf = c.cloud_monthly_factor
    if reserved and not c.per_job and c.cloud_reserved_floor is not None:  # the floor reserved, bursts on demand
        value += reserved_floor.formula(c, lang, hours, params["price"], params["factor"])  # (s19-reserve19)
    elif reserved and not c.per_job and c.cloud_monthly is not None and mf is not None:  # the commitment, every GPU
        key = "memo.apiweigh18.formula_reserved_all" if cloud_price_labels.scaled(c) else \
            "pages22.formula_reserved_od" if _on_demand_times(od, mf, c.cloud_monthly) else \
            "memo.batchcost15.formula_reserved"  # s18-apiweigh: every GPU all month, against on demand's average
        if c.cloud_peak_floor is not None:  # every GPU reserved for a peak's stock (review 29): the row's label says
            key = "memo.batchcost15.formula_reserved"  # "all N GPUs every hour of the month" already
        value += translate(lang, key, gpus=_count(float(c.gpus)), hours=hours,
                           price=params["price"], currency=c.currency,
                           discount=printed_factors.fit((mf.low, mf.high))[0],
                           grade=mf.grade, factor=params["factor"],
                           cost=_r(c.cloud_monthly.low, c.cloud_monthly.high))  # fmt: skip
        # the peak-hour replicas reserved too (review 29): the cheaper mixed option page 1 names, with its product
        value += reserved_floor.peak_formula(c, lang, hours, params["price"], params["factor"])
    if c.cloud_spot_monthly is not None and c.cloud_spot_factor is not None:
        value += translate(lang, "memo.batchcost15.formula_spot", factor=_r(c.cloud_spot_factor.low,
                                                                                 c.cloud_spot_factor.high),
                           cost=_r(c.cloud_spot_monthly.low, c.cloud_spot_monthly.high), currency=c.currency)
    return translate(lang, "memo.batchcost15.formula_label"), value


def _on_demand_times(od: Any, discount: Any, reserved: Any) -> bool:
    """The reserved month is the on-demand month times the discount, end for end (the same GPUs, hours, price and
    overhead): the formula says "on demand × discount" instead of every factor again (s22-pages22, issue 25)."""
    return all(abs(o * d - r) <= 0.005 * max(r, 1.0) for o, d, r in
               ((od.low, discount.low, reserved.low), (od.high, discount.high, reserved.high)))


def node_formula(factors: dict[str, float] | None, currency: str, lang: str) -> str:
    """" = 1.55 GPUs billed × 730 h × … × 1.3–1.5" after a two-node plan's node cost (empty where unknown)."""
    if not factors:
        return ""
    f = factors
    # the factors of the one product fitted together (q05: "× 14.6 × 0.61 × 1.05 gives 13,653, not 13,681")
    price, factor, discount = printed_factors.fit((f["price_low"], f["price_high"]),
                                                  (1 + f["overhead_low"], 1 + f["overhead_high"]),
                                                  (f["discount_low"], f["discount_high"]))
    params = {"gpus": _count(f["gpus"]), "hours": _n(f["hours"]), "price": price,
              "currency": currency, "factor": factor, "discount": discount,
              # s22-uplift22c: what the factor is made of on this node (egress only where public traffic flows)
              "what": translate(lang, ("uplift22c.what." if f.get("support", 1.0) else "prices25.what.")
                                + ("egress" if f.get("egress") else "rented"))}
    if "burst_low" in f:  # the always-on floor reserved, the burst GPUs on demand (s19-reserve19)
        return translate(lang, "uplift22c.node_floor", burst=_r(f["burst_low"], f["burst_high"]), **params)
    on_demand = f["discount_low"] == f["discount_high"] == 1.0
    return translate(lang, "uplift22c.node_on_demand" if on_demand else "uplift22c.node_reserved", **params)
