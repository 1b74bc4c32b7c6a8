"""q07 (a paid homework-help app for pupils, many under 14, on the mainland) in 5 pages, not 6 (issue 25,
s20-q07pages): a duty said in one finding is pointed to, not said again, in another; each PIPL article the memo needs
still appears where it applies; a source is listed once, not twice under two titles."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q07 = "q07_minors_education_app"
# an article as each language writes it: "Art. 28" in English, "第二十八条" (or "第二十九、三十条") in Chinese
ZH_NUM = {21: "二十一", 28: "二十八", 29: "二十九", 31: "三十一", 51: "五十一", 55: "五十五"}


def scenario(name: str = Q07, **change: object) -> PlanResult:
    return planned({**advice_answers(name), **change})


def one(r: PlanResult, rule_id: str):
    [x] = [x for x in r.findings if x.id == rule_id]
    return x


def names(text: str, lang: str, art: int) -> bool:
    if lang == "en":
        return re.search(rf"Art\. (\d+[–, ]+)*{art}\b", text) is not None
    return f"第{ZH_NUM[art]}" in text or f"、{ZH_NUM[art]}" in text


def findings_section(memo: str) -> str:
    return memo.split("\n## ")[7]  # 7. Findings and obligations (0 is the title)


@pytest.mark.parametrize("lang", LANGS)
def test_each_pipl_article_q07_needs_is_in_the_finding_it_applies_to(lang):
    r = scenario()
    minors, sensitive = one(r, "pi.minors").detail_in(lang), one(r, "pi.sensitive_safeguards").detail_in(lang)
    for art in (28, 31, 55):  # children's information is sensitive; a guardian's consent; the impact assessment
        assert names(minors, lang, art), (art, minors)
    for art in (29, 51, 55):  # separate consent, access control, the same assessment (pointed to, not re-explained)
        assert names(sensitive, lang, art), (art, sensitive)
    assert not names(sensitive, lang, 28), sensitive  # Art. 28 is the minors' finding's, said there once
    hosted = one(r, "cost.hosted_weighed").detail_in(lang)  # a hosted API would be a processor: Art. 21 there
    for art in (21, 29, 31, 55):
        assert names(hosted, lang, art), (art, hosted)


def test_the_sensitive_finding_points_to_the_minors_finding_only_where_that_finding_is_in_the_memo():
    assert one(scenario(), "pi.sensitive_safeguards").detail_key.endswith(".minors.detail")
    adults = scenario(minors=False)  # the same app for adults: the full text, Art. 28 and 55 its own
    assert "pi.minors" not in adults.finding_ids
    x = one(adults, "pi.sensitive_safeguards")
    assert x.detail_key == "plan.rule.pi.sensitive_safeguards.detail"
    assert names(x.detail_in("en"), "en", 28) and names(x.detail_in("en"), "en", 55)
    hosted = one(adults, "cost.hosted_weighed").detail_in("en")  # no minors' finding to point to: said in full
    # the entrustment's contract and assessment (Art. 21, 55), no fresh consent of its own (s35-duties, review 26 q14)
    assert "(PIPL Art. 21)" in hosted and "(Art. 55)" in hosted and "Art. 29" not in hosted and "Art. 31" not in hosted


@pytest.mark.parametrize("lang", LANGS)
def test_separate_consent_for_sensitive_data_is_said_by_one_finding(lang):
    clause = translate(lang, "q07pages20.bases.sensitive").strip("；; 。.")
    assert clause not in one(scenario(), "pi.consent_notice").detail_in(lang)  # the sensitive finding says it
    plain = scenario(data_sensitivity={"level": "medium", "personal_info": True, "pi_subjects_per_year": 500000,
                                       "sensitive_pi_subjects_per_year": 0, "sector": "education"}, minors=False)
    assert "pi.sensitive_safeguards" not in plain.finding_ids
    assert clause in one(plain, "pi.consent_notice").detail_in(lang)  # nothing else says it: said here


@pytest.mark.parametrize("lang", LANGS)
def test_q07s_memo_says_each_duty_once(lang):
    memo = render_memo_markdown(scenario(), lang)
    section = findings_section(memo)
    art28 = "Art. 28" if lang == "en" else "第二十八条"
    assert section.count(art28) == 1, section  # the minors' finding's, not the sensitive finding's too
    # the long "registration only if the provincial CAC accepts it" was in two titles and a detail: now never
    assert translate(lang, "plan.genai.genai_open_weights") not in memo
    guardian = "(PIPL Art. 31)" if lang == "en" else "（《个人信息保护法》第三十一条）"
    assert section.count(guardian) == 0  # the hosted-API reason points to the findings instead of repeating them


def test_q07s_sources_are_each_listed_once():
    memo = render_memo_markdown(scenario(), "en")
    listed = memo.split("\n## 10. ")[1]
    urls = re.findall(r"\]\((https?://[^)]+)\)", listed)
    assert urls and len(urls) == len(set(urls)), [u for u in urls if urls.count(u) > 1]
    # the Interim Measures and the Cybersecurity Law, each cited by two findings: one entry each
    assert listed.count("《生成式人工智能服务管理暂行办法》 (CAC et al.") == 1
    assert listed.count("Cybersecurity Law Art.") == 1
