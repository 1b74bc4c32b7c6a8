"""The hosted API's personal-information reason in the law and the sector that apply (s19-apireason, issue 25).

Ninth blind review: the reason against a hosted API carried mainland PIPL wording ("separate consent and an impact
assessment") into Hong Kong and Singapore memos (q25, q37), called a bank's data "sensitive" where the answers count
0 people with sensitive data, and put banks' outsourcing rules into hospitals' (q03, q14) and a children's app's (q07)
memos. Each test reads the finding as the memo prints it, in both languages.
"""

from __future__ import annotations

import pytest

from advisor.plan.hosted_data_reason import is_sensitive, jurisdiction, sector_kind
from tests.core.test_plan_hosted_weigh import ALL, LANGS, PLAN_FIXTURES, _plan
from tests.core.test_plan_rules import facts_for
from tests.support.planned import advice_answers, scenario_answers


def _answers(name: str):
    if name.startswith("fixture:"):
        return scenario_answers(PLAN_FIXTURES / name.removeprefix("fixture:"))
    return advice_answers(name)

# a provider processing sensitive data for a mainland team: entrusted processing, a contract and an assessment
ENTRUSTED = {"en": ("entrusted-processing contract", "Art. 21", "impact assessment", "Art. 55"),
             "zh_CN": ("委托处理合同", "第二十一条", "影响评估", "第五十五条")}
# the mainland's sensitive-information wording, which no other jurisdiction's memo may borrow
PIPL_WORDS = {"en": ("separate consent", "PIPL", "impact assessment"), "zh_CN": ("单独同意", "个人信息保护法", "影响评估")}
SENSITIVE = {"en": "sensitive personal information", "zh_CN": "敏感个人信息"}
FINANCE = {"en": ("financial", "outsourcing"), "zh_CN": ("金融", "外包")}
HEALTH = {"en": ("health",), "zh_CN": ("健康",)}
MINORS = {"en": ("minors'", "children's"), "zh_CN": ("未成年人", "儿童")}


def _text(name: str, lang: str) -> str:
    f = _plan(name).finding("cost.hosted_weighed")
    assert f is not None, name
    return f.title_in(lang) + " " + f.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("name", "law"), [("q25_hk_bank_retail", {"en": "PDPO DPP4 and DPP3", "zh_CN": "保障资料第 4 及第 3 原则"}),
                                           ("q37_sg_fintech_public", {"en": "PDPA s. 24", "zh_CN": "第 24 条"})])
def test_a_hong_kong_or_singapore_bank_is_told_its_own_law_and_not_that_its_data_is_sensitive(name, law, lang):
    text = _text(name, lang)
    assert law[lang] in text
    assert not any(w in text for w in PIPL_WORDS[lang]), text
    assert SENSITIVE[lang] not in text  # the answers count 0 people with sensitive data
    assert any(w in text for w in FINANCE[lang])  # the sector's own reason: the financial-outsourcing rules
    assert not any(w in text for w in HEALTH[lang])


def test_the_singapore_reason_names_the_transfer_obligation():
    assert "(s. 26)" in _text("q37_sg_fintech_public", "en") and "第 26 条" in _text("q37_sg_fintech_public", "zh_CN")


@pytest.mark.parametrize("lang", LANGS)
# q03 (patient records on the hospital's private WAN) has its API ruled out in one line since s21-apiregion21b
# (eleventh blind review: "hosted APIs should not sit among the top five reasons for a patient-data system"); its
# line is tested in test_apiregion21b.py. q14's app reaches the public: the law's reason is still weighed there
@pytest.mark.parametrize("name", ["q14_medical_followup_mainland"])
def test_a_mainland_hospital_is_told_the_pipl_and_health_rules_not_the_banks(name, lang):
    text = _text(name, lang)
    assert SENSITIVE[lang] in text and PIPL_WORDS[lang][1] in text  # counted sensitive, in the mainland
    # entrusted processing: a contract (Art. 21) and the impact assessment first (Art. 55), not a fresh separate
    # consent for the entrustment (Art. 29 is the hospital's own consent; s35-duties, blind review 26 q14)
    assert all(w in text for w in ENTRUSTED[lang]) and PIPL_WORDS[lang][0] not in text, text
    assert any(w in text for w in HEALTH[lang])
    assert not any(w in text for w in FINANCE[lang]), text


@pytest.mark.parametrize("lang", LANGS)
def test_a_childrens_app_is_told_the_minors_rules_only(lang):
    text = _text("q07_minors_education_app", lang)
    assert any(w in text for w in MINORS[lang])
    assert not any(w in text for w in FINANCE[lang] + HEALTH[lang]), text


@pytest.mark.parametrize("name", ALL)
def test_the_reason_follows_the_answers(name):
    """Property over every scenario: the data reason says "sensitive" exactly when the answers count people with
    sensitive data (or leave the count open in a health or finance sector), names the jurisdiction's law only, and
    a sector's rule only for the answers' sector."""
    r = _plan(name)
    f = r.finding("cost.hosted_weighed")
    if f is None or "plan.apireason19.why.data" not in repr(f.params):
        return
    fx = facts_for(_answers(name))
    c = fx.ctx
    text = f.detail_in("en")
    assert (SENSITIVE["en"] in text) == is_sensitive(c), name
    law = jurisdiction(fx)
    assert ("PIPL" in text) == (law == "pipl"), name
    assert ("PDPO" in text) == (law == "pdpo") and ("PDPA" in text) == (law == "pdpa"), name
    kind = sector_kind(c)
    assert ("outsourcing rules" in text) == (kind == "finance"), name
    assert ("health-information rules" in text) == (kind == "health"), name


def test_a_count_of_zero_stands_and_an_open_count_follows_the_sector():
    c = facts_for(advice_answers("q25_hk_bank_retail")).ctx
    assert c.sensitive_subjects == 0 and not is_sensitive(c)
    open_count = advice_answers("q25_hk_bank_retail")
    del open_count["data_sensitivity"]["sensitive_pi_subjects_per_year"]
    assert is_sensitive(facts_for(open_count).ctx)  # a bank's data with no count: financial accounts
