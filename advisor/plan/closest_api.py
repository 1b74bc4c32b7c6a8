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


def _host(result: PlanResult, cur: str) -> Any:
    """The app host's month in the plan's region (``front_host37``; a mainland + overseas plan's is its mainland
    node's), or None where no row prices it there."""
    from advisor.plan import front_host37

    region = str(result.region)
    return front_host37.price("mainland" if region == "mainland_plus_overseas" else region, cur)


def _host_said(result: PlanResult, lang: str, cur: str) -> tuple[float, float, str] | None:
    """(low, high, words) of the app host the API path still pays for: its VM's month with the list it is read from;
    None where no row prices it there. Not the self-hosted plan's GPU line (blind review 35, q40: "an API user pays
    for its own app host, not a GPU line"): the host's own bandwidth carries the answers to users."""
    from advisor.plan.lead_line import host_part
    from advisor.plan.result import MoneyRange

    host = _host(result, cur)
    if host is None:
        return None
    place = {"tr": f"plan.region.{'mainland' if str(result.region) == 'mainland_plus_overseas' else result.region}"}
    part = render(lang, host_part(host), {"host": money_range(MoneyRange(low=host.low, high=host.high), cur),
                                          "region": place, "grade": host.source.grade})
    return round(host.low), round(host.high), part


def _first(result: PlanResult, lang: str, api: Any, cur: str, **words: str) -> str:
    """"Hosted API: the one change within your budget at the assumed volume only: 1,968–3,264 CNY a month on it, up
    to 12,000 CNY at its high end, over that budget", then what the total holds (the tokens and the app's host, not
    the self-hosted plan's GPU line) and the checks (blind review 34 and 35, q40: the caveat in the same sentence as
    "the one change within your budget"). Only where the volume has a high end and the total is within the budget
    at the volume costed; "" otherwise (the long form)."""
    from advisor.plan.hosted_weigh import high_end_factor
    from advisor.plan.result import MoneyRange

    c = result.costs
    amount = ((result.answers or {}).get("monthly_budget") or {}).get("amount")
    if c is None or amount is None:
        return ""
    m, factor, said = api.monthly_cost, high_end_factor(c), _host_said(result, lang, cur)
    if said is None:
        return ""
    h_low, h_high, host = said
    total = MoneyRange(low=m.low + h_low, high=m.high + h_high)
    if factor <= 1 or total.high > float(amount):
        return ""
    top = m.high * factor + h_high
    peak = (result.answers or {}).get("peak_concurrency") or "—"
    budget = money_range(MoneyRange(low=float(amount), high=float(amount)), cur)
    key = "api44.closest.first." + ("over" if top > float(amount) else "within")
    return translate(lang, key, allin=money_range(total, cur), budget=budget,
                     top=money_range(MoneyRange(low=top, high=top), cur), cost=money_range(m, cur), host=host,
                     peak=peak, **words)


def all_in(result: PlanResult, lang: str, api: Any, cur: str) -> str:
    """"; all in, with your app's host (…): 1,968–3,264 CNY a month, within your budget of 5,000 CNY, at most
    12,000 CNY at the volume's high end": the API's tokens are not the whole month (blind review 32, q40), and what
    else it pays for is the app's own host, not the self-hosted plan's GPU line (review 35, q40). "" where the plan
    has no cost."""
    from advisor.plan.hosted_weigh import high_end_factor
    from advisor.plan.result import MoneyRange

    c = result.costs
    if c is None:
        return ""
    m, said = api.monthly_cost, _host_said(result, lang, cur)
    h_low, h_high, host = said if said is not None else (0.0, 0.0, "")
    total = MoneyRange(low=m.low + h_low, high=m.high + h_high)
    amount = ((result.answers or {}).get("monthly_budget") or {}).get("amount")  # in the plan's currency (cost)
    verdict = "" if amount is None else translate(
        lang, "cons42.api_allin." + ("within" if total.high <= float(amount) else "over"),
        budget=money_range(MoneyRange(low=float(amount), high=float(amount)), cur))
    factor = high_end_factor(c)
    top = "" if factor <= 1 else translate(lang, "cons42.api_allin.top", top=money_range(
        MoneyRange(low=m.high * factor + h_high, high=m.high * factor + h_high), cur))
    return translate(lang, "api44.closest." + ("all_in" if said is not None else "before_host"), host=host, allin=money_range(total, cur), verdict=verdict,
                     top=top)


__all__ = ["KEY", "all_in", "fix", "line"]
