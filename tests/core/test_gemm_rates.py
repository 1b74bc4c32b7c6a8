"""The linear layers' compute rate comes from measured GEMMs (resources/gpus/gemm_rates.json), not peak × MFU."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model, load_gpus
from advisor.domain.sizing import SpeedFactors
from advisor.resources import load_json
from advisor.sizing.gemm import gemm_rate
from advisor.sizing.roofline import StepCostModel


def test_every_measured_row_names_a_catalog_gpu_a_source_and_a_rate_a_gpu_can_reach() -> None:
    data = load_json("gpus", "gemm_rates.json")
    for row in data["measured"]:
        gpu = get_gpu(row["gpu"])
        assert row["source"].startswith("https://") and row["method"], row["gpu"]
        # achievable, so below the datasheet peak — except GeForce cards, whose datasheet BF16 figure is the
        # FP32-accumulate rate that torch.matmul measurably exceeds at boost clocks (RTX 5090: 236 vs 209.5)
        limit = 1.2 if gpu.market == "consumer" else 1.0
        assert 0.5 * gpu.bf16_tflops_dense < row["bf16_tflops"] < limit * gpu.bf16_tflops_dense, row["gpu"]
    for key, ref in data["architecture_reference"].items():
        assert ref in {row["gpu"] for row in data["measured"]}, key
        assert get_gpu(ref).architecture == key.split("/")[0], key


def test_a_measured_gpu_uses_its_own_rate() -> None:
    rate = gemm_rate(get_gpu("h100-sxm-80g"))
    assert rate is not None and rate.basis == "measured" and rate.reference_gpu == "h100-sxm-80g"
    assert rate.tflops == pytest.approx(806.7)


def test_an_unmeasured_gpu_takes_its_architecture_references_share_of_peak() -> None:
    h100, h20 = get_gpu("h100-sxm-80g"), get_gpu("h20-96g")
    rate = gemm_rate(h20)
    assert rate is not None and rate.basis == "architecture" and rate.reference_gpu == "h100-sxm-80g"
    assert rate.tflops / h20.bf16_tflops_dense == pytest.approx(806.7 / h100.bf16_tflops_dense)
    # a GeForce card follows the measured GeForce card of its generation, not the datacenter part
    d = gemm_rate(get_gpu("rtx-4090d"))
    assert d is not None and d.reference_gpu == "rtx-4090"


def test_nothing_measured_means_no_rate() -> None:
    assert gemm_rate(get_gpu("mi300x")) is None  # no AMD measurement: peak × MFU stays
    assert gemm_rate(get_gpu("t4")) is None  # Turing has no reference GPU
    assert gemm_rate(get_gpu("h100-sxm-80g"), "fp8") is None  # FP8 compute is not covered


def test_the_roofline_uses_the_measured_rate_for_linear_layers_and_peak_times_mfu_for_attention() -> None:
    model, gpu = get_model("qwen2-7b-instruct"), get_gpu("a100-sxm-80g")
    c = StepCostModel.build(model, "bf16", "bf16", gpu, 1)
    assert c.gemm_basis == "measured"
    assert c.flops_per_s == pytest.approx(262.0e12)
    assert c.attn_flops_per_s == pytest.approx(gpu.bf16_tflops_dense * 1e12 * SpeedFactors().mfu)
    # the low/high estimates scale the measured rate like the MFU range
    slow = StepCostModel.build(model, "bf16", "bf16", gpu, 1, mfu=0.35)
    assert slow.flops_per_s == pytest.approx(262.0e12 * 0.35 / 0.5)
    # a 4k-token prefill is compute-bound, so it runs at the measured rate: faster than at peak × 0.5
    flat = StepCostModel.build(model, "bf16", "bf16", gpu, 1, SpeedFactors(mfu=0.5))
    assert c.prefill_seconds(4096) < 0.75 * flat.prefill_seconds(4096)


def test_an_mfu_the_user_sets_overrides_the_measurement() -> None:
    model, gpu = get_model("qwen2-7b-instruct"), get_gpu("h100-sxm-80g")
    c = StepCostModel.build(model, "bf16", "bf16", gpu, 1, SpeedFactors(mfu=0.6))
    assert c.gemm_basis == "mfu"
    assert c.flops_per_s == pytest.approx(c.attn_flops_per_s) == pytest.approx(gpu.bf16_tflops_dense * 1e12 * 0.6)


def test_every_gpu_of_a_referenced_architecture_gets_a_rate() -> None:
    refs = load_json("gpus", "gemm_rates.json")["architecture_reference"]
    for gpu in load_gpus():
        if gpu.architecture in refs:
            rate = gemm_rate(gpu)
            assert rate is not None and rate.tflops > 0, gpu.id
