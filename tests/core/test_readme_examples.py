"""The README's worked examples print what the README says they print (issue #26 item 10: on a fresh clone the
`advisor calc` and `advisor predict` examples gave other figures than the README showed, after GPU memory and
predictor changes). Each `$ advisor calc|predict …` line in a console block is run as written; every run of shown
output lines between `…` elisions must appear, in order and contiguous, in what the command prints. When a figure
changes on purpose, paste the new output into the README."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CHECKED = ("calc", "predict")


def _examples() -> list[tuple[str, list[list[str]]]]:
    """(command line, shown output split into segments at `…` lines) for every checked `$ advisor` example."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            argv = shlex.split(line[2:].split("#", 1)[0]) if line.startswith("$ ") else []
            if argv[:1] != ["advisor"] or argv[1] not in CHECKED:
                continue
            shown = []
            for out in lines[i + 1:]:
                if out.startswith("$ "):
                    break
                shown.append(out)
            segments, current = [], []
            for out in shown:
                if out.strip() == "…":
                    segments.append(current)
                    current = []
                else:
                    current.append(out)
            segments.append(current)
            found.append((line[2:], [seg for seg in segments if any(x.strip() for x in seg)]))
    return found


def _contains_in_order(actual: list[str], segments: list[list[str]]) -> list[str] | None:
    """None when each segment is a contiguous run of `actual`, each after the previous; else the missing one."""
    at = 0
    for seg in segments:
        seg = [x.rstrip() for x in seg]
        while seg and not seg[-1]:
            seg.pop()
        hit = next((k for k in range(at, len(actual) - len(seg) + 1) if actual[k:k + len(seg)] == seg), None)
        if hit is None:
            return seg
        at = hit + len(seg)
    return None


EXAMPLES = _examples()


def test_the_readme_has_the_worked_examples():
    commands = [cmd.split()[1] for cmd, _ in EXAMPLES]
    assert commands.count("calc") == 2 and commands.count("predict") == 1
    assert all(segments for _, segments in EXAMPLES), "an example shows no output"


@pytest.mark.parametrize("command, segments", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_a_readme_example_prints_what_the_readme_shows(command, segments, tmp_path):
    env = {**os.environ, "ADVISOR_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "advisor", *shlex.split(command)[1:]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    actual = [x.rstrip() for x in proc.stdout.splitlines()]
    missing = _contains_in_order(actual, segments)
    assert missing is None, (f"README.md shows lines `{command}` no longer prints:\n" + "\n".join(missing)
                             + "\n--- it prints:\n" + proc.stdout)  # fmt: skip


def test_an_elided_segment_must_still_be_contiguous_and_in_order():
    actual = ["a", "b", "c", "d"]
    assert _contains_in_order(actual, [["a"], ["c", "d"]]) is None
    assert _contains_in_order(actual, [["a", "c"]]) == ["a", "c"]
    assert _contains_in_order(actual, [["c"], ["a"]]) == ["a"]
