"""The fused-MoE call as measured against the roofline's max(read, compute), by token count (session 34, issue #28).

The roofline costs one MoE layer's routed experts as the larger of two times: reading the experts the step's tokens
touch (MBU 0.75 of the bandwidth, plus MOE_LAYER_FIXED_S) and their FLOPs at the engine's measured fused-MoE share of
the dense peak (resources/engines/moe_kernels.json). NVIDIA's aiconfigurator timed vLLM 0.14.0's fused-MoE call on an
H100 per token count (systems/data/h100_sxm/moe/vllm/0.14.0/moe_perf.parquet, balanced routing). This script prints
measured ÷ modelled for a few fine-grained shapes: about 1 (or below) while the call is bound by reading the experts
(decode batches), 1.1-1.9 near the ridge where reading and arithmetic are both large (~0.5k-3k tokens, where vLLM's
chunked-prefill steps of 2,048-8,192 tokens fall), because there the two do not overlap as a max() assumes.
Nothing in the app reads this; docs/predictor-accuracy.md (session 34) records what it found.

    python bench/moe_corner.py /path/to/aiconfigurator      # a checkout, or the `fetch` mirror's work tree

Needs pyarrow to read the table; prints "skipped" without it or without the path.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from advisor.sizing.roofline import MOE_LAYER_FIXED_S  # noqa: E402

TABLE = "aic-core/src/aiconfigurator_core/systems/data/h100_sxm/moe/vllm/0.14.0/moe_perf.parquet"
BANDWIDTH = 3.35e12  # H100 SXM, the catalog's figure
PEAK = {"bfloat16": 989.4e12, "fp8_block": 1978.9e12}  # dense tensor peak the fused-MoE share is of (catalog)
SHARE = {"bfloat16": 0.196, "fp8_block": 0.204}  # vLLM 0.14.0 on Hopper, resources/engines/moe_kernels.json
BYTES = {"bfloat16": 2.0, "fp8_block": 1.0}
MBU = 0.75  # SpeedFactors.mbu's default: the routed experts' read share
# (hidden, expert width, experts, top-k, TP, dtype): DeepSeek-V3/R1, Qwen3-235B-A22B, Qwen3-30B-A3B
SHAPES = ((7168, 2048, 256, 8, 8, "fp8_block"), (7168, 2048, 256, 8, 8, "bfloat16"), (4096, 1536, 128, 8, 8, "bfloat16"),
          (4096, 1536, 128, 8, 4, "bfloat16"), (2048, 768, 128, 8, 1, "bfloat16"))  # fmt: skip


def modelled_s(tokens: int, hidden: int, width: int, experts: int, topk: int, dtype: str) -> float:
    """The roofline's time for one MoE layer's routed experts (per GPU: ``width`` is the TP shard)."""
    touched = experts * (1.0 - (1.0 - topk / experts) ** tokens)
    read = touched * 3 * hidden * width * BYTES[dtype] / (MBU * BANDWIDTH) + MOE_LAYER_FIXED_S
    compute = 2.0 * tokens * topk * 3 * hidden * width / (SHARE[dtype] * PEAK[dtype])
    return max(read, compute)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        import pyarrow.parquet as pq
    except ImportError:
        print("skipped: reading aiconfigurator's tables needs pyarrow (pip install pyarrow)")
        return 0
    if not args or not (Path(args[0]) / TABLE).exists():
        print("skipped: give the path of an aiconfigurator checkout (https://github.com/ai-dynamo/aiconfigurator)")
        return 0
    rows = pq.read_table(Path(args[0]) / TABLE).to_pylist()
    for hidden, inter, experts, topk, tp, dtype in SHAPES:
        measured = {r["num_tokens"]: r["latency"] / 1000.0 for r in rows
                    if (r["hidden_size"], r["inter_size"], r["num_experts"], r["topk"], r["moe_tp_size"], r["moe_ep_size"],
                        r["moe_dtype"], r["distribution"]) == (hidden, inter, experts, topk, tp, 1, dtype, "balanced")}  # fmt: skip
        ratios = [f"{n}:{s / modelled_s(n, hidden, inter // tp, experts, topk, dtype):.2f}" for n, s in sorted(measured.items())]
        print(f"hidden {hidden}, width {inter}, {experts} experts top-{topk}, TP {tp}, {dtype}: measured ÷ modelled by tokens")
        print("  " + "  ".join(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
