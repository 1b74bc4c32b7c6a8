"""vLLM V1 decoded in piecewise CUDA graphs until 0.11.0 made FULL_AND_PIECEWISE the default (vllm#25444): every
layer's attention was launched from Python between two graph replays, and vllm#20059 measured what that costs a
decode step (Qwen2.5-1.5B, 28 layers: median TPOT 5.42 against 5.02-5.09 ms, 13.5 us a layer). A prediction or a
benchmark that names such a version pays it per layer per step; the current version and V0 (whole-model decode
graphs) do not. An MLA layer's eager decode path is longer: 50.8 us a layer (vllm#42885, below)."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import factors_for, get_profile
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.roofline import StepCostModel

VLLM = get_profile("vllm")
MODEL, GPU = get_model("qwen3-30b-a3b"), get_gpu("a100-sxm-80g")  # 48 layers


def _costs(version: str | None, **chosen: object) -> StepCostModel:
    factors = factors_for(VLLM, SpeedFactors(engine_version=version, **chosen) if version else None)
    return StepCostModel.build(MODEL, "bf16", "bf16", GPU, 1, factors)


@pytest.mark.parametrize(("version", "gap"), [(None, 0.0), ("0.6.0", 0.0), ("0.7.3", 0.0), ("0.8.0", 13.5), ("0.9.2", 13.5),
                                              ("0.10.2", 13.5), ("0.11.0", 0.0), ("0.22.1", 0.0)])  # fmt: skip
def test_which_versions_decode_in_piecewise_graphs(version, gap):
    assert factors_for(VLLM, SpeedFactors(engine_version=version) if version else None).graph_gap_us_per_layer == gap


def test_a_piecewise_decode_step_waits_per_layer():
    # 0.10.2 and 0.11.0 both schedule between steps; only the graphs differ: 48 layers x 13.5 us = 0.648 ms a step
    old, new = _costs("0.10.2"), _costs("0.11.0")
    assert old.decode_step_seconds(1, 1000) - new.decode_step_seconds(1, 1000) == pytest.approx(48 * 13.5e-6, rel=1e-9)
    assert old.decode_step_seconds(1, 1000) > new.decode_step_seconds(1, 1000) > _costs(None).decode_step_seconds(1, 1000) * 0.99


def test_a_run_without_cuda_graphs_is_not_charged_the_gap_on_top():
    # --enforce-eager pays the eager launch cost instead (the accuracy bench adds it); a chosen 0 is kept
    assert factors_for(VLLM, SpeedFactors(engine_version="0.9.1", graph_gap_us_per_layer=0.0)).graph_gap_us_per_layer == 0.0


def test_other_engines_have_no_gap():
    for engine in ("sglang", "trtllm", "llama.cpp"):
        profile = get_profile(engine)
        assert factors_for(profile, SpeedFactors(engine_version="0.9.0")).graph_gap_us_per_layer == 0.0


MLA_MODEL = get_model("deepseek-r1")  # 61 layers, every one with MLA attention


def test_an_mla_layer_waits_longer_in_piecewise_graphs():
    # vllm#42885: Kimi-K2.6 (61 MLA layers) on 8 x A100 decoded at 32.0 ms a token in piecewise graphs against
    # 28.9 ms in full ones, (32.0 - 28.9) / 61 = 50.8 us a layer; FlashAttention's layer above costs 13.5 us
    assert VLLM.piecewise_mla_graph_us_per_layer == pytest.approx((32.0 - 28.9) / 61 * 1000, abs=0.05)
    factors = factors_for(VLLM, SpeedFactors(engine_version="0.10.0"))
    assert factors.graph_gap_us_per_mla_layer == VLLM.piecewise_mla_graph_us_per_layer
    h100 = get_gpu("h100-sxm-80g")

    def step(version: str | None) -> float:
        f = factors_for(VLLM, SpeedFactors(engine_version=version) if version else None)
        return StepCostModel.build(MLA_MODEL, "fp8-block", "bf16", h100, 8, f).decode_step_seconds(1, 1000)

    # 0.10.2 and 0.11.0 both schedule between steps; only the graphs differ
    assert step("0.10.2") - step("0.11.0") == pytest.approx(61 * 50.8e-6, rel=1e-9)
    # a model without MLA keeps the FlashAttention figure (test_a_piecewise_decode_step_waits_per_layer), and a
    # run without CUDA graphs (a chosen 0) pays no MLA gap either
    eager = factors_for(VLLM, SpeedFactors(engine_version="0.9.1", graph_gap_us_per_layer=0.0))
    assert eager.graph_gap_us_per_mla_layer == 0.0
    assert factors_for(VLLM, SpeedFactors(engine_version="0.11.0")).graph_gap_us_per_mla_layer == 0.0


def test_a_chosen_per_layer_gap_also_applies_to_mla_layers():
    # a saved project that chose the per-layer gap (and no MLA figure) keeps it for an MLA model
    h100 = get_gpu("h100-sxm-80g")
    chosen = factors_for(VLLM, SpeedFactors(engine_version="0.11.0", graph_gap_us_per_layer=20.0))
    none = factors_for(VLLM, SpeedFactors(engine_version="0.11.0", graph_gap_us_per_layer=0.0))
    a = StepCostModel.build(MLA_MODEL, "fp8-block", "bf16", h100, 8, chosen).decode_step_seconds(1, 1000)
    b = StepCostModel.build(MLA_MODEL, "fp8-block", "bf16", h100, 8, none).decode_step_seconds(1, 1000)
    assert a - b == pytest.approx(61 * 20e-6, rel=1e-9)
