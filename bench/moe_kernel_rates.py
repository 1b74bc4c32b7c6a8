"""How fast the engines' fused-MoE kernels run the routed experts, from NVIDIA's per-op measurements.

The roofline runs every linear layer at the GPU's measured dense GEMM rate. Routed experts do not: each expert
multiplies only the few tokens routed to it, in one grouped ("fused MoE") kernel, and NVIDIA's aiconfigurator
measured those kernels per engine, version, GPU and precision (systems/data/<gpu>/moe/<engine>/<version>/
moe_perf.parquet: latency of one MoE layer by token count, hidden size, expert width, experts, top-k and
tensor-parallel degree). This script reads those tables and prints, for each engine version, GPU and precision,
the share of the GPU's dense peak the experts' FLOPs reach once each expert gets 256 or more tokens (a
prefill-sized batch: below that the kernel is bound by reading the experts, which the roofline already models).

    python bench/moe_kernel_rates.py /path/to/aiconfigurator            # print the table
    python bench/moe_kernel_rates.py /path/to/aiconfigurator --write    # and rewrite resources/engines/moe_kernels.json

The path is a checkout (or the `fetch` mirror's work tree) of https://github.com/ai-dynamo/aiconfigurator.
Needs pyarrow to read the tables; prints "skipped" without it or without the path.
Only fine-grained MoE shapes (64 or more experts, and gpt-oss's 32 and 128 experts in MXFP4) with experts split by
tensor parallelism (no expert parallelism) at TP 1-8 are used, over every routing distribution measured: the shapes
of Qwen3-30B/235B, DeepSeek-V3/R1, GLM-4.5, Kimi, gpt-oss and the like.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aiconfigurator_tables import ROOT, run  # noqa: E402

OUT = ROOT / "resources" / "engines" / "moe_kernels.json"
DATA = "aic-core/src/aiconfigurator_core/systems/data"
# dense tensor peak (TFLOP/s) the shares are taken of: the catalog's figures for these two GPUs
PEAK = {"h100_sxm": {"bf16": 989.4, "fp8": 1978.9, "int4": 989.4}, "a100_sxm": {"bf16": 312.0, "fp8": 312.0, "int4": 312.0}}
# aiconfigurator's moe_dtype -> the weight formats it stands for here, and the peak it runs against
DTYPES = {"bfloat16": ("bf16", "bf16"), "fp8": ("fp8", "fp8"), "fp8_block": ("fp8-block", "fp8"), "int4_wo": ("int4", "int4"),
          "w4a16_mxfp4": ("mxfp4", "bf16")}  # fmt: skip
GPU_CLASS = {"h100_sxm": "hopper", "a100_sxm": "ampere"}
ENGINES = {"vllm": "vllm", "sglang": "sglang", "trtllm": "trtllm"}
MIN_TOKENS_PER_EXPERT = 256
# Tables left out, with the reason (kept in the written file): one collection an order of magnitude below the
# same kernel's other versions on the same GPU is a broken measurement, not a slower engine.
EXCLUDED = {
    ("sglang", "0.5.6.post2", "h100_sxm", None): "2-3 % of peak, ten times below the same fused_moe_triton kernel in 0.5.9, 0.5.10 and 0.5.14 on the same GPU",
    ("vllm", "0.19.0", "h100_sxm", "int4"): "Marlin int4 MoE at half the rate of 0.14.0 and 0.24.0 on the same GPU, and 5x slower at decode batch sizes",
    ("vllm", "0.24.0", "h100_sxm", "fp8"): "measured on ModelOpt FP8 checkpoints' FlashInfer CUTLASS path (kernel_source vllm_modeloptfp8moe_flashinfer_cutlass_flashinferexperts), not the Fp8MoEMethod Triton path that FP8 quantized by vLLM itself takes (that version's fp8-block rows: vllm_fp8moe_triton_tritonexperts)",
}


def plateau_shares(path: Path, gpu: str, skip: set[str]) -> dict[str, tuple[float, int, list[str]]]:
    """{format: (median share of peak at >= 256 tokens per expert, rows, kernel sources)} of one moe_perf table."""
    import pyarrow.parquet as pq

    found: dict[str, list[float]] = {}
    kernels: dict[str, set[str]] = {}
    for r in pq.read_table(path).to_pylist():
        # MXFP4 rows are gpt-oss's own shapes (32 and 128 experts, each as wide as the model): fine-grained too
        if r.get("moe_ep_size", 1) != 1 or r["moe_tp_size"] not in (1, 2, 4, 8):
            continue
        if r["num_experts"] < 64 and r["moe_dtype"] != "w4a16_mxfp4":
            continue
        if "nongated" in str(r.get("kernel_source", "")):
            continue  # non-gated expert MLPs (two matrices, not three): no model here has them
        mapped = DTYPES.get(r["moe_dtype"])
        if mapped is None or r["num_tokens"] * r["topk"] / r["num_experts"] < MIN_TOKENS_PER_EXPERT:
            continue
        fmt, peak_dtype = mapped
        if fmt in skip:
            continue
        width = r["inter_size"] // r["moe_tp_size"]
        flops = 2.0 * r["num_tokens"] * r["topk"] * 3 * r["hidden_size"] * width  # gate, up and down projections
        found.setdefault(fmt, []).append(flops / (r["latency"] / 1000.0) / (PEAK[gpu][peak_dtype] * 1e12))
        kernels.setdefault(fmt, set()).add(str(r.get("kernel_source", "")))
    return {fmt: (statistics.median(v), len(v), sorted(kernels[fmt])) for fmt, v in found.items() if len(v) >= 20}


def collect(repo: Path) -> dict[str, dict]:
    """{engine: {version: {gpu class: {format: share}}}} with the evidence behind each figure."""
    out: dict[str, dict] = {}
    for path in sorted((repo / DATA).glob("*/moe/*/*/moe_perf.parquet")):
        gpu, _, engine, version = path.parts[-5:-1]
        if gpu not in GPU_CLASS or engine not in ENGINES or (engine, version, gpu, None) in EXCLUDED:
            continue
        shares = plateau_shares(path, gpu, {f for (e, v, g, f) in EXCLUDED if (e, v, g) == (engine, version, gpu) and f})
        if not shares:
            continue
        slot = out.setdefault(ENGINES[engine], {}).setdefault(version, {})
        slot[GPU_CLASS[gpu]] = {fmt: round(share, 3) for fmt, (share, _, _) in sorted(shares.items())}
        for fmt, (share, n, kernels) in sorted(shares.items()):
            print(f"{engine:7s} {version:12s} {gpu:9s} {fmt:10s} {share:6.1%} of dense peak  ({n} rows; {', '.join(kernels)})")
    return out


def main(argv: list[str] | None = None) -> int:
    excluded = {" ".join(x for x in key if x): why for key, why in EXCLUDED.items()}
    return run(__doc__, OUT, DATA, collect, argv, extra={"excluded": excluded})


if __name__ == "__main__":
    sys.exit(main())
