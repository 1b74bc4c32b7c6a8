"""The server's front end streams every token on one CPU: vLLM's API server cannot deliver more than 1e6 / 85 µs
≈ 11,800 tokens/s (measured: bench/frontend_costs.py), however fast the GPU. The ceiling binds small models on big
GPUs at hundreds of streams, and the overview, the latency curve and the simulated server must all feel it."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import factors_for, get_profile
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.domain.sizing import SizingRequest, SpeedFactors
from advisor.sim.costs import apply_profile, setup_from_ids
from advisor.sim.predict import simulate_concurrency
from advisor.sizing import size
from advisor.sizing.roofline import StepCostModel

SMALL, BIG_GPU = "qwen2.5-3b", "h100-sxm-80g"


VLLM_US = get_profile("vllm").stream_token_us


def _costs(stream_token_us: float) -> StepCostModel:
    return StepCostModel.build(
        get_model(SMALL), "bf16", "bf16", get_gpu(BIG_GPU), 1, SpeedFactors(stream_token_us=stream_token_us)
    )


def test_a_step_lasts_at_least_as_long_as_streaming_its_tokens():
    gpu_only, with_front_end = _costs(0.0), _costs(100.0)
    # one request: the GPU step (~3 ms for 6 GB of weights) is far above 1 × 100 µs, nothing changes
    assert with_front_end.decode_step_seconds(1, 1024) == gpu_only.decode_step_seconds(1, 1024)
    # 1024 streams of a 3B model: the GPU would step in well under 102 ms, the front end needs 1024 × 100 µs
    assert gpu_only.decode_step_seconds(1024, 600) < 0.1024 * 0.8
    assert with_front_end.decode_step_seconds(1024, 600) == pytest.approx(0.1024)
    # a prefill-only step emits one token (its first): the ceiling never touches prefill time
    assert with_front_end.prefill_seconds(4096) == gpu_only.prefill_seconds(4096)


def test_each_engine_profile_brings_its_own_front_end_cost():
    assert 80.0 <= factors_for(get_profile("vllm")).stream_token_us <= 110.0  # measured on vLLM 0.32's API server
    assert factors_for(get_profile("llama.cpp")).stream_token_us == 0.0  # a C++ server: not a bound
    mine = SpeedFactors(mfu=0.4)
    kept = factors_for(get_profile("sglang"), mine)
    assert kept.mfu == 0.4 and kept.stream_token_us == get_profile("sglang").stream_token_us
    assert SpeedFactors().stream_token_us == get_profile("vllm").stream_token_us  # the default is the default engine's


def test_the_overview_and_the_simulator_hit_the_same_ceiling():
    gpu, model = get_gpu(BIG_GPU), get_model(SMALL)
    req = SizingRequest(model=model, gpu=gpu, context=1024, concurrency=1000, prompt_tokens=256, output_tokens=512)
    perf = size(req).perf
    ceiling = 1e6 / VLLM_US
    assert perf.decode_tokens_per_s_total.value <= ceiling * 1.0001
    assert perf.decode_tokens_per_s_total.value > ceiling * 0.95  # it binds here: the GPU alone would go faster
    assert f"front end {VLLM_US:g} µs/streamed token" in perf.formula["factors"]
    assert perf.decode_bound == "front_end" and perf.front_end_tokens_per_s == pytest.approx(ceiling)
    one = size(req.model_copy(update={"concurrency": 1})).perf
    assert one.decode_bound == "bandwidth"  # one user: the weights' read, as ever
    sglang = size(req.model_copy(update={"engine_profile": "sglang"})).perf
    assert sglang.decode_bound != "front_end" and sglang.front_end_tokens_per_s is None  # not measured: no cap

    setup = apply_profile(setup_from_ids(SMALL, BIG_GPU), "vllm")
    wl = SimWorkload(prompt=LengthDistribution.fixed(256), output=LengthDistribution.fixed(512))
    level = simulate_concurrency(setup.costs, setup.limits, wl, 1000, measure=2000)
    # (within 1 %: a step that completes several prompts streams their first tokens too; the cost model counts one)
    assert level.output_tokens_per_s <= ceiling * 1.01
    full_batch_ms = 1000 * VLLM_US / 1000  # 1000 streams × 85 µs: 85 ms a token (a few are prefilling at any time)
    assert level.tpot_ms.p50 >= 0.95 * full_batch_ms

    unbound = dataclasses.replace(setup.costs, stream_token_s=0.0)
    free = simulate_concurrency(unbound, setup.limits, wl, 1000, measure=2000)
    assert free.output_tokens_per_s > ceiling * 1.3  # what the GPU alone would stream: the ceiling is no artefact
    assert free.tpot_ms.p50 < 0.7 * full_batch_ms


def test_advisor_calc_says_what_holds_decode_back(capsys):
    from advisor.cli import main

    code = main(["calc", "--model", SMALL, "--gpu", BIG_GPU, "--context", "1024", "--concurrency", "1000",
                 "--prompt-tokens", "256", "--output-tokens", "512"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "front-end-bound (one API server streams at most this)" in out
