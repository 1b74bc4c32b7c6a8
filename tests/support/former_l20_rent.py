"""q42/q19 priced as they were before the mainland L20 rent was sourced (s29-prices29).

Until s29 the L20's and the H20's mainland rents were both placeholders (USD 0.7–1.6 and 1.2–2.6 a GPU-hour), 4 × L20
cost less an hour than 3 × H20, and the H20 was chosen for its decode bandwidth at a premium (``decode_pick``): the
tests of that premium's sentences ran on q42/q19. With Alibaba's L20 quote (¥14.63 an hour) wired in, 4 × L20
costs more than 3 × H20 even at the H20 placeholder's top, so the H20 wins on cost and no premium is paid. The
decode-pick tests keep the situation they test by giving both rents as the user's quotes at the former ranges (the
same grade on both sides, as ``decode_pick`` weighs only setups of one grade).
"""

from __future__ import annotations

import functools
import pickle

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, rule_on

FORMER_RENTS = (
    {"gpu": "l20-48g", "kind": "on_demand", "low": 0.7, "high": 1.6},
    {"gpu": "h20-96g", "kind": "on_demand", "low": 1.2, "high": 2.6},
)
FORMER_A10_RENT = {"gpu": "a10", "kind": "on_demand", "low": 0.6, "high": 1.3}  # Alibaba's ¥9.74 quote since s29
FORMER_L20_RENT = FORMER_RENTS[0]  # Alibaba's ¥14.63 quote since s29


def former_l20_quotes() -> list[dict[str, object]]:
    """The L20's former placeholder rent as the user's quote (a fresh list: ``make_plan``'s ``quotes``), for a test
    that keeps a branch only that rent reached (s30-prices30: one place, instead of each test's own copy)."""
    return [dict(FORMER_L20_RENT)]


def former_a10_quotes() -> list[dict[str, object]]:
    """The A10's former placeholder rent as the user's quote (a fresh list)."""
    return [dict(FORMER_A10_RENT)]


@functools.cache
def _plan_once(name: str, a10: bool, rule: bool = True) -> bytes:
    quotes = [dict(q) for q in FORMER_RENTS] + ([dict(FORMER_A10_RENT)] if a10 else [])
    return pickle.dumps(make_plan(answers_from_dict(advice_answers(name)), quotes=quotes))


def former_rents_plan(name: str, a10: bool = False) -> PlanResult:
    """An advice scenario's plan with the L20 and H20 rents (and the A10's, ``a10``) at their former placeholder
    ranges (a fresh copy)."""
    copy: PlanResult = pickle.loads(_plan_once(name, a10, rule_on()))  # noqa: S301 (our own bytes)
    return copy
