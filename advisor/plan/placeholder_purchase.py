"""A purchase that rests on placeholder server prices (issue 25, seventh blind review, s18-rows).

q26 and q31 bought H20/L20 servers for three years on measured 75-80 % utilisation, and the memo's deciding reasons
never said that the purchase price of those servers is a planning placeholder (grade U: no public, dated price was
found) — "the buy decision (break-even about 18 months) rests on grade-U placeholder H20 prices; in the worst case
owning never pays back, and a hosted API may be cheaper, so get quotes before committing". An engineer states it
among the reasons and asks for quotes first: the rule ``cost.placeholder_purchase`` (a warning, so it is read on
page 1) and ``quotes_first`` (the quotes step leads the next steps).

A purchase priced on a dated, sourced row can be as stale as a placeholder: q26's H20 servers were priced on a
distributor's figure of July 2024, and export and import rules for the part changed in 2025 and again in
Dec-2025/Jan-2026 (deployment-facts rule 8), so round 9's reviewer asked for "a current quote before committing
¥4-5M". Such a row (an export-sensitive part, dated before the last changes) gets the ``stale`` case: the same
warning and quotes first, the row's date said.

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/rows18.json``;
sources in ``resources/plan/facts.json``.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import (
    budget_room41,
    own_like,
    quote_lead35,
    rent_cheaper_tie,
    rent_fallback,
    rent_until_covered,
    stand_in_prices,
)
from advisor.plan.money_text import symbol_range
from advisor.plan.result import Finding, MoneyRange, NextStep
from advisor.plan.rule_base import Facts, _range, finding, rule


def _capex(f: Facts) -> MoneyRange | None:
    """The purchase the plan commits to, in the answers' money: the owned setup's (office, server room, hybrid base)
    or bare metal's."""
    c = f.cost.costs
    owned = c.hybrid if f.form == "hybrid" else c.owned if f.form == "on_premises" else None
    if owned is not None:
        return None if owned.fleet_gpus and not owned.gpus_bought else owned.capex
    return c.bare_metal_capex


def bought_on_price(f: Facts) -> bool:
    """The purchase was chosen because owning costs less than renting: bare metal, an owned base beside a rented
    burst, or a server-room box with no one-off budget. Not an office box on the LAN (a cloud server is not on it)
    nor one a one-off budget pays for (q01/q02/q33/q17: the budget, not the break-even, decided it)."""
    if f.form in ("bare_metal", "hybrid"):
        return True
    if own_like.rent_now_on_quotes(f.form, f.ctx, f.cost.costs if f.cost is not None else None):
        return True  # rent now, buy on quotes (s28-own28): the quotes the purchase waits on are asked for first
    return f.form == "on_premises" and f.ctx.reach != "lan" and getattr(f.ctx.answers, "capex_budget", None) is None


def placeholder_rows(f: Facts) -> list[Any]:
    """The purchase price rows (kind capex) the plan used that are placeholders (grade U, not the user's quote)."""
    if f.cost is None:
        return []
    return [r for r in f.cost.costs.prices if r.kind == "capex" and r.grade == "U" and not r.user_quote]


def stale_rows(f: Facts) -> list[Any]:
    """The purchase price rows the plan used that are sourced (not placeholders, not the user's quote) but priced
    an export-sensitive part before its export and import rules last changed: today's price and supply may differ."""
    return [] if f.cost is None else stand_in_prices.stale_capex(f.cost.costs.prices)


@rule("cost.placeholder_purchase", "cost")
def placeholder_purchase(f: Facts) -> Finding | None:
    """A plan that buys hardware now, priced on a placeholder purchase row: the decision rests on it, the worst
    case is said, and quotes come before the money is committed."""
    if not bought_on_price(f) or f.cost is None or f.chosen is None:
        return None
    stale = [] if placeholder_rows(f) else stale_rows(f)
    if not stale and not placeholder_rows(f):
        return None
    capex = _capex(f)
    if capex is None:  # the team's own fleet carries it: nothing is bought
        return None
    be = f.cost.costs.break_even_months
    if be is None:
        worst: dict[str, Any] = {"tr": "rows18.purchase.worst_unknown"}
    elif be.high is None:  # none in the worst case, within the horizon or at all
        worst = {"tr": "rows18.purchase.worst_never", "months": f.ctx.duration_months}
    else:
        worst = {"tr": "rows18.purchase.worst_months", "months": round(be.high, 1)}
    if stale:  # the oldest row's date: the figure the purchase stands on ("only on these placeholders" is not it)
        if worst["tr"] == "rows18.purchase.worst_months":
            worst = {**worst, "tr": "owncost20.purchase.worst_months"}
        return finding("cost.placeholder_purchase", variant="stale", gpu=f.chosen.gpu.name,
                       capex=_range(capex.low, capex.high, f), capex_range=[capex.low, capex.high], worst=worst, date=min(r.date for r in stale))
    if f.form == "on_premises" and rent_fallback.data_stays_inside(f.ctx.answers.model_dump(mode="json")):
        # renting is no fallback (q03, review 20b: the payback "compares against a rejected option"): the quotes are
        # weighed against the budget (``price_gate.within_budget``), no rent asked for, no payback against one said
        return finding("cost.placeholder_purchase", variant="inside", gpu=f.chosen.gpu.name,
                       capex=_range(capex.low, capex.high, f), capex_range=[capex.low, capex.high])
    return finding("cost.placeholder_purchase", gpu=f.chosen.gpu.name, capex=_range(capex.low, capex.high, f), capex_range=[capex.low, capex.high], worst=worst)


