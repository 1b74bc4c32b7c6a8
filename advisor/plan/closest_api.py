"""The infeasible plan's closest workable option named as the hosted API where that is the one fix within the budget
(s32-permil33, blind review 21, q40).

A 72B model on a ¥5,000 budget: the self-hosted setup costs ¥78.9k–229.5k a month, the hosted API ¥1,574–2,476 is the
only change that fits the budget alone, and next step 1 picks it ("first decide on the one change that makes it
feasible (a hosted API)"), yet page 1's "Closest workable option" still read "Rent cloud GPU servers". The reviewer:
"the headline should say: use the hosted API, and check its rate limits and TPOT ≤50 ms at 50 concurrent", with the
tokens the API's month is costed on said beside its figure (the busiest-hour floor's, where the costs were raised to
it). Where another fix fits too, or none does, the line stays the self-hosted setup's: the choice is the team's.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import per_million_costed
from advisor.plan.critical_steps import the_one_fix
from advisor.plan.money_text import money_range, round_money
from advisor.plan.result import PlanResult, render

KEY = "permil33.closest_api"


def fix(result: PlanResult) -> Any:
    """The hosted-API fix where it is the one change that makes the plan feasible within its budget; else None."""
    if result.feasible:
        return None
    one = the_one_fix(result)
    return one if one is not None and one.id == "hosted_api" and one.monthly_cost is not None else None


def line(result: PlanResult, lang: str, form: str, region: str, net: str, wording: str = KEY) -> str:
    """Page 1's closest-option line naming the hosted API (its month with the tokens it is costed on, the checks
    before committing), then the self-hosted setup as what to fall back to; "" where ``fix`` finds no such API.
    ``wording``: the line's key, "the one change above" where the fixes are listed above it, else the caller's own."""
    api = fix(result)
    if api is None:
        return ""
    c, answers = result.costs, result.answers or {}
    slo = answers.get("latency_slo") or {}
    cur = str(api.params.get("currency") or (c.currency if c is not None else ""))
    basis = ""
    if c is not None and c.input_tokens_per_month and c.output_tokens_per_month:
        key = "permil33.closest_api.floor" if per_million_costed.basis(c) == "floor" else "permil33.closest_api.volume"
        basis = translate(lang, key, tin=round_money(float(c.input_tokens_per_month)),
                          tout=round_money(float(c.output_tokens_per_month)))
    tpot = slo.get("tpot_p99_ms")
    speed = translate(lang, "permil33.closest_api.tpot", tpot=f"{float(tpot):g}") if tpot else \
        translate(lang, "permil33.closest_api.speed")
    if wording != KEY:  # said first: one figure a month and its high end, where both are known (review 34, q40)
        short = _first(result, lang, api, cur, speed=speed, form=form, region=region, net=net)
        if short:
            return short
    top = api.params.get("top")  # the estimate's high end against the budget (q40: ¥11,147 over ¥5,000), where
    top = render(lang, str(top["tr"]), {k: v for k, v in top.items() if k != "tr"}) \
        if isinstance(top, dict) and wording != KEY else ""  # said first, the fix's own text is not printed
    top += all_in(result, lang, api, cur)
    return translate(lang, wording, top=top, cost=money_range(api.monthly_cost, cur), basis=basis, speed=speed,
                     peak=answers.get("peak_concurrency") or "—", form=form, region=region, line=net)


def _first(result: PlanResult, lang: str, api: Any, cur: str, **words: str) -> str:
    """"Hosted API: 2,089–3,276 CNY a month on the estimated volume, up to 11,947 CNY at the high end: measure your
    real requests a day", then what the total holds and the checks (blind review 34, q40 en: "the opening paragraph
    is one sentence of about 150 words mixing three cost ranges; rewrite it as …"). Only where the line is priced,
    the volume has a high end and the total is within the budget at the volume costed; "" otherwise (the long form)."""
    from advisor.plan.hosted_weigh import high_end_factor
    from advisor.plan.result import MoneyRange

    ln, c = result.line_cost, result.costs
    amount = ((result.answers or {}).get("monthly_budget") or {}).get("amount")
    if ln is None or ln.monthly is None or ln.currency != cur or c is None or amount is None:
        return ""
    m, factor = api.monthly_cost, high_end_factor(c)
    total = MoneyRange(low=m.low + ln.monthly.low, high=m.high + ln.monthly.high)
    if factor <= 1 or total.high > float(amount):
        return ""
    top = m.high * factor + ln.monthly.high
    peak = (result.answers or {}).get("peak_concurrency") or "—"
    over = translate(lang, "fo43_api.over") if top > float(amount) else ""
    budget = money_range(MoneyRange(low=float(amount), high=float(amount)), cur)
    return translate(lang, "fo43_api.first", allin=money_range(total, cur), budget=budget, over=over,
                     top=money_range(MoneyRange(low=top, high=top), cur), cost=money_range(m, cur),
                     line=translate(lang, f"plan.line.{ln.line}"), line_cost=money_range(ln.monthly, cur),
                     peak=peak, **words)


def all_in(result: PlanResult, lang: str, api: Any, cur: str) -> str:
    """"; all in, with the BGP multi-line line your users reach your app on (515–800 CNY a month, as priced for the
    self-hosted plan): 2,089–3,276 CNY a month, within your budget of 5,000 CNY, at most 11,947 CNY at the volume's
    high end; plus the host your app runs on (not priced here)": the API's tokens are not the whole month (blind
    review 32, q40: "within your budget" at ¥1,574–¥2,476 left out the caller's host and the ¥515–¥800 line priced
    elsewhere in the memo). "" where the plan prices no line in this currency."""
    from advisor.plan.hosted_weigh import high_end_factor
    from advisor.plan.result import MoneyRange

    ln, c = result.line_cost, result.costs
    if ln is None or ln.monthly is None or ln.currency != cur or c is None:
        return ""
    m = api.monthly_cost
    total = MoneyRange(low=m.low + ln.monthly.low, high=m.high + ln.monthly.high)
    amount = ((result.answers or {}).get("monthly_budget") or {}).get("amount")  # in the plan's currency (cost)
    verdict = "" if amount is None else translate(
        lang, "cons42.api_allin." + ("within" if total.high <= float(amount) else "over"),
        budget=money_range(MoneyRange(low=float(amount), high=float(amount)), cur))
    factor = high_end_factor(c)
    top = "" if factor <= 1 else translate(lang, "cons42.api_allin.top", top=money_range(
        MoneyRange(low=m.high * factor + ln.monthly.high, high=m.high * factor + ln.monthly.high), cur))
    return translate(lang, "cons42.api_allin", line=translate(lang, f"plan.line.{ln.line}"),
                     line_cost=money_range(ln.monthly, cur), allin=money_range(total, cur), verdict=verdict, top=top)


__all__ = ["KEY", "all_in", "fix", "line"]
