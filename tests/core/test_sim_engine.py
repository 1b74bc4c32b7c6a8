"""Behaviour of the continuous-batching engine and the closed-loop predictor, on a simple cost model."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.engine import FINISHED, REJECTED, Engine, EngineLimits
from advisor.sim.predict import find_knee, predict_curve, simulate_concurrency, simulate_rate


class RooflineLike:
    """A 7B-class model on an H100-class GPU: overhead + max(compute, memory), like the sizing core's model."""

    def __init__(self, params=7e9, weight_bytes=14e9, kv_bytes_per_token=57_344, flops=600e12, bandwidth=2.5e12):
        self.params, self.weight_bytes, self.kvpt = params, weight_bytes, kv_bytes_per_token
        self.flops, self.bw, self.overhead = flops, bandwidth, 0.001
        self.attn_per_pair = 4 * 28 * 3584

    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read):
        tokens = prefill_tokens + decode_seqs
        compute = (2 * self.params * tokens + self.attn_per_pair * (prefill_attention_pairs + kv_tokens_read)) / self.flops
        memory = (self.weight_bytes + self.kvpt * kv_tokens_read) / self.bw
        return self.overhead + max(compute, memory)


COSTS = RooflineLike()
WORKLOAD = SimWorkload(prompt=LengthDistribution.fixed(512), output=LengthDistribution.fixed(128))
VARIED = SimWorkload(
    prompt=LengthDistribution(kind="lognormal", mean=512, cv=0.6, max=4096),
    output=LengthDistribution(kind="lognormal", mean=128, cv=0.6, max=1024),
    seed=7,
)
PLENTY = EngineLimits(kv_blocks=100_000)


def test_every_request_gets_exactly_its_tokens_and_blocks_come_back():
    engine = Engine(COSTS, EngineLimits(kv_blocks=300, max_num_seqs=8, max_num_batched_tokens=1024))
    seqs = [engine.add_request(300 + 37 * i, 50 + 11 * i, arrival=0.01 * i) for i in range(40)]
    engine.run()
    assert all(s.state == FINISHED for s in seqs)
    assert sum(engine.step_tokens) == sum(s.output for s in seqs)
    for s in seqs:
        assert sum(b - a + 1 for a, b in s.segments) == s.output
        assert s.arrival <= s.first_token_t <= s.finish_t
    assert engine.free_blocks == 300 and engine.n_dec == 0 and not engine.running
    assert engine.preemptions > 0  # 8 seats × ~600 tokens > 300 blocks × 16


@settings(max_examples=25, deadline=None)
@given(
    blocks=st.integers(40, 400),
    seats=st.integers(1, 16),
    budget=st.sampled_from([64, 256, 2048]),
    lengths=st.lists(st.tuples(st.integers(1, 600), st.integers(1, 120), st.floats(0, 2)), min_size=1, max_size=25),
    mixed=st.booleans(),
)
def test_engine_invariants_under_random_load(blocks, seats, budget, lengths, mixed):
    limits = EngineLimits(kv_blocks=blocks, block_size=16, max_num_seqs=seats, max_num_batched_tokens=budget, mixed_prefill=mixed)
    engine = Engine(COSTS, limits)
    seqs = [engine.add_request(p, o, arrival=a) for p, o, a in lengths]
    engine.run(max_steps=200_000)
    for s in seqs:
        if s.prompt + s.output > limits.kv_tokens:
            assert s.state == REJECTED
            continue
        assert s.state == FINISHED
        assert sum(b - a + 1 for a, b in s.segments) == s.output
    assert engine.free_blocks == blocks
    assert all(b <= blocks for b in engine.step_blocks)
    assert all(r <= seats for r in engine.step_running)


@settings(max_examples=20, deadline=None)
@given(
    blocks=st.integers(60, 2000),
    seats=st.integers(1, 32),
    lengths=st.lists(st.tuples(st.integers(1, 900), st.integers(1, 300), st.floats(0, 1)), min_size=1, max_size=40),
    mixed=st.booleans(),
)
def test_fast_decode_path_gives_identical_results(blocks, seats, lengths, mixed):
    runs = []
    for fast in (True, False):
        limits = EngineLimits(kv_blocks=blocks, max_num_seqs=seats, max_num_batched_tokens=512, mixed_prefill=mixed)
        engine = Engine(COSTS, limits)
        engine.fast_decode = fast
        seqs = [engine.add_request(p, o, arrival=a) for p, o, a in lengths]
        engine.run(max_steps=500_000)
        runs.append((engine.step_end, engine.step_tokens, engine.step_blocks, engine.step_waiting,
                     [(s.first_token_t, s.finish_t, s.segments, s.preemptions) for s in seqs]))
    assert runs[0] == runs[1]


