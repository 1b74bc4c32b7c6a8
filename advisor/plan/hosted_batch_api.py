"""A batch job's hosted API weighed at about the plan's cost, with the batch API a source prices (s24-api24, issue 25,
round 13 of the blind review).

q28: "The hosted API (¥2,079–3,900 for the job) costs about the same and is not weighed, nor is a batch-API
discount." The API was weighed only where its middle was below the plan's; a job whose API costs about the same (its
middle within ``hosted_verdict.TIE`` above the plan's) is weighed too (``about_the_same``: the finding then says the
two ranges overlap, with the answers' reason where they give one), and a batch job's finding names the batch API a
source says a provider sells in its market, with the models it covers (``fixes17.batch_api_note``: asked about for
this model, never assumed covered).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.fixes17 import batch_api_note
from advisor.plan.hosted_verdict import TIE
from advisor.plan.result import Finding, MoneyRange

KEY = "plan.api24"


def about_the_same(hosted: MoneyRange, plan: MoneyRange) -> bool:
    """The API's middle at most ``TIE`` above the plan's middle: about the same cost, weighed as an overlap."""
    return (hosted.low + hosted.high) / 2 <= (plan.low + plan.high) / 2 * (1 + TIE)


def with_batch_api(got: Finding, c: Any, conv: float | None = None) -> Finding:
    """``got`` (the finding ``cost.hosted_weighed`` of a batch job) with the market's batch API said after its
    detail; unchanged for a live service, a finding that rules the API out, or a market with no sourced batch API."""
    if not c.is_batch or got.detail_key.endswith(".ruled_out.detail"):
        return got
    note = batch_api_note(hosted_prices.hosted_market(c), c, conv)
    if not note:
        return got
    return got.model_copy(update={"detail_key": f"{KEY}.batch_detail",
                                  "params": {**got.params, "base": {"tr": got.detail_key, **got.params},
                                             "batch": note}})


__all__ = ["about_the_same", "with_batch_api"]
