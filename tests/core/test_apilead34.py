"""Blind review 23 (s34-apilead34, issue 25): the hosted-API lead as a sentence and bullets; the answers' own
self-hosted setup (a paid token API, named GPUs) keeps the plan with the API beside it; the no-entity sign-up risk
said as the condition it is, on its question, not among the deciding reasons."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import owner_sign39
from advisor.plan.reasons import deciding
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
LEADS = ("q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1", "q22_hk_company_telecom_only", "q24_us_saas_rent")
LABELS = {"en": ("Price:", "Data path:", "When to self-host:"), "zh_CN": ("价格：", "数据路径：", "何时转为自建：")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", LEADS)
def test_the_api_lead_is_a_short_sentence_then_one_bullet_a_part(name, lang):
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    head, *bullets = r.start_with.text_in(lang).splitlines()
    # one sentence, not the 300-word block (s35-apicost: with the model the API runs on where it is not the one asked)
    # (the fallback's label after it, s35-apihead, is a label like the bullets', not counted)
    sentence = head.replace(translate(lang, "apihead37_lead.fallback_said").strip(), "").strip()
    # s38-swap (review 29): the bold line is the owner's choice: its conditions ("if it passes …") and the fallback
    # beside the API ("; otherwise …") are the review's ask, not counted
    sentence = re.sub(r" if (it passes|your customers accept) .*? a month[^.]*\.", ".", sentence) \
        if lang == "en" else sentence
    # s40-swap (review 32, q12 en: "say 'an HK front-end host calling Alibaba's Singapore API'"): the provider the
    # path names is the review's ask, not counted
    runs = owner_sign39.near(owner_sign39.parts((r.start_with.params.get("near") or {}).get("runs")))
    sentence = sentence.replace(str(runs["providers"]), "") if runs else sentence
    assert head and not head.startswith("- ") and len(sentence) < 240
    assert len(bullets) >= 3 and all(b.startswith("- ") for b in bullets)
    for label in LABELS[lang]:  # price, the data path and when to self-host each in a bullet of its own
        assert sum(label in b for b in bullets) == 1, label
    assert "Move to the self-hosted plan" in bullets[-1] or "转为自建" in bullets[-1]


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_served_elsewhere_than_the_node_names_both_places_and_the_hops(lang):
    """q12: "start in Hong Kong" of an API served from Singapore: the opening words and the path name both."""
    text = advice_plan("q12_hk_saas_pi_contract").start_with.text_in(lang)
    # s41-swap (blind review 34): the bold line says the owner's choice; way B's line says the API's path
    head = next(line for line in text.splitlines() if line.startswith(("- B)", "- B）")))
    hk, sg = ("Hong Kong", "Singapore") if lang == "en" else ("香港", "新加坡")
    # swap42/pg42 (blind review 32, q12: "say 'an HK front-end host calling Alibaba's Singapore API'"): the path is
    # the bold line's own: the host in Hong Kong, then the API it calls in Singapore
    assert hk in head and sg in head
    assert head.index(hk) < head.index(sg)  # mainland → the host in Hong Kong → the API in Singapore
    path = next(line for line in text.splitlines() if ("Data path" in line or "数据路径" in line))
    # the shortened data-path bullet still says the prompts leave the mainland and stay in Singapore
    assert sg in path and ("outside the mainland" in path if lang == "en" else "大陆境外" in path)


@pytest.mark.parametrize("name,kind", [("q11_paid_api_b25", "sells"), ("q35_deepseek_v3_h20_internal", "gpus"),
                                       ("q42_china_market_gpus_mainland", "gpus")])
def test_the_setup_the_answers_ask_for_keeps_the_plan_with_the_api_beside_it(name, kind):
    r = advice_plan(name)
    sw = r.start_with
    assert sw is not None and sw.form == "this_plan" and sw.reason == "asked" and sw.key.endswith(kind)
    assert r.deployment_form == "cloud"  # the decision the bench pins is unchanged
    for lang in LANGS:
        assert sw.params["hosted"] and sw.text_in(lang)  # the API's month still said beside the plan


def test_a_token_seller_is_told_resale_is_a_stopgap_with_its_conditions():
    text = advice_plan("q11_paid_api_b25").start_with.text_in("en")
    assert "stopgap" in text and "B25" in text and "many forbid" in text


def test_without_the_fields_the_api_leads_again():
    """The rule reads the answers, not the scenario: q42 with no GPUs named leads on the API again."""
    r = advice_plan("q42_china_market_gpus_mainland", gpu_constraint=None)
    assert r.start_with is not None and r.start_with.form == "hosted_api"


def test_the_no_entity_sign_up_risk_is_a_condition_on_its_question_not_a_reason():
    r = advice_plan("q22_hk_company_telecom_only")
    risk = next(f for f in r.findings if f.id == "genai.signup_no_entity")
    assert risk not in deciding(r.findings)
    q = next(q for q in r.open_questions if q.field == "open_signup")
    # s39-swap (blind review 31): under the owner's sign-off on another model the risk is one of its conditions
    # (``owner_sign39.bullets``), the question pointing there
    said = owner_sign39.says_filing(r.start_with)
    for lang, words in (("en", ("open sign-up", "Art. 2")), ("zh_CN", ("开放任何企业注册", "第二条"))):
        text = r.start_with.text_in(lang) if said else q.text_in(lang)
        assert all(w in text for w in words)
