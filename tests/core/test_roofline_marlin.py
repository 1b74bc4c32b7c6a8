"""Measured per-call costs of the roofline (advisor.sizing.roofline): Marlin on Hopper, the MLA block's fixed time."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.memory import tensor_bytes_on_gpu
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import MLA_LAYER_FIXED_S, MOE_LAYER_FIXED_S, StepCostModel, marlin_read_share
from advisor.sizing.tensors import tensors


def test_int4_and_int8_shares_reproduce_the_h100_one_row_gemm_figures() -> None:
    # inclusionAI/humming PR #2, H100, m = 1, n = k = 8192: torch-w16a16 2.30, marlin-w4a16 4.98, marlin-w8a16 3.46
    # TFLOP/s. Same FLOPs, so the modelled time ratio of a Marlin GEMM to a BF16 one must be 2.30 / 4.98 (3.46).
    h100 = get_gpu("h100-sxm-80g")
    weights = 8192 * 8192
    bf16_s = weights * 2
    for fmt, bytes_per_weight, tflops in (("awq-int4", 0.5, 4.98), ("gptq-int4", 0.5, 4.98), ("gptq-int8", 1.0, 3.46)):
        marlin_s = weights * bytes_per_weight / marlin_read_share(get_format(fmt), h100)
        assert marlin_s / bf16_s == pytest.approx(2.30 / tflops, rel=1e-9)


def test_no_derating_off_hopper_or_for_formats_marlin_does_not_run() -> None:
    # Marlin reaches its ideal 3.87x over FP16 at batch 1 on Ampere/Ada (IST-DASLab/marlin README); no Blackwell figure
    for gpu in ("a100-sxm-80g", "a10", "rtx-4090", "l40s", "b200"):
        assert marlin_read_share(get_format("awq-int4"), get_gpu(gpu)) == 1.0
    for fmt in ("bf16", "fp8", "fp8-block", "int8"):
        assert marlin_read_share(get_format(fmt), get_gpu("h100-sxm-80g")) == 1.0


@pytest.mark.parametrize(
    ("experts_read", "k", "n", "published_ms"),
    [(8, 7168, 256, 0.033), (2, 4096, 14336, 0.107)],  # DeepSeek-V3 at TP 8 (I = 2048 / 8); Mixtral at TP 1
)
def test_marlin_moe_experts_are_not_derated(experts_read: int, k: int, n: int, published_ms: float) -> None:
    # vLLM's fused Marlin MoE at one token on an H100, in CUDA graphs (ai-dynamo/aiconfigurator,
    # systems/data/h100_sxm/moe/vllm/0.14.0, int4_wo): the unscaled MBU plus MOE_LAYER_FIXED_S is already no faster
    h100 = get_gpu("h100-sxm-80g")
    int4_bytes = experts_read * 3 * k * n * 0.5
    modelled = int4_bytes / (h100.bandwidth_bytes_per_s * SpeedFactors().mbu) + MOE_LAYER_FIXED_S
    assert modelled >= published_ms * 1e-3
    c = StepCostModel.build(get_model("deepseek-r1"), "awq-int4", "bf16", h100, 8)
    plain = dataclasses.replace(c, quant_read_share=1.0)
    assert c.weight_read_seconds(8) - plain.weight_read_seconds(8) == pytest.approx(
        (1 / c.quant_read_share - 1) * c.quant_dense_bytes / c.dense_bytes_per_s
    )


def test_deepseek_awq_step_reads_its_dense_marlin_weights_at_the_share() -> None:
    model, h100 = get_model("deepseek-r1"), get_gpu("h100-sxm-80g")
    c = StepCostModel.build(model, "awq-int4", "bf16", h100, 8)
    assert c.quant_read_share == pytest.approx(4.98 / 2.30 / 4)
    assert 0 < c.quant_dense_bytes < c.dense_bytes  # embeddings, norms, routers and the LM head stay 16-bit
    plain = dataclasses.replace(c, quant_read_share=1.0)
    extra = (1 / c.quant_read_share - 1) * c.quant_dense_bytes / c.dense_bytes_per_s
    assert c.decode_step_seconds(1, 1000) == pytest.approx(plain.decode_step_seconds(1, 1000) + extra)
    # the same checkpoint on A100s is not derated
    assert StepCostModel.build(model, "awq-int4", "bf16", get_gpu("a100-sxm-80g"), 8).quant_read_share == 1.0


def _mla_block_bytes(tp: int) -> float:
    """Per GPU, one layer's MLA attention weights in BF16 (projections and norms)."""
    model = get_model("deepseek-v3")
    return sum(
        tensor_bytes_on_gpu(t, model, get_format("bf16"), tp)
        for t in tensors(model)
        if t.layer == 0 and t.role.startswith("attn_") and not t.mtp
    )


