"""The wizard asks the one-off hardware budget and a fine-tune's name and checkpoint, and the plan uses them."""

from __future__ import annotations

from advisor.i18n import tr
from tests.ui.test_wizard import click, page, walk_to_result  # noqa: F401 - the page fixture
from ui.widgets.wizard_result import _money

OFFICE_FINE_TUNE = {
    "use_case": "interactive", "audience": "internal", "reach": "lan", "peak_concurrency": 10,
    "model": "qwen2.5-14b-instruct", "model_customisation": "fine_tuned", "model_name": "acme-legal-14b",
    "checkpoint": "/data/ckpt/acme-legal-14b", "user_location": "mainland", "ops_capability": "basic",
    "expected_duration_months": 36, "monthly_budget": {"amount": 3000.0, "currency": "CNY"},
    "capex_budget": {"amount": 300000.0, "currency": "CNY"},
}  # fmt: skip


def test_the_new_questions_are_asked_and_decide_the_plan(qtbot, page):  # noqa: F811
    name, ckpt = page.editors["model_name"], page.editors["checkpoint"]
    assert "capex_budget.amount" in page.editors and "capex_budget.currency" in page.editors
    walk_to_result(qtbot, page, OFFICE_FINE_TUNE)
    assert page.answers["capex_budget"] == {"amount": 300000, "currency": "CNY"}
    assert page.answers["model_name"] == "acme-legal-14b" and page.answers["checkpoint"] == "/data/ckpt/acme-legal-14b"
    r = page.result
    assert r.deployment_form == "on_premises"
    assert r.hardware.command.startswith("vllm serve /data/ckpt/acme-legal-14b --served-model-name acme-legal-14b ")
    from ui.widgets.wizard_result import recommendation_summary

    card = recommendation_summary(r)
    assert card["form"] == tr("plan.form.on_premises")
    assert card["monthly"] == tr("wizard.card.monthly_owned", running=_money(r.costs.owned.running_monthly, "CNY"),
                                 capex=_money(r.costs.owned.capex, "CNY"))
    # the name and checkpoint are asked for a fine-tune only
    page.go_to(1)
    assert name.isVisible() and ckpt.isVisible()
    combo = page.editors["model_customisation"].editor
    combo.setCurrentIndex(combo.findData("none"))
    assert not name.isVisible() and not ckpt.isVisible()


def test_a_name_with_a_control_character_is_marked_on_its_field(qtbot, page):  # noqa: F811
    page.go_to(1)
    combo = page.editors["model_customisation"].editor
    combo.setCurrentIndex(combo.findData("fine_tuned"))
    name = page.editors["model_name"]
    name.editor.setText("acme\tlegal")
    name.editor.editingFinished.emit()
    assert name.has_error and name.error.text() == tr("answers.error.control_chars")
    assert "model_name" not in page.answers
