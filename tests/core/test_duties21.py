"""The tenth blind review's obligations (issue 25, s21-duties21), end to end on the scenarios the reviewers read:
the classified-protection (等保) level-3 assessment before launch and 等保 off page 1 (q03, q07, q14, q27), health
data named for an insurer (q06, q41), GDPR Art. 9 for an EU staff tool (q38), the generative-AI filing question for
a free business service on a mainland node (q10, q19 like q11), Japan's APPI (q23), two availability zones for a
financial service (q25, q37), a filed service's algorithm filing as a check (q05, q32), a hosted API for a closed
pilot (q27), a closed pilot while the filing runs (q30), Malaysia and the Philippines among the SEA laws (q37)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import deciding
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, advice_plan, only_finding

LANGS = ("en", "zh_CN")


scenario, one = advice_plan, only_finding


def step(r: PlanResult, step_id: str):
    [s] = [i for i in r.timeline.items if i.id == step_id]
    return s


@pytest.mark.parametrize("name", ["q03_hospital_private_wan_medical", "q07_minors_education_app",
                                  "q14_medical_followup_mainland"])
def test_a_level_3_system_is_graded_and_assessed_before_launch(name):
    r = scenario(name)
    s = step(r, "mlps_filing")
    assert s.blocking and not s.length_known and s in r.timeline.untimed  # never a 0 for an unknown length
    x = one(r, "mlps.filing")
    assert "before launch" in x.detail_in("en") and "30 days of going live" in x.detail_in("en")
    assert "上线前" in x.detail_in("zh_CN")
    assert "等保" in r.timeline.launch_text("en", "1–5")  # the launch row names what it waits on


def test_a_level_2_system_files_after_launch_and_does_not_wait():
    r = scenario("q27_six_month_pilot_no_ops")
    s = step(r, "mlps_filing")
    assert not s.blocking
    assert "before launch" not in one(r, "mlps.filing").detail_in("en")


@pytest.mark.parametrize("name", ["q27_six_month_pilot_no_ops", "q03_hospital_private_wan_medical"])
def test_classified_protection_is_never_a_page_1_reason(name):
    r = scenario(name)
    assert "mlps.filing" in r.finding_ids  # still among the obligations
    assert "mlps.filing" not in [f.id for f in deciding(r.findings)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_closed_pilot_on_a_hosted_api_asks_for_data_terms_not_the_filing_number(lang):
    r = scenario("q27_six_month_pilot_no_ops")
    text = one(r, "cost.hosted_api").detail_in(lang)
    assert ("retention" if lang == "en" else "保存条款") in text
    assert ("shows the model's name and filing number" if lang == "en" else "向服务商要这个编号") not in text
    # a public service on a hosted API still asks for the number
    public = scenario("q16_hosted_api_mainland_registration")
    assert ("filing number" if lang == "en" else "备案号") in one(public, "cost.hosted_api").detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q06_l20_batch_72h_claims", "q41_finetune_internal_callcentre"])
def test_an_insurers_sensitive_data_note_names_health_information(name, lang):
    x = one(scenario(name), "pi.sensitive_safeguards")
    assert x.title_key.endswith(".finance.title")
    assert ("medical records" if lang == "en" else "医疗健康信息") in x.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_an_eu_hr_tool_names_art_9_the_region_and_the_parent_companys_access(lang):
    x = one(scenario("q38_eu_internal_hr_assistant"), "pi.eu_special_category")
    text = x.detail_in(lang)
    assert "9" in text and ("Frankfurt" if lang == "en" else "法兰克福") in text
    assert ("transfer impact assessment" if lang == "en" else "传输影响评估") in text
    assert ("recount" if lang == "en" else "重新统计") in text  # the answer of 0 sensitive is challenged


@pytest.mark.parametrize("name", ["q10_128k_document_assistant", "q19_export_controlled_h100_mainland",
                                  "q27_six_month_pilot_no_ops"])  # q11, a per-token API: tests/core/test_duties22c.py
def test_a_business_service_on_a_mainland_node_asks_whether_any_business_can_sign_up(name):
    r = scenario(name)
    assert "genai.business_signup" in r.finding_ids
    assert "open_signup" in [q.field for q in r.open_questions]
    # a caveat that keeps the answer: never a page-1 reason beside the same question asked there
    assert "genai.business_signup" not in [f.id for f in deciding(r.findings)]
    # answered "contracted customers only": nothing to say
    assert "genai.business_signup" not in scenario(name, open_signup=False).finding_ids


@pytest.mark.parametrize("lang", LANGS)
def test_a_japanese_consumer_chat_names_the_appi(lang):
    x = one(scenario("q23_japan_game_npc"), "pi.consumer_chat_none")
    assert x.title_key == "plan.rule.pi.consumer_chat_none.jp.title"
    assert "APPI" in x.detail_in(lang) and ("28" in x.detail_in(lang))


@pytest.mark.parametrize("name,case", [("q25_hk_bank_retail", "hk"), ("q37_sg_fintech_public", "sg")])
def test_a_financial_services_vms_go_in_two_availability_zones(name, case):
    r = scenario(name)
    x = one(r, "fin.two_zones")
    assert x.title_key == f"plan.rule.fin.two_zones.{case}.title"
    lay = r.hardware.layout
    assert lay is not None and f"{lay.units} VMs" in x.title_in("en")  # the plan's own VM count
    assert "fin.two_zones" not in scenario(name, data_sensitivity={**advice_answers(name)["data_sensitivity"],
                                                                    "sector": "general"}).finding_ids


def test_a_filed_services_algorithm_filing_does_not_hold_the_launch():
    for name in ("q05_filed_finetune_mainland_sg", "q32_filed_public_chatbot_fast"):
        r = scenario(name)
        row = [ln for ln in render_memo_markdown(r, "en").splitlines() if ln.startswith("| Earliest launch")]
        assert row and "algorithm" not in row[0]
        # the only wait of unknown length left is a sales-only part's delivery (review 23, q32), never the check
        assert all(i.id == "sales_order" for i in r.timeline.untimed), name


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_launch_the_filing_cannot_meet_names_a_closed_pilot(lang):
    r = scenario("q30_unfiled_finetune_public_30d")
    assert not r.feasible  # the decision stands: a pilot is not the public launch
    text = one(r, "genai.closed_pilot").detail_in(lang)
    assert ("invite" if lang == "en" else "邀请") in text and ("provincial CAC" if lang == "en" else "省级网信办") in text
    assert "genai.closed_pilot" not in scenario("q30_unfiled_finetune_public_30d", launch_deadline_days=None).finding_ids


@pytest.mark.parametrize("lang", LANGS)
def test_sea_markets_name_malaysia_and_the_philippines(lang):
    text = one(scenario("q37_sg_fintech_public"), "pi.sea_markets").detail_in(lang)
    assert ("Malaysia" if lang == "en" else "马来西亚") in text and ("Philippines" if lang == "en" else "菲律宾") in text
