"""`advisor <command>` run in-process, for tests that check what a command prints (its JSON, its table).

A fresh `python -m advisor` costs ~0.7 s of CPU in imports before it computes anything, and `make test` runs on two
cores (issue #27). A test whose point is the process itself (exit status, stderr, no traceback, a fresh
interpreter's imports, signals) starts a real one; the rest call the same ``main`` the console script calls."""

from __future__ import annotations

import pytest

from advisor.cli import main


def printed(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What ``advisor *args`` prints on stdout; the command must succeed (exit status 0), else its stderr is shown."""
    capsys.readouterr()  # what the test printed before is not the command's
    code = main(list(args))
    out = capsys.readouterr()
    assert code == 0, (args, code, out.err)
    return out.out
