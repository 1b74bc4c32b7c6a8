"""``tests.support.planned`` keeps each plan once per session (pickled) and hands every caller its own copy: a test
that edits the plan it got, down to a nested list, a finding's parameters or a sub-model, never changes what the
next caller reads (issue #27 round 2: unpickling replaced ``model_copy(deep=True)``, the isolation must stay)."""

from __future__ import annotations

from tests.support.planned import advice_plan

SCENARIO = "q12_hk_saas_pi_contract"


def test_each_caller_gets_an_equal_copy_of_its_own() -> None:
    first, second = advice_plan(SCENARIO), advice_plan(SCENARIO)
    assert first == second and first is not second
    assert first.findings and first.findings[0] is not second.findings[0]
    assert first.costs is not second.costs and first.answers is not second.answers


def test_editing_a_copy_changes_no_other_copy() -> None:
    got = advice_plan(SCENARIO)
    want = got.model_dump_json()
    got.findings[0].params["edited"] = "yes"
    got.findings.append(got.findings[0])
    got.answers["model"] = "edited"
    got.costs.currency = "XXX"
    got.open_questions.clear()
    again = advice_plan(SCENARIO)
    assert again.model_dump_json() == want
    assert "edited" not in again.findings[0].params
