"""``advisor`` command line: one module per command under ``advisor/cli/``.

Each command module defines ``register(subparsers)`` which adds its parser and sets
``func`` (taking the parsed args, returning an exit code). Modules are imported only
to build the parser; heavy imports belong inside ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from advisor import __version__

# Order is the order shown in --help.
COMMANDS = ("calc", "models", "gpus", "predict", "sim", "bench", "history", "ab", "gpu", "plan", "gui")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="advisor",
        description="Inference Advisor (推理部署顾问): size, measure and decide how to serve an open LLM.",
    )
    parser.add_argument("--version", action="version", version=f"advisor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"advisor.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"advisor.cli.{name}":
                continue  # command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from advisor.logs import quiet_http_loggers

    quiet_http_loggers()  # a scrape or a probe is not news: no httpx INFO line per request in the terminal
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `advisor ... | head` closed the pipe: stop quietly, like other Unix tools (128 + SIGPIPE).
        _silence_stdout()
        return 141


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise again on the closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
