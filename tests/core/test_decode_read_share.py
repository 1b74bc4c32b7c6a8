"""Decode streams its dense weights at the share of bandwidth NVIDIA measured for each GPU's decode-shaped GEMMs
(aiconfigurator's vLLM GEMM tables, resources/gpus/gemm_rates.json), not at one MBU for every GPU."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest, SpeedFactors
from advisor.resources import load_json
from advisor.sizing import size
from advisor.sizing.gemm import decode_read_share
from advisor.sizing.roofline import StepCostModel

# the medians tools/gemm_rates.py prints from aiconfigurator 095f58a (m 1-8 BF16 GEMMs, n 2k-64k, k 2k-32k)
PUBLISHED = {"a100-sxm-80g": 0.657, "h100-sxm-80g": 0.766, "h200-141g": 0.692, "l40s": 0.783, "b200": 0.6}


def test_each_measured_gpu_states_its_share_with_its_method_and_source() -> None:
    rows = {r["gpu"]: r for r in load_json("gpus", "gemm_rates.json")["measured"] if "decode_weight_read_share" in r}
    assert set(rows) == set(PUBLISHED)
    for gpu, share in PUBLISHED.items():
        assert rows[gpu]["decode_weight_read_share"] == share
        assert "aiconfigurator" in rows[gpu]["source"] and "m in [1, 2, 4, 8]" in rows[gpu]["decode_method"]
        found = decode_read_share(get_gpu(gpu))
        assert found is not None and found.basis == "measured" and found.share == share


def test_a_gpu_without_its_own_figure_takes_its_architecture_references_only_with_the_same_memory_family() -> None:
    h20 = decode_read_share(get_gpu("h20-96g"))  # Hopper, HBM3: the H100's
    assert h20 is not None and (h20.basis, h20.reference_gpu, h20.share) == ("architecture", "h100-sxm-80g", 0.766)
    a800 = decode_read_share(get_gpu("a800-80g"))
    assert a800 is not None and a800.reference_gpu == "a100-sxm-80g"
    # a GeForce Ada card: its own reference (the RTX 4090) has no decode figure, the architecture's (L40S, GDDR) has
    rtx = decode_read_share(get_gpu("rtx-4090d"))
    assert rtx is not None and rtx.reference_gpu == "l40s"
    assert decode_read_share(get_gpu("a10")) is None  # Ampere GDDR6: the A100's HBM figure does not transfer
    assert decode_read_share(get_gpu("rtx-5090")) is None  # Blackwell GDDR7: not the B200's HBM3e
    assert decode_read_share(get_gpu("mi300x")) is None  # nothing measured for AMD: MBU stays


def test_a_decode_step_reads_the_dense_weights_at_the_measured_share_and_the_routed_experts_at_mbu() -> None:
    gpu = get_gpu("a100-sxm-80g")
    dense = StepCostModel.build(get_model("qwen2-7b-instruct"), "bf16", "bf16", gpu, 1)
    assert dense.weight_bytes_per_s == pytest.approx(gpu.bandwidth_bytes_per_s * 0.657)
    assert dense.bytes_per_s == pytest.approx(gpu.bandwidth_bytes_per_s * 0.75)  # the KV cache keeps MBU
    assert dense.weight_read_seconds(0) == pytest.approx(dense.dense_bytes / (gpu.bandwidth_bytes_per_s * 0.657))
    moe = StepCostModel.build(get_model("qwen3-30b-a3b"), "bf16", "bf16", gpu, 1)
    touched = moe.experts_touched(1)
    expected = moe.dense_bytes / (gpu.bandwidth_bytes_per_s * 0.657) + moe.moe_layers * touched * moe.expert_bytes / (
        gpu.bandwidth_bytes_per_s * 0.75
    )
    assert moe.weight_read_seconds(touched) == pytest.approx(expected)


def test_the_low_and_high_estimates_scale_the_share_like_mbu_and_a_chosen_mbu_replaces_it() -> None:
    gpu, model = get_gpu("h100-sxm-80g"), get_model("qwen2-7b-instruct")
    slow = StepCostModel.build(model, "bf16", "bf16", gpu, 1, mbu=0.6)
    assert slow.weight_bytes_per_s == pytest.approx(gpu.bandwidth_bytes_per_s * 0.766 * 0.6 / 0.75)
    chosen = StepCostModel.build(model, "bf16", "bf16", gpu, 1, SpeedFactors(mbu=0.75))
    assert chosen.weight_bytes_per_s == 0.0 and chosen.read_share is None  # the user's MBU for every byte
    assert chosen.weight_read_seconds(0) == pytest.approx(chosen.dense_bytes / (gpu.bandwidth_bytes_per_s * 0.75))


def test_an_a800_decodes_slower_than_one_mbu_said_and_the_formula_says_why() -> None:
    # the A800 has no per-shape GEMM table of its own (the A100's per-shape times apply only to the A100,
    # gemm_shapes.py): its dense weights stream at its architecture reference's measured share
    model = get_model("qwen2-7b-instruct")
    req = SizingRequest(model=model, gpu=get_gpu("a800-80g"), context=2048, prompt_tokens=1024, output_tokens=256)
    measured = size(req).perf
    one_mbu = size(req.model_copy(update={"factors": SpeedFactors(mbu=0.75)})).perf
    # bandwidth-bound at one user: the dense weights take 0.75 / 0.657 as long
    assert measured.decode_step_ms.value > 1.05 * one_mbu.decode_step_ms.value
    assert "weight-read share 0.657 (a100-sxm-80g's (same architecture and memory family) decode-shaped BF16 GEMMs" in measured.formula["factors"]
    assert "weight-read share 0.75 (MBU" in one_mbu.formula["factors"]
