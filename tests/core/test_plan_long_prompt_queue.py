"""Long prompts queue behind each other (issue #28, the eighth blind review's q10 note): a plan's TTFT P99 grows with
concurrency once each prompt's prefill takes seconds, and at ``c`` users it covers the prefill still ahead of an
arrival, not only its own (``advisor.plan.prefill_queue``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.plan import prefill_queue, sizing
from advisor.sim.engine import Engine
from advisor.sim.predict import _run_until_drained
from tests.core.test_plan_predict_agree import _chosen as chosen

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


@pytest.fixture(scope="module")
def q10():
    return chosen("q10")


def _prefill_s(cand, lim, tokens: int) -> float:
    lengths, seconds = prefill_queue.prefill_table(cand.costs, lim, tokens, 0, 0)
    return float(np.interp(tokens, lengths, seconds))


def test_memo_curve_ttft_p99_grows_with_concurrency_for_long_prompts(q10):
    ctx, cand, result = q10
    points = result.latency_curve.points
    p99 = [pt.ttft_p99_ms for pt in points]
    assert p99 == sorted(p99)  # never falls with load
    alone = points[0]
    assert alone.concurrency == 1
    avg_prefill_ms = 1000 * _prefill_s(cand, sizing.limits(ctx, cand), ctx.prompt_avg)
    for pt in points[1:]:
        # a second user's 60,000-token prompt is, now and then, still being prefilled when one arrives: the P99 waits
        # for a good part of it (the old floor printed the same 16.2 s at 1 and 8 users)
        assert pt.ttft_p99_ms >= alone.ttft_p99_ms + 0.5 * avg_prefill_ms, pt.concurrency


def test_floor_grows_with_the_users_ahead(q10):
    ctx, cand, _ = q10
    floors = [sizing.analytic_ttft_p99_ms(ctx, cand, c) for c in range(1, 9)]
    # each level draws its own users' phases (ρ falls a little as decode steps grow): within 2 % of the level
    # below, and the curve reads levels through a running maximum
    assert all(b >= 0.98 * a for a, b in zip(floors, floors[1:], strict=False)), floors
    assert floors[-1] > floors[0] * 1.3  # eight users' 60k prompts, not one


def test_short_prompts_barely_wait(q10):
    """Prompts that share one step's token budget do not queue whole prefills: at 8 users of 500-token prompts the
    p99 waits at most about one other prompt's tokens in its own step, never a step of its own."""
    ctx, cand, _ = q10
    lim = sizing.limits(ctx, cand)
    work = SimWorkload(prompt=LengthDistribution.fixed(500), output=LengthDistribution.fixed(300), seed=0)
    lengths, seconds = prefill_queue.prefill_table(cand.costs, lim, 500, 7, 7 * 650)
    own = float(np.interp(500, lengths, seconds))  # its own step beside the 7 others' decode
    eight = prefill_queue.queued_prefill_p99_s(cand.costs, lim, work, 8, 7 * 650)
    decode = cand.costs.step_seconds(0, 0.0, 8, 7 * 650)
    assert own <= eight <= own + 1.05 * (own - decode)


@pytest.mark.parametrize("users", [2, 4, 8])
def test_simulator_prefills_long_prompts_one_after_another(q10, users):
    """The engine the floor follows: ``users`` 60,000-token prompts sent together get their first tokens one
    prefill apart (the running prompt's chunks take the step's budget first), the last after about all of them."""
    ctx, cand, _ = q10
    lim = sizing.limits(ctx, cand)
    engine = Engine(cand.costs, lim)
    seqs = [engine.add_request(60_000, 50, 0.0) for _ in range(users)]
    _run_until_drained(engine, lambda: True)
    ttft = sorted(s.first_token_t - s.arrival for s in seqs)
    single = _prefill_s(cand, lim, 60_000)
    assert ttft[-1] >= 0.9 * users * single
    assert all(b - a >= 0.8 * single for a, b in zip(ttft, ttft[1:], strict=False))
