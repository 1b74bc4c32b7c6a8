"""Rent until a quote shows the purchase pays with its cover (issue 25; blind reviews 20, 20b and 21 sent q26 back:
"I would not sign a ¥2.16–2.65M H20 purchase on this basis. Both sides of the comparison are grade-U placeholders …
With only 2 servers, one failure leaves 67 % of the peak for a 24/7 business API. A third server … makes owning lose.
The memo should recommend getting quotes and renting until they prove ownership pays with server-level redundancy").

A measured, busy, long-lived load with a strong ops team buys bare metal (``engine._decide_form``). That purchase is
not shown to pay where both hold:

(a) it rests on stand-in prices (the price gate applies: ``price_gate.compute``, which is None once the prices are
    sourced or quoted), and
(b) it pays only without the server cover the memo itself says the service needs: renting a failed server's cards is
    unsure (``repair_cover.unsure``), so the memo names one more server, and with it the gate is under the purchase
    price assumed a server (or no price pays).

Then the plan rents now, with the N+1 the rented plan has (a spare replica; a cloud replaces a failed instance), asks
for the quotes, and buys when a quote comes in at or under the covered gate; the rented months measure the load the
purchase is sized for. Only a data-centre purchase weighed against renting reaches here (``bare_metal``): where
renting is ruled out (a server room the data must not leave: ``on_premises``, its gate the budget's) nothing changes.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render

FORM = "cloud_then_bare_metal"
FLAG = "rent_until_covered"  # set in the price gate of a plan this rule sent to renting first


def covered_gate_fails(gate: dict[str, Any] | None) -> bool:
    """Owning pays at the assumed purchase price without the cover (the gate is at or above it), but not with one more
    server to cover a failed one (that gate is under it, or no price pays)."""
    if not gate or gate.get("kind") != "rent" or not gate.get("cover"):
        return False
    bare, assumed = gate.get("per_server"), gate.get("assumed_per_server")
    if bare is None or assumed is None or bare < assumed:  # renting wins even without the cover: another finding's
        return False
    covered = gate["cover"].get("per_server")
    return covered is None or covered < assumed


def switches(form: str, gate: dict[str, Any] | None) -> bool:
    """A bought data-centre setup that this rule sends to renting first (see the module's text)."""
    return form == "bare_metal" and covered_gate_fails(gate)


def mark(form: str, gate: dict[str, Any] | None) -> dict[str, Any] | None:
    """The plan's price gate with ``FLAG`` set where the plan rents first for this rule's reason."""
    if gate is not None and form == FORM and covered_gate_fails(gate):
        return {**gate, FLAG: True}
    return gate


def holds(form: str, costs: Any) -> bool:
    """The plan rents first because the purchase pays only without its cover (read by the rules and the memo)."""
    gate = getattr(costs, "price_gate", None) if costs is not None else None
    return form == FORM and isinstance(gate, dict) and bool(gate.get(FLAG))


def headline(result: Any, lang: str) -> str:
    """Page 1's form where this rule holds: rent now (what, and its month), buy when the quotes meet the covered gate
    and why, from ``cost.buy``'s own figures; "" elsewhere."""
    if not holds(result.deployment_form, result.costs):
        return ""
    f = next((x for x in result.findings if x.id == "cost.buy" and x.title_key == TITLE), None)
    if f is None:
        return ""
    p = f.params
    weights = result.hardware.weights
    covered = p.get("covered") or {}
    key = "cover32.form.rent_until_covered" if "per_server" in covered else "cover32.form.rent_until_covered_none"
    return render(lang, key, {
        "gpus": p.get("gpus"), "gpu": p.get("gpu"), "cloud": p.get("cloud"), "more": p.get("more"),
        "weights": render(lang, "ownrent27b.form.weights", {"weights": weights}) if weights else "",
        "per_server": covered.get("per_server", "")})


TITLE = "cover32.rule.cost.buy.rent_until_covered.title"  # ``cost.buy``'s title where this rule holds

__all__ = ["FLAG", "FORM", "TITLE", "covered_gate_fails", "headline", "holds", "mark", "switches"]
