"""The wizard's what-if prewarm stops within one predictor level when cancelled, not after a whole plan (a plan can
take seconds: the window's close and a real what-if waited on it, and a test's teardown timed out at 5 s)."""

from __future__ import annotations

import threading

import pytest

from advisor.cancel import Cancelled, CancelToken, checkpoint
from advisor.plan import sizing
from advisor.plan.what_if import prewarm_plans
from tests.support.planned import advice_answers


def test_cancel_mid_plan_stops_at_the_next_level(monkeypatch, cold_plan_caches) -> None:
    token = CancelToken()
    levels: list[int] = []
    real = sizing._simulate_floored

    def cancel_after_first(*args, **kw):
        levels.append(1)
        token.cancel()  # what the wizard does from the GUI thread while the level runs
        return real(*args, **kw)

    monkeypatch.setattr(sizing, "_simulate_floored", cancel_after_first)
    with pytest.raises(Cancelled):
        prewarm_plans(token, [advice_answers("q07_minors_education_app")], [])
    assert len(levels) == 1  # the next level saw the cancel; the plan did not run on (hundreds of levels)


def test_uncancelled_prewarm_plans_every_variant_and_checkpoint_is_free_outside_a_scope() -> None:
    checkpoint()  # no token in scope: nothing to stop
    done = prewarm_plans(CancelToken(), [advice_answers("q15_hosted_api_small_us_team")] * 2, [])
    assert done == 2


def test_a_token_in_another_thread_does_not_stop_this_one() -> None:
    from advisor.cancel import cancel_scope

    stopped = CancelToken()
    stopped.cancel()
    seen: list[str] = []

    def other() -> None:
        with cancel_scope(stopped):
            try:
                checkpoint()
            except Cancelled:
                seen.append("other stopped")

    t = threading.Thread(target=other)
    t.start()
    t.join()
    checkpoint()  # this thread's work has no token: the other's cancel is not ours
    assert seen == ["other stopped"]
