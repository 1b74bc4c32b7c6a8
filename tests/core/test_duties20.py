"""The ninth blind review's obligations (issue 25, s20-duties20), end to end on the scenarios the reviewers read:
Singapore's PDPA on q13's Singapore node, the duties an exempt export keeps (q13, q21), the processor contract with a
hosted API's provider (q16), 双减 as a blocker and the licence path for a paid service (q07), and the classified-
protection level's reason from the answers (q07, q14)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan, only_finding

LANGS = ("en", "zh_CN")


scenario, one = advice_plan, only_finding


def test_a_singapore_node_beside_mainland_users_states_singapores_pdpa():
    r = scenario("q13_sg_sellers_pi_below_threshold")
    assert r.region == "singapore"
    assert one(r, "pi.region_residency").title_key == "plan.rule.pi.region_residency.sg.title"
    # said once on a Hong Kong node: the company's PDPO duties are pi.hk_pdpo's (q21 launches in Hong Kong)
    hk = scenario("q21_fast_launch_hk_rule1")
    assert hk.region == "hong_kong" and "pi.hk_pdpo" in hk.finding_ids
    assert "pi.region_residency" not in hk.finding_ids


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q13_sg_sellers_pi_below_threshold", "q21_fast_launch_hk_rule1"])
def test_an_exempt_export_keeps_the_impact_assessment_and_separate_consent(name, lang):
    x = one(scenario(name), "pi.export_exempt")
    text = x.detail_in(lang)
    assert ("Art. 55" in text and "Art. 39" in text) if lang == "en" else ("第五十五条" in text and "第三十九条" in text)
    assert any("Art. 55" in s.title for s in x.sources) and any("Art. 39" in s.title for s in x.sources)
    # the customers' roles of an exempt count: no standard contract to sign (q13's "muddied" exempt finding)
    assert ("standard contract" not in text) if lang == "en" else ("标准合同" not in text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hosted_api_with_personal_information_names_the_entrusted_processing_contract(lang):
    r = scenario("q16_hosted_api_mainland_registration")
    x = one(r, "pi.api_processor")
    assert x.title_key == "plan.rule.pi.api_processor.title"  # mainland users: PIPL's case
    assert any("Art. 21" in s.title for s in x.sources)
    memo = render_memo_markdown(r, lang)
    assert x.title_in(lang) in memo
    # no personal information answered: nothing to contract for
    none = scenario("q16_hosted_api_mainland_registration",
                    data_sensitivity={"level": "low", "personal_info": False, "sector": "general"})
    assert "pi.api_processor" not in none.finding_ids


def test_paid_tutoring_for_pupils_is_a_blocker_no_later_launch_date_fixes():
    r = scenario("q07_minors_education_app")
    x = one(r, "edu.double_reduction")
    assert x.severity == "blocker" and not r.feasible
    assert "extend_deadline" not in [f.id for f in r.fixes]  # a later date leaves the 双减 question open
    # free for pupils: the condition stays a warning (the Opinions stop paid subject tutoring)
    free = scenario("q07_minors_education_app", charges_users=False)
    assert one(free, "edu.double_reduction").severity == "warning"


def test_a_paid_service_not_yet_filed_takes_the_licence_path_not_a_filing_beside_it():
    r = scenario("q07_minors_education_app")
    steps = [i.id for i in r.timeline.items]
    assert "icp_licence" in steps and "icp_filing" not in steps
    assert one(r, "icp.required").title_key == "plan.rule.icp.required.paid.title"
    free = scenario("q07_minors_education_app", charges_users=False)
    assert "icp_filing" in [i.id for i in free.timeline.items] and "icp_licence" not in [i.id for i in free.timeline.items]


@pytest.mark.parametrize("lang", LANGS)
def test_the_level_3_reason_is_the_answers_own(lang):
    minors = one(scenario("q07_minors_education_app"), "mlps.filing").detail_in(lang)
    assert ("children" in minors and "financial" not in minors) if lang == "en" else ("儿童" in minors and "金融" not in minors)
    health = one(scenario("q14_medical_followup_mainland"), "mlps.filing").detail_in(lang)
    # the health data first; the top-grade hospital guidance only after it
    first, grade = ("health data", "三级甲等") if lang == "en" else ("健康信息", "三级甲等")
    assert health.index(first) < health.index(grade)


@pytest.mark.parametrize("lang", LANGS)
def test_an_ascend_only_fleet_hears_of_the_xinchuang_rule_and_its_grading_once(lang):
    r = scenario("q08_ascend_fleet_internal")  # an SOE's staff tool: mlps.filing leaves it out, this names it
    x = one(r, "procure.domestic_stack")
    assert "mlps.filing" not in r.finding_ids and x.params["mlps"] == {"tr": "duties20.domestic.mlps"}
    assert "信创" in x.title_in(lang) and "等保" in x.detail_in(lang)
    # a public service on the same parts: the grading is mlps.filing's, not said twice
    public = scenario("q08_ascend_fleet_internal", audience="public", reach="internet")
    assert "mlps.filing" in public.finding_ids and one(public, "procure.domestic_stack").params["mlps"] == ""


def test_the_tutoring_question_is_asked_before_the_filings_are_started():
    from advisor.plan.critical_steps import critical_path_first

    r = scenario("q07_minors_education_app")
    [step] = [i for i in r.timeline.items if i.id == "double_reduction_check"]
    assert step.blocking and step.days_low is None  # no source states how long the authority takes
    first = critical_path_first(r)
    assert first[0].key == "duties20.next.double_reduction"
    assert "decide_fix" not in [s.id for s in first]  # no change of answers to offer: the question is the decision
    free = scenario("q07_minors_education_app", charges_users=False)
    assert "double_reduction_check" not in [i.id for i in free.timeline.items]
    assert critical_path_first(free)[0].key != "duties20.next.double_reduction"
