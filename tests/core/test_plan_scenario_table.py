"""docs/plan.md's "Scenario outcomes" table is what the engine says today (issue #26: row 04 still showed bf16 and
97–471 CNY after a GPU memory change made it fp8 and 85–413 CNY). When a rule or a price changes on purpose, rerun
`.venv/bin/python tools/plan_scenario_table.py --write` and read the diff."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import plan_scenario_table  # noqa: E402


def test_the_scenario_table_in_docs_plan_is_the_engines_output():
    doc = (ROOT / "docs" / "plan.md").read_text(encoding="utf-8")
    expected = plan_scenario_table.table()
    assert expected.count("\n") == 2 + len(list(plan_scenario_table.SCENARIOS.glob("*.json"))) - 1
    assert expected in doc, "docs/plan.md's scenario table is stale: run tools/plan_scenario_table.py --write"


def test_an_infeasible_plan_without_hardware_shows_a_dash_not_none():
    row = plan_scenario_table.row("x", {"deployment_form": "cloud", "region": "mainland", "line": "bgp",
                                        "feasible": False, "hardware": {"gpu": None, "replicas": 0},
                                        "costs": None, "findings": [{"id": "a.b", "severity": "blocker"}]})  # fmt: skip
    assert row == "| x | cloud | mainland | bgp | no | — | — | `a.b` |"
