"""The budget question follows the load type (issue 25, s15-polish): a batch job's budget is for the job, so the
wizard, its review and its what-if panel say "Budget for the job" / "本次任务预算" as the memo does, and a service's
"Monthly budget" / "每月预算"."""

from __future__ import annotations

import pytest

from advisor.i18n import tr
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown
from ui.pages.wizard import RESULT_STEP
from ui.widgets.wizard_fields import STEPS

BUDGET = "monthly_budget.amount"
BUDGET_STEP = next(i for i, (_sid, fields) in enumerate(STEPS) if any(f.path == BUDGET for f in fields))
BATCH = {"use_case": "offline_batch", "total_requests": 20000, "batch_deadline_hours": 24,
         "model": "qwen2.5-7b-instruct", "user_location": "mainland",
         "monthly_budget": {"amount": 5000, "currency": "CNY"}}  # fmt: skip


@pytest.fixture
def page(wizard_page):
    return wizard_page


def _pick(editor, value) -> None:
    combo = editor.editor
    combo.setCurrentIndex(combo.findData(value))  # the combo emits the change, as a user's pick does


def test_the_budget_label_follows_the_load_type_in_both_languages(qtbot, main_window, page):
    page.set_answers(dict(BATCH), BUDGET_STEP)
    budget, use_case = page.editors[BUDGET], page.editors["use_case"]
    assert budget.label.text() == "Budget for the job"
    assert "whole job" in budget.editor.toolTip() and "per month" not in budget.editor.toolTip()
    main_window.set_language("zh_CN")
    assert budget.label.text() == "本次任务预算" and "整个任务" in budget.editor.toolTip()
    main_window.set_language("en")
    # the same answers as a service: a budget a month again, said at once when the use case changes
    _pick(use_case, "interactive")
    assert page.answers["use_case"] == "interactive"
    assert budget.label.text() == "Monthly budget" == tr("wizard.field.monthly_budget.amount.label")
    main_window.set_language("zh_CN")
    assert budget.label.text() == "每月预算"
    _pick(use_case, "offline_batch")
    assert budget.label.text() == "本次任务预算"
    main_window.set_language("en")
    assert budget.label.text() == "Budget for the job"
    # the currency keeps its own label
    assert page.editors["monthly_budget.currency"].label.text() == tr("wizard.field.monthly_budget.currency.label")


def test_the_review_and_the_what_if_panel_say_the_same_as_the_memo(qtbot, page):
    page.set_answers(dict(BATCH), RESULT_STEP - 1)  # the review
    page.review_panel.fill(page.steps, page.answers, page.prefilled)
    review = page.review.text()
    assert "Budget for the job" in review and "Monthly budget" not in review
    what_if = page.result_view.what_if_fields[BUDGET]
    assert what_if.label.text() == "Budget for the job"
    memo = render_memo_markdown(make_plan(answers_from_dict(BATCH)), "en")
    assert "Budget for the job: 5,000 CNY" in memo
    page.set_answers({**BATCH, "use_case": "api", "peak_concurrency": 4}, RESULT_STEP - 1)
    assert page.result_view.what_if_fields[BUDGET].label.text() == "Monthly budget"
