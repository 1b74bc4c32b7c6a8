"""The share of the setup's token capacity the memo's own month of tokens fills, and the power at it (issue 25, blind
reviews 11, 12b and 15).

Since issue 25 (``usage_share``) that share is the one usage every cost figure of a new plan is at: the power (idle
draw + that share busy, a range to the estimate's high end), the per-million figures, the paid-API margin. Before, the
cost table stated the load pattern's share (40 % for a day/night load) and the power, the payback and the per-million
figures were at it, with the tokens' share said beside it ("the power lies between that and the figure at 40 %",
``power_range_clause``), which the reviewers read as two figures that disagree. The clauses here still serve results
saved by those versions (``Costs.usage_busy`` from s22, an assumed ``utilisation`` from s23-s24); in a new plan
``contradicting_share`` finds nothing to contradict.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render

# the same test the utilisation row applies (memo_per_million.utilisation_value): a volume under half the assumed
# share is worth saying beside it; closer, the two are one estimate said twice
CONTRADICTS_BELOW = 0.5


def contradicting_share(costs: Any) -> float | None:
    """The share of the setup's capacity the tokens row fills, where the cost table's utilisation is an assumption
    (not this service's measured duty) and that volume fills under half as much; else None (no volume, a batch
    job, a measured duty, or a volume about as large as assumed)."""
    if costs is None or costs.utilisation_measured or costs.usage_from_tokens or costs.per_job or costs.utilisation <= 0:
        return None
    own = (costs.per_million_basis or {}).get("own_volume")
    if not own:
        return None
    busy = float(own["busy"])
    return busy if busy < costs.utilisation * CONTRADICTS_BELOW else None


def draw_at(idle: MoneyRange, share: float) -> tuple[float, float]:
    """(low, high) average draw around the clock, as a share of full load, busy ``share`` of the hours and idle the
    rest at ``idle``'s ends (``office_power.average_draw``'s arithmetic on a saved result)."""
    return idle.low + (1 - idle.low) * share, idle.high + (1 - idle.high) * share


def power_at(power: MoneyRange, idle: MoneyRange, assumed: float, share: float) -> MoneyRange:
    """The month's power at ``share`` busy, from ``power`` at ``assumed``: each end scaled by its own draw ratio
    (energy = full-load kW × PUE × draw × hours, every factor but the draw the same)."""
    a_lo, a_hi = draw_at(idle, assumed)
    s_lo, s_hi = draw_at(idle, share)
    return MoneyRange(low=power.low * s_lo / a_lo, high=power.high * s_hi / a_hi)


def power_basis(costs: Any) -> dict[str, Any]:
    """The share the power of an owned setup's finding was computed at, as a phrase: the utilisation, or in a result
    saved by s22 the tokens row's share (``Costs.usage_busy``), said as that."""
    busy = costs.usage_busy if costs is not None else None
    if busy is None and costs is not None and costs.usage_from_tokens:  # issue 25: at the month's tokens' share
        return {"tr": "usage25.power.at"}
    if busy is None:
        return {"tr": "owncost22.basis.assumed"}
    return {"tr": "owncost22.basis.volume", "busy": share_phrase(busy)}


def power_clause(costs: Any, power: MoneyRange | None, idle: MoneyRange | None, lang: str) -> str:
    """After an owned setup's power row of a result saved by s22, whose power is at the tokens row's share: the power
    at the utilisation, "if it were N % busy"; "" in a new plan, whose power is at the utilisation already."""
    if costs is None or costs.usage_busy is None or power is None or idle is None:
        return ""
    lo, hi = draw_at(idle, costs.utilisation)
    draw = f"{lo * 100:.0f}" if round(lo * 100) == round(hi * 100) else f"{lo * 100:.0f}–{hi * 100:.0f}"
    return translate(lang, "owncost22.power.assumed", util=f"{costs.utilisation * 100:.0f}", draw=draw,
                     cost=money_range(power_at(power, idle, costs.usage_busy, costs.utilisation), costs.currency))


def power_range_clause(costs: Any, power: MoneyRange | None, idle: MoneyRange | None, lang: str) -> str:
    """After an owned setup's power row, where the utilisation is assumed and the tokens row fills under half of it:
    the power at the share of the capacity the month's tokens fill, so the row states the range from that share to
    the assumed one (round 13, q01/q02: "power assumes the box is busy 40 % of the time around the clock, yet the
    memo says the token volume fills about 1 % of capacity, so ¥96–326/month is overstated"); "" elsewhere. The
    figures at the assumed share stay the plan's (s23-util23): the share of the capacity is how full the batches
    are, not the hours a box draws power, so the true draw lies between the two."""
    busy = contradicting_share(costs)
    if busy is None or costs.usage_busy is not None or power is None or idle is None:
        return ""
    return render(lang, "ownrent24.power.volume", {
        "share": share_phrase(busy), "util": f"{costs.utilisation * 100:.0f}",
        "cost": money_range(power_at(power, idle, costs.utilisation, busy), costs.currency)})


def share_phrase(busy: float) -> dict[str, Any]:
    """The volume's share of the capacity as a ``{"tr": …}`` phrase ("under 1 %", "about 2 %")."""
    return {"tr": "costbasis21.busy.under_one"} if busy < 0.005 else \
        {"tr": "costbasis21.busy.pct", "pct": f"{busy * 100:.0f}"}


__all__ = ["CONTRADICTS_BELOW", "contradicting_share", "draw_at", "power_at", "power_basis",
           "power_clause", "power_range_clause", "share_phrase"]
