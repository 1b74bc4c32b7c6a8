"""Write resources/gpus/gemm_shapes.json: vLLM's BF16 and FP8 GEMM latency per (m, n, k) from NVIDIA aiconfigurator's tables.

aiconfigurator (github.com/ai-dynamo/aiconfigurator) times vLLM's GEMMs inside the engine on each GPU
(``systems/data/<gpu>/gemm/vllm/<version>/gemm_perf.parquet``, latency in ms over a sweep of m rows, n output and
k input features). tools/gemm_rates.py reduces the same tables to one rate per GPU; this keeps the grid, so the
speed model can time each of a model's own linear layers at the step's own row count (advisor/sizing/gemm_shapes.py):
a 256-row prefill of a 5,120-wide layer reaches under two thirds of the rate a 2,048-row one does.

Kept: vLLM's BF16 rows per GPU, and on the GPUs with FP8 tensor cores each engine's FP8 rows too (``fp8``: per-tensor
W8A8; ``fp8_block``: 128×128 block scales, DeepSeek-style checkpoints) at the versions in FP8_VERSIONS, as tables
named ``<gpu>:<format id>:<engine>:<version>``. m on the 19-value grid every table shares (1 … 8,192), n and k from 256 to 65,536 (the linear layers
of the catalog's models; smaller ones are clamped to 256 by the reader). A grid cell a table lacks is filled from
its neighbours along k in log-latency (the fill count is stored). Latencies in microseconds, four significant digits.

Needs pyarrow (not a dependency of the app): ``pip install pyarrow`` in a scratch environment, then
``python tools/gemm_shapes.py /path/to/aiconfigurator``.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
from pathlib import Path

DATA = "aic-core/src/aiconfigurator_core/systems/data"
TABLES = {  # catalog id -> (aiconfigurator system, vLLM version of its GEMM table): as tools/gemm_rates.py
    "a100-sxm-80g": ("a100_sxm", "0.14.0"),
    "h100-sxm-80g": ("h100_sxm", "0.14.0"),
    "h200-141g": ("h200_sxm", "0.14.0"),
    "l40s": ("l40s", "0.14.0"),
    "b200": ("b200_sxm", "0.19.0"),
}
# FP8 tables kept per GPU: each engine's own FP8 GEMMs at the versions aiconfigurator timed (their decode-shaped
# latencies differ by engine and version more than BF16's do: a 4,096² GEMM at one row on an H100 takes 34 µs
# block-scaled in vLLM 0.14, 22 µs in 0.19, 14 µs in SGLang 0.5.6, 12 µs in TensorRT-LLM 1.2). A table whose dtype
# mixes kernel sources per shape (vLLM 0.24's fp8_block: DeepGEMM, CUTLASS, FlashInfer) is left out: which one the
# engine runs is not in the table.
FP8_SYSTEMS = {"h100-sxm-80g": "h100_sxm", "h200-141g": "h200_sxm", "b200": "b200_sxm", "l40s": "l40s"}
FP8_VERSIONS = {"vllm": ("0.14.0", "0.19.0", "0.24.0"), "sglang": ("0.5.6.post2", "0.5.9", "0.5.10"),
                "trtllm": ("1.0.0", "1.2.0rc5")}  # fmt: skip
FP8_DTYPES = (("fp8", "fp8"), ("fp8-block", "fp8_block"))  # (weight format id, aiconfigurator gemm_dtype)
# the m values all five tables share (the H200 and B200 tables have no 384 or 768 rows)
M_GRID = (1, 2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 160, 192, 256, 512, 1024, 2048, 4096, 8192)
NK_GRID = (256, 512, 768, 1024, 1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192, 10240, 12288, 16384, 65536)
OUT = Path(__file__).resolve().parents[1] / "resources" / "gpus" / "gemm_shapes.json"


def _sig(x: float) -> float:
    return float(f"{x:.4g}")


def kernel_sources(path: Path, dtype: str) -> int:
    """How many kernel sources the table times ``dtype`` with (0: none)."""
    import pyarrow.parquet as pq

    return len({r["kernel_source"] for r in pq.read_table(path).to_pylist() if r["gemm_dtype"] == dtype})


def grid(path: Path, dtype: str = "bfloat16") -> tuple[list, int]:
    """latency_us[m][n][k] on the fixed grid, and how many cells were filled from neighbours."""
    import pyarrow.parquet as pq

    lat = {(r["m"], r["n"], r["k"]): r["latency"] * 1000.0 for r in pq.read_table(path).to_pylist() if r["gemm_dtype"] == dtype}
    measured_m = sorted({m for m, _n, _k in lat})
    filled = 0
    out = []
    for m in M_GRID:
        if m < measured_m[0]:  # rows below the table's first (B200 fp8_block starts at m = 8): a decode GEMM that
            # reads its weights takes as long with fewer rows (flat to 64 rows in every table), so the first row's
            # latency stands in, and every cell counts as filled
            out.append(None)
            filled += len(NK_GRID) ** 2
            continue
        plane = []
        for n in NK_GRID:
            row: list[float | None] = [lat.get((m, n, k)) for k in NK_GRID]
            for j, v in enumerate(row):
                if v is not None:
                    continue
                left = next(((i, row[i]) for i in range(j - 1, -1, -1) if row[i] is not None), None)
                right = next(((i, row[i]) for i in range(j + 1, len(row)) if row[i] is not None), None)
                if left and right:  # log-latency linear in log k between the nearest measured cells
                    t = (math.log(NK_GRID[j]) - math.log(NK_GRID[left[0]])) / (math.log(NK_GRID[right[0]]) - math.log(NK_GRID[left[0]]))
                    row[j] = math.exp(math.log(left[1]) + t * (math.log(right[1]) - math.log(left[1])))  # type: ignore[arg-type]
                else:  # at an edge: latency in proportion to k from the nearest measured cell
                    i, v0 = left or right  # type: ignore[misc]
                    row[j] = v0 * NK_GRID[j] / NK_GRID[i]  # type: ignore[operator]
                filled += 1
            plane.append([_sig(v) for v in row])  # type: ignore[arg-type]
        out.append(plane)
    first = next(p for p in out if p is not None)
    return [first if p is None else p for p in out], filled


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("aiconfigurator", type=Path, help="a checkout of github.com/ai-dynamo/aiconfigurator")
    ap.add_argument("--commit", help="the checkout's commit (default: git rev-parse HEAD in it)")
    args = ap.parse_args()
    commit = args.commit or subprocess.run(
        ["git", "-C", str(args.aiconfigurator), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    tables = {}
    for gpu, (system, version) in TABLES.items():
        rel = f"{DATA}/{system}/gemm/vllm/{version}/gemm_perf.parquet"
        latency, filled = grid(args.aiconfigurator / rel)
        tables[gpu] = {
            "source": f"https://github.com/ai-dynamo/aiconfigurator/blob/{commit}/{rel}",
            "method": f"vLLM {version} BF16 GEMM latency (kernel_source vllm_default) as timed by aiconfigurator; "
            f"{filled} of {len(M_GRID) * len(NK_GRID) ** 2} grid cells filled from neighbours along k",
            "latency_us": latency,
        }
    for gpu, system in FP8_SYSTEMS.items():
        for engine, versions in FP8_VERSIONS.items():
            for version in versions:
                rel = f"{DATA}/{system}/gemm/{engine}/{version}/gemm_perf.parquet"
                if not (args.aiconfigurator / rel).exists():
                    continue
                for fmt, dtype in FP8_DTYPES:
                    if kernel_sources(args.aiconfigurator / rel, dtype) != 1:
                        continue
                    latency, filled = grid(args.aiconfigurator / rel, dtype)
                    tables[f"{gpu}:{fmt}:{engine}:{version}"] = {
                        "source": f"https://github.com/ai-dynamo/aiconfigurator/blob/{commit}/{rel}",
                        "method": f"{engine} {version} {dtype} GEMM latency as timed by aiconfigurator; "
                        f"{filled} of {len(M_GRID) * len(NK_GRID) ** 2} grid cells filled from neighbours",
                        "latency_us": latency,
                    }
    data = {
        "about": "vLLM's BF16 GEMM latency in microseconds per (m rows, n output features, k input features), one "
        "table per GPU NVIDIA aiconfigurator measured, and each engine's FP8 GEMM latency as "
        "'<gpu>:<fp8|fp8-block>:<engine>:<version>' (per-tensor W8A8, 128x128 block scales) where it measured them; written by tools/gemm_shapes.py, read by "
        "advisor/sizing/gemm_shapes.py. latency_us[i][j][l] is at m = m_grid[i], n = nk_grid[j], k = nk_grid[l].",
        "m_grid": list(M_GRID),
        "nk_grid": list(NK_GRID),
        "gpus": tables,
    }
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
