"""The predictor stops stepping once its measured requests are done and only unmeasured ones decode to their ends
(``Engine.drain_end``): every level it predicts is the same, step count included, as when it steps the run to the
end, whatever the KV room (preemptions), the scheduler (SGLang's prefill first, multi-step, admission reserve), the
shared prefix or the server overhead."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim import predict
from advisor.sim.engine import Engine, EngineLimits
from advisor.sim.predict import simulate_concurrency
from tests.core.test_sim_engine import COSTS, _roofline_costs


def _both(costs, limits, workload, c, measure):
    """(the level with the drain counted, the level stepped to the end, the drain counts used)."""
    used = []
    real = Engine.drain_end

    def counted(self):
        end = real(self)
        if end is not None:
            used.append(end)
        return end

    with pytest.MonkeyPatch.context() as m:
        m.setattr(Engine, "drain_end", counted)
        fast = simulate_concurrency(costs, limits, workload, c, measure=measure)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Engine, "drain_end", lambda self: None)
        full = simulate_concurrency(costs, limits, workload, c, measure=measure)
    return fast, full, used


@settings(max_examples=30, deadline=None)
@given(
    blocks=st.integers(80, 3000),
    seats=st.integers(2, 64),
    c=st.integers(1, 40),
    measure=st.integers(4, 60),
    varied=st.booleans(),
    mixed=st.booleans(),
    prefix=st.sampled_from([0, 48]),
    multi_step=st.sampled_from([1, 4]),
    reserve=st.sampled_from([None, (0.7, 0.1, 50)]),
    overhead=st.sampled_from([0.0, 0.004]),
    roofline=st.booleans(),
)
def test_a_level_is_the_same_with_its_unmeasured_drain_counted(blocks, seats, c, measure, varied, mixed,
                                                               prefix, multi_step, reserve, overhead, roofline):  # fmt: skip
    extra = {} if reserve is None else {"admission_reserve": reserve[0], "admission_reserve_floor": reserve[1],
                                        "admission_reserve_decay_steps": reserve[2]}  # fmt: skip
    limits = EngineLimits(kv_blocks=blocks, max_num_seqs=seats, max_num_batched_tokens=1024, mixed_prefill=mixed,
                          shared_prefix_tokens=prefix, scheduler_steps=multi_step, request_overhead_s=overhead,
                          **extra)  # fmt: skip
    if varied:
        workload = SimWorkload(prompt=LengthDistribution(kind="lognormal", mean=300, cv=0.8, max=2000),
                               output=LengthDistribution(kind="lognormal", mean=120, cv=0.9, max=900), seed=3)
    else:
        workload = SimWorkload(prompt=LengthDistribution.fixed(256), output=LengthDistribution.fixed(100))
    fast, full, _ = _both(_roofline_costs() if roofline else COSTS, limits, workload, c, measure)
    assert fast == full


def test_the_drain_is_counted_on_a_plan_like_level_and_saves_steps(monkeypatch):
    """Where the KV cache has room (a plan's levels), the drain is counted, not stepped: same level, fewer steps."""
    workload = SimWorkload(prompt=LengthDistribution(kind="lognormal", mean=1000, cv=0.6, max=3750),
                           output=LengthDistribution(kind="lognormal", mean=400, cv=0.6, max=1500))
    limits = EngineLimits(kv_blocks=20_000, max_num_seqs=256, max_num_batched_tokens=8192)
    fast, full, used = _both(_roofline_costs(), limits, workload, 32, 64)
    assert fast == full
    assert used == [full.steps]
    stepped = []
    real_step = Engine.step

    def step(self):
        stepped.append(self.steps)
        return real_step(self)

    monkeypatch.setattr(Engine, "step", step)
    simulate_concurrency(_roofline_costs(), limits, workload, 32, measure=64)
    counted_at = max(stepped)
    assert counted_at < full.steps - 100  # the unmeasured requests' last hundred steps and more were counted


def test_no_drain_count_while_a_request_waits_or_blocks_run_short():
    """The count is refused while anything but decoding could still happen."""
    engine = Engine(COSTS, EngineLimits(kv_blocks=40, max_num_seqs=2, max_num_batched_tokens=1024))
    for _ in range(3):
        engine.add_request(200, 200, arrival=0.0)
    engine.step()
    assert engine.waiting and engine.drain_end() is None  # the third waits for a seat
    roomy = Engine(COSTS, EngineLimits(kv_blocks=1000))
    roomy.add_request(100, 50, arrival=0.0)
    roomy.step()
    end = roomy.drain_end()
    roomy.run()
    assert end == roomy.steps
    tight = Engine(COSTS, EngineLimits(kv_blocks=14, max_num_batched_tokens=1024))  # 224 tokens for 2 × 150
    tight.add_request(100, 50, arrival=0.0)
    tight.add_request(100, 50, arrival=0.0)
    tight.step()
    assert tight.drain_end() is None  # their growth needs more blocks than are free: a preemption may follow


@pytest.mark.parametrize("c", [1, 8])
def test_the_predictor_module_uses_the_drain_count(c):
    workload = SimWorkload(prompt=LengthDistribution.fixed(128), output=LengthDistribution.fixed(64))
    level = predict.simulate_concurrency(COSTS, EngineLimits(kv_blocks=5000), workload, c, measure=16)
    assert level.requests == 16 and level.steps > 0


def test_the_garbage_collector_is_back_as_it_was_after_a_level():
    """A level holds Python's cyclic collector off while it runs (predict._gc_held_off) and leaves it as it found it:
    on, or off where the caller had turned it off; nested and concurrent levels restore it once, at the last end."""
    import gc
    import threading

    workload = SimWorkload(prompt=LengthDistribution.fixed(128), output=LengthDistribution.fixed(64))
    seen = []
    real = Engine.drain_end

    def watching(self):
        seen.append(gc.isenabled())
        return real(self)

    was = gc.isenabled()
    try:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(Engine, "drain_end", watching)
            gc.enable()
            simulate_concurrency(COSTS, EngineLimits(kv_blocks=5000), workload, 4, measure=8)
            assert seen and not any(seen) and gc.isenabled()
            gc.disable()
            simulate_concurrency(COSTS, EngineLimits(kv_blocks=5000), workload, 4, measure=8)
            assert not gc.isenabled()
            gc.enable()
            threads = [threading.Thread(target=simulate_concurrency,
                                        args=(COSTS, EngineLimits(kv_blocks=5000), workload, 8),
                                        kwargs={"measure": 32}) for _ in range(3)]  # fmt: skip
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert gc.isenabled() and predict._gc_holds == 0
    finally:
        (gc.enable if was else gc.disable)()
