"""INT4 Marlin's compute-bound (prefill) GEMMs on Ampere (advisor.sizing.roofline.MARLIN_AMPERE_COMPUTE_SHARE), checked
against the published vLLM TTFTs it comes from, and where it must not apply."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.sizing.roofline import StepCostModel


@pytest.mark.parametrize(
    ("model", "tokens", "published"),
    # HandH1998/QQQ issue #15 (2024-09-29), vLLM, 1,024-token prompts, TTFT marlin-g128 / fp16: Llama-2-7B at batch 1
    # 78.35 / 71.63 ms and batch 4 313.15 / 270.68 ms; Llama-2-13B 146.03 / 133.48 and 293.79 / 241.39 ms. The catalog's
    # nearest models stand in (same widths class; GQA instead of MHA, so a little less attention): the whole modelled
    # prefill, attention and all, must come out as much slower than FP16 as the measured one did.
    [
        ("llama-3.1-8b-instruct", 1024, 78.35 / 71.63),
        ("llama-3.1-8b-instruct", 4096, 313.15 / 270.68),
        ("qwen3-14b", 1024, 146.03 / 133.48),
        ("qwen3-14b", 4096, 293.79 / 241.39),
    ],
)
def test_awq_prefill_on_an_a100_is_as_much_slower_than_fp16_as_vllm_measured(model: str, tokens: int, published: float) -> None:
    a100, spec = get_gpu("a100-sxm-80g"), get_model(model)
    fp16 = StepCostModel.build(spec, "fp16", "bf16", a100, 1)
    awq = StepCostModel.build(spec, "awq-int4", "bf16", a100, 1)
    assert awq.prefill_seconds(tokens) / fp16.prefill_seconds(tokens) == pytest.approx(published, rel=0.05)


def test_decode_steps_keep_their_weight_read() -> None:
    # a decode step is memory-bound: Marlin streams INT4 at its ideal rate on Ampere (IST-DASLab/marlin README)
    awq = StepCostModel.build(get_model("qwen3-14b"), "awq-int4", "bf16", get_gpu("a100-sxm-80g"), 1)
    assert awq.quant_compute_share < 1.0
    plain = dataclasses.replace(awq, quant_compute_share=1.0, quant_flops_per_token=0.0)
    for batch in (1, 8, 32):
        assert awq.decode_step_seconds(batch, 1000) == plain.decode_step_seconds(batch, 1000)


@pytest.mark.parametrize(
    ("gpu", "fmt"),
    # no published Marlin prefill figure off Ampere, nor for INT8 Marlin; 16-bit and FP8 layers are not Marlin's
    [("h100-sxm-80g", "awq-int4"), ("l40s", "gptq-int4"), ("b200", "awq-int4"), ("a100-sxm-80g", "gptq-int8"),
     ("a100-sxm-80g", "bf16"), ("a100-sxm-80g", "fp8")],  # fmt: skip
)
def test_not_applied_where_nothing_was_measured(gpu: str, fmt: str) -> None:
    c = StepCostModel.build(get_model("qwen3-14b"), fmt, "bf16", get_gpu(gpu), 1)
    assert c.quant_compute_share == 1.0 and c.quant_flops_per_token == 0.0
