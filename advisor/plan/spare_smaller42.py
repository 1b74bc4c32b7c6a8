"""A spare card beside the smaller box the memo buys when the quote is over the one-off budget (issue #25, blind
review 32, q17: "a spare card 'would take the purchase past the one-off budget … even at the low end', which holds
only for the 4-card box").

Where the server's purchase straddles the one-off budget, page 1 names the smaller box on the same GPU that fits the
budget at its high end (``capex_condition.smaller``: the most replicas whose prorated purchase fits). The redundancy
finding's spare card, over the budget beside the larger server, is said beside that smaller box too where one card
and the smaller box fit the budget at their high ends together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def clause(s: Any, ch: Any, span: Callable[[float, float], str]) -> dict[str, Any] | str:
    """``box42.sp.card_small`` with the smaller box and its total with one spare card, or "" where the purchase does
    not straddle the one-off budget, no smaller box fits or a card does not fit beside it (``s``:
    ``second_unit.SecondUnit``, ``ch``: the chosen setup; ``span(lo, hi)`` formats a range)."""
    budget, lay = s.capex_budget, getattr(ch, "layout", None)
    if s.capex is None or s.card is None or budget is None or lay is None or s.basis != "capex":
        return ""
    if not s.capex[0] <= budget < s.capex[1]:  # the straddle page 1's "above it, buy the smaller box" answers
        return ""
    replicas = int(ch.replicas or 0)
    if replicas < 2:
        return ""
    per = (s.capex[0] / replicas, s.capex[1] / replicas)  # prorated by replica, as ``capex_condition.smaller``
    n = min(replicas - 1, int(budget // per[1]))
    if n < 1 or n * per[1] + s.card[1] > budget:
        return ""
    return {"tr": "box42.sp.card_small", "gpus": n * int(ch.tp), "gpu": ch.gpu.name,
            "total": span(n * per[0] + s.card[0], n * per[1] + s.card[1])}


__all__ = ["clause"]
