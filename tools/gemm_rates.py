"""Derive the measured rows of resources/gpus/gemm_rates.json from NVIDIA aiconfigurator's GEMM tables.

aiconfigurator (github.com/ai-dynamo/aiconfigurator) ships per-GPU kernel timings collected inside each engine;
``systems/data/<gpu>/gemm/vllm/<version>/gemm_perf.parquet`` holds vLLM's GEMM latency (ms) for a sweep of
(m, n, k). The achievable rate we store is the median of 2mnk / latency over BF16 GEMMs with m in
{2048, 4096, 8192} (prefill chunk sizes) and the LLM-sized n in [2048, 65536], k in [2048, 32768].

The same tables give the rate a decode step streams its weights at (the rule fixed before it was compared with any
serving measurement): the median, over the BF16 GEMMs with m in {1, 2, 4, 8} (decode batches, where a GEMM is
bound by reading its n x k weight) and the same n, k ranges, of the weight's 2nk bytes / latency, as a share of
the GPU's datasheet bandwidth (resources/gpus/catalog.json). Stored as decode_weight_read_share.

Needs pyarrow (not a dependency of the app): ``pip install pyarrow`` in a scratch environment, then
``python tools/gemm_rates.py /path/to/aiconfigurator`` prints the rows to paste into the JSON file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

DATA = "aic-core/src/aiconfigurator_core/systems/data"
TABLES = {  # catalog id -> (aiconfigurator system, vLLM version of its GEMM table)
    "a100-sxm-80g": ("a100_sxm", "0.14.0"),
    "h100-sxm-80g": ("h100_sxm", "0.14.0"),
    "h200-141g": ("h200_sxm", "0.14.0"),
    "l40s": ("l40s", "0.14.0"),
    "b200": ("b200_sxm", "0.19.0"),
}
ROWS = (2048, 4096, 8192)
DECODE_ROWS = (1, 2, 4, 8)
CATALOG = Path(__file__).resolve().parents[1] / "resources" / "gpus" / "catalog.json"


def rates(path: Path) -> list[float]:
    import pyarrow.parquet as pq

    table = pq.read_table(path).to_pylist()
    return [
        2 * r["m"] * r["n"] * r["k"] / (r["latency"] / 1e3) / 1e12
        for r in table
        if r["gemm_dtype"] == "bfloat16" and r["m"] in ROWS and 2048 <= r["n"] <= 65536 and 2048 <= r["k"] <= 32768
    ]


def read_shares(path: Path, bandwidth: float) -> list[float]:
    """Share of ``bandwidth`` (bytes/s) at which decode-shaped BF16 GEMMs read their weights."""
    import pyarrow.parquet as pq

    return [
        2 * r["n"] * r["k"] / (r["latency"] / 1e3) / bandwidth
        for r in pq.read_table(path).to_pylist()
        if r["gemm_dtype"] == "bfloat16" and r["m"] in DECODE_ROWS and 2048 <= r["n"] <= 65536 and 2048 <= r["k"] <= 32768
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("aiconfigurator", type=Path, help="a checkout of github.com/ai-dynamo/aiconfigurator")
    repo = ap.parse_args().aiconfigurator
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    bandwidth = {g["id"]: g["bandwidth_bytes_per_s"] for g in json.loads(CATALOG.read_text(encoding="utf-8"))}
    rows = []
    for gpu, (system, version) in TABLES.items():
        rel = f"{DATA}/{system}/gemm/vllm/{version}/gemm_perf.parquet"
        values = sorted(rates(repo / rel))
        q = statistics.quantiles(values, n=4)
        shares = sorted(read_shares(repo / rel, bandwidth[gpu]))
        d = statistics.quantiles(shares, n=4)
        rows.append({
            "gpu": gpu,
            "bf16_tflops": round(statistics.median(values), 1),
            "source": f"https://github.com/ai-dynamo/aiconfigurator/blob/{commit}/{rel}",
            "method": f"vLLM {version} BF16 GEMMs, m in {set(ROWS)}: {len(values)} shapes, p25-p75 {q[0]:.1f}-{q[2]:.1f}",
            "decode_weight_read_share": round(statistics.median(shares), 3),
            "decode_method": f"median over the BF16 GEMMs with m in {list(DECODE_ROWS)} and the same n, k of the n x k weight's "
            f"bytes / latency over the datasheet bandwidth ({len(shares)} shapes, p25-p75 {d[0]:.3f}-{d[2]:.3f})",
        })  # fmt: skip
    print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
