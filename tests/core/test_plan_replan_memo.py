"""``replan_memo``: a fix's re-plan made once per set of inputs within one plan, and only within it (issue #27)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, engine, replan_memo, sure_first38

ROOT = Path(__file__).resolve().parents[2]


def _answers(name: str):
    path = next((ROOT / "bench" / "advice_scenarios").glob(f"{name}_*.json"))
    return answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"])


@pytest.fixture(scope="module")
def tiny_plan():
    path = ROOT / "tests" / "fixtures" / "plan_scenarios" / "01_fast_launch_no_icp.json"
    return engine.plan(answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"]))


class _Made:
    """A stand-in for a plan: counts how often it is made, and gives a fresh result each time."""

    def __init__(self, result) -> None:
        self.result, self.calls = result, 0

    def __call__(self):
        self.calls += 1
        return self.result.model_copy(deep=True)


def test_outside_a_plan_nothing_is_remembered(tiny_plan):
    made = _Made(tiny_plan)
    replan_memo.remembered(("k",), made)
    replan_memo.remembered(("k",), made)
    assert made.calls == 2


def test_within_a_scope_made_once_and_each_hit_is_its_own_copy(tiny_plan):
    made = _Made(tiny_plan)
    with replan_memo.scope() as outermost:
        assert outermost
        with replan_memo.scope() as inner:  # a nested plan shares the outermost plan's memo
            assert not inner
            first = replan_memo.remembered(("k",), made)
        first.feasible = not first.feasible  # a caller changing the plan it got changes no later one
        second = replan_memo.remembered(("k",), made)
        third = replan_memo.remembered(("k",), made)
        assert made.calls == 1
        assert second == tiny_plan and third == tiny_plan and second is not third
        assert replan_memo.remembered(("other",), made) == tiny_plan and made.calls == 2
    replan_memo.remembered(("k",), made)  # the scope closed with the plan: nothing kept for the next answers
    assert made.calls == 3


def test_bounded(tiny_plan):
    made = _Made(tiny_plan)
    with replan_memo.scope():
        for i in range(replan_memo.MAX_ENTRIES + 5):
            replan_memo.remembered((i,), made)
        memo = replan_memo._MEMO.get()
        assert memo is not None and len(memo) == replan_memo.MAX_ENTRIES


def test_the_key_holds_what_a_plan_reads():
    a = _answers("q40")
    base = replan_memo.key_of(a, None, {"check_fixes": False})
    assert replan_memo.key_of(a, None, {"check_fixes": False}) == base
    assert replan_memo.key_of(a, None, {"check_fixes": True}) != base
    assert replan_memo.key_of(a, [{"gpu": "a10"}], {"check_fixes": False}) != base
    assert replan_memo.key_of(a.model_copy(update={"monthly_budget": None}), None, {"check_fixes": False}) != base
    token = sure_first38.RANK_SUPPLY.set(not sure_first38.RANK_SUPPLY.get())
    try:
        assert replan_memo.key_of(a, None, {"check_fixes": False}) != base
    finally:
        sure_first38.RANK_SUPPLY.reset(token)


def test_a_plan_whose_second_pass_re_plans_its_fixes_reuses_them(monkeypatch):
    """q40 plans twice (``sure_first38``): the second pass's re-plans with the supply tier off are the first's."""
    calls = {"hit": 0, "made": 0}
    real = replan_memo.remembered

    def counting(key, make):
        memo = replan_memo._MEMO.get()
        calls["hit" if memo is not None and key in memo else "made"] += 1
        return real(key, make)

    monkeypatch.setattr(replan_memo, "remembered", counting)
    engine.plan(_answers("q40"))
    assert calls["hit"] > 0 and calls["made"] > 0
    assert replan_memo._MEMO.get() is None  # closed with the plan
