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
from collections.abc import Iterator
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


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Iterator[dict[str, subprocess.Popen]]:
    """Every example's `advisor` process, started together with its own ADVISOR_HOME: each is a fresh interpreter run
    as a user types the command (~1 s of imports, then its simulation); one after another they took 18 s of wall
    (loaded 2-core box) in `make test`'s slowest process, tests/core, while the other core could run some (issue
    #27). Each test still reads its own process's exit status and output."""
    procs = {}
    for command, _ in EXAMPLES:
        # its own user folders too: a module's fixture is set up before the autouse one that points them per test
        home = tmp_path_factory.mktemp("readme-example")
        env = {**os.environ, "ADVISOR_HOME": str(home), **{f"XDG_{d.upper()}_HOME": str(home / "xdg" / d)
                                                              for d in ("config", "data", "cache", "state")}}
        procs[command] = subprocess.Popen([sys.executable, "-m", "advisor", *shlex.split(command)[1:]], cwd=ROOT,
                                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield procs
    for proc in procs.values():  # one no test waited for (a test deselected or stopped early) is not left running
        if proc.returncode is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("command, segments", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_a_readme_example_prints_what_the_readme_shows(command, segments, printed):
    stdout, stderr = printed[command].communicate(timeout=120)
    assert printed[command].returncode == 0, stderr
    actual = [x.rstrip() for x in stdout.splitlines()]
    missing = _contains_in_order(actual, segments)
    assert missing is None, (f"README.md shows lines `{command}` no longer prints:\n" + "\n".join(missing)
                             + "\n--- it prints:\n" + stdout)  # fmt: skip


def test_an_elided_segment_must_still_be_contiguous_and_in_order():
    actual = ["a", "b", "c", "d"]
    assert _contains_in_order(actual, [["a"], ["c", "d"]]) is None
    assert _contains_in_order(actual, [["a", "c"]]) == ["a", "c"]
    assert _contains_in_order(actual, [["c"], ["a"]]) == ["a"]
