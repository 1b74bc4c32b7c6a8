"""The command line both aiconfigurator readers share (bench/moe_kernel_rates.py, bench/allreduce_rates.py): a
checkout's path, --write to update one resource file's "measured" part, "skipped" without pyarrow or the path."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run(doc: str, out: Path, probe: str, collect: Callable[[Path], Any], argv: list[str] | None,
        extra: dict[str, Any] | None = None, indent: int = 2) -> int:
    """Parse ``argv``; when the checkout holds ``probe`` (a path inside it), print ``collect(checkout)`` and with
    --write store it as ``out``'s "measured" (plus ``extra`` keys), keeping the file's other keys."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo", nargs="?", help="aiconfigurator checkout")
    parser.add_argument("--write", action="store_true", help=f"rewrite {out.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        print("skipped: reading aiconfigurator's tables needs pyarrow (pip install pyarrow)")
        return 0
    if not args.repo or not (Path(args.repo) / probe).exists():
        print("skipped: give the path of an aiconfigurator checkout (https://github.com/ai-dynamo/aiconfigurator)")
        return 0
    measured = collect(Path(args.repo))
    if args.write:
        data = json.loads(out.read_text(encoding="utf-8"))
        data["measured"] = measured
        data.update(extra or {})
        out.write_text(json.dumps(data, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}")
    return 0
