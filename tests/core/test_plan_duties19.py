"""Obligations the eighth blind review found missing or misread (issue 25, s19-duties19), on the advice scenarios the
reviewers named: q22's PIPL roles (the mainland customers export; PIPL reaches the Hong Kong company through Art.
3(2) and asks for the Art. 53 representative), its own duties under Hong Kong's PDPO, the US export rules for the
L40S it plans in Hong Kong, and "a later move to the mainland needs a filing it cannot make alone"; q38's EU AI Act
duties (Art. 4 AI literacy; employment decisions would be high-risk, Annex III point 4). Each in both languages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.duties19_rules import TPP_THRESHOLD, export_controlled, tpp
from advisor.plan.reasons import CAVEAT_RULES
from advisor.plan.result import Finding, PlanResult
from advisor.plan.rules import RULES
from tests.core.test_plan_obligations import MAINLAND, Cand
from tests.core.test_plan_rules import facts_for
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")


def plan(name: str) -> PlanResult:
    return scenario_plan(ADVICE_SCENARIOS / f"{name}.json")


def one(r: PlanResult, rule_id: str) -> Finding:
    [x] = [f for f in r.findings if f.id == rule_id]
    return x


def ids(r: PlanResult) -> set[str]:
    return {f.id for f in r.findings}


@pytest.mark.parametrize("lang", LANGS)
def test_q22_says_the_customers_export_and_pipl_reaches_the_hong_kong_company(lang):
    """Meeting minutes answered "no personal information", a Hong Kong company serving mainland businesses: if names
    are present, each customer is the handler that exports (its notice, consent and tier, the contract it signs
    with the Hong Kong company as recipient), and PIPL reaches the company (Art. 3(2)) with the Art. 53
    representative; never "processing them in Hong Kong is a cross-border transfer: tell the people…" as the
    company's own export (the eighth review's q22 note)."""
    r = plan("q22_hk_company_telecom_only")
    x = one(r, "pi.none_as_answered")
    assert x.title_key == "plan.rule.pi.none_as_answered.customers.title"
    text = x.detail_in(lang)
    words = {"en": ("handler", "Art. 3(2)", "Art. 38", "overseas recipient", "confirm it with counsel"),
             "zh_CN": ("个人信息处理者", "第三条第二款", "第三十八条", "境外接收方", "请与律师确认")}[lang]  # fmt: skip
    assert all(w in text for w in words), text
    assert translate(lang, "plan.duties18.representative").strip() in text
    assert all(any(a in s.title and s.grade == "B" for s in x.sources) for a in ("Art. 3(2)", "Art. 38", "Art. 53"))
    # the general text's "processing them there is a cross-border transfer" (the company's own export) is not q22's
    assert ("is a cross-border transfer" if lang == "en" else "即属个人信息出境") not in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_roles_case_needs_business_customers_and_no_mainland_entity(lang):
    """A public app with no mainland entity keeps the general text (its users are the people themselves); a mainland
    company on a Hong Kong node keeps it too (no Art. 3(2) reach to state)."""
    q22 = advice_answers("q22_hk_company_telecom_only")
    public = planned({**q22, "audience": "public"})  # shared: both languages read the same plans
    assert one(public, "pi.none_as_answered").title_key == "plan.rule.pi.none_as_answered.title"
    fast = {**advice_answers("q21_fast_launch_hk_rule1"), "data_sensitivity": {"personal_info": False}}
    moving = planned(fast)
    assert moving.region == "hong_kong"
    assert one(moving, "pi.none_as_answered").title_key == "plan.rule.pi.none_as_answered.title"


@pytest.mark.parametrize("lang", LANGS)
def test_q22_a_later_move_to_the_mainland_says_the_filing_needs_a_mainland_entity(lang):
    """"If the service later moves to a mainland node, it needs the ICP filing first" read as something this company
    can do; it has no mainland entity, so the sentence says the filing needs one (its own or a partner's). A
    mainland company launching in Hong Kong first keeps its "file before the move" text."""
    x = one(plan("q22_hk_company_telecom_only"), "icp.offshore_not_needed")
    assert x.title_key.endswith(".no_entity.title")
    assert ("mainland entity" if lang == "en" else "大陆主体") in x.detail_in(lang)
    assert x.title_in(lang) == translate(lang, "plan.rule.icp.offshore_not_needed.title",
                                        region=translate(lang, "plan.region.hong_kong"))
    moving = plan("q21_fast_launch_hk_rule1")
    assert one(moving, "icp.offshore_not_needed").title_key.endswith(".later.title")


@pytest.mark.parametrize("lang", LANGS)
def test_q22_states_the_companys_own_pdpo_duties_on_the_hong_kong_node(lang):
    r = plan("q22_hk_company_telecom_only")
    x = one(r, "pi.hk_pdpo")
    assert x.title_key.endswith(".as_answered.title") and x.id in CAVEAT_RULES
    text = x.detail_in(lang)
    assert all(w in text for w in ("DPP4" if lang == "en" else "保障资料第 4 原则", "2(12)", "486"))
    assert all(s.grade == "A" for s in x.sources) and any("2(12)" in s.title for s in x.sources)
    assert "doxx" not in text.lower() and "起底" not in text  # the 2021 amendments are not this plan's
    assert x.title_in(lang) in scenario_memo(ADVICE_SCENARIOS / "q22_hk_company_telecom_only.json", lang)
    # names in the prompts answered: the general text
    named = make_plan(answers_from_dict({**advice_answers("q22_hk_company_telecom_only"),
                                         "data_sensitivity": {"personal_info": True, "pi_subjects_per_year": 5000,
                                                              "sensitive_pi_subjects_per_year": 0}}))
    assert one(named, "pi.hk_pdpo").title_key == "plan.rule.pi.hk_pdpo.title"


def test_a_hong_kong_bank_for_hong_kong_customers_gets_the_residency_text_not_a_second_pdpo_finding():
    r = plan("q25_hk_bank_retail")
    assert "pi.hk_pdpo" not in ids(r) and "pi.region_residency" in ids(r)


@pytest.mark.parametrize("lang", LANGS)
def test_q22_the_l40s_in_hong_kong_carries_the_export_rules_and_asks_the_provider_to_confirm_supply(lang):
    r = plan("q22_hk_company_telecom_only")
    assert r.region == "hong_kong"
    x = one(r, "gpu.hk_export_rules")
    assert "L40S" in x.title_in(lang) and x.id in CAVEAT_RULES
    assert any("Hong Kong" in s.title and s.date == "2020-12-23" for s in x.sources)
    assert any("L40S" in s.title and s.grade == "B" for s in x.sources)
    assert ("written confirmation" if lang == "en" else "书面确认") in x.detail_in(lang)
    assert x.title_in(lang) in scenario_memo(ADVICE_SCENARIOS / "q22_hk_company_telecom_only.json", lang)


def test_total_processing_performance_matches_the_published_figures_and_the_threshold():
    """TPP from the catalogue's dense figures: RTX 4090 5,286 published (ARTHUR) and the China-only 4090D below
    4,800; L40S and A100 above; L4, A10, L20 and H20 below (left unsaid, not called free of the rules); a
    domestic accelerator is not a US part."""
    assert abs(tpp("rtx-4090") - 5286) < 5 and tpp("rtx-4090d") < TPP_THRESHOLD
    assert all(export_controlled(g) for g in ("l40s", "a100-sxm-80g", "h100-sxm-80g", "h200-141g", "b200"))
    assert not any(export_controlled(g) for g in ("l4", "a10", "l20-48g", "h20-96g", "ascend-910b"))


def test_gpus_below_the_threshold_or_outside_hong_kong_get_no_export_note():
    q22 = advice_answers("q22_hk_company_telecom_only")
    l4 = make_plan(answers_from_dict({**q22, "gpu_constraint": ["l4"]}))
    assert l4.region == "hong_kong" and "gpu.hk_export_rules" not in ids(l4)
    sg = plan("q13_sg_sellers_pi_below_threshold")
    assert sg.region != "hong_kong" and "gpu.hk_export_rules" not in ids(sg)


@pytest.mark.parametrize("lang", LANGS)
def test_q38_names_ai_literacy_and_the_employment_uses_that_would_be_high_risk(lang):
    r = plan("q38_eu_internal_hr_assistant")
    x = one(r, "eu.ai_act_staff")
    text = x.detail_in(lang)
    assert ("Art. 4" if lang == "en" else "第 4 条") in text and "2025" in text
    assert ("Annex III point 4" if lang == "en" else "附件三第 4 点") in text
    assert all(s.grade == "B" for s in x.sources)
    # a public EU chatbot is not a staff tool: Art. 50's finding, not this one
    assert "eu.ai_act_staff" not in ids(plan("q09_eu_voice_agent"))


def test_the_hong_kong_node_of_a_mainland_and_overseas_plan_gets_the_export_note_for_its_own_gpu():
    """Mainland users on a mainland node, Hong Kong users on a Hong Kong node: the note reads the Hong Kong node's
    setup (an L40S there), not the mainland node's; a Singapore overseas node gets none."""
    mixed = {**MAINLAND, "user_location": "mixed", "user_mix": {"mainland": 0.6, "overseas": 0.4},
             "overseas_markets": ["HK"]}
    rule = RULES["gpu.hk_export_rules"].fn

    def node(region: str, gpu: str) -> SimpleNamespace:
        return SimpleNamespace(region=region, node=SimpleNamespace(cand=Cand(gpu)))

    base = {"region": "mainland_plus_overseas", "chosen": Cand("l20-48g")}
    hit = rule(facts_for(mixed, **base, overseas_node=node("hong_kong", "l40s")))
    assert hit is not None and "L40S" in hit.title_in("en")
    assert rule(facts_for(mixed, **base, overseas_node=node("singapore", "l40s"))) is None
    assert rule(facts_for(mixed, **base, overseas_node=node("hong_kong", "l4"))) is None
