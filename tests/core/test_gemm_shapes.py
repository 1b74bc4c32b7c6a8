"""The dense linear layers timed per shape from vLLM's GEMM latencies NVIDIA aiconfigurator measured
(resources/gpus/gemm_shapes.json, advisor/sizing/gemm_shapes.py)."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.resources import load_json
from advisor.sizing.gemm_shapes import GemmCurve, dense_gemm_shapes, shape_seconds
from advisor.sizing.roofline import StepCostModel

COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce"
# latencies read from aiconfigurator's gemm_perf.parquet at that commit (vLLM 0.14.0, BF16, kernel_source
# vllm_default), in microseconds, as tools/gemm_shapes.py stores them
PUBLISHED_US = {
    ("h100-sxm-80g", 1, 4096, 4096): 15.95,  # 0.015955 ms: 2 x 4096 x 4096 bytes at 0.63 of 3.35 TB/s
    ("a100-sxm-80g", 1, 5120, 5120): 39.31,  # 0.039315 ms
    ("h100-sxm-80g", 1, 5120, 5120): 20.31,  # 0.020308 ms
}


def test_the_table_is_aiconfigurators_per_gpu_with_its_source() -> None:
    data = load_json("gpus", "gemm_shapes.json")
    assert set(data["gpus"]) == {"a100-sxm-80g", "h100-sxm-80g", "h200-141g", "l40s", "b200"}
    for gpu, table in data["gpus"].items():
        assert f"ai-dynamo/aiconfigurator/blob/{COMMIT}/" in table["source"] and table["source"].endswith("gemm_perf.parquet"), gpu
        assert len(table["latency_us"]) == len(data["m_grid"])
    m, nk = data["m_grid"], data["nk_grid"]
    for (gpu, rows, n, k), us in PUBLISHED_US.items():
        stored = data["gpus"][gpu]["latency_us"][m.index(rows)][nk.index(n)][nk.index(k)]
        assert stored == pytest.approx(us, abs=0.005)
        # on a grid point the interpolation returns the measurement itself
        assert shape_seconds(gpu, n, k)[m.index(rows)] == pytest.approx(us * 1e-6, rel=1e-3)


def test_short_prefills_run_far_below_the_median_gemm_rate() -> None:
    # the reason for the table: a 256-row GEMM of a 5,120-wide layer reaches ~490 TFLOP/s on an H100, a 2,048-row one
    # ~860, where the per-GPU median (resources/gpus/gemm_rates.json) is 807
    m = load_json("gpus", "gemm_shapes.json")["m_grid"]
    t = shape_seconds("h100-sxm-80g", 5120, 5120)
    rate = {rows: 2 * rows * 5120 * 5120 / t[m.index(rows)] / 1e12 for rows in (256, 2048)}
    assert 450 < rate[256] < 530 and 820 < rate[2048] < 900


def test_interpolation_is_exact_for_power_laws_and_proportional_past_the_grid() -> None:
    lo, hi = shape_seconds("a100-sxm-80g", 4096, 4096), shape_seconds("a100-sxm-80g", 5120, 4096)  # neighbours
    mid = shape_seconds("a100-sxm-80g", 4579, 4096)  # ~ their geometric middle: log-linear between the two
    assert mid[0] == pytest.approx((lo[0] * hi[0]) ** 0.5, rel=0.01)
    edge = shape_seconds("a100-sxm-80g", 65536, 4096)
    assert shape_seconds("a100-sxm-80g", 131072, 4096) == pytest.approx(2 * edge)  # vocabularies past 65,536
    curve = GemmCurve((1.0, 2.0, 4.0), (1.0, 2.0, 3.0))
    assert curve.at(3.0) == 2.5 and curve.at(8.0) == 6.0 and curve.at(0) == 0.0


def test_shapes_are_fused_and_sharded_as_vllm_runs_them() -> None:
    model = get_model("llama-3.1-8b-instruct")  # h 4096, 32 q / 8 kv heads of 128, I 14336
    one = dict(((n, k), c) for n, k, c in dense_gemm_shapes(model, 1))
    assert one == {(6144, 4096): 32, (4096, 4096): 32, (28672, 4096): 32, (4096, 14336): 32}
    tp8 = dict(((n, k), c) for n, k, c in dense_gemm_shapes(get_model("llama-3.1-70b-instruct"), 8))
    # 64 q + 8 kv heads over 8 GPUs: 8 q heads and one K and one V head each
    assert tp8 == {(1280, 8192): 80, (8192, 1024): 80, (7168, 8192): 80, (8192, 3584): 80}


def test_the_step_uses_the_shapes_on_measured_gpus_only_and_not_with_a_chosen_mfu() -> None:
    model = get_model("qwen3-14b")
    a100 = StepCostModel.build(model, "bf16", "bf16", get_gpu("a100-sxm-80g"), 1)
    assert a100.shape_times is not None
    # one decode token: the dense layers at their measured m = 1 latencies + the LM head at one row
    st = a100.shape_times
    assert a100.shaped_dense_seconds(1, 1) == pytest.approx(st.dense.seconds[0] + st.head.seconds[0])
    assert StepCostModel.build(model, "bf16", "bf16", get_gpu("a800-80g"), 1).shape_times is None  # no table
    assert StepCostModel.build(model, "awq-int4", "bf16", get_gpu("a100-sxm-80g"), 1).shape_times is None  # Marlin
    chosen = StepCostModel.build(model, "bf16", "bf16", get_gpu("a100-sxm-80g"), 1, SpeedFactors(mfu=0.5))
    assert chosen.shape_times is None  # the user's MFU for every GEMM
    # a 512-token prefill chunk takes longer than the A100's median GEMM rate says (the rate it reaches there is
    # lower): the A800, the same chip without a table of its own, keeps that median
    median = StepCostModel.build(model, "bf16", "bf16", get_gpu("a800-80g"), 1)
    assert median.gemm is not None and median.gemm.reference_gpu == "a100-sxm-80g"
    assert a100.prefill_seconds(512) > 1.1 * median.prefill_seconds(512)
