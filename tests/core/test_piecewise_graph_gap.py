"""vLLM V1 decoded in piecewise CUDA graphs until 0.11.0 made FULL_AND_PIECEWISE the default (vllm#25444): every
layer's attention was launched from Python between two graph replays, and vllm#20059 measured what that costs a
decode step (Qwen2.5-1.5B, 28 layers: median TPOT 5.42 against 5.02-5.09 ms, 13.5 us a layer). A prediction or a
benchmark that names such a version pays it per layer per step; the current version and V0 (whole-model decode
graphs) do not."""

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
