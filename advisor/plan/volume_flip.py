""""How many requests a day?" first among page 1's open questions, where the answer decides between a hosted API and
this plan (s25-apivol25, issue 25, round 14 of the blind review: "ask what decides").

Where the tokens a month behind the hosted API's figure are the plan's estimate (``hosted_assumed.volume_assumed``)
and the API costs less on it, the user's own request count is what decides: below the break-even volume the API
costs less, above it self-hosting. The question says that volume in requests a day, the unit the user can check
(the break-even's tokens a month ÷ the days of a month ÷ the tokens of an average request, prompt and answer), and
the plan's own estimate beside it. It is asked only where an answer could flip the choice: a volume this setup can
serve (where even the break-even's low end is above what it serves, self-hosting never pays on cost at this size,
and no count changes that), a plan within the budget (q40's ¥76k a month against ¥5k: the budget decides, not the
count), and a choice the figures make (the API led with, or the plan kept beside it; never
where the answers rule the API out, the cards are owned, or no priced provider serves the region).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_assumed, volume_low_end
from advisor.plan.context import DAYS_PER_MONTH
from advisor.plan.money_text import about
from advisor.plan.result import OpenQuestion, StartWith
from advisor.plan.rule_base import Facts

FIELD = "requests_per_day"
CHANGE = "start"  # what another answer changes: whether to start on a hosted API or on this plan
KEY = "plan.apivol25"
# the choices a request count can flip: the API led with on the estimate, the plan kept beside it for a reason
ASKED_FOR = frozenset({"lead", "lead_terms"})


def per_day(tokens_a_month: float, f: Facts) -> float:
    """Requests a day for a month's tokens (input + output) at the plan's average request (prompt + answer)."""
    c = f.ctx
    return tokens_a_month / DAYS_PER_MONTH / max(c.prompt_avg + c.output_avg, 1)


def _count(lo: float, hi: float) -> str:
    """"16,000–45,000" (two significant figures each end), or one figure where they round alike."""
    a, b = about(lo), about(hi)
    return a if a == b else f"{a}–{b}"


def asks(f: Facts, sw: StartWith | None) -> bool:
    """The request count decides between the API and this plan (module docstring)."""
    if sw is None or sw.reason not in ASKED_FOR or sw.break_even is None or not hosted_assumed.volume_assumed(f):
        return False
    be = sw.break_even
    if hosted_assumed.budget_decides(f, be.plan_monthly.low):  # the plan is over the budget whatever the count (q40)
        return False
    return be.capacity_tokens is None or be.tokens_low <= be.capacity_tokens


def question(f: Facts, sw: StartWith) -> OpenQuestion:
    """The question, with the flip volume and the plan's estimate in requests a day."""
    be = sw.break_even
    assert be is not None
    est_lo, est_hi = per_day(be.volume, f), per_day(be.volume_high, f)
    # the range from the tokens row's own low end where it prints one (blind review 16, q24), the middle otherwise
    low = volume_low_end.tokens(f.cost.costs.volume_basis) if f.cost is not None else None
    shown_lo = per_day(low, f) if low is not None and low < be.volume else est_lo
    params: dict[str, Any] = {"flip": _count(per_day(be.tokens_low, f), per_day(be.tokens_high, f)),
                              "est": _count(shown_lo, est_hi)}
    return OpenQuestion(field=FIELD, changes=[CHANGE], assumed=round(est_lo), assumption_key=f"{KEY}.assume.flip",
                        assumption_params=params, alternatives=[round(per_day(be.tokens_high, f) * 2)])


def first(questions: list[OpenQuestion], f: Facts, sw: StartWith | None) -> list[OpenQuestion]:
    """``questions`` with the request count first where it decides (``asks``); unchanged elsewhere."""
    if not asks(f, sw):
        return questions
    assert sw is not None
    return [question(f, sw), *(q for q in questions if q.field != FIELD)]


__all__ = ["ASKED_FOR", "CHANGE", "FIELD", "asks", "first", "per_day", "question"]