@settings(max_examples=20, deadline=None)
@given(
    blocks=st.integers(60, 1200),
    seats=st.integers(8, 64),
    lengths=st.lists(st.tuples(st.integers(1, 400), st.integers(20, 400), st.floats(0, 0.5)), min_size=8, max_size=48),
    prefix=st.sampled_from([0, 40]),
    multi_step=st.sampled_from([1, 4]),
    reserve=st.sampled_from([None, (0.7, 0.1, 50)]),
    roofline=st.booleans(),
)
def test_fast_decode_opens_kv_blocks_as_the_scheduler_does(blocks, seats, lengths, prefix, multi_step, reserve,
                                                           roofline):  # fmt: skip
    """Runs of decode steps open the KV blocks their sequences need themselves (many users cross a block boundary
    every step): the same timeline, blocks, preemptions and token runs as the scheduler step by step, with a shared
    prefix, multi-step scheduling and SGLang's decaying admission reserve; with the sizing core's cost model, long
    runs are stepped with numpy (the same floats)."""
    costs = _roofline_costs() if roofline else COSTS
    runs = []
    for fast in (True, False):
        extra = {} if reserve is None else {"admission_reserve": reserve[0], "admission_reserve_floor": reserve[1],
                                            "admission_reserve_decay_steps": reserve[2]}  # fmt: skip
        limits = EngineLimits(kv_blocks=blocks, max_num_seqs=seats, max_num_batched_tokens=1024,
                              shared_prefix_tokens=prefix, scheduler_steps=multi_step, **extra)  # fmt: skip
        engine = Engine(costs, limits)
        engine.fast_decode = fast
        seqs = [engine.add_request(p + prefix, o, arrival=a) for p, o, a in lengths]
        engine.run(max_steps=500_000)
        runs.append((engine.step_end, engine.step_dt, engine.step_tokens, engine.step_blocks, engine.step_waiting,
                     engine.step_running, engine.preemptions, engine.recompute_hits,
                     [(s.first_token_t, s.finish_t, s.segments, s.preemptions) for s in seqs]))  # fmt: skip
    assert runs[0] == runs[1]


def _roofline_costs(model: str = "qwen2.5-7b-instruct", gpu: str = "h100-sxm", tp: int = 1):
    from advisor.catalog import get_gpu, get_model
    from advisor.sizing.roofline import StepCostModel

    return StepCostModel.build(get_model(model), "bf16", "bf16", get_gpu(gpu), tp)


def test_the_roofline_decode_step_functions_are_step_seconds_bit_for_bit():
    import numpy as np

    for model, gpu, tp in (("qwen2.5-7b-instruct", "h100-sxm", 1), ("llama-3.1-70b-instruct", "a100-sxm-80g", 4),
                           ("qwen3-30b-a3b", "l20", 2)):  # fmt: skip
        costs = _roofline_costs(model, gpu, tp)
        for n in (1, 7, 64, 300):
            one, many = costs.decode_seconds_fn(n), costs.decode_seconds_array(n)
            reads = [0, 1, n * 517, n * 4096 + 3, 10**7, 3 * 10**9 + 7]
            expected = [costs.step_seconds(0, 0, n, kv) for kv in reads]
            assert [one(kv) for kv in reads] == expected
            assert many(np.array(reads, dtype=np.int64)).tolist() == expected


