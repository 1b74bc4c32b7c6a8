"""A hosted-API plan's next steps say the API path's own checks, not a self-hosted plan's (api43, blind review 34).

- The API's trial names its rate limit at the peak (q27: "add one line that the provider's rate limit must cover 10
  concurrent requests"): a trial at 1 and N concurrent requests says nothing of the provider's limit at N.
- Section 8 leaves out what only a server of one's own reads (``SELF_HOST_ASSUMED``: the quantization, the context
  the server refuses past).
- The quotes step ("replace the built-in prices with your provider's quote … and re-run the plan") is kept where the
  cost matters; where even the API's month at the volume's high end is a small share of the monthly budget
  (``TRIVIAL``), no quote can change the decision (q15: "pointless at about $1/month"), so the step says what does
  matter on a small API bill: a spending limit on the account and the key kept out of code.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import chat_turns
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.result import NextStep

TRIAL_KEY = "api43.next.api_trial_limit"
SPEND_KEY = "api43.next.spend_cap"
QUOTES_KEY = "plan.next.quotes"
# what the answers left out that only a server of one's own reads: its quantization, the context it refuses past
# (q16 zh: "按不量化规划", "更长的请求会被服务拒绝" in an API plan's section 8)
SELF_HOST_ASSUMED = frozenset({"plan.assume.quantization_acceptable", "plan.assume.max_context_tokens",
                               "plan.assume.max_context_tokens_floor"})
TRIVIAL = 0.05  # the API's dearest month at most this share of the monthly budget: a quote changes nothing


def trial_with_limit(step: NextStep, peak: int) -> NextStep:
    """The API trial with its rate limit at the peak said, where the peak is more than one request."""
    if peak <= 1:
        return step
    return step.model_copy(update={"key": TRIAL_KEY, "params": {"step": {"tr": step.key, **step.params},
                                                                "concurrency": peak}})


def self_host_only(form: str | None, key: str) -> bool:
    """An assumption (its ``key``) that says nothing on a hosted API's plan (``form``): section 8 leaves it out."""
    return form == "hosted_api" and key in SELF_HOST_ASSUMED


def dearest_month(f: Any) -> float | None:
    """The API's dearest month page 1 prints: at the volume's high end, or as chats of the most turns
    (``chat_turns``: q16's ¥851 against the single-request ¥73), None if unpriced."""
    costs = f.cost.costs if f.cost is not None else None
    m = getattr(costs, "hosted_api_monthly", None)
    if m is None or m.high is None:
        return None
    top = m.high * max(1.0, high_end_factor(costs))
    if chat_turns.applies(f):
        top = max(top, *(t[4] for t in chat_turns.at_turns(f)))
    return top


def trivial(f: Any) -> bool:
    """The API's dearest month is at most ``TRIVIAL`` of a monthly budget given."""
    top = dearest_month(f)
    budget = getattr(f.cost.costs, "budget_monthly", None) if f.cost is not None else None
    return top is not None and budget is not None and budget > 0 and top <= TRIVIAL * budget


def quotes_step(f: Any) -> NextStep:
    """The hosted-API plan's step after the trial: the quotes where the cost matters, else the spending limit."""
    if trivial(f):
        return NextStep(id="spend_cap", key=SPEND_KEY, params={})
    return NextStep(id="quotes", key=QUOTES_KEY, params={})


__all__ = ["SELF_HOST_ASSUMED", "self_host_only", "SPEND_KEY", "TRIAL_KEY", "TRIVIAL", "dearest_month", "quotes_step", "trial_with_limit", "trivial"]
