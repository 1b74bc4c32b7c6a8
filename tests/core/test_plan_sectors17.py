"""Sector duties (issue 25, s17-sectors) as the advice scenarios meet them: the minors' education app files with the
education authority and waits on it; the patients' follow-up chatbot is told the model may not stand in for a
doctor, the doctors' note summariser is not; every mainland system is graded and filed under 等保 (a step of
unknown length that does not hold the launch back), a hospital's at level 3; the EU voice agent tells callers they
talk to an AI, the EU staff tool is not told so. Each in both languages of the memo."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")


def plan(name: str) -> PlanResult:
    return scenario_plan(ADVICE_SCENARIOS / f"{name}.json")


def memo(name: str, lang: str) -> str:
    return scenario_memo(ADVICE_SCENARIOS / f"{name}.json", lang)


def step(r: PlanResult, step_id: str):
    [item] = [i for i in r.timeline.items if i.id == step_id]
    return item


@pytest.mark.parametrize("lang", LANGS)
def test_the_minors_education_app_files_with_the_education_authority_and_waits_on_it(lang):
    r = plan("q07_minors_education_app")
    assert {"edu.app_filing", "mlps.filing", "minors.online_protection"} <= set(r.finding_ids)
    edu = step(r, "edu_app_filing")
    assert edu.blocking and not edu.length_known  # never a 0 for a length no source states
    assert translate(lang, "plan.timeline.ask.education") in edu.days_in(lang)
    text = memo("q07_minors_education_app", lang)
    assert translate(lang, "plan.rule.edu.app_filing.title") in text
    assert edu.label_in(lang) in text
    # the launch waits on the 双减 question (paid tutoring, s20-duties20), the sector approval, the app filing and
    # (s21-duties21, tenth blind review: the app filing asks for the 等保 filing first) the level-3 grading and first
    # assessment of the classified protection scheme: each named once, under one "not before"
    # and (s25-gates25, fifteenth blind review) the impact assessment the sensitive-information finding sets before
    # processing (PIPL Art. 55): a duty before launch is a step of the timeline like the others
    sector, tutoring, mlps = step(r, "sector_approval"), step(r, "double_reduction_check"), step(r, "mlps_filing")
    pia = step(r, "sensitive_pia")
    labels = (tutoring.label_in(lang, clause=True), sector.label_in(lang, clause=True), edu.label_in(lang, clause=True),
              mlps.label_in(lang, clause=True), pia.label_in(lang, clause=True))
    all_three = translate(lang, "memo.list_sep").join(labels)
    waits = translate(lang, "plan.timeline.not_before_all", steps=all_three)
    assert r.timeline.waits_text(lang) == waits
    # s20-finance20: page 1's launch row leads with them (q25), the timed filing's days after
    launch = next(x for x in text.splitlines() if x.startswith("| " + translate(lang, "memo.key.launch")))
    assert all_three in launch and launch.index(all_three) < launch.index(str(r.timeline.launch_days_high))
    assert translate(lang, "plan.timeline.not_before", step="").strip(" ：:") not in text


@pytest.mark.parametrize("lang", LANGS)
def test_patients_are_told_the_model_may_not_stand_in_for_a_doctor_and_doctors_tools_are_not(lang):
    r = plan("q14_medical_followup_mainland")
    assert "med.internet_diagnosis" in r.finding_ids
    assert translate(lang, "plan.rule.med.internet_diagnosis.title") in memo("q14_medical_followup_mainland", lang)
    doctors = plan("q03_hospital_private_wan_medical")  # clinical notes for doctors on the hospital's WAN
    assert "med.internet_diagnosis" not in doctors.finding_ids
    assert translate(lang, "plan.rule.med.internet_diagnosis.title") not in memo("q03_hospital_private_wan_medical", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hospital_system_is_graded_level_3_and_assessed_before_launch(lang):
    """s21-duties21 (tenth blind review q03/q14: "the timeline marks the level-3 assessment as not required before
    go-live; I would schedule it before launch"): a level-3 system is assessed once it is built (Measures Art. 14),
    so its step blocks, of unknown length; the filing itself stays due within 30 days of going live. The plan is
    still feasible: "yes, once this is done"."""
    r = plan("q03_hospital_private_wan_medical")
    [x] = [f for f in r.findings if f.id == "mlps.filing"]
    assert x.detail_key == "plan.rule.mlps.filing.health.detail"
    assert any("2011" in s.date for s in x.sources) and x.detail_in(lang) in memo("q03_hospital_private_wan_medical", lang)
    item = step(r, "mlps_filing")
    assert item.blocking and not item.length_known  # never a 0 for a length no source states
    assert item in r.timeline.untimed
    assert r.feasible


def test_the_level_follows_the_data():
    """Finance (an insurer's staff tool, q41) reads level 3; a plain business API (q11) level 2."""
    # level 3 says the answers' own reason (s20-duties20): an insurer's financial data, not "financial or sensitive"
    for name, key in (("q41_finetune_internal_callcentre", "duties20.mlps.level3.finance"),
                      ("q11_paid_api_b25", "plan.sectors17.mlps.level2")):
        [x] = [f for f in plan(name).findings if f.id == "mlps.filing"]
        assert x.params["level"] == {"tr": key}, name
        assert translate("en", key) in x.detail_in("en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_eu_voice_agent_tells_callers_they_talk_to_an_ai(lang):
    assert "eu.ai_transparency" in plan("q09_eu_voice_agent").finding_ids
    assert translate(lang, "plan.rule.eu.ai_transparency.title") in memo("q09_eu_voice_agent", lang)
    staff = plan("q38_eu_internal_hr_assistant")  # an HR assistant on the company VPN
    assert "eu.ai_transparency" not in staff.finding_ids
    assert "mlps.filing" not in staff.finding_ids and "mlps_filing" not in [i.id for i in staff.timeline.items]


def test_an_offshore_node_has_no_mlps_step():
    r = plan("q43_us_team_mainland_low_latency")  # mainland users on a Hong Kong node
    assert r.region == "hong_kong" and "mlps.filing" not in r.finding_ids
    assert "mlps_filing" not in [i.id for i in r.timeline.items]
    assert render_memo_markdown(r, "en").count(translate("en", "plan.rule.mlps.filing.title")) == 0
