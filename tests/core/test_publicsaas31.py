"""A subscription any business could buy, sold into the mainland by a company with no mainland entity: the
"public" question of the Interim Measures as page 1's risk; a hosted model its provider marks deprecated never leads
a plan of many months (s31-publicsaas31, issue 25, blind review 20 on q12 and q13).
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import hosted_next, hosted_tie
from advisor.plan.memo import memo_document
from advisor.plan.reasons import deciding
from advisor.plan.result import render
from tests.support.page_one import page_one
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
SAAS = ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold")
RISK = "genai.signup_no_entity"
# the article and the three ways out, as a reader finds them on page 1
ARTICLE = {"en": "Art. 2", "zh_CN": "第二条"}
ARTICLE_RE = {"en": r"Art\. 2(?!\d)", "zh_CN": "第二条"}
WAYS_OUT = {"en": ("legal opinion", "under contract", "mainland partner"), "zh_CN": ("律师", "签约客户", "大陆合作方")}


def _ids(r) -> set[str]:
    return {f.id for f in r.findings}


@pytest.mark.parametrize("name", SAAS)
def test_a_subscription_with_no_mainland_entity_states_the_public_risk_as_a_page_one_reason(name):
    """"Not public" as answered is kept (no filing planned), but the risk that a subscription any business can buy
    counts as public — and that with no mainland entity the team cannot file — is a warning said on page 1, not the
    info-level caveat it was (``genai.business_signup``). Re-argued in s34-apilead34 (blind review 23, q22): on
    page 1 it is the condition on the sign-up question, not one of the reasons that decide."""
    r = advice_plan(name)
    assert RISK in _ids(r) and "genai.business_signup" not in _ids(r)
    risk = next(f for f in r.findings if f.id == RISK)
    assert risk.severity == "warning"
    assert risk not in deciding(r.findings)  # s34-apilead34 (review 23, q22): said on its question, not a reason
    assert "genai.business_only" not in _ids(r)  # the answer "not public" still stands: no filing planned
    assert any("Art. 2" in s.title for s in risk.sources)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SAAS)
def test_page_one_says_the_risk_its_article_and_the_ways_out(name, lang):
    one = page_one(memo_document(advice_plan(name), lang).markdown())
    # s34-apilead34 (blind review 23, q22: "reads as a requirement though the plan files nothing"): said on page 1
    # as the condition on the sign-up question, no longer as a deciding reason (its title is section 7's)
    # s39-swap (blind review 31, q12/q13 zh: "lift the genAI-filing risk into the headline"): under an API lead on
    # another model it is one of the sign-off's conditions, the question pointing there
    assert ("Only open sign-up may count as public" if lang == "en" else "只有开放任何企业注册") in one \
        or render(lang, "sw43.blocker") in one  # s41-swap (review 34): a question for counsel, conditional
    # s32-apinext32: "Art. 2" also begins "PIPL Art. 21" (entrusted processing) in the API lead that now opens q12
    # and q13's page 1: the risk's own line is the one that says the Interim Measures' article
    reason = next(line for line in one.splitlines() if re.search(ARTICLE_RE[lang], line))
    assert all(way in reason for way in WAYS_OUT[lang]), reason


@pytest.mark.parametrize("change", [{"open_signup": False}, {"mainland_entity": True}, {"charges_users": False}])
def test_no_page_one_risk_where_customers_are_contracted_or_the_team_can_file(change):
    """Contracted customers only (the exclusion of Art. 2), a mainland entity that can file (the caveat stays, as
    before), or nothing sold: no headline risk."""
    assert RISK not in _ids(advice_plan("q12_hk_saas_pi_contract", **change))


def test_open_sign_up_answered_plans_the_filing_instead():
    """Any business can sign up (answered): the filing is planned (``genai.business_only``), not asked about."""
    ids = _ids(advice_plan("q12_hk_saas_pi_contract", open_signup=True))
    assert "genai.business_only" in ids and RISK not in ids


def test_the_filing_status_is_not_asked_of_a_company_that_cannot_file():
    """With no mainland entity the filing is a mainland licence holder's to make: page 1 does not ask whether the
    team's own filing is done (the question only flipped this risk)."""
    r = advice_plan("q12_hk_saas_pi_contract")
    assert "genai_filing" not in {q.field for q in r.open_questions}
    assert "open_signup" in {q.field for q in r.open_questions}


@pytest.mark.parametrize("name", [*SAAS, "q22_hk_company_telecom_only"])
def test_a_deprecated_model_does_not_lead_a_24_month_plan(name):
    """The Singapore list marks Qwen2.5-14B-Instruct deprecated; for a 24-month product its own price never leads
    (reviewers: "the API-first advice relies on a model the provider has marked deprecated").
    Re-argued in s32-apinext32 (blind review 21: q22 sent back, "start on an API (Qwen3-14B after a quality test …),
    self-host later"): the same list's next generation, priced and cheaper, leads instead, on its own name and month;
    without one the plan leads (``test_apinext32_next_lead``)."""
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    assert r.start_with.key.startswith(hosted_next.LEAD_PREFIX) and r.start_with.params["next"] == "Qwen3-14B"


def test_a_short_plan_may_still_start_on_the_deprecated_model():
    """Within ``LEAD_MAX_MONTHS`` the API still leads (its deprecation said in the lead, as before)."""
    r = advice_plan("q12_hk_saas_pi_contract", expected_duration_months=hosted_tie.LEAD_MAX_MONTHS)
    assert r.start_with is not None and r.start_with.form == "hosted_api"


@pytest.mark.parametrize("lang", LANGS)
def test_the_yardstick_is_labelled_deprecated_with_its_successor_to_price(lang):
    one = page_one(memo_document(advice_plan("q12_hk_saas_pi_contract"), lang).markdown())
    # re-argued in s31-util32 (blind review 20b, q13: "the memo never prices the successor model"): where the price
    # row names the same list's next generation (Qwen3-14B for q12/q13/q22) the lead prices it instead of asking for
    # the successor's price ("succeeds" / "接替"); not called the provider's successor, which no source names
    # re-argued again in s32-apinext32 (blind review 21): the next generation, priced, leads page 1; the deprecated
    # model is named as such in that lead, with its next generation, no longer as a yardstick
    words = {"en": ("deprecated", "next generation", "Qwen3-14B"), "zh_CN": ("弃用", "下一代", "Qwen3-14B")}[lang]
    # s34-apilead34: the lead is a sentence and its bullets, one paragraph
    lead = next(block for block in one.split("\n\n") if words[0] in block)
    assert all(w in lead for w in words), lead
    assert {"en": "(pay per token)", "zh_CN": "（按 token 计费）"}[lang] in lead
