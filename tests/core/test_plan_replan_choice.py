"""A fix's re-plan leaves the GPU choice's other GPUs at the screen's size (issue 27: sizing them on their own curves
was a quarter of scenario 12's simulated levels) unless the fix may become the memo's body (other GPUs) or its choice
is a stock one: what the plan returns must not change. Checked against the same plan with every re-plan's choice in
full, on the scenario with the most re-planned fixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, engine, make_plan

SCENARIO = Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios" / "12_budget_far_below_slo.json"


def _plan_json(answers) -> dict:
    data = make_plan(answers).to_json("en")
    data.pop("generated_at")
    return data


def test_a_fixs_replan_with_the_choice_left_unsized_gives_the_same_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = answers_from_dict(json.loads(SCENARIO.read_text(encoding="utf-8"))["answers"])
    real = engine.plan
    light: list[bool] = []

    def watching(a, **kw):
        if kw.get("check_fixes") is False:
            light.append(kw.get("size_alternatives") is False)
        return real(a, **kw)

    monkeypatch.setattr(engine, "plan", watching)
    fast = _plan_json(answers)
    assert any(light), "no fix was re-planned with its choice left unsized: the test checks nothing"
    assert fast["fixes"], "the scenario offers no fix: nothing was re-planned"

    def in_full(a, **kw):
        return real(a, **{**kw, "size_alternatives": True})

    monkeypatch.setattr(engine, "plan", in_full)
    assert _plan_json(answers) == fast
