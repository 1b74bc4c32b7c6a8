"""Marlin on Hopper: AWQ/GPTQ weights stream at a cited share of the BF16 rate (advisor.sizing.roofline)."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import MOE_LAYER_FIXED_S, StepCostModel, marlin_read_share


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
    [
        (8, 7168, 2048, 0.143),  # DeepSeek-V3 shape, E256 top-8 (flagos-ai/FlagGems PR #3609, H20, vLLM Marlin)
        (2, 4096, 14336, 0.144),  # Mixtral shape, E8 top-2
        (10, 4096, 1024, 0.084),  # E512 top-10
    ],
)
def test_fused_marlin_moe_call_on_h20_matches_the_published_kernel_time(
    experts_read: int, k: int, n: int, published_ms: float
) -> None:
    # one token: every picked expert's w13 (k x 2n) and w2 (n x k) INT4 weights, plus the fixed MoE-call time
    h20 = get_gpu("h20-96g")
    share = marlin_read_share(get_format("awq-int4"), h20)
    int4_bytes = experts_read * 3 * k * n * 0.5
    modelled = int4_bytes / (h20.bandwidth_bytes_per_s * SpeedFactors().mbu * share) + MOE_LAYER_FIXED_S
    assert modelled * 1e3 == pytest.approx(published_ms, rel=0.10)
    # without the Hopper share the same call would be modelled 21-28 % too fast
    assert int4_bytes / (h20.bandwidth_bytes_per_s * SpeedFactors().mbu) + MOE_LAYER_FIXED_S < 0.81 * published_ms * 1e-3


def test_deepseek_awq_step_reads_quantized_weights_at_the_marlin_share() -> None:
    model, h100 = get_model("deepseek-r1"), get_gpu("h100-sxm-80g")
    c = StepCostModel.build(model, "awq-int4", "bf16", h100, 8)
    assert c.quant_read_share == pytest.approx(4.98 / 2.30 / 4)
    assert 0 < c.quant_dense_bytes < c.dense_bytes  # embeddings, norms, routers and the LM head stay 16-bit
    plain = dataclasses.replace(c, quant_read_share=1.0)
    touched = c.experts_touched(1)
    extra = (1 / c.quant_read_share - 1) * (c.quant_dense_bytes + c.moe_layers * touched * c.expert_bytes) / c.bytes_per_s
    assert c.weight_read_seconds(touched) == pytest.approx(plain.weight_read_seconds(touched) + extra)
    assert c.decode_step_seconds(1, 1000) == pytest.approx(plain.decode_step_seconds(1, 1000) + extra)
    # the same checkpoint on A100s is not derated
    assert StepCostModel.build(model, "awq-int4", "bf16", get_gpu("a100-sxm-80g"), 8).quant_read_share == 1.0