def test_ttft_at_low_load_is_the_roofline_prefill():
    level = simulate_concurrency(COSTS, PLENTY, WORKLOAD, 1)
    prefill = COSTS.step_seconds(512, 512 * 513 // 2, 0, 0)
    assert level.ttft_ms.p50 == pytest.approx(prefill * 1000, rel=0.02)


def test_decode_speed_at_batch_one_is_the_roofline():
    level = simulate_concurrency(COSTS, PLENTY, WORKLOAD, 1)
    step = COSTS.step_seconds(0, 0, 1, 512 + 64)  # mid-answer context
    assert 1000.0 / level.tpot_ms.mean == pytest.approx(1.0 / step, rel=0.03)
    assert level.output_tokens_per_s == pytest.approx(128 / (level.e2e_ms.mean / 1000), rel=0.03)


@pytest.mark.parametrize("concurrency", [1, 4, 16, 64])
@pytest.mark.parametrize("workload", [WORKLOAD, VARIED], ids=["fixed", "varied"])
def test_littles_law_holds(concurrency, workload):
    level = simulate_concurrency(COSTS, PLENTY, workload, concurrency)
    assert level.requests_per_s * level.e2e_ms.mean / 1000 == pytest.approx(concurrency, rel=0.04)
    assert level.mean_in_flight == pytest.approx(concurrency, rel=0.02)


def test_preemptions_appear_only_when_kv_is_short():
    # 64 users × (512 + 128) tokens = 40 960 tokens of KV needed.
    roomy = simulate_concurrency(COSTS, EngineLimits(kv_blocks=4000), WORKLOAD, 64)
    short = simulate_concurrency(COSTS, EngineLimits(kv_blocks=1500), WORKLOAD, 64)
    assert roomy.preemptions == 0 and roomy.kv_usage["max"] < 0.9
    assert short.preemptions > 0 and short.kv_usage["max"] > 0.97


def test_latency_turns_up_once_concurrency_exceeds_kv_capacity():
    limits = EngineLimits(kv_blocks=1280)  # 20 480 tokens ≈ 32 requests of 640 tokens
    curve = predict_curve(COSTS, limits, WORKLOAD, levels=(4, 8, 16, 32, 64, 128))
    by_c = {lv.concurrency: lv for lv in curve.levels}
    assert by_c[128].ttft_ms.p50 > 5 * by_c[16].ttft_ms.p50
    assert by_c[128].output_tokens_per_s < 1.15 * by_c[32].output_tokens_per_s
    assert curve.knee.reason == "kv_cache"
    assert curve.knee.concurrency in (16, 32)


def test_queueing_knee_when_seats_run_out():
    curve = predict_curve(COSTS, EngineLimits(kv_blocks=100_000, max_num_seqs=8), WORKLOAD, levels=(2, 4, 8, 16, 32))
    assert curve.knee.concurrency == 8
    assert curve.knee.reason == "queueing"
    assert curve.levels[-1].queue["mean"] > 20


def test_compute_knee_when_batches_saturate_the_gpu():
    slow = RooflineLike(flops=60e12)  # weak compute: batches become compute-bound early
    curve = predict_curve(slow, PLENTY, WORKLOAD, levels=(1, 2, 4, 8, 16, 32, 64, 128))
    assert curve.knee.reason == "compute"
    assert curve.knee.concurrency is not None
    tpots = [lv.tpot_ms.p50 for lv in curve.levels]
    assert tpots[-1] > 3 * tpots[0]


def test_no_knee_while_throughput_still_grows():
    curve = predict_curve(COSTS, PLENTY, WORKLOAD, levels=(1, 2, 4))
    assert curve.knee.concurrency is None and curve.knee.reason == "not_reached"
    assert find_knee([]).reason == "not_reached"


def test_saturated_levels_extended_by_littles_law_match_full_simulation():
    limits = EngineLimits(kv_blocks=80)  # two requests at a time
    wl = SimWorkload(prompt=LengthDistribution.fixed(400), output=LengthDistribution.fixed(200))
    from advisor.sim import predict as predict_module

    full = simulate_concurrency(COSTS, limits, wl, 24, measure=48)
    old = predict_module.STEP_BUDGET
    predict_module.STEP_BUDGET = 2_000
    try:
        extended = simulate_concurrency(COSTS, limits, wl, 24, measure=48)
    finally:
        predict_module.STEP_BUDGET = old
    assert extended.extended_from is not None and extended.extended_from < 24
    assert extended.ttft_ms.p50 == pytest.approx(full.ttft_ms.p50, rel=0.1)
    assert extended.output_tokens_per_s == pytest.approx(full.output_tokens_per_s, rel=0.05)


def test_open_loop_latency_rises_with_rate():
    low, high = (simulate_rate(COSTS, EngineLimits(kv_blocks=3000), VARIED, r, requests=200) for r in (2.0, 60.0))
    assert high.ttft_ms.p90 > low.ttft_ms.p90
    assert high.output_tokens_per_s > low.output_tokens_per_s


def test_full_curve_is_fast():
    started = time.process_time()
    predict_curve(COSTS, EngineLimits(kv_blocks=3000), VARIED)
    assert time.process_time() - started < 1.5  # budget "well under a second" on an idle core; CI is shared


def test_abort_frees_seat_and_blocks():
    engine = Engine(COSTS, EngineLimits(kv_blocks=100, max_num_seqs=2))
    a = engine.add_request(500, 300)
    b = engine.add_request(500, 300)
    for _ in range(5):
        engine.step()
    engine.abort(a)
    assert a.rid not in engine.running and engine.free_blocks == 100 - b.blocks
    engine.run()
    assert b.state == FINISHED and engine.free_blocks == 100


def test_burst_start_keeps_equal_users_in_lock_step():
    spread = simulate_concurrency(COSTS, PLENTY, WORKLOAD, 8)
    burst = simulate_concurrency(COSTS, PLENTY, WORKLOAD, 8, start="burst")
    together = COSTS.step_seconds(8 * 512, 8 * 512 * 513 // 2, 0, 0)  # all eight prompts in one step
    assert burst.ttft_ms.p50 == pytest.approx(together * 1000, rel=0.05)
    assert burst.ttft_ms.p50 > 3 * spread.ttft_ms.p50
    assert burst.tpot_ms.p50 < spread.tpot_ms.p50
    with pytest.raises(ValueError):
        simulate_concurrency(COSTS, PLENTY, WORKLOAD, 2, start="sometimes")
