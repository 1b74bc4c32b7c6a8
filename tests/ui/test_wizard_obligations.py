"""The wizard asks the generative-AI filing status and a hosting move where they matter, and the plan follows."""

from __future__ import annotations

import pytest

from advisor.i18n import tr
from ui.pages.wizard import plan_for

PUBLIC = {"user_location": "mainland", "mainland_carriers": "all_three", "icp_status": "filed", "mainland_entity": True,
          "audience": "public", "use_case": "api", "reach": "internet", "public_genai_in_mainland": True,
          "launch_deadline_days": 30, "model": "qwen2.5-7b-instruct"}  # fmt: skip


@pytest.fixture
def page(wizard_page):
    return wizard_page


def pick(editor, value) -> None:
    combo = editor.editor
    combo.setCurrentIndex(0 if value is None else combo.findData(value))
    assert combo.currentData() == value, (editor.spec.path, value)


def test_filing_status_and_hosting_move_are_asked_where_they_matter(page):
    genai, move = page.editors["genai_filing"], page.editors["hosting_move"]
    assert genai.spec.choices == ("none", "in_progress", "registered", "filed")
    # the filing status: asked unless the service is not offered to the public
    pick(page.editors["public_genai_in_mainland"], None)
    assert not genai.isHidden()
    pick(page.editors["public_genai_in_mainland"], False)
    assert genai.isHidden()
    pick(page.editors["public_genai_in_mainland"], True)
    assert not genai.isHidden()
    # a hosting move: asked only of a service whose ICP filing is done
    pick(page.editors["icp_status"], "none")
    assert move.isHidden()
    pick(page.editors["icp_status"], "filed")
    assert not move.isHidden()
    # the choices read as words, and the answers carry the user's choice
    assert genai.editor.itemText(genai.editor.findData("registered")) == tr("wizard.choice.genai_filing.registered")
    pick(genai, "filed")
    pick(move, True)
    assert page.answers["genai_filing"] == "filed" and page.answers["hosting_move"] is True


def test_a_filed_service_is_feasible_and_a_move_needs_the_access_record(page):
    not_filed = plan_for({**PUBLIC, "genai_filing": "none"})
    assert not not_filed.feasible and "genai.filing_deadline" in not_filed.finding_ids
    filed = plan_for({**PUBLIC, "genai_filing": "filed", "hosting_move": True})
    assert filed.feasible and "genai.filed" in filed.finding_ids
    assert "icp.access_record" in filed.finding_ids
