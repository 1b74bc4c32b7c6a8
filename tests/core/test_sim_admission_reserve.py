"""Admission with a KV reserve: TensorRT-LLM's GUARANTEED_NO_EVICT and SGLang's new_token_ratio.

vLLM admits a waiting request as soon as its prompt's blocks are free and preempts when decoding later runs out.
TensorRT-LLM (by default) admits one only when its whole prompt and output fit beside every running request's
remaining output; SGLang holds back a decaying share (0.7 → 0.098 over 600 decode steps) of that remaining output.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.domain.engine_profiles import get_profile
from advisor.sim.engine import FINISHED, REJECTED, Engine, EngineLimits
from tests.core.test_sim_engine import COSTS

SGLANG = {"admission_reserve": 0.7, "admission_reserve_floor": 0.098, "admission_reserve_decay_steps": 600}


def _recount(engine: Engine) -> int:
    """The running requests' outputs less what they have emitted before the next step, counted one by one."""
    g = engine.steps
    return sum(s.output - s.tokens_at(g - 1) for s in engine.running.values())


@settings(max_examples=30, deadline=None)
@given(
    blocks=st.integers(40, 600),
    seats=st.integers(1, 16),
    budget=st.sampled_from([64, 256, 2048]),
    lengths=st.lists(st.tuples(st.integers(1, 500), st.integers(1, 150), st.floats(0, 2)), min_size=1, max_size=25),
    mixed=st.booleans(),
    reserve=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_the_running_output_count_is_kept_exactly_through_every_step(blocks, seats, budget, lengths, mixed, reserve):
    limits = EngineLimits(kv_blocks=blocks, max_num_seqs=seats, max_num_batched_tokens=budget, mixed_prefill=mixed,
                          admission_reserve=reserve)  # fmt: skip
    engine = Engine(COSTS, limits)
    engine.fast_decode = False  # check after every single step
    seqs = [engine.add_request(p, o, arrival=a) for p, o, a in lengths]
    for _ in range(200_000):
        if not engine.step():
            break
        assert engine._remaining_output(engine.steps) == _recount(engine)
    for s in seqs:
        assert s.state == (REJECTED if s.prompt + s.output > limits.kv_tokens else FINISHED)
        if s.state == FINISHED:
            assert sum(b - a + 1 for a, b in s.segments) == s.output
    assert engine.free_blocks == blocks and engine._out_sum == 0 and engine._gen_const == 0


def test_no_evict_admits_only_requests_that_can_finish():
    # 100 blocks of 16 = 1,600 tokens; each request needs 200 + 200 = 400 by its end: four fit to the finish.
    def run(reserve: float) -> Engine:
        engine = Engine(COSTS, EngineLimits(kv_blocks=100, max_num_seqs=64, admission_reserve=reserve))
        seqs = [engine.add_request(200, 200, arrival=0.0) for _ in range(12)]
        engine.run()
        assert all(s.state == FINISHED for s in seqs)
        return engine

    no_evict, vllm = run(1.0), run(0.0)
    assert max(no_evict.step_running) == 4 and no_evict.preemptions == 0
    assert max(vllm.step_running) > 4 and vllm.preemptions > 0  # admits on the prompt's blocks, preempts later


def test_sglang_share_falls_to_its_floor_over_600_decode_steps_and_resets_when_idle():
    engine = Engine(COSTS, EngineLimits(kv_blocks=10_000, **SGLANG))
    engine.add_request(64, 1000, arrival=0.0)
    while engine.steps < 301:
        engine.step()
    decode_steps = engine.steps - 1  # the first step prefilled
    assert 300 <= decode_steps < 320 and abs(engine.reserve_ratio - (0.7 - decode_steps * (0.7 - 0.098) / 600)) < 1e-9
    while engine.running:
        engine.step()
    assert abs(engine.reserve_ratio - 0.098) < 1e-9  # 1000 decode steps > 600: at the floor
    engine.add_request(64, 4, arrival=engine.t + 5.0)  # the server idles until then
    engine.step()
    assert engine.reserve_ratio == 0.7


@settings(max_examples=15, deadline=None)
@given(
    blocks=st.integers(60, 1500),
    seats=st.integers(1, 32),
    lengths=st.lists(st.tuples(st.integers(1, 700), st.integers(1, 250), st.floats(0, 1)), min_size=1, max_size=30),
)
def test_fast_decode_path_gives_identical_results_with_a_reserve(blocks, seats, lengths):
    runs = []
    for fast in (True, False):
        engine = Engine(COSTS, EngineLimits(kv_blocks=blocks, max_num_seqs=seats, max_num_batched_tokens=512, **SGLANG))
        engine.fast_decode = fast
        seqs = [engine.add_request(p, o, arrival=a) for p, o, a in lengths]
        engine.run(max_steps=500_000)
        runs.append((engine.step_end, engine.step_tokens, [(s.first_token_t, s.finish_t, s.segments) for s in seqs]))
    assert runs[0] == runs[1]


def test_profiles_carry_the_engines_admission_rules():
    assert get_profile("vllm").admission_reserve == 0.0 and get_profile("llama.cpp").admission_reserve == 0.0
    trt, sgl = get_profile("trtllm"), get_profile("sglang")
    assert trt.admission_reserve == 1.0 and trt.admission_reserve_floor is None
    assert (sgl.admission_reserve, sgl.admission_reserve_floor, sgl.admission_reserve_decay_steps) == (0.7, 0.098, 600)
