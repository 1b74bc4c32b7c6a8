"""Runs of decode steps that end at an arrival a few steps on (#27): numpy's fixed cost is paid only where at least
VECTOR_RUN_MIN steps can start before the next arrival; shorter runs are stepped in Python. Either way the steps,
blocks and request times are those of the scheduler stepping one step at a time, bit for bit."""

from __future__ import annotations

from advisor.sim import engine as engine_module
from advisor.sim.engine import VECTOR_RUN_MIN, Engine, EngineLimits
from tests.core.test_sim_engine import _roofline_costs


def _run(fast: bool, gap_steps: float, monkeypatch) -> tuple[tuple, list[int]]:
    """One long answer decoding while short requests arrive every ``gap_steps`` decode steps; the numpy runs' lengths."""
    costs = _roofline_costs()
    engine = Engine(costs, EngineLimits(kv_blocks=4000, max_num_seqs=8, max_num_batched_tokens=512))
    engine.fast_decode = fast
    vector_runs: list[int] = []
    real = engine_module.Engine._decode_run_array

    def spy(self, *args):
        before = self.steps
        ran = real(self, *args)
        vector_runs.append(self.steps - before)
        return ran

    monkeypatch.setattr(engine_module.Engine, "_decode_run_array", spy)
    step_s = costs.step_seconds(0, 0, 1, 1000)  # about one decode step of the long answer alone
    seqs = [engine.add_request(900, 3000, arrival=0.0)]
    seqs += [engine.add_request(50, 4, arrival=step_s * gap_steps * (i + 1)) for i in range(40)]
    engine.run()
    result = (engine.step_end, engine.step_dt, engine.step_blocks, engine.step_tokens,
              [(s.first_token_t, s.finish_t, s.segments) for s in seqs])  # fmt: skip
    return result, vector_runs


def test_runs_cut_short_by_an_arrival_are_stepped_without_numpy(monkeypatch):
    fast, vector_runs = _run(True, 10, monkeypatch)
    slow, _ = _run(False, 10, monkeypatch)
    assert fast == slow
    # between arrivals ten steps apart no run goes to numpy; after the last arrival the long answer's tail does (one run)
    assert len(vector_runs) == 1 and vector_runs[0] >= VECTOR_RUN_MIN


def test_runs_with_room_before_the_next_arrival_still_use_numpy(monkeypatch):
    fast, vector_runs = _run(True, 4 * VECTOR_RUN_MIN, monkeypatch)
    slow, _ = _run(False, 4 * VECTOR_RUN_MIN, monkeypatch)
    assert fast == slow
    # a numpy run between the arrivals that come while the long answer decodes (~12 of them), not only its tail
    assert len(vector_runs) > 5 and all(steps >= VECTOR_RUN_MIN for steps in vector_runs)
