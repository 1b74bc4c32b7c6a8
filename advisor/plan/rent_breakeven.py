"""The utilisation at which owning pays, said in the rent finding next to the plan's own (issue 25, blind review 12b,
q24: "the reason the brief wants never appears in the body: 40 % utilisation sits below the ~53–80 % break-even,
which is only in source [3]").

The rent finding pays a purchase back against the rent the memo prints, which a setup that stays up pays busy or not
(s22-rentbasis22b): against that rent the utilisation only moves the power. Why renting suits a load that is busy 40 %
of the hours is the other comparison an engineer makes first: an owned GPU is paid for every hour, a rented one can be
paid for the hours it works, so owning wins only above some share of the hours (source [3]'s u* = owned cost per
GPU-hour ÷ cloud price). Here that share is worked out over the plan's horizon from the memo's own figures, the sum
``payback.utilisation_over_horizon`` makes: the purchase and the running costs of the same GPUs (bought, colocated;
the cost table's bare-metal row) against renting every GPU on demand for that share of the hours. Said only where it
is the reason: the plan's utilisation below the best case's break-even (or no break-even at all).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import LANGUAGES
from advisor.plan import payback
from advisor.plan.cost import average_draw
from advisor.plan.memo_per_million import usage_text
from advisor.plan.result import BreakEven


def _full_on_demand(costs: Any) -> tuple[float, float] | None:
    """(low, high) a month for every GPU the plan runs billed on demand around the clock, in the answers' currency:
    the cost table's on-demand month ÷ the GPUs it bills × the plan's GPUs (the uplift on the rate as that row has it)."""
    od = costs.cloud_on_demand_monthly
    if od is None or costs.per_job or not costs.gpus:
        return None
    billed = costs.cloud_billed_gpus_range
    b_lo, b_hi = (billed.low, billed.high) if billed is not None else (costs.cloud_billed_gpus,) * 2
    if not b_lo or not b_hi:
        return None
    return od.low / b_lo * costs.gpus, od.high / b_hi * costs.gpus


def utilisation(costs: Any) -> BreakEven | None:
    """The break-even utilisation over the horizon of owning the plan's GPUs (bought, colocated) against renting them
    on demand for the hours they are busy (best case for owning … worst case); None where either side is not costed
    or the plan runs on two nodes (whose rates differ)."""
    full = _full_on_demand(costs)
    capex, power = costs.bare_metal_capex, costs.bare_metal_power_monthly
    colo, staff = costs.bare_metal_colo_monthly, costs.bare_metal_staff_monthly
    if full is None or None in (capex, power, colo, staff) or (costs.per_million_basis or {}).get("nodes", 1) > 1:
        return None
    # the power at the utilisation split into its idle part (paid whatever the load) and the part that grows with use
    # the power's high end: requests arriving at random (s26-usage26), else the volume's high end (issue 25)
    high = costs.power_busy_high or costs.usage_high or costs.utilisation
    at_full = (power.low / average_draw(costs.utilisation), power.high / average_draw(high))
    idle, span = average_draw(0.0), average_draw(1.0) - average_draw(0.0)
    fixed = (colo.low + staff.low + at_full[0] * idle, colo.high + staff.high + at_full[1] * idle)
    per_util = (at_full[0] * span, at_full[1] * span)
    return payback.utilisation_over_horizon((capex.low, capex.high), fixed, per_util, full, costs.horizon_months)


def lead(costs: Any, upper: dict[str, Any] | None = None) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase that opens the rent finding: "The plan's 40 % utilisation is below the about 43 % at
    which owning … pays back within 24 months …", where the utilisation is below the best case's break-even (or there
    is none); "" where it is not the reason. ``upper`` (``volume_peak.busy_upper``, where the month's tokens are far
    under what the peak implies): the reason stands on the use the busy hours at the peak's busiest hour give, the
    reading that does not contradict the peak (blind review 17, q24); the month's tokens' share stays in the
    GPU-use row."""
    be = utilisation(costs)
    if be is None:
        return ""
    # the month's tokens may keep a setup under half a percent busy (issue 25): said as 1 %, never "0 %"
    util = max(1, round(costs.utilisation * 100)) if costs.utilisation > 0 else 0
    # the estimate's high end too, as the cost table's GPU-use row says it ("1–5 %"), not its low end alone
    top = max(util, round(min(costs.usage_high, 1.0) * 100)) if costs.usage_from_tokens and costs.usage_high else util
    # the share said as what it is; like for like (blind review 18, q30: "1–16 % busy … below the ~58 %"): the
    # break-even is a share of the hours the GPUs are rented, so the tokens' share of the capacity is said as what it
    # equals in hours, those the GPUs would work run in full batches (the break-even's reading of renting only them)
    pre = "util32.rent.tokens." if costs.usage_from_tokens else "util23.rent.lead."
    common: dict[str, Any] = {"util": util if top == util else f"{util}–{top}", "months": costs.horizon_months}
    if costs.usage_from_tokens:
        # one utilisation story (s31-util32, blind review 20b, q24: "~34 % of hours in full batches" beside the cost
        # table's "2–9 % of capacity used" read as two figures): the GPU-use row's own words and figure, named as the
        # hours the GPUs work in full batches, so the reader sees they are one measure
        common["busy"] = {"by_lang": {lang: usage_text(costs, lang) for lang in LANGUAGES}}
    if upper is not None and costs.usage_from_tokens:
        pct = max(1, round(float(upper["share"]) * 100))
        top = max(top, pct)
        # like for like too (s29-lead29, issue 25: "~20 % busy at its busiest hour … below the ~41 %" set a load
        # against an hours break-even): the busy hours' tokens at that load are the same share of the capacity, read
        # on the busiest hour kept up all the busy hours: said as the upper end of the one measure
        pre = "util32.rent.upper."
        common.update(upper=pct, span={"tr": upper["span"], "hours": upper["hours_a_day"]})
    if be.low is None:
        return {"tr": pre + "never", **common}
    low = payback.percent_up(be.low)
    if top >= low:  # "below" only where every end of the usage is below the break-even
        return ""
    if be.high is None:
        return {"tr": pre + "best_only", "low": low, **common}
    return {"tr": pre + "range", "low": low, "high": payback.percent_up(be.high), **common}


__all__ = ["lead", "utilisation"]
