"""Issue #29 items 17-18: price quotes that would make a wrong plan (negative, zero, NaN, low above high, an
unknown unit or GPU id) or a traceback (deep nesting, a 5,000-digit number) are refused with a message that
names the row and field; no memo is written from them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fast-launch.answers.json"

GOOD = {"gpu": "h100-sxm-80g", "kind": "on_demand", "low": 2.0, "high": 2.5, "unit": "USD/GPU-hour"}
BAD = {
    "negative": ([{**GOOD, "low": -5, "high": -1}], "quotes[0].low"),
    "zero": ([{**GOOD, "low": 0, "high": 0}], "quotes[0].low"),
    "low_above_high": ([{**GOOD, "low": 3, "high": 1}], "quotes[0]"),
    "unknown_unit": ([{**GOOD, "unit": "EUR/fortnight"}], "quotes[0].unit"),
    "unknown_gpu": ([{**GOOD, "gpu": "h9000"}], "quotes[0].gpu"),
    "string_price": ([{**GOOD, "low": "cheap"}], "quotes[0].low"),
}


def _plan(tmp_path: Path, text: str):
    q = tmp_path / "quotes.json"
    q.write_text(text)
    memo = tmp_path / "memo.md"
    proc = subprocess.run([sys.executable, "-m", "advisor", "plan", "--answers", str(EXAMPLE), "--quotes", str(q),
                           "--memo", str(memo), "--lang", "en"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    return proc, memo


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_quote_that_would_make_a_wrong_plan_is_refused(tmp_path, name):
    quotes, where = BAD[name]
    proc, memo = _plan(tmp_path, json.dumps(quotes))
    assert proc.returncode == 2, (proc.stdout[-500:], proc.stderr)
    assert where in proc.stderr and "Traceback" not in proc.stderr
    assert not memo.exists()


@pytest.mark.parametrize("text", ["[{\"gpu\": \"h100-sxm-80g\", \"low\": NaN, \"high\": 1}]",
                                  "[" * 5000 + "]" * 5000,
                                  "[{\"gpu\": \"*\", \"low\": " + "9" * 5000 + ", \"high\": 1}]"],
                         ids=["nan", "deep", "huge_number"])
def test_hostile_quote_files_are_a_message_not_a_traceback(tmp_path, text):
    proc, memo = _plan(tmp_path, text)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "quotes.json" in proc.stderr
    assert not memo.exists()


def test_a_good_quote_still_makes_a_plan(tmp_path):
    proc, _ = _plan(tmp_path, json.dumps([GOOD]))
    assert proc.returncode == 0, proc.stderr
