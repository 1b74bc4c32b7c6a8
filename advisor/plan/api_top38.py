"""A hosted API plan's month at its assumed volume's high end, on page 1 beside the month costed (issue 25, blind
review 27, q27 zh: "price the concurrency-bound upper case too (230,000,000 / 92,000,000 tokens is still only about
¥500), so the boss sees the worst case is also trivial"). The API's bill is linear in the tokens
(``hosted_weigh.high_end_factor``), so the high end is the same price range times the high end's share."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.money_text import about, round_money

KEY = "filedwait38_api.top"


def clause(result: Any, lang: str) -> str:
    """" (about 225–506 CNY a month at the volume's high end, 92,000,000 output tokens)", or "" where the plan is
    not the API or its volume has no higher figure."""
    c = result.costs
    if result.deployment_form != "hosted_api" or c is None or c.hosted_api_monthly is None:
        return ""
    factor = high_end_factor(c)
    if factor <= 1 or not c.output_tokens_per_month_high:
        return ""
    m = c.hosted_api_monthly
    lo, hi = round_money(m.low * factor), round_money(m.high * factor)
    return translate(lang, KEY, cost=lo if lo == hi else f"{lo}–{hi}", currency=c.currency,
                     tokens=about(c.output_tokens_per_month_high))  # as the tokens row rounds it
