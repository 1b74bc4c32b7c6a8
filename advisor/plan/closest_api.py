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
    top = api.params.get("top")  # the estimate's high end against the budget (q40: ¥11,147 over ¥5,000), where
    top = render(lang, str(top["tr"]), {k: v for k, v in top.items() if k != "tr"}) \
        if isinstance(top, dict) and wording != KEY else ""  # said first, the fix's own text is not printed
    return translate(lang, wording, top=top, cost=money_range(api.monthly_cost, cur), basis=basis, speed=speed,
                     peak=answers.get("peak_concurrency") or "—", form=form, region=region, line=net)


__all__ = ["KEY", "fix", "line"]
