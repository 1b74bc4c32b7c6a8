"""Page 1's recommendation for a purchase that pays against renting only on quotes: the break-even a server as the
one buy rule, its first sentence, the estimate after it (issue 25, blind reviews 31 and 34, q26 and q31).

Where owning is weighed against renting the same load on stand-in prices, the plan's price gate (``price_gate.compute``,
kind "rent") is the all-in price a server at which owning costs what renting does. Review 31 liked it as the device
(q26: "the gate 'at or under about ¥1,580,000 a server' is the right device, so make it the one-line headline") and
asked for it plainly where the headline led with owning (q31: "say plainly that this is buy-if-quotes-come-in-under-
¥646,000-a-server, not buy"). Review 34 found "Get quotes, then decide." before it hid the decision (q26: "lead with
'Buy if the quote is ≤ ¥1,580,000 a server … otherwise rent' — a single buy/rent threshold per server, stated first";
q31: "the decision block should be the buy threshold, the expected price and the cutover date").

Here such a recommendation opens with the one rule "Buy N servers if the quotes come in at or under about X a server
(…); otherwise rent.", then the load it rests on, the form with the estimate a server, and the purchase's earliest
date. A ceiling taken from a monthly budget where renting is no fallback is not this (``budget_room41``): it buys,
on the estimate.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import batch_job37, buy_quote38, headline25, quote_lead39
from advisor.plan.memo_launch_line import PURCHASE
from advisor.plan.placeholder_purchase import _gate_money
from advisor.plan.result import render


def _gate(result: Any) -> dict[str, Any] | None:
    """The rent break-even gate a server where page 1 says it for a purchase on stand-in prices, else None."""
    c = result.costs
    if result.deployment_form not in buy_quote38.FORMS or c is None:
        return None
    if not any(x.id == "cost.placeholder_purchase" for x in result.findings):
        return None
    gate = getattr(c, "price_gate", None) or {}
    if gate.get("kind") != "rent" or gate.get("per_server") is None or not quote_lead39.expected(result, gate):
        return None
    return gate


def own_line(result: Any, lang: str, form: str) -> str:
    """The whole recommendation (see the module's text) where ``_gate`` applies, else "". ``form``: the form's words."""
    gate = _gate(result)
    if gate is None:
        return ""
    hw = result.hardware
    f = next(x for x in result.findings if x.id == "cost.placeholder_purchase")
    servers = int(gate.get("servers") or 0)
    # the measured load owning is cheaper at, where the plan says it (review 19, q31: "owning wins while …")
    edge = headline25.own_edge_finding(result)
    util = edge.params.get("util") if edge is not None else None
    basis = {"tr": "ld43.lead.basis", "util": util} if util else ""
    # blind review 34 (q31: "the decision block should be the buy threshold, the expected price and the cutover
    # date"): the threshold line first, no "Get quotes, then decide." before it, the purchase's earliest date last
    return render(lang, "ld43.lead.rent", {
        "form": form, "servers": servers, "per_server": _gate_money(gate["per_server"], gate["currency"]),
        "unit_gpus": gate["unit_gpus"], "gpu": hw.gpu_name or hw.gpu or "",
        "expected": quote_lead39.expected(result, gate), "capex": f.params["capex"],
        "bias": buy_quote38.bias(result), "basis": basis, "pilot": quote_lead39.pilot(result, lang, servers),
        # a failed server's cover where renting its cards is unsure: a third server or accepted degraded service, and
        # whether that third server tips owning over renting (blind review 20, q26; review 31: "the choice between a
        # third server and keeping today's capacity should be made, not deferred"); this line replaced the one that
        # said it (``headline25.like_own_clause``), so it says it after the buy rule
        "cover": headline25.unsure_cover(result, lang), "cutover": _ordered(result)})


def _ordered(result: Any) -> dict[str, Any] | str:
    """"; once ordered, the earliest cutover is in 31–95 days" where the purchase sets the date, else ""."""
    tl = result.timeline
    g = getattr(tl, "gate", None)
    if g is None or g.id not in PURCHASE or tl.launch_days_low is None:
        return ""
    low, high = tl.launch_days_low, tl.launch_days_high
    days = f"{low}" if low == high else f"{low}–{high}"
    return {"tr": "ld43.lead.cutover" if batch_job37.moves_running(result) else "ld43.lead.launch", "days": days}


__all__ = ["own_line"]
