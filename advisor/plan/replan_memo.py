"""The plans made inside one plan, remembered for that plan only (issue #27, plan speed).

A plan re-plans each fix it offers (``engine._fixes_that_work_alone``), and ``sure_first38`` may make the whole plan
twice (the supply tier off, then on): the second pass re-planned every fix again, and each such re-plan first makes
its plan with the tier off, exactly as the first pass had (q40: 18 re-plans done twice, a fifth of its time). A nested
plan is remembered here by everything it reads: the answers (as JSON), the user's quotes, the keyword switches and the
context switches that steer a plan (``sure_first38.RANK_SUPPLY``, ``chat_rule38.SIZE_TO_RULE``); a plan is
deterministic in those (its caches only remember the same results), so a hit is what planning again gives.

Scope: opened by the outermost ``plan`` and closed when it returns, so nothing is kept between two answers, nor
between threads (a ``ContextVar``); bounded by ``MAX_ENTRIES``. The result is stored pickled and each hit unpickles
its own copy: a caller that changes the plan it got (``post_plan``, or the plan that ``adopt_replacement`` shares the
re-plan's parts with) changes no other. (Pickling is a third of ``model_copy(deep=True)``'s cost, and every re-plan
pays it while only a second pass hits.)
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from advisor.plan.result import PlanResult

MAX_ENTRIES = 128  # a plan makes a few dozen nested plans at most (fixture 12: 19)
_MEMO: ContextVar[dict[tuple, bytes] | None] = ContextVar("speed40_replan_memo", default=None)


@contextmanager
def scope() -> Iterator[bool]:
    """Open the memo for an outermost plan (yields True); inside one already open, yields False (nested)."""
    if _MEMO.get() is not None:
        yield False
        return
    token = _MEMO.set({})
    try:
        yield True
    finally:
        _MEMO.reset(token)


def key_of(answers: Any, quotes: Any, kw: dict[str, Any]) -> tuple:
    """Everything a nested plan reads besides the catalogs: answers, quotes, switches, context switches."""
    from advisor.plan.chat_rule38 import SIZE_TO_RULE
    from advisor.plan.sure_first38 import RANK_SUPPLY

    return (json.dumps(answers.model_dump(mode="json"), sort_keys=True),
            json.dumps(quotes, sort_keys=True, default=repr), tuple(sorted(kw.items())),
            RANK_SUPPLY.get(), SIZE_TO_RULE.get())  # fmt: skip


def remembered(key: tuple, make: Callable[[], PlanResult]) -> PlanResult:
    """``make()``, or a copy of what it gave for ``key`` earlier in this plan's scope (none open: ``make()``)."""
    memo = _MEMO.get()
    if memo is None:
        return make()
    hit = memo.get(key)
    if hit is not None:
        out: PlanResult = pickle.loads(hit)  # noqa: S301 (our own bytes, made just above in this plan)
        return out
    out = make()
    if len(memo) < MAX_ENTRIES:
        memo[key] = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    return out


__all__ = ["MAX_ENTRIES", "key_of", "remembered", "scope"]