@pytest.mark.parametrize(
    ("tp", "published_ms"),
    # vLLM DeepseekV2MLAAttention at decode, batch 1, 2-64 tokens of context, BF16, H100, CUDA graphs: 128 heads
    # per GPU (TP 1) 0.199-0.209 ms, 16 (TP 8) 0.095-0.097, 8 (TP 16) 0.088-0.089 (ai-dynamo/aiconfigurator,
    # systems/data/h100_sxm/mla/vllm/0.19.0 and 0.24.0, mla_generation_module_perf)
    [(1, 0.204), (8, 0.096), (16, 0.0885)],
)
def test_mla_block_fixed_time_plus_its_weight_read_matches_the_measured_module(tp: int, published_ms: float) -> None:
    h100 = get_gpu("h100-sxm-80g")
    modelled = _mla_block_bytes(tp) / (h100.bandwidth_bytes_per_s * SpeedFactors().mbu) + MLA_LAYER_FIXED_S
    assert modelled * 1e3 == pytest.approx(published_ms, rel=0.08)


def test_mla_fixed_time_is_counted_once_per_layer_on_the_attention_side() -> None:
    h100 = get_gpu("h100-sxm-80g")
    mla = StepCostModel.build(get_model("deepseek-r1"), "fp8-block", "bf16", h100, 8)
    assert mla.attn_fixed_s == pytest.approx(61 * MLA_LAYER_FIXED_S)
    (_, _), (_, att_m) = mla.op_parts(0, 0, 1, 1000)
    assert att_m == pytest.approx(1000 * mla.kv_bytes_per_token / mla.bytes_per_s + mla.attn_fixed_s)
    assert MLA_LAYER_FIXED_S > 5 * 12e-6  # the MLA block's constant replaces, not adds to, the attention call's


@pytest.mark.parametrize(
    ("gpu", "context", "published_us", "tolerance"),
    # vLLM FlashAttention decode kernel in CUDA graphs, batch 1, 8 KV heads of 128 (40 query heads), BF16 KV
    # (ai-dynamo/aiconfigurator, systems/data/{h100,a100}_sxm/attention/vllm/0.14.0, generation_attention_perf)
    [
        ("h100-sxm-80g", 2, 11.5, 0.06),
        ("a100-sxm-80g", 2, 12.5, 0.06),
        ("h100-sxm-80g", 8192, 20.9, 0.25),  # the KV read (33.5 MB) at MBU on top
        ("a100-sxm-80g", 8192, 41.4, 0.25),
    ],
)
def test_attention_call_fixed_time_plus_kv_read_matches_the_measured_kernel(
    gpu: str, context: int, published_us: float, tolerance: float
) -> None:
    from advisor.sizing.roofline import ATTENTION_CALL_FIXED_S

    spec = get_gpu(gpu)
    kv_bytes = context * 8 * 128 * 2 * 2  # K and V, BF16
    modelled = ATTENTION_CALL_FIXED_S + kv_bytes / (spec.bandwidth_bytes_per_s * SpeedFactors().mbu)
    assert modelled * 1e6 == pytest.approx(published_us, rel=tolerance)


def test_gqa_models_pay_the_attention_call_time_once_per_layer() -> None:
    from advisor.sizing.roofline import ATTENTION_CALL_FIXED_S

    model = get_model("llama-3.1-8b-instruct")
    c = StepCostModel.build(model, "bf16", "bf16", get_gpu("h100-sxm-80g"), 1)
    assert c.attn_fixed_s == pytest.approx(model.num_layers * ATTENTION_CALL_FIXED_S)
