"""Engine profiles: serving overhead in every TTFT, batch defaults per engine and GPU, prefix caching."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu
from advisor.domain.engine_profiles import PROFILE_IDS, UnknownProfileError, get_profile, load_profiles
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.costs import apply_profile, setup_from_ids
from advisor.sim.engine import Engine, EngineLimits
from advisor.sim.predict import simulate_concurrency
from tests.core.test_sim_engine import COSTS


def test_every_profile_loads_with_sources_and_a_policy():
    profiles = load_profiles()
    assert set(PROFILE_IDS) == set(profiles)
    for p in profiles.values():
        assert p.sources and all(s.startswith("https://") for s in p.sources)
        assert p.saturation in ("cap_and_queue", "admit_and_slow")
        assert sum(p.overhead_parts_ms.values()) == pytest.approx(p.request_overhead_ms)
    with pytest.raises(UnknownProfileError, match="choose one of"):
        get_profile("tgi-9000")
    assert get_profile("NIM").id == "trtllm"


def test_vllm_batch_defaults_follow_its_gpu_rule():
    vllm = get_profile("vllm")
    assert vllm.batch_defaults(get_gpu("h100-sxm-80g")) == (1024, 8192)
    assert vllm.batch_defaults(get_gpu("a100-sxm-80g")) == (256, 2048)  # A100 excluded by name
    assert vllm.batch_defaults(get_gpu("rtx-4090")) == (256, 2048)


def test_fp8_profiles_quantize_the_kv_cache():
    assert get_profile("trtllm").kv_dtype_for("fp8") == "fp8"
    assert get_profile("vllm").kv_dtype_for("fp8") == "bf16"


def test_overhead_is_in_ttft_and_not_in_tpot():
    wl = SimWorkload(prompt=LengthDistribution.fixed(256), output=LengthDistribution.fixed(64))
    bare = simulate_concurrency(COSTS, EngineLimits(kv_blocks=20_000), wl, 1)
    slow = simulate_concurrency(COSTS, EngineLimits(kv_blocks=20_000, request_overhead_s=0.02), wl, 1)
    assert slow.ttft_ms.p50 - bare.ttft_ms.p50 == pytest.approx(20.0, abs=0.01)
    assert slow.tpot_ms.p50 == pytest.approx(bare.tpot_ms.p50, rel=1e-9)


def test_admit_and_slow_engines_do_not_queue_where_vllm_does():
    base = setup_from_ids("llama-3.1-8b-instruct", "h100-sxm-80g")
    wl = SimWorkload(prompt=LengthDistribution.fixed(256), output=LengthDistribution.fixed(256))
    vllm = apply_profile(base, "vllm")
    trt = apply_profile(base, "trtllm")
    capped = vllm.limits.__class__(**{**vllm.limits.__dict__, "max_num_seqs": 64})
    queued = simulate_concurrency(vllm.costs, capped, wl, 256)
    admitted = simulate_concurrency(trt.costs, trt.limits, wl, 256)
    assert queued.queue["mean"] > 50 and admitted.queue["mean"] < 5
    assert admitted.ttft_ms.p50 < queued.ttft_ms.p50 / 3  # TTFT grows slowly ...
    assert admitted.tpot_ms.p50 > queued.tpot_ms.p50 * 1.5  # ... every decode step slows instead


def test_prefix_caching_skips_the_shared_prompt_and_shares_its_blocks():
    plain, cached = EngineLimits(kv_blocks=20_000), EngineLimits(kv_blocks=20_000, shared_prefix_tokens=1500)
    off = EngineLimits(kv_blocks=20_000, shared_prefix_tokens=1500, prefix_caching=False)
    engines = {}
    for name, limits in (("plain", plain), ("cached", cached), ("off", off)):
        eng = Engine(COSTS, limits)
        seqs = [eng.add_request(2048, 16, 0.01 * i) for i in range(8)]
        eng.run()
        engines[name] = (eng, seqs)
    (p_eng, p_seqs), (c_eng, c_seqs), (o_eng, _) = engines["plain"], engines["cached"], engines["off"]
    whole = (1500 // 16) * 16  # whole blocks only, as vLLM caches them
    assert p_eng.prompt_tokens_computed == 8 * 2048 == o_eng.prompt_tokens_computed
    assert c_eng.prompt_tokens_computed == 8 * 2048 - 7 * whole
    assert c_eng.prefix_hits == 7 and c_eng.prefix_blocks == whole // 16
    assert max(c_eng.step_blocks) < max(p_eng.step_blocks)  # shared blocks held once
    assert c_eng.free_blocks == 20_000 - whole // 16  # everything but the cached prefix is returned
    assert sum(s.first_token_t - s.arrival for s in c_seqs[1:]) < sum(s.first_token_t - s.arrival for s in p_seqs[1:])


def test_a_benchmark_steps_own_stagger_is_predicted():
    # fixed lengths: starting together keeps users in lock-step (long TTFT); staggered starts do not
    wl = SimWorkload(prompt=LengthDistribution.fixed(1024), output=LengthDistribution.fixed(128))
    limits = EngineLimits(kv_blocks=20_000)
    together = simulate_concurrency(COSTS, limits, wl, 8, stagger_s=0.0)
    burst = simulate_concurrency(COSTS, limits, wl, 8, start="burst")
    assert together.ttft_ms.p50 == pytest.approx(burst.ttft_ms.p50)
    staggered = simulate_concurrency(COSTS, limits, wl, 8, stagger_s=0.5)
    assert staggered.ttft_ms.p50 < together.ttft_ms.p50 / 2
    with pytest.raises(ValueError, match="stagger_s"):
        simulate_concurrency(COSTS, limits, wl, 8, stagger_s=-1.0)
