"""s33-numbers1 (issue 25, blind review 23): numbers in one memo agree with each other, and fix lists say which
change fits the budget.

q23: the open question said "whether it fits the budget (not checked)" while the budget row said "within budget"."""

from __future__ import annotations

import copy

import pytest

from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


# q23: a budget given is checked, so another answer changes the fit, not a check never made ---------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_question_on_a_plan_with_a_budget_does_not_say_the_budget_is_not_checked(lang):
    r = planned(advice_answers("q23_japan_game_npc"))
    assert r.costs.budget_monthly is not None
    qs = [q for q in r.open_questions if "budget_check" in q.changes]
    assert qs, "the burst schedule's question changes the budget's fit"
    text = memo_document(r, lang).markdown()
    never = "(not checked)" if lang == "en" else "（未检查）"
    for q in qs:
        said = q.text_in(lang)
        assert said in text and never not in q.changes_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_budget_the_question_still_says_the_fit_is_not_checked(lang):
    answers = copy.deepcopy(advice_answers("q23_japan_game_npc"))
    answers.pop("monthly_budget", None)
    r = planned(answers)
    q = next(q for q in r.open_questions if q.field == "monthly_budget")
    assert ("(not checked)" if lang == "en" else "（未检查）") in q.changes_in(lang)
