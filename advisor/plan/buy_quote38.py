"""Page 1's recommendation for a purchase priced on stand-in prices leads with the quote that decides it (blind review
27, issue #25).

q03 and q31 bought L20 servers on a grade-U card price (a 2024-03 call transcript) plus a placeholder share of an
8-card server, while the servers bought hold 4 cards: each card of those carries more of its server, so the purchase
is an estimate and, where the server share is under-counted, a low one. The plan already computes the most a server
may cost for the plan to hold (``price_gate``: against the rent, or against the monthly budget where renting is no
fallback); the quotes step said it, the recommendation said a plain "Own bare-metal servers". Here the recommendation
says the ceiling a server, that the purchase is an estimate pending quotes, and which way it is biased where that is
known (the row's server share is a larger server's than those bought: ``server_size_price``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import budget_room41, price_basis43, quiet_peak41, quote_lead39
from advisor.plan.placeholder_purchase import _gate_money
from advisor.plan.result import render

FORMS = ("on_premises", "bare_metal")


def size_mismatch(result: Any) -> dict[str, int] | None:
    """``{"row_gpus", "unit_gpus"}`` where the purchase row's server share is a larger server's than those bought
    (set for every purchase the plan prices, the server room's included: the cost table says it beside it)."""
    return getattr(result.costs, "bare_metal_server_size", None)


def bias(result: Any) -> dict[str, Any] | str:
    """The clause saying what the estimate is built on (the card price's date, grade and source; a larger server's
    share) and that a quote may come in higher or lower (blind review 34, ``price_basis43``), or ""."""
    got = size_mismatch(result)
    if not got:
        return ""
    return price_basis43.clause(result, "pb43.basis.bias", got["row_gpus"], got["unit_gpus"])


def clause(result: Any, lang: str) -> str:
    """"; buy only if the quotes come in at or under about ¥646,000 a server (…); the purchase, ¥…, is an estimate
    pending quotes, likely low (…)" where a purchase on stand-in prices has a price ceiling a server, else ""."""
    c = result.costs
    if result.deployment_form not in FORMS or c is None:
        return ""
    f = next((x for x in result.findings if x.id == "cost.placeholder_purchase"), None)
    gate = getattr(c, "price_gate", None) or {}
    if f is None or gate.get("per_server") is None:
        return ""
    hw = result.hardware
    params: dict[str, Any] = {"per_server": _gate_money(gate["per_server"], gate["currency"]),
                              "unit_gpus": gate["unit_gpus"], "gpu": hw.gpu_name or hw.gpu or "",
                              "capex": f.params["capex"], "bias": bias(result)}
    # review 28 (q03): the expected price a server first, the ceiling as the guard; a pilot where the first token is
    # close (``quote_lead39``)
    exp = quote_lead39.expected(result, gate)
    pre = "quote39_lead" if exp else "buyprice38_lead"
    if exp:
        params.update(expected=exp, pilot=quote_lead39.pilot(result, lang, int(gate.get("servers") or 0)))
    if exp and budget_room41.roomy(gate):  # review 31 (q03): the estimate is the planning price, the budget room
        return render(lang, "plan41_lead.budget_room", {**params, "budget": _gate_money(gate["budget"], gate["currency"])})
    if gate.get("kind") == "budget":
        return render(lang, f"{pre}.budget", {**params, "budget": _gate_money(gate["budget"], gate["currency"]),
                                              "months": gate["horizon"]})
    return render(lang, f"{pre}.rent", params)




def feasible_split(result: Any, lang: str, schedule: str | None) -> str | None:
    """Page 1's "Feasible as asked" where the purchase straddles the one-off budget and the smaller setup within it
    carries less than the peak, said in three labelled parts (blind review 27, q17: "one unreadable run-on
    sentence; split it into budget, capacity and schedule"): the budget's condition, the smaller setup as a
    degraded option the owner signs off, and the schedule (``schedule``: the steps the launch waits on, or None for
    a plain yes). None elsewhere: the row stays as it was."""
    from advisor.i18n import translate
    from advisor.plan import capex_condition
    from advisor.plan.money_text import round_money

    if not capex_condition.straddles(result):
        return None
    s = capex_condition.smaller(result)
    if s is None or s["holds"] >= s["peak"]:
        return None
    o, hw, cur = result.costs.owned, result.hardware, result.costs.currency
    budget = translate(lang, "budget28.capex_if_quote", budget=round_money(o.capex_budget), currency=cur,
                       low=round_money(o.capex.low), high=round_money(o.capex.high))
    busy = quiet_peak41.busy(result)  # review 31 (q17): nearly idle, the smaller setup serves the load
    capacity = translate(lang, "buyprice38_feasible.capacity" if busy is None else "plan41_feasible.capacity_quiet",
                         busy=busy or "", chosen=hw.total_gpus, gpus=s["gpus"], gpu=hw.gpu_name or hw.gpu or "",
                         low=round_money(s["low"]), high=round_money(s["high"]), currency=cur, holds=s["holds"],
                         peak=s["peak"])
    return translate(lang, "buyprice38_feasible.split", budget=budget, capacity=capacity,
                     schedule=schedule if schedule is not None else translate(lang, "memo.yes"))


__all__ = ["bias", "clause", "feasible_split", "size_mismatch"]
