"""A monthly budget's purchase ceiling far above the estimate is said as room, never as a price to order at (issue 25,
blind review 31, q03).

Where renting is no fallback, the quotes for a server-room purchase on stand-in prices are weighed against the monthly
budget (``price_gate.within_budget``): the most a server may cost for the purchase spread over the horizon plus the
running costs to fit it. Review 31 read q03's "order only if the quotes come in at or under about ¥1,050,000 a
server" — 2.3–3 times the memo's own ¥340,000–¥460,000 — as the price procurement would accept: "drop it or replace
it with a sanity band"; "anchor purchasing on the estimate and keep the budget ceiling internal".

A ceiling near the estimate still decides (a quote above it does not fit the budget), so it stays the order rule. One
at least ``ROOM`` times the estimate's high end a server decides nothing a quote could plausibly reach: the estimate
is the planning price, the quotes are judged against it, and the budget is said to leave room above it, kept from the
vendors. A break-even against renting (``price_gate.compute``, kind "rent") is not this: it stays the buy rule.
"""

from __future__ import annotations

from typing import Any

# the budget's ceiling a server at or above this multiple of the estimate's high end is room, not a gate: the
# estimate's stand-in server share may be low by a larger server's share (``buy_quote38.bias``), tens of per cent,
# not half again its high end
ROOM = 1.5

INSIDE_DETAIL = "plan.rule.cost.placeholder_purchase.inside.detail"


def roomy(gate: dict[str, Any] | None) -> bool:
    """True where the gate is the monthly budget's and its ceiling a server is at least ``ROOM`` times the estimate's
    high end a server (``estimate_high_per_server``, set by ``price_gate.within_budget``)."""
    if not gate or gate.get("kind") != "budget" or gate.get("per_server") is None:
        return False
    high = gate.get("estimate_high_per_server")
    if not high:
        return False
    return float(gate["per_server"]) >= ROOM * float(high)


def mark(findings: list[Any], gate: dict[str, Any] | None) -> list[Any]:
    """The placeholder-purchase finding's detail, where the budget leaves room, without "next step 1 gives the most a
    server may cost" (the step no longer gives it)."""
    if not roomy(gate):
        return findings
    return [x.model_copy(update={"detail_key": "plan41.rule.cost.placeholder_purchase.room.detail"})
            if x.id == "cost.placeholder_purchase" and x.detail_key == INSIDE_DETAIL else x for x in findings]


__all__ = ["ROOM", "mark", "roomy"]
