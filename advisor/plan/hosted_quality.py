"""A hosted API whose month is a rounding error against the budget: quality, not price, decides the model (issue #25,
blind review 23, q15: "since cost is negligible against the $300 budget, add one line saying model quality, not
price, should drive the choice: a larger hosted model would still cost only a few dollars").

Where the API's month at its high end is at most ``NEGLIGIBLE_SHARE`` of the budget and a larger size class has a
list in the same market (the 40–80B row: Llama-3.3-70B, Qwen2.5-72B), the hosted-API finding adds one sentence: the
same tokens on that row's list, and that the answers' quality on the team's own prompts should pick the model. The
share is a planning figure (grade U, said in the code only: the sentence gives both sums, so the reader judges).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import chat_turns, hosted_prices
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _range

NEGLIGIBLE_SHARE = 0.05  # the API's month at most 5 % of the budget: its price decides nothing
LARGER_B = 70.0  # the size class named for "a larger model": the 40–80B lists (70B / 72B models)


def _larger_month(f: Facts, tier: dict[str, Any]) -> tuple[float, float]:
    """The plan's month of tokens on ``tier``'s list, in the answers' currency."""
    assert f.cost is not None
    costs, conv = f.cost.costs, f.cost.conv
    out_m, in_m = costs.output_tokens_per_month or 0.0, costs.input_tokens_per_month or 0.0
    (i_lo, i_hi), (o_lo, o_hi) = hosted_prices._usd(tier, "input"), hosted_prices._usd(tier, "output")
    return ((in_m * i_lo + out_m * o_lo) / 1e6 * conv, (in_m * i_hi + out_m * o_hi) / 1e6 * conv)


def with_quality(found: Finding, f: Facts) -> Finding:
    """``found`` (``cost.hosted_api``) with the quality sentence after its detail where the API's month is negligible
    against the budget and a larger model's list prices the same tokens; unchanged otherwise."""
    c = f.ctx
    if f.hosted_monthly is None or f.cost is None or not c.budget_amount or found.detail_more:
        return found
    if chat_turns.applies(f):  # priced as chats, the month is several times the single requests' (q16): not this
        return found
    conv = f.cost.conv
    high = f.hosted_monthly[1] * conv
    if high > NEGLIGIBLE_SHARE * c.budget_amount or hosted_prices.model_size_b(c) >= 0.5 * LARGER_B:
        return found
    tier = hosted_prices.tier_for(LARGER_B, hosted_prices.hosted_market(c))
    if tier is None or not f.cost.costs.output_tokens_per_month:
        return found
    lo, hi = _larger_month(f, tier)
    if hi > c.budget_amount:  # a larger model that would not fit is no cheap alternative
        return found
    params = {**found.params, "q_budget": _range(c.budget_amount, c.budget_amount, f), "q_larger": _range(lo, hi, f),
              "q_models": hosted_prices.priced_on(tier)}
    return found.model_copy(update={"params": params, "detail_more": "steps34.hosted.quality",
                                    "sources": [*found.sources, hosted_prices.tier_source(tier)]})


__all__ = ["NEGLIGIBLE_SHARE", "with_quality"]
