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
    assert {k for k in data["gpus"] if ":" not in k} == {"a100-sxm-80g", "h100-sxm-80g", "h200-141g", "l40s", "b200"}
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


# FP8 latencies read from the same parquet files (gemm_dtype fp8_block, m = 1, n = k = 4,096), in microseconds
FP8_BLOCK_ONE_ROW_US = {"vllm:0.14.0": 34.07, "sglang:0.5.6.post2": 13.64, "trtllm:1.2.0rc5": 11.58}


def test_fp8_tables_are_each_engines_own_and_the_nearest_version_is_used() -> None:
    from advisor.sizing.gemm_shapes import table_key

    data = load_json("gpus", "gemm_shapes.json")
    nk = data["nk_grid"]
    for engine_version, us in FP8_BLOCK_ONE_ROW_US.items():
        table = data["gpus"][f"h100-sxm-80g:fp8-block:{engine_version}"]
        assert f"ai-dynamo/aiconfigurator/blob/{COMMIT}/" in table["source"] and engine_version.split(":")[0] in table["source"]
        assert table["latency_us"][0][nk.index(4096)][nk.index(4096)] == pytest.approx(us, abs=0.005)
    # block-scaled FP8 at one row is not half of BF16's 15.95 µs in any engine: the byte count alone is wrong
    assert min(FP8_BLOCK_ONE_ROW_US.values()) > 0.7 * 15.95
    # the version a benchmark ran picks the nearest measured one; no version: the engine's default (moe_kernels.json)
    assert table_key("h100-sxm-80g", "fp8-block", "sglang", "0.5.3.post3") == "h100-sxm-80g:fp8-block:sglang:0.5.6.post2"
    assert table_key("h100-sxm-80g", "fp8-block", "vllm", "0.11.0") == "h100-sxm-80g:fp8-block:vllm:0.14.0"
    assert table_key("h100-sxm-80g", "fp8", "vllm", None) == "h100-sxm-80g:fp8:vllm:0.24.0"
    assert table_key("h100-sxm-80g", "fp8", "llama.cpp", None) is None  # nothing measured for that engine
    assert table_key("h100-sxm-80g", "bf16", "sglang", None) == "h100-sxm-80g"  # 16-bit: vLLM's BF16 table


def test_an_fp8_checkpoint_decodes_at_its_engines_measured_gemm_speed() -> None:
    model = get_model("qwen3-8b")
    h100 = get_gpu("h100-sxm-80g")

    def step(engine: str, version: str) -> StepCostModel:
        return StepCostModel.build(model, "fp8-block", "bf16", h100, 1, SpeedFactors(kernel_engine=engine, engine_version=version))

    vllm, sglang = step("vllm", "0.14.0"), step("sglang", "0.5.6.post2")
    assert vllm.shape_times is not None and sglang.shape_times is not None
    assert "vllm/0.14.0" in vllm.shape_times.source and "sglang/0.5.6.post2" in sglang.shape_times.source
    # vLLM 0.14's block-scaled kernel is over twice as slow as SGLang's at one row (34 vs 14 µs on a 4,096² GEMM)
    assert vllm.shaped_dense_seconds(1, 1) > 1.5 * sglang.shaped_dense_seconds(1, 1)
    # and neither is the half of a BF16 step the bytes alone would give
    bf16 = StepCostModel.build(model, "bf16", "bf16", h100, 1)
    assert sglang.shaped_dense_seconds(1, 1) > 0.6 * bf16.shaped_dense_seconds(1, 1)
    # an engine nothing was measured for keeps the per-GPU rate and read share
    assert StepCostModel.build(model, "fp8-block", "bf16", h100, 1, SpeedFactors(kernel_engine="llama.cpp")).shape_times is None
    # no FP8 tensor cores (A100): Marlin W8A16, not an FP8 table
    assert StepCostModel.build(model, "fp8-block", "bf16", get_gpu("a100-sxm-80g"), 1).shape_times is None
