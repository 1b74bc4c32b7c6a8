"""The per-step costs beside the layers' GEMMs and attention are NVIDIA aiconfigurator's, pinned to its values.

aiconfigurator (ai-dynamo/aiconfigurator@095f58a) composes a decode step from measured operators plus memory ops:
the embedding lookup and, per decoder layer, two add+norm ElementWise ops ((2h + 2h) x 2 bytes per token) and the
gated activation ((2I + I) x 2 bytes per token), each bytes / (bandwidth x 0.8) + 3 us (sdk/models/llama.py,
rust operators/elementwise.rs, systems/h100_sxm.yaml); no engine term per step. These tests pin those values and
show the model uses them."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import PROFILE_IDS, get_profile
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.roofline import ELEMENTWISE_BW_SHARE, ELEMENTWISE_OP_FIXED_S, StepCostModel

AIC = "github.com/ai-dynamo/aiconfigurator/blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce"


def test_the_constants_are_aiconfigurators() -> None:
    assert ELEMENTWISE_OP_FIXED_S == 3e-6  # systems/*_sxm.yaml mem_empirical_constant_latency: 0.000003
    assert ELEMENTWISE_BW_SHARE == 0.8  # systems/*_sxm.yaml mem_bw_empirical_scaling_factor: 0.8


@pytest.mark.parametrize("engine", PROFILE_IDS)
def test_every_engine_profile_takes_the_embedding_lookup_as_its_step_overhead_and_cites_it(engine: str) -> None:
    profile = get_profile(engine)
    assert profile.step_overhead_ms == 0.003  # one memory op's constant: the embedding lookup
    cited = [s for s in profile.sources if AIC in s and "step_overhead_ms 0.003" in s]
    assert cited, f"{engine}: step_overhead_ms without its aiconfigurator source"
    assert SpeedFactors().step_overhead_ms == 0.003  # the default is vLLM's profile value


def test_a_dense_step_adds_three_small_kernels_per_layer_with_their_bytes() -> None:
    model, gpu = get_model("llama-3.1-8b-instruct"), get_gpu("h100-sxm-80g")
    c = StepCostModel.build(model, "bf16", "bf16", gpu, 1)
    assert c.elementwise_fixed_s == pytest.approx(model.num_layers * 3 * 3e-6)  # 32 layers: 0.288 ms
    h, i = model.hidden_size, model.intermediate_size
    assert c.elementwise_bytes_per_token == model.num_layers * (2 * 8 * h + 6 * i)
    assert c.elementwise_bytes_per_s == pytest.approx(gpu.bandwidth_bytes_per_s * 0.8)
    # the step carries them beside its linear layers and attention
    without = StepCostModel.build(model, "bf16", "bf16", gpu, 1)
    object.__setattr__(without, "elementwise_fixed_s", 0.0)
    object.__setattr__(without, "elementwise_bytes_per_token", 0.0)
    extra = c.decode_step_seconds(1, 100) - without.decode_step_seconds(1, 100)
    assert extra == pytest.approx(model.num_layers * 9e-6 + c.elementwise_bytes_per_token / (gpu.bandwidth_bytes_per_s * 0.8))


def test_tensor_parallel_splits_the_activation_and_moe_layers_have_no_separate_activation() -> None:
    model, gpu = get_model("llama-3.1-70b-instruct"), get_gpu("h100-sxm-80g")
    tp4 = StepCostModel.build(model, "bf16", "bf16", gpu, 4)
    assert tp4.elementwise_bytes_per_token == model.num_layers * (2 * 8 * model.hidden_size + 6 * model.intermediate_size // 4)
    moe = get_model("qwen3-30b-a3b")  # every layer MoE: the fused-MoE call holds the activation
    c = StepCostModel.build(moe, "bf16", "bf16", gpu, 1)
    assert c.elementwise_fixed_s == pytest.approx(moe.num_layers * 2 * 3e-6)
