"""``advisor gui``: open the desktop app (the same as the ``inference-advisor`` launcher)."""

from __future__ import annotations

import argparse
import importlib


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("gui", help="open the desktop app (推理部署顾问)")
    parser.add_argument("--lang", choices=["zh_CN", "en"], help="language for this session (default: settings, then system)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from advisor.cli.common import fail

    try:
        # Loaded here, by name, not at module level: the Qt-free core loads the UI package only to open it (an
        # exception declared in tests/core/test_layering.py).
        app = importlib.import_module("ui.app")
    except ImportError as exc:
        return fail(f"the desktop app needs PySide6 and pyqtgraph ({exc}); install with: pip install inference-advisor")
    argv = ["--lang", args.lang] if getattr(args, "lang", None) else []
    return int(app.main(argv))
