"""Tensor-parallel all-reduce times, from NVIDIA's measurements of vLLM's custom all-reduce.

Every layer of a tensor-parallel model ends in all-reduces of its activations (tokens × hidden × 2 bytes). The
roofline used to price one as a fixed latency plus bytes over an achievable share of the NVLink bandwidth; NVIDIA's
aiconfigurator timed vLLM 0.14's custom all-reduce in CUDA graphs on H100 SXM and A100 SXM nodes at TP 2, 4 and 8
for 128 B to 512 MB (systems/data/<gpu>/comm/vllm/0.14.0/custom_allreduce_perf.parquet). Mid-size messages — a
decode batch of a few hundred tokens, 1-8 MB — take about twice what the formula said. This script copies those
timings into resources/gpus/allreduce.json, which the roofline interpolates (advisor/sizing/allreduce.py).

    python bench/allreduce_rates.py /path/to/aiconfigurator [--write]

Needs pyarrow to read the tables; prints "skipped" without it or without the path.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aiconfigurator_tables import ROOT, run  # noqa: E402

OUT = ROOT / "resources" / "gpus" / "allreduce.json"
TABLE = "aic-core/src/aiconfigurator_core/systems/data/{gpu}/comm/vllm/0.14.0/custom_allreduce_perf.parquet"
GPUS = {"h100_sxm": "hopper_nvlink", "a100_sxm": "ampere_nvlink"}


def collect(repo: Path) -> dict[str, dict[str, list[list[float]]]]:
    """{link class: {TP degree: [[message bytes, microseconds], …]}} of the CUDA-graph runs."""
    import pyarrow.parquet as pq

    out: dict[str, dict[str, list[list[float]]]] = {}
    for gpu, link in GPUS.items():
        rows = pq.read_table(repo / TABLE.format(gpu=gpu)).to_pylist()
        for tp in sorted({r["num_gpus"] for r in rows}):
            points = sorted((r["message_size"], round(r["latency"] * 1000, 2)) for r in rows
                            if r["num_gpus"] == tp and r["backend"] == "vllm_graph" and r["allreduce_dtype"] == "bfloat16")  # fmt: skip
            out.setdefault(link, {})[str(tp)] = [[float(m), us] for m, us in points]
            print(f"{gpu} TP {tp}: " + ", ".join(f"{m / 2**20:g} MiB {us:g} µs" for m, us in points if m >= 2**20))
    return out


def main(argv: list[str] | None = None) -> int:
    return run(__doc__, OUT, TABLE.format(gpu="h100_sxm"), collect, argv, indent=1)


if __name__ == "__main__":
    sys.exit(main())
