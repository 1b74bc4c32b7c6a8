"""`make test` splits the suite over four pytest processes (docs/testing.md): every test file runs in exactly one of
them, and the Qt-free ones (ADVISOR_TESTS_WITHOUT_QT=1) run only tests/core and the Qt-free robustness files. Read
from the commands make would run (`make -n`), with pytest's own rules: positional paths are collected, then
`--ignore` drops a path and everything under it (even a path given positionally)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _pytest_commands() -> list[tuple[bool, list[str], list[str]]]:
    """(Qt absent, paths, ignored) of each pytest process `make test` starts."""
    out = subprocess.run(
        ["make", "-n", "-o", "lint", "-o", ".venv/.installed-test", "test"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    commands = []
    for line in out.replace("\\\n", " ").split(";"):
        words = shlex.split(line.split(">")[0]) if "-m pytest" in line else []
        if not words:
            continue
        args = words[words.index("pytest") + 1 :]
        paths = [a for a in args if a.startswith("tests")]
        ignored = [a.removeprefix("--ignore=") for a in args if a.startswith("--ignore=")]
        commands.append(("ADVISOR_TESTS_WITHOUT_QT=1" in words, paths or ["tests"], ignored))
    return commands


def _collects(paths: list[str], ignored: list[str], file: str) -> bool:
    def under(path: str) -> bool:
        return file == path or file.startswith(path.rstrip("/") + "/")

    return any(under(p) for p in paths) and not any(under(i) for i in ignored)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_test_file_runs_in_exactly_one_process_and_the_qt_free_ones_only_where_qt_is_absent():
    commands = _pytest_commands()
    assert len(commands) == 4 and sum(qt_free for qt_free, _, _ in commands) == 2
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py"))
    assert len(files) > 200
    for file in files:
        runs = [qt_free for qt_free, paths, ignored in commands if _collects(paths, ignored, file)]
        assert len(runs) == 1, f"{file} runs in {len(runs)} processes of `make test`"
        if runs[0]:
            assert file.startswith(("tests/core/", "tests/robustness/")), file
        else:
            assert not file.startswith("tests/core/"), f"{file} must run with Qt absent"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_lint_runs_beside_the_tests_at_the_lowest_priority_and_its_failure_fails_the_target():
    """`make test` no longer lints before the tests: ruff and mypy run beside the four processes under `nice -n 19`
    (docs/testing.md, session 24), so the target must still run both and fail when lint fails."""
    out = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed-test", "test"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    [lint] = [part for part in out.split(";") if "ruff check" in part]
    assert lint.split()[:3] == ["nice", "-n", "19"] and "mypy" in lint
    assert lint.rstrip().endswith("& lint=$!"), "lint must run in the background, beside the tests"
    assert "wait $lint; lint_rc=$?" in out
    assert out.split(";")[-1].split()[:5] == ["test", "$lint_rc", "-eq", "0", "-a"]
