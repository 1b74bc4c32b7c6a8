"""Where and how a memo weighs a hosted API against its own recommendation (s42-apif, blind review 36).

- q14/q35/q42: self-hosting kept for a stated reason: the far-cheaper API is not the line under the recommendation
  ("the bigger decision" before the reasons) but an option weighed after them, with its conditions, and its ratio
  at both ends of the API's volume (the usage guess and the high end), not the low guess alone.
- q19: no reason keeps self-hosting: the gap stays under the recommendation, with both ends too.
- zh: no "这是更大的决定" (a calque).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")


def _prefix(lang: str, key: str) -> str:
    return translate(lang, key).split("{")[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q14_medical_followup_mainland", "q35_deepseek_v3_h20_internal",
                                  "q42_china_market_gpus_mainland"])
def test_a_kept_self_host_weighs_the_api_after_its_reasons_at_both_ends(name, lang):
    r = advice_plan(name)
    page = page_one(render_memo_markdown(r, lang))
    assert ("weigh this first" if lang == "en" else "这一点值得先定") not in page  # not the page's lead
    lines = page.splitlines()
    weighed = [x for x in lines if x.startswith(_prefix(lang, "apf44.gap.considered"))
               or _prefix(lang, "apf44.gap.considered_tail") in x]  # its own paragraph, or in "why not an API"
    assert len(weighed) == 1
    first = next(i for i, x in enumerate(lines) if x.startswith("1. **"))  # what decides it: the first list
    reasons = first
    while reasons + 1 < len(lines) and lines[reasons + 1][:1].isdigit():
        reasons += 1
    assert lines.index(weighed[0]) > reasons  # after what decides it, never before
    c = r.costs
    top = c.hosted_api_monthly.high * high_end_factor(c)
    assert top > c.hosted_api_monthly.high  # these plans guess the volume: there is a high end to say
    lo, hi = c.recommended_monthly.low / top, c.recommended_monthly.high / top
    assert f"{lo:,.0f}–{hi:,.0f}" in weighed[0] or f"{lo:,.0f}" in weighed[0]
    assert "bigger decision" not in page and "更大的决定" not in page


@pytest.mark.parametrize("lang", LANGS)
def test_no_reason_to_self_host_keeps_the_gap_under_the_recommendation_with_its_high_end(lang):
    page = page_one(render_memo_markdown(advice_plan("q19_export_controlled_h100_mainland"), lang))
    line = next(x for x in page.splitlines() if _prefix(lang, "apf44.gap.high").strip("；, ") in x
                and ("This plan costs" in x or "本方案的费用是" in x))
    assert ("weigh this first" if lang == "en" else "这一点值得先定") in line
    assert _prefix(lang, "apf44.gap.considered") not in page
    assert "更大的决定" not in page and "bigger decision" not in page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q24_us_saas_rent", "q21_fast_launch_hk_rule1", "q36_bursty_b2b_event_mainland"])
def test_an_api_lead_titles_the_hosted_finding_as_the_fallbacks_comparison(name, lang):
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    md = render_memo_markdown(r, lang)
    assert ("check it before you commit" if lang == "en" else "投入前先核对") not in md
    assert _prefix(lang, "apf44.fallback.title") in md


def test_a_self_hosted_plan_keeps_the_check_first_title():
    md = render_memo_markdown(advice_plan("q19_export_controlled_h100_mainland"), "en")
    assert "check it before you commit" in md and _prefix("en", "apf44.fallback.title") not in md


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q22_hk_company_telecom_only",
                                  "q13_sg_sellers_pi_below_threshold"])
def test_the_full_load_per_million_row_says_the_plans_own_load_cost(name, lang):
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    row = next(x for x in md.splitlines() if x.startswith(("| Cost per million tokens", "| 自建时每百万 token")))
    own = r.costs.cost_per_million_tokens_volume
    assert own is not None
    assert translate(lang, "apf44.per_million.most_input") in row  # why the blend can beat the API's output rate
    assert f"{own.low:,.0f}" in row or f"{own.low:.3g}" in row  # at the plan's own load, said in the row
