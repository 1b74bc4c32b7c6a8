"""MLA models' dense layers outside the attention block (shared experts, first dense MLPs) are timed per shape from the
engine's measured GEMMs, while the MLA block keeps its own measured time (advisor/sizing/gemm_shapes.py)."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.gemm_shapes import MLA_BLOCK_ROLES, dense_gemm_shapes, shape_seconds
from advisor.sizing.roofline import MLA_LAYER_FIXED_S, StepCostModel
from advisor.sizing.tensors import tensors


def test_an_mla_models_shapes_are_its_shared_experts_and_dense_mlps_only() -> None:
    model = get_model("deepseek-v3")  # h 7168; 3 dense layers (I 18432), 58 MoE layers with one shared expert (I 2048)
    shapes = {(n, k): c for n, k, c in dense_gemm_shapes(model, 8)}
    # gate/up fused and split over 8 GPUs, down split on k, as vLLM's MergedColumnParallelLinear / RowParallelLinear
    assert shapes == {(2 * 18432 // 8, 7168): 3, (7168, 18432 // 8): 3, (2 * 2048 // 8, 7168): 58, (7168, 2048 // 8): 58}
    roles = {t.role for t in tensors(model) if t.kind == "linear" and not t.expert}
    assert {"attn_q_a", "attn_q_b", "attn_kv_a_mqa", "attn_kv_b", "attn_output"} <= roles & MLA_BLOCK_ROLES


def test_an_fp8_mla_model_pays_its_shared_experts_measured_kernel_time() -> None:
    # vLLM 0.14's block-scaled FP8 GEMM takes 29.5 µs (512 x 7168) and 22.3 µs (7168 x 256) at one row on an H100
    # (aiconfigurator's gemm_perf.parquet, fp8_block): a shared expert's two GEMMs cost ~52 µs, not the ~2 µs its
    # 5.5 MB of weights take to read; before session 29 an MLA model never used the tables
    model, h100 = get_model("deepseek-v3"), get_gpu("h100-sxm-80g")
    step = StepCostModel.build(model, "fp8-block", "bf16", h100, 8, SpeedFactors(kernel_engine="vllm", engine_version="0.14.0"))
    assert step.shape_times is not None and "vllm/0.14.0" in step.shape_times.source
    key = "h100-sxm-80g:fp8-block:vllm:0.14.0"
    shared = float(shape_seconds(key, 512, 7168)[0] + shape_seconds(key, 7168, 256)[0])
    assert 45e-6 < shared < 60e-6
    # the MLA block is still read and computed as in the rate mode (its small kernels in MLA_LAYER_FIXED_S)
    assert step.attn_fixed_s == pytest.approx(model.num_layers * MLA_LAYER_FIXED_S)
    assert step.block_bytes > 0 and step.block_flops_per_token > 0
    st = step.shape_times
    one_token = st.dense.seconds[0] + st.head.seconds[0] + step.block_bytes / step.dense_bytes_per_s
    assert step.shaped_dense_seconds(1, 1) == pytest.approx(one_token)
    # a decode step now costs at least the 58 shared experts' measured time more than the weight-read-only model did
    rate_only = StepCostModel.build(model, "fp8-block", "bf16", h100, 8, SpeedFactors(kernel_engine="vllm", engine_version="0.14.0", mbu=0.75))
    assert rate_only.shape_times is None  # a chosen MBU keeps the rate mode: the comparison basis
    assert step.decode_step_seconds(1, 1000) > rate_only.decode_step_seconds(1, 1000) + 58 * 0.8 * shared


def test_awq_mla_and_gpus_without_tables_keep_the_rate_mode() -> None:
    model = get_model("deepseek-r1")
    assert StepCostModel.build(model, "awq-int4", "bf16", get_gpu("h100-sxm-80g"), 8).shape_times is None  # Marlin
    assert StepCostModel.build(model, "fp8-block", "bf16", get_gpu("h20-96g"), 8).shape_times is None  # no table
