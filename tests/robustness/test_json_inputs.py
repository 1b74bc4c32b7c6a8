"""Issue #29 item 17: import and answers files go through the one bounded JSON reader — a binary file, deep
nesting, a huge number or a file over the documented 64 MiB limit is a message, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _advisor(*args):
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


HOSTILE = {
    "binary": bytes(range(256)) * 64,
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "huge_number": b'{"run_id": ' + b"9" * 5000 + b"}",
    "nan": b'{"run_id": NaN}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_history_import_of_a_hostile_file_is_a_message(tmp_path, name):
    f = tmp_path / "run.json"
    f.write_bytes(HOSTILE[name])
    proc = _advisor("history", "--db", str(tmp_path / "h.sqlite3"), "--import", str(f))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "run.json" in proc.stderr


@pytest.mark.parametrize("name", ["binary", "deep", "huge_number", "too_big"])
def test_an_answers_file_is_bounded(tmp_path, name):
    f = tmp_path / "answers.json"
    if name == "too_big":
        with open(f, "wb") as fh:  # sparse: 65 MiB of spaces-to-be, over the documented 64 MiB
            fh.truncate(65 * 1024 * 1024)
    else:
        f.write_bytes(HOSTILE[name])
    proc = _advisor("plan", "--answers", str(f), "--lang", "en")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "answers.json" in proc.stderr
