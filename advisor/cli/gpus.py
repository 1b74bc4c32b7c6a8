"""`advisor gpus`: the GPU catalog (built-in and user-added)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gpus", help="list the GPU catalog")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--add", metavar="FILE", help="add your own GPU from a JSON file (fields as in `advisor gpus --json`)")
    p.set_defaults(func=run)


def add_from_file(path: str) -> int:
    from pydantic import ValidationError

    from advisor.catalog import add_user_gpu, user_gpus_path
    from advisor.cli.common import fail, validation_message
    from advisor.domain.gpu import GpuSpec

    try:
        text = open(path, encoding="utf-8").read()
    except OSError as exc:
        return fail(f"cannot read {path}: {exc.strerror}")
    try:
        gpu = GpuSpec.model_validate_json(text)
    except ValidationError as exc:
        return fail(validation_message(exc))
    add_user_gpu(gpu)
    print(f"added {gpu.id} ({gpu.name}) to {user_gpus_path()}")
    return 0


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import load_gpus
    from advisor.cli.common import print_json
    from advisor.units import format_bytes

    if args.add:
        return add_from_file(args.add)
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
