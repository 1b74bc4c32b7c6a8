"""`advisor gpus`: the GPU catalog (built-in and user-added)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("gpus", help="list the GPU catalog")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--add", metavar="FILE", help="add your own GPU from a JSON file (fields as in `advisor gpus --json`)")
    p.set_defaults(func=run)


def add_from_file(path: str) -> int:
    """Validate one GPU (strictly: `true` is not a number, Infinity is not a speed) and save it."""
    from pydantic import ValidationError

    from advisor.catalog import CatalogError, add_user_gpu, user_gpus_path
    from advisor.cli.common import fail, validation_message
    from advisor.domain.gpu import GpuSpec
    from advisor.i18n import tr
    from advisor.safe_json import JsonInputError, load_json_file

    try:
        data = load_json_file(path, max_bytes=1024 * 1024)
    except JsonInputError as exc:
        return fail(str(exc))
    if not isinstance(data, dict):
        return fail(tr("inputs.gpus_add.not_object", path=path))
    try:
        gpu = GpuSpec.model_validate(data, strict=True)
    except ValidationError as exc:
        return fail(tr("inputs.gpus_add.invalid", path=path, problems=validation_message(exc)))
    try:
        add_user_gpu(gpu)
    except CatalogError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(tr("inputs.gpus_add.not_saved", path=str(user_gpus_path()), error=exc.strerror or str(exc)))
    print(f"added {gpu.id} ({gpu.name}) to {user_gpus_path()}")
    return 0


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import CatalogError, load_gpus
    from advisor.cli.common import fail, print_json
    from advisor.units import format_bytes

    if args.add is not None:  # `--add ""` is a missing file, not a listing
        return add_from_file(args.add)
    try:
        gpus = load_gpus()
    except CatalogError as exc:
        return fail(str(exc))
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
