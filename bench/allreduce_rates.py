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

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo", nargs="?", help="aiconfigurator checkout")
    parser.add_argument("--write", action="store_true", help=f"rewrite {OUT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        print("skipped: reading aiconfigurator's tables needs pyarrow (pip install pyarrow)")
        return 0
    if not args.repo or not (Path(args.repo) / TABLE.format(gpu="h100_sxm")).is_file():
        print("skipped: give the path of an aiconfigurator checkout (https://github.com/ai-dynamo/aiconfigurator)")
        return 0
    measured = collect(Path(args.repo))
    if args.write:
        doc = json.loads(OUT.read_text(encoding="utf-8"))
        doc["measured"] = measured
        OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
