"""The wizard asks which GPUs the team runs today (issue 25: continuity with the current fleet)."""

from __future__ import annotations

import pytest

from advisor.i18n import tr
from ui.pages.wizard import clean_answers, plan_for


@pytest.fixture
def page(wizard_page):
    return wizard_page


def _type(editor, text: str) -> None:
    editor.editor.setText(text)
    editor.editor.editingFinished.emit()


def test_the_wizard_asks_for_the_current_fleet_and_the_plan_stays_on_it(qtbot, page):
    page.set_answers({"user_location": "overseas", "overseas_markets": ["US"], "model": "qwen2.5-7b-instruct"}, 1)
    gpu, count = page.editors["current_fleet.gpu"], page.editors["current_fleet.count"]
    assert gpu.isVisible() and count.isVisible()
    assert gpu.label.text() == tr("wizard.field.current_fleet.gpu.label") and gpu.why.text()
    _type(gpu, "h999")  # not a GPU the catalog knows: said on the field, in words
    assert gpu.has_error and gpu.error.text() == tr("wizard.error.fleet_gpu_unknown")
    _type(gpu, "H100 SXM")  # a name the catalog matches is read as its id
    assert not gpu.has_error and page.answers["current_fleet"] == {"gpu": "h100-sxm-80g"}
    assert "current_fleet" not in clean_answers(page.answers)  # a GPU without a count says nothing yet
    _type(count, "32")
    assert page.answers["current_fleet"] == {"gpu": "h100-sxm-80g", "count": 32}
    assert gpu.value_text("h100-sxm-80g") == "h100-sxm-80g"
    r = plan_for(page.answers)
    assert r.hardware.gpu == "h100-sxm-80g" and "gpu.fleet" in r.finding_ids


def test_the_wizard_asks_whether_the_fleets_load_is_this_services_own(qtbot, page):
    """Beside the fleet (s14-fleetload): is its measured load this service's base, and how many times it the peak is."""
    page.set_answers({"user_location": "overseas", "overseas_markets": ["US"], "model": "qwen2.5-7b-instruct",
                      "current_fleet": {"gpu": "l20-48g", "count": 16}}, 1)
    own, multiple = page.editors["current_fleet.load_is_this_service"], page.editors["current_fleet.peak_multiple"]
    assert own.isVisible() and multiple.isVisible() and own.why.text() and multiple.why.text()
    assert own.label.text() == tr("wizard.field.current_fleet.load_is_this_service.label")
    own.editor.setCurrentIndex(own.editor.findData(True))
    _type(multiple, "0.5")  # below today's load: said on the field
    assert multiple.has_error
    _type(multiple, "3")
    assert page.answers["current_fleet"] == {"gpu": "l20-48g", "count": 16, "load_is_this_service": True,
                                             "peak_multiple": 3}
