"""A hosted API at about the plan's month but not below it: the cost table's row says so and why self-hosting
(issue 25, blind review 25).

q20 (zh): "The cost table lists a hosted API at '1,085 USD' a month with no comment … add a sentence on why
self-hosting is preferred or offer the API"; (en) "The hosted API at 1,085 USD, about the same as the plan, is listed
but never weighed." An API cheaper than the plan is weighed by ``cost.hosted_weighed`` (its row then dropped); one a
little dearer was printed bare. Where its month's middle is within ``EVEN`` of the plan's, the row now says the two
cost about the same, so the price does not decide, and what does: a fixed month and capacity the team controls
against the API's rate limits at the peak and its speed on the team's prompts (the words of ``hosted_tie``'s tie).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate

KEY = "apiweigh36.even"
# within this share of the plan's month (middles) the two are "about the same": a policy, not a sourced figure
# (the larger of the plan's own price spread and a quote's usual haggle room)
EVEN = 0.25


def note(result: Any, lang: str, plan: str) -> str:
    """"; about this plan's month (…)…" after the hosted-API row's value, or "" (an API-led plan, one the finding
    weighs, a month far from the plan's, or no month to compare)."""
    c = result.costs
    hosted, own = c.hosted_api_monthly, c.recommended_monthly
    if result.deployment_form == "hosted_api" or hosted is None or own is None or own.high <= 0:
        return ""
    if any(f.id == "cost.hosted_weighed" for f in result.findings):
        return ""
    mid_h, mid_p = (hosted.low + hosted.high) / 2, (own.low + own.high) / 2
    if abs(mid_h / mid_p - 1) > EVEN:
        return ""
    return translate(lang, KEY, plan=plan)


__all__ = ["EVEN", "KEY", "note"]
