"""Sixth blind review, answers and memos (issue 25, s17-ui): what the engine said wrongly or left out, in both
languages. Each test fails without its fix."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import alternative_text
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


@pytest.mark.parametrize("lang", LANGS)
def test_q22_no_personal_information_is_taken_as_given_and_the_api_alternative_asks_where_it_runs(lang):
    """Meeting minutes answered "no personal information", served from Hong Kong: the memo says the answer is taken
    as given and what names in the prompts would change (a cross-border transfer); the hosted-API alternative under
    the headline asks where the provider processes the prompts."""
    r = planned(advice_answers("q22_hk_company_telecom_only"))
    [f] = [x for x in r.findings if x.id == "pi.none_as_answered"]
    words = {"en": ("as answered", "out of the mainland", "standard contract"),
             "zh_CN": ("按回答", "出境", "标准合同")}[lang]  # fmt: skip
    text = f.title_in(lang) + f.detail_in(lang)
    assert all(w in text for w in words), text
    assert ("Hong Kong" if lang == "en" else "香港") in f.title_in(lang)
    alt = alternative_text(r.findings, lang)
    assert ("which country or region" if lang == "en" else "哪个国家或地区") in alt
    page_one = render_memo_markdown(r, lang).split("\n## ")[1]
    assert alternative_text(r.findings, lang, markdown=True) in page_one
