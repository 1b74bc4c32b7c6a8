"""Every table a scenario's memo prints has at least one row: a header over nothing reads as a section that failed
(q29, an infeasible batch with no setup, printed an empty hardware table in section 2 after the batch rows moved)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import scenario_plan

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "bench" / "advice_scenarios").glob("q*.json"))
SEPARATOR = re.compile(r"^\|(?:-+\|)+$")


def empty_tables(memo: str) -> list[str]:
    """The header line of each table whose separator line is followed by no row."""
    lines = memo.splitlines()
    return [lines[i - 1] for i, line in enumerate(lines)
            if SEPARATOR.match(line) and (i + 1 >= len(lines) or not lines[i + 1].startswith("|"))]  # fmt: skip


def test_the_check_sees_an_empty_table():
    assert empty_tables("| Item | Value |\n|---|---|\n\n## 3.") == ["| Item | Value |"]
    assert empty_tables("| Item | Value |\n|---|---|\n| a | b |\n") == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_no_scenario_memo_prints_an_empty_table(path):
    r = scenario_plan(path)
    for lang in ("en", "zh_CN"):
        assert empty_tables(render_memo_markdown(r, lang)) == [], (path.stem, lang)
