"""A real, small, full-able disk for a test: a 1 MiB tmpfs (tests/robustness: a full disk during a run and during a
history import). Mounting needs root; elsewhere the test is skipped, saying so."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_tmpfs(folder: Path, size: str = "1m") -> Iterator[Path]:
    """``folder`` (made here) with a tmpfs of ``size`` mounted on it; unmounted on exit, whatever happened."""
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:  # fmt: skip
        pytest.skip("no permission to mount a small tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
