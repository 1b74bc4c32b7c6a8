"""Runs of decode steps that a full KV cache cuts short (#27): where no arrival can end a run, its KV blocks are opened
before any step's duration is worked out, and only the steps that then run get one. The steps, blocks, preemptions
and request times stay those of the scheduler stepping one step at a time, bit for bit."""

from __future__ import annotations

from advisor.sim import engine as engine_module
from advisor.sim.engine import Engine, EngineLimits
from tests.core.test_sim_engine import _roofline_costs


def _run(fast: bool, monkeypatch) -> tuple[tuple, list[tuple[int, int]], int]:
    """Eight long answers in a KV cache that holds about half of them at their ends; (the result, each blocks-first
    run's (steps asked, steps run), preemptions)."""
    engine = Engine(_roofline_costs(), EngineLimits(kv_blocks=600, max_num_seqs=8, max_num_batched_tokens=512))
    engine.fast_decode = fast
    runs: list[tuple[int, int]] = []
    real = engine_module.Engine._decode_run_array_blocks_first

    def spy(self, k, cost):
        before = self.steps
        ran = real(self, k, cost)
        runs.append((k, self.steps - before))
        return ran

    monkeypatch.setattr(engine_module.Engine, "_decode_run_array_blocks_first", spy)
    seqs = [engine.add_request(100, 2000, arrival=0.0) for _ in range(8)]
    engine.run()
    result = (engine.step_end, engine.step_dt, engine.step_blocks, engine.step_tokens, engine.step_running,
              [(s.first_token_t, s.finish_t, s.segments, s.preemptions) for s in seqs])  # fmt: skip
    return result, runs, engine.preemptions


def test_a_run_the_full_kv_cache_cuts_short_is_the_schedulers_steps(monkeypatch):
    fast, runs, preemptions = _run(True, monkeypatch)
    slow, slow_runs, slow_preemptions = _run(False, monkeypatch)
    assert fast == slow and preemptions == slow_preemptions > 0
    assert not slow_runs  # the scheduler's own path never takes a run
    # some runs ended where a block ran short, well before the steps they were asked for; others ran whole
    assert any(0 <= ran < asked // 2 for asked, ran in runs)
    assert any(ran == asked for asked, ran in runs)
