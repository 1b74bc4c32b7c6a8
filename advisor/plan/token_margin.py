"""A paid token API's margin said with figures that agree (issue 25, s19-cost19).

Eighth blind review, q11: the finding said "about 15 ×" the market price beside ranges implying 5–80 ×. Each ratio
here is taken end for end (own cost's low end ÷ the hosted price's low end … high ÷ high: s24-api24, round 13, where
the opposite ends' "1–14 ×" read as another rule than the month's), for input and output apart, with the middles'
ratio beside them. And the price the own cost rests on is named
as the first hardware question where it is not a quote: a part rented in instance sizes a cloud lists on request
(the H20's 1-card instances), or a placeholder row, sets the margin until its quote comes.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.instance_on_request import listed_on_request
from advisor.plan.result import MoneyRange


def _times(v: float) -> str:
    return f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def ratio_range(own: tuple[float, float], market: MoneyRange) -> str:
    """"1.6–2.8": own cost ÷ the market price, each end against the same end (low against low, high against high),
    smaller first. s24-api24 (round 13, q11): the opposite ends ("1–14 ×") beside a month compared end for end read
    as two rules in one memo; the same ends bracket the middles' ratio (a ratio of sums lies between the ratios)."""
    ends = sorted((own[0] / max(market.low, 1e-9), own[1] / max(market.high, 1e-9)))
    a, b = _times(ends[0]), _times(ends[1])
    return a if a == b else f"{a}–{b}"


def _side(own: tuple[float, float], market: MoneyRange) -> str | None:
    """"more": own cost above the market price at every end of the two ranges; "may": the ratio range straddles 1×
    (cheaper at some prices, dearer at others); None: at or below it at every end."""
    lo, hi = own[0] / max(market.high, 1e-9), own[1] / max(market.low, 1e-9)
    return "more" if lo > 1 else "may" if hi > 1 else None


def margin_lead(own_in: tuple[float, float], api_in: MoneyRange, own_out: tuple[float, float],
                api_out: MoneyRange) -> dict[str, Any]:
    """The finding's opening words naming only what is true (s20-hosted20b, q18: "each token costs more" said of
    input at 0.1–0.4 × and output at 0.5–2.2 ×): input, output or both, and "can cost more" where a side's ratio
    range straddles 1× (never "costs more" there)."""
    sides = {"input": _side(own_in, api_in), "output": _side(own_out, api_out)}
    named = [k for k, v in sides.items() if v]
    which = "both" if len(named) == 2 else named[0] if named else "both"
    sure = all(sides[k] == "more" for k in named) and bool(named)
    if len(named) == 1:  # the other side costs less at every end: said too (round 10, q18: input at 0.1–0.4 × read
        # as "costs more" under a title naming output alone)
        return {"tr": f"costbasis21.margin.lead.{which}.{'more' if sure else 'may'}"}
    return {"tr": f"margin20b.lead.{which}.{'more' if sure else 'may'}"}


def nothing_bought(owned: Any) -> bool:
    """The form runs on the team's own fleet alone: nothing bought, nothing rented for a peak."""
    return owned is not None and bool(owned.fleet_gpus) and not owned.gpus_bought and not owned.gpus_burst


def hardware_question(chosen: Any, prices: list[Any], owned: Any = None) -> dict[str, Any] | str:
    """The sentence naming the price the own cost rests on, where it is not a quote; "" where it is one, or where
    ``owned`` (the chosen owning form's figures) runs on the team's own GPUs alone: its cost is their power and an
    engineer's share, no GPU price (round 10, q18: "rests on a placeholder H100 price" said of an owned fleet)."""
    if nothing_bought(owned):
        return ""
    rows = [r for r in prices if r.kind == "on_demand" and r.gpu == chosen.gpu.id]
    if not rows or any(r.user_quote for r in rows) or all(r.grade in ("A", "B") for r in rows):
        return ""
    lay = getattr(chosen, "layout", None)
    name = chosen.gpu.name
    if lay is not None and not lay.whole_server and listed_on_request(chosen.gpu.id):
        return {"tr": "margin19.question.instances", "gpu": name, "unit": lay.unit_gpus, "units": lay.units}
    return {"tr": "margin19.question.placeholder", "gpu": name}


__all__ = ["hardware_question", "margin_lead", "nothing_bought", "ratio_range"]
