"""Tensor-parallel all-reduce term of the step cost (advisor.sizing.roofline)."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.roofline import ALLREDUCE_LATENCY_S, ALLREDUCES_PER_LAYER, StepCostModel


def costs(model: str, gpu: str, gpus: int, engine: str = "vllm") -> StepCostModel:
    return StepCostModel.build(get_model(model), "bf16", "bf16", get_gpu(gpu), gpus, SpeedFactors(kernel_engine=engine))


def small_kernels(c: StepCostModel, tokens: int) -> float:
    """The per-layer norm/activation kernels a step adds beside its GEMMs and attention (ELEMENTWISE_OP_FIXED_S)."""
    return c.elementwise_fixed_s + tokens * c.elementwise_bytes_per_token / c.elementwise_bytes_per_s


def test_no_all_reduce_on_one_gpu() -> None:
    c = costs("llama-3.1-8b-instruct", "h100-sxm-80g", 1)
    assert c.allreduces == 0
    assert c.comm_seconds(1) == 0.0 and c.comm_seconds(8192) == 0.0
    compute, memory = c.step_parts(0, 0, 1, 1000)
    assert c.step_seconds(0, 0, 1, 1000) == pytest.approx(max(compute, memory) + small_kernels(c, 1) + c.overhead_s)


def test_two_all_reduces_per_layer_each_with_the_link_latency() -> None:
    # TensorRT-LLM's all-reduce was not measured: the formula, latency + bytes over the link
    model = get_model("llama-3.1-70b-instruct")
    c = costs("llama-3.1-70b-instruct", "h100-sxm-80g", 4, engine="trtllm")
    assert c.allreduces == ALLREDUCES_PER_LAYER * model.num_layers == 160
    # one decode token: the latency dominates; the bytes are 8192 × 2 B × 1.5 over ~360 GB/s
    assert c.comm_seconds(1) == pytest.approx(160 * (ALLREDUCE_LATENCY_S["nvlink"] + 8192 * 2 * 1.5 / 360e9), rel=1e-6)
    compute, memory = c.step_parts(0, 0, 1, 1000)
    assert c.step_seconds(0, 0, 1, 1000) == pytest.approx(
        max(compute, memory) + c.comm_seconds(1) + small_kernels(c, 1) + c.overhead_s
    )


def test_vllm_on_h100s_takes_the_measured_all_reduce() -> None:
    # vLLM's custom all-reduce at TP 4 on H100s: 4.9 us for a 16 KiB decode message (NVIDIA's timing, ~half the
    # formula's 9 us latency), and the measured 18.6 us at 1 MiB for a 64-token batch of Llama-70B (8,192 x 2 B)
    c = costs("llama-3.1-70b-instruct", "h100-sxm-80g", 4)
    assert c.comm_seconds(1) / c.allreduces == pytest.approx(4.9e-6, rel=0.05)
    assert c.comm_seconds(64) / c.allreduces == pytest.approx(18.6e-6, rel=0.01)


def test_all_reduce_time_grows_with_layers_tp_degree_and_tokens() -> None:
    small, big = costs("llama-3.1-8b-instruct", "h100-sxm-80g", 2), costs("llama-3.1-70b-instruct", "h100-sxm-80g", 2)
    assert big.comm_seconds(1) > small.comm_seconds(1) * 2  # 80 layers vs 32
    by_tp = [costs("llama-3.1-70b-instruct", "h100-sxm-80g", n).comm_seconds(256) for n in (2, 4, 8)]
    assert by_tp[0] < by_tp[1] < by_tp[2]  # ring share 2(n-1)/n of the message
    c = costs("llama-3.1-70b-instruct", "h100-sxm-80g", 4)
    assert c.comm_seconds(8192) > 10 * c.comm_seconds(1)  # a prefill chunk's hidden states are large messages


def test_pcie_all_reduce_is_slower_than_nvlink() -> None:
    nvlink = costs("qwen2.5-7b-instruct", "h100-sxm-80g", 2)
    pcie = costs("qwen2.5-7b-instruct", "rtx-4090", 2)
    assert get_gpu("rtx-4090").interconnect == "pcie"
    assert pcie.comm_seconds(1) > 3 * nvlink.comm_seconds(1)
    assert pcie.comm_seconds(2048) > 3 * nvlink.comm_seconds(2048)


def test_moe_layers_add_a_fixed_fused_experts_time_to_the_memory_side() -> None:
    from advisor.sizing.roofline import MOE_LAYER_FIXED_S

    dense = costs("qwen3-14b", "a100-sxm-80g", 1)
    moe = costs("qwen3-30b-a3b", "a100-sxm-80g", 1)
    assert dense.moe_layer_fixed_s == 0.0
    assert moe.moe_layer_fixed_s == MOE_LAYER_FIXED_S and moe.moe_layers == get_model("qwen3-30b-a3b").num_layers
    _, memory = moe.step_parts(0, 0, 1, 100)
    # the dense layers at their measured per-shape GEMM times on the A100, the routed experts and the KV cache at MBU
    assert moe.shape_times is not None
    reads = moe.moe_layers * moe.experts_touched(1) * moe.expert_bytes + 100 * moe.kv_bytes_per_token
    seconds = moe.shaped_dense_seconds(1, 1) + reads / moe.bytes_per_s
    assert memory == pytest.approx(seconds + moe.moe_layers * MOE_LAYER_FIXED_S + moe.attn_fixed_s)
    # a large prefill chunk is compute-bound: the fixed part is hidden by max(compute, memory)
    compute, memory = moe.step_parts(8192, 8192 * 8193 / 2, 0, 0)
    assert compute > memory


def test_tensor_parallel_scales_compute_efficiency_but_not_the_weight_read_bandwidth() -> None:
    one, two = costs("qwen2.5-72b-instruct", "h100-sxm-80g", 1), costs("qwen2.5-72b-instruct", "h100-sxm-80g", 2)
    assert two.bytes_per_s == pytest.approx(one.bytes_per_s)  # each GPU streams its own shard at the same MBU
    assert two.flops_per_s == pytest.approx(2 * one.flops_per_s * 0.9)  # tp_efficiency_nvlink per doubling
    assert two.dense_bytes == pytest.approx(one.dense_bytes / 2, rel=0.02)


def test_vllm_profile_prices_eager_mode_per_layer() -> None:
    from advisor.domain.engine_profiles import get_profile

    assert get_profile("vllm").eager_ms_per_layer > 0
    assert get_profile("llama.cpp").eager_ms_per_layer == 0.0


def test_accuracy_fixture_rows_are_complete_and_resolvable() -> None:
    import csv
    from pathlib import Path

    from advisor.domain.engine_profiles import get_profile

    path = Path(__file__).resolve().parents[1] / "fixtures" / "predictor_accuracy.csv"
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) >= 50
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        assert r["source_url"].startswith("https://"), r["id"]
        assert r["split"] in ("train", "holdout"), r["id"]
        assert r["load"] in ("closed", "rate", "burst"), r["id"]
        assert r["lengths"] in ("fixed", "sharegpt", "uniform", "eos"), r["id"]
        assert r["engine_version"] and r["weights"], r["id"]
        get_profile(r["engine"]), get_model(r["model"]), get_gpu(r["gpu"])
        assert r["ttft_ms"] or r["tpot_ms"], r["id"]


def test_linear_layers_and_attention_are_bound_separately_and_add_up() -> None:
    # 256 decoding sequences of Qwen2-7B on an A100: the GEMMs are compute-bound (256 tokens per weight read,
    # above the A100's ~150 FLOP/byte ridge), attention over 256 × 1,536 tokens of KV is bandwidth-bound. The
    # kernels run one after the other, so the step is the sum of the two bounds, not max(Σ FLOPs, Σ bytes).
    c = costs("qwen2-7b-instruct", "a100-sxm-80g", 1)
    (lin_c, lin_m), (att_c, att_m) = c.op_parts(0, 0, 256, 256 * 1536)
    assert lin_c > lin_m and att_m > att_c
    step = c.step_seconds(0, 0, 256, 256 * 1536)
    assert step == pytest.approx(lin_c + att_m + small_kernels(c, 256) + c.overhead_s)
    compute, memory = c.step_parts(0, 0, 256, 256 * 1536)
    # the old single max over the summed FLOPs and bytes hid the GEMMs' compute excess behind attention's KV read
    hidden = step - c.overhead_s - small_kernels(c, 256) - max(compute, memory)
    assert hidden == pytest.approx(lin_c + att_m - max(compute, memory)) and hidden > 0.002
    # where both are bandwidth-bound (one sequence) the sum of bounds is the plain bandwidth roofline
    compute, memory = c.step_parts(0, 0, 1, 1536)
    assert c.step_seconds(0, 0, 1, 1536) == pytest.approx(memory + small_kernels(c, 1) + c.overhead_s)
