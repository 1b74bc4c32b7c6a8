"""A bursty cloud plan's always-on and event replicas, what reserving the event ones costs, and a line sized for an
event-day peak (s35-burstbill, issue 25; blind review 26, q23 and q36).

- q23 (en): "The headline Hardware row '6 cloud VMs' reads as six always on, while the cost assumes 2.8 GPUs on
  average; say '2 always-on + 4 for events'." ``event_split`` gives the two counts from the plan's own cost record
  (``Costs.cloud_warm``: the replicas kept on around the clock), so the row says what the cost bills.
- q23 (zh): "the monthly figure assumes the 4 burst replicas are billed 20% of the time, but the AWS capacity
  reservations the memo recommends bill from creation and have minimum terms. Add that cost". ``reserve_params``
  prices the event GPUs held reserved: every hour the reservation is held at the on-demand rate (the AWS pricing page
  in ``burst23.json``), a day and a whole month, and the month's total against the budget. The minimum term has no
  sourced figure here: it is asked. The mainland's elasticity assurance bills its own fee (no sourced figure): the
  finding keeps asking for it, with no figure.
- q36: "The 23 Mbps fixed line (¥1,555–¥1,840 every month) is sized for a peak on 2–6 days a month ... Put the per-GB /
  temporary-upgrade question on page 1". ``line_clause`` says it beside the line's price on page 1, from the line
  finding's own event-day variant (no sourced per-GB mainland price: asked, not priced).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render

K = "burstbill37"
LINE_RULE = "cost.line_bandwidth"


def event_split(result: Any) -> tuple[int, int] | None:
    """(replicas always on, replicas started for the bursts) of a bursty plan on rented cloud GPUs scaled to the load;
    None where every replica runs all month (a steady load, a part billed all month, no warm floor below the peak) or
    the plan is split over two nodes (each node's row says its own)."""
    c, hw = result.costs, result.hardware
    warm = c.cloud_warm if c is not None else None
    load = getattr(result.answers, "load_pattern", None) if not isinstance(result.answers, dict) \
        else result.answers.get("load_pattern")
    if result.deployment_form != "cloud" or not warm or warm.get("on_request") or result.nodes or load != "bursty":
        return None
    kept = int(warm.get("replicas") or 0)
    if kept <= 0 or hw.replicas <= kept or c.cloud_billed_gpus is None or c.cloud_billed_gpus >= c.gpus:
        return None
    return kept, hw.replicas - kept


def hardware_value(result: Any, lang: str) -> str | None:
    """Page 1's "6 × L40S: 6 replicas of 1 GPU (2 always on + 4 for events), weights in fp8"; None without a split."""
    got = event_split(result)
    if got is None:
        return None
    hw = result.hardware
    return render(lang, f"{K}_key.hardware_value", {
        "total": hw.total_gpus, "gpu": hw.gpu_name or hw.gpu, "per": hw.gpus_per_replica, "replicas": hw.replicas,
        "weights": hw.weights or "—", "warm": got[0], "events": got[1]})


def _base(costs: Any) -> tuple[MoneyRange, tuple[float, float]] | None:
    """(the cloud month page 1 gives, the burst GPUs it bills on average (low, high)): the always-on floor reserved
    and the bursts on demand, or everything on demand; None where the recommended figure is neither."""
    rec, floor = costs.recommended_monthly, costs.cloud_reserved_floor
    if rec is None or costs.cloud_warm is None:
        return None
    if floor is not None and costs.cloud_monthly == rec:
        return rec, (float(floor["burst_low"]), float(floor["burst_high"]))
    if costs.cloud_on_demand_monthly == rec and costs.cloud_billed_gpus is not None:
        warm = float(costs.cloud_warm["gpus"])
        billed = costs.cloud_billed_gpus_range
        lo, hi = (billed.low, billed.high) if billed is not None else (costs.cloud_billed_gpus, costs.cloud_billed_gpus)
        return rec, (lo - warm, hi - warm)
    return None


def reserve_params(costs: Any, gpus: int) -> dict[str, Any] | None:
    """The event GPUs held in a capacity reservation, billed every hour at the on-demand rate with the cloud's
    overhead share: a day's cost, the month's total if held all month (the plan's month with the on-demand burst
    hours swapped for every hour), the on-demand month beside it and the budget's verdict; None without a priced
    hourly rate or a month to start from."""
    base = _base(costs)
    rate, ov = costs.cloud_per_gpu_hour, costs.cloud_overhead
    if base is None or rate is None or ov is None or gpus <= 0:
        return None
    month, burst = base
    hour = (rate.low * (1 + ov.low), rate.high * (1 + ov.high))  # one GPU-hour, as the cost table's formula bills it
    line = (0.0, 0.0)
    if costs.monthly_with_line is not None:  # the budget was judged with the line: so is this month
        line = (costs.monthly_with_line.low - month.low, costs.monthly_with_line.high - month.high)
    held = MoneyRange(low=round(month.low + (gpus - burst[0]) * HOURS_PER_MONTH * hour[0] + line[0], 2),
                      high=round(month.high + (gpus - burst[1]) * HOURS_PER_MONTH * hour[1] + line[1], 2))
    day = MoneyRange(low=round(gpus * 24 * hour[0], 2), high=round(gpus * 24 * hour[1], 2))
    cur, budget = costs.currency, costs.budget_monthly
    verdict = "none" if budget is None else "within" if held.high <= budget else \
        "straddles" if held.low <= budget else "over"
    return {"rs_day": money_range(day, cur), "rs_month": money_range(held, cur),
            "rs_on_demand": money_range(MoneyRange(low=month.low + line[0], high=month.high + line[1]), cur),
            "rs_verdict": {"tr": f"{K}_reserve.verdict.{verdict}",
                           "budget": money_range(MoneyRange(low=budget, high=budget), cur) if budget else ""},
            "rs_line": {"tr": f"{K}_reserve.with_line"} if costs.monthly_with_line is not None else "",
            # every GPU committed by the month at the discount: the other "whole month" figure, named apart from
            # the reservation's (blind review 36, q23: "7,828–11,263" beside "held all month: 11,165–13,766")
            **({"rs_every": money_range(costs.cloud_reserved_all_monthly, cur), "rs_all": costs.gpus}
               if costs.cloud_reserved_all_monthly is not None and costs.gpus else {})}


def line_clause(result: Any, lang: str) -> str:
    """Page 1's words after the priced line: a fixed line paid every day for a peak on a few event days, with
    pay-by-traffic or a raise for those days to ask for ("" where the line finding has no event-day variant)."""
    for f in result.findings:
        if f.id == LINE_RULE and "burst" in f.detail_key.rsplit(".", 2)[-2] and f.params.get("share"):
            return render(lang, f"{K}_line.page1", {"days": f.params["share"]})
    return ""


__all__ = ["event_split", "hardware_value", "line_clause", "reserve_params"]
