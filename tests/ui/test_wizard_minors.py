"""The wizard asks whether minors use the service (or are in its data), and the plan names their duties (s13-duties)."""

from __future__ import annotations

from advisor.i18n import tr
from ui.pages.wizard import plan_for

PUPILS = {"user_location": "mainland", "mainland_carriers": "all_three", "icp_status": "filed", "mainland_entity": True,
          "audience": "public", "use_case": "interactive", "reach": "internet", "public_genai_in_mainland": True,
          "genai_filing": "filed", "model": "qwen2.5-7b-instruct", "peak_concurrency": 8,
          "data_sensitivity": {"personal_info": True, "pi_subjects_per_year": 50_000,
                               "sensitive_pi_subjects_per_year": 20_000, "sector": "education"}}  # fmt: skip


def test_minors_is_asked_beside_the_audience_and_the_answer_reaches_the_plan(wizard_page):
    page = wizard_page
    editor = page.editors["minors"]
    assert editor.spec.kind == "bool" and editor.label.text() == tr("plan.field.minors.label")
    combo = editor.editor
    assert combo.itemText(0) == tr("wizard.unknown")
    combo.setCurrentIndex(combo.findData(True))
    assert page.answers["minors"] is True
    combo.setCurrentIndex(0)
    assert "minors" not in page.answers  # empty means unknown


def test_minors_bring_the_guardian_consent_and_the_online_protection_duties():
    yes = plan_for({**PUPILS, "minors": True})
    assert {"pi.minors", "minors.online_protection"} <= set(yes.finding_ids)
    no = plan_for({**PUPILS, "minors": False})
    assert not {"pi.minors", "minors.online_protection"} & set(no.finding_ids)
    # not answered, for a public education service: asked, not assumed away
    unknown = plan_for(PUPILS)
    assert "minors" in [q.field for q in unknown.open_questions]
