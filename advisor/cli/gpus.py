"""`advisor gpus`: the GPU catalog (built-in and user-added)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gpus", help="list the GPU catalog")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import load_gpus
    from advisor.cli.common import print_json
    from advisor.units import format_bytes

    gpus = load_gpus()
    if args.json:
        print_json([g.model_dump(mode="json") for g in gpus])
        return 0
    for g in gpus:
        fp8 = f"{g.fp8_tflops_dense:>6.0f}" if g.fp8_tflops_dense else "     —"
        print(
            f"{g.id:18} {format_bytes(g.memory_bytes, 0):>8} {g.bandwidth_bytes_per_s / 1e12:5.2f} TB/s "
            f"BF16 {g.bf16_tflops_dense:6.0f} FP8 {fp8} TFLOPS  {g.tdp_watts:4.0f} W  {g.name}"
        )
    return 0