def quotes_first(steps: list[NextStep], findings: list[Finding], gate: dict[str, Any] | None = None) -> list[NextStep]:
    """Where the purchase rests on placeholder prices, asking vendors for quotes is the first step, before any server
    is ordered (q26/q31: "get quotes before committing 3-5 M CNY"); with the quote that decides it where the plan has
    one (``price_gate``: buy at or under it, above it rent)."""
    f = next((x for x in findings if x.id == "cost.placeholder_purchase"), None)
    if f is None:
        return steps
    key = "owncost20.next.quotes_purchase_stale" if "date" in f.params else "rows18.next.quotes_purchase"
    params: dict[str, Any] = {"gpu": f.params["gpu"], "capex": each_first(f.params, gate), "date": f.params.get("date", "")}
    # renting cheaper at the middle (s25-tie25): the headline's own threshold, the purchase in all, said again in the
    # step (page 1 says it once: memo_condition_once); elsewhere the gate a server (s31-pricegate32)
    condition = rent_cheaper_tie.order_condition(findings) or gate_condition(gate, f.params["gpu"])
    cover = quote_lead35.cover_decision(findings)  # s34-quotelead (review 24, q26): the cover decided before ordering
    if condition is not None and cover is not None:
        condition = {"tr": "quote35.next.with_cover", "condition": condition, "cover": cover}
    if condition is not None and (gate or {}).get("kind") == "budget" and key in BUDGET_KEYS:
        key, params["condition"] = BUDGET_KEYS[key], condition  # no rent to ask for: renting is no fallback (q03)
        condition = None
    if condition is not None:  # renting cheaper at the middle (s25-tie25): order only on quotes that turn it
        key, params["condition"] = rent_cheaper_tie.QUOTES_KEYS[key], condition
    quotes = [s.model_copy(update={"key": key, "params": params}) for s in steps if s.id == "quotes"]
    return quotes + [s for s in steps if s.id != "quotes"]


def each_first(params: dict[str, Any], gate: dict[str, Any] | None) -> Any:
    """The purchase as the quotes step says it: a server's expected price first where more than one is bought, the
    sum beside it, as page 1's headline says them (``quote_lead39.expected``; s37-fleet39, blind review 28, q03: the
    step gave the ceiling a server without the expected price); the sum alone elsewhere."""
    servers, got = int((gate or {}).get("servers") or 0), params.get("capex_range")
    if servers < 2 or not got:
        return params["capex"]
    each = symbol_range(round(got[0] / servers, -3), round(got[1] / servers, -3), gate["currency"])  # type: ignore[index]
    return {"tr": "flt39_quotes.capex_each", "each": each, "capex": params["capex"]}


# the quotes step where the gate is the monthly budget's (renting is no fallback: no rent is asked for), and the
# gate step it folds into (``critical_steps``)
BUDGET_KEYS = {"rows18.next.quotes_purchase": "gate32.next.quotes_budget"}
BUDGET_GATE_KEYS = {"gate32.next.quotes_budget": "gate32.next.gate_quotes_budget"}


def gate_condition(gate: dict[str, Any] | None, gpu: str) -> dict[str, Any] | None:
    """The quotes step's condition from the plan's price gate, as a ``{"tr": …}`` clause (money in the plan's
    currency, rounded as the memo rounds money); None without a gate."""
    if not gate:
        return None
    if gate.get("kind") == "budget":
        budget = _gate_money(gate["budget"], gate["currency"])
        if gate["per_server"] is None:
            return {"tr": "gate32.next.condition.budget_none", "budget": budget}
        if budget_room41.roomy(gate):  # review 31 (q03): judged against the estimate, the budget kept internal
            return {"tr": "plan41_next.condition.budget_room", "budget": budget}
        return {"tr": "gate32.next.condition.budget", "per_server": _gate_money(gate["per_server"], gate["currency"]),
                "unit_gpus": gate["unit_gpus"], "gpu": gpu, "budget": budget, "months": gate["horizon"]}
    if gate.get(rent_until_covered.FLAG):  # renting first until a quote pays with the cover (s31-ctb32, q26)
        got = gate["cover"]["per_server"]
        return {"tr": "cover32.next.condition.none", "servers": gate["cover"]["servers"]} if got is None else \
            {"tr": "cover32.next.condition.server", "servers": gate["cover"]["servers"], "unit_gpus": gate["unit_gpus"],
             "gpu": gpu, "per_server": _gate_money(got, gate["currency"])}
    if gate["per_server"] is None:
        return {"tr": "gate32.next.condition.none"}
    cover: dict[str, Any] | str = ""
    if gate.get("cover"):
        got = gate["cover"]["per_server"]
        cover = {"tr": "gate32.next.cover.none", "servers": gate["cover"]["servers"]} if got is None else \
            {"tr": "gate32.next.cover.server", "servers": gate["cover"]["servers"], "per_server": _gate_money(got, gate["currency"])}
    return {"tr": "gate32.next.condition.server", "per_server": _gate_money(gate["per_server"], gate["currency"]),
            "unit_gpus": gate["unit_gpus"], "gpu": gpu, "cover": cover}


def _gate_money(x: float, currency: str) -> str:
    """A gate said to three significant figures: a threshold on stand-in prices is no more exact than that."""
    return f"{'¥' if currency == 'CNY' else '$'}{float(f'{x:.3g}'):,.0f}"


__all__ = ["BUDGET_GATE_KEYS", "BUDGET_KEYS", "bought_on_price", "gate_condition", "placeholder_purchase", "placeholder_rows", "quotes_first", "stale_rows"]
