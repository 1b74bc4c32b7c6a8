"""Runs of decode steps in a closed loop (#27): a run also takes the step at which its first request finishes (and
finishes it, so its user sends the next request), and on an engine that schedules a step ahead, the step planned
before the next request was ready. Both were scheduler steps, once per request; stepping everything through the
scheduler must give the same timeline, blocks, token runs and request times, bit for bit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.sim.engine import Engine, EngineLimits, Seq
from tests.core.test_sim_engine import COSTS, _roofline_costs


def _closed_loop(fast: bool, limits: EngineLimits, costs: object, users: int, lengths: list[tuple[int, int]]) -> tuple:
    engine = Engine(costs, limits)  # type: ignore[arg-type]
    engine.fast_decode = fast
    queue = list(lengths)
    seqs: list[Seq] = []

    def send(at: float) -> None:
        if queue:
            p, o = queue.pop(0)
            seqs.append(engine.add_request(p, o, arrival=at))

    engine.on_finish = lambda seq: send(seq.finish_t)  # the user sends the next request at once
    for i in range(users):
        send(0.003 * i)
    engine.run(max_steps=500_000)
    return (engine.step_end, engine.step_dt, engine.step_tokens, engine.step_blocks, engine.step_waiting,
            engine.step_running, engine.preemptions,
            [(s.arrival, s.first_sched, s.first_token_t, s.finish_t, s.segments, s.preemptions) for s in seqs])  # fmt: skip


@settings(max_examples=12, deadline=None)
@given(
    blocks=st.integers(40, 1500),
    users=st.integers(1, 24),
    lengths=st.lists(st.tuples(st.integers(1, 600), st.integers(1, 300)), min_size=4, max_size=60),
    ahead=st.booleans(),
    overhead=st.sampled_from([0.0, 0.002, 0.012]),
    roofline=st.booleans(),
)
def test_closed_loop_runs_match_the_scheduler_step_by_step(blocks, users, lengths, ahead, overhead, roofline):
    limits = EngineLimits(kv_blocks=blocks, max_num_seqs=16, max_num_batched_tokens=512, request_overhead_s=overhead,
                          schedule_ahead=ahead)  # fmt: skip
    costs = _roofline_costs() if roofline else COSTS
    fast, slow = (_closed_loop(f, limits, costs, users, lengths) for f in (True, False))
    assert fast == slow
