"""An API plan's memo says the API path's own checks; a settled self-host says why, not "your decision" (api43, blind
review 34; the rules: ``api_lead_steps`` / ``api_path43``, ``set_aside``, ``asked_gpus43``, ``short_horizon``).

- q24/q36: under a hosted-API lead the self-hosted soak (against SERVER:8000) is the fallback's step, and the API's
  step asks its rate limit at the plan's peak in writing with a load test at that level.
- q15/q27: a hosted API's plan asks the provider's rate limit at the peak (q27: 10), drops "replace the built-in
  prices … re-run" where even the dearest month is a trifle of the budget (q16, whose chats cost up to ¥851 of
  ¥2,000, keeps it), gives no "peak load unknown" reason and no self-hosted assumptions in section 8.
- q14/q32/q26: the plan kept for a reason said as "Why not a hosted API", not as the owner's decision; q31's open
  control-for-money trade stays one.
- q35/q42: GPUs asked for: the multiple and the reason the team must state; section 7 says the same reason.
- q27: the filing number not shown is the generative-AI filing's, the ICP number stays; no purchase figure the memo
  cannot derive.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import api_lead_steps, api_path43, asked_gpus43, owner_choice40, set_aside
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import advice_plan, only_finding

LANGS = ["en", "zh_CN"]
FALLBACK = {"en": "Only if you self-host", "zh_CN": "仅在转为自建后"}
WHY_NOT = {"en": "**Why not a hosted API:**", "zh_CN": "**为什么不用模型 API 服务**："}


def _steps(md: str, lang: str) -> list[str]:
    """Page 1's numbered next steps, each with the command block under it."""
    tail = page_one(md).split(translate(lang, "memo.next.first"))[1]
    return [s for s in re.split(r"\n(?=\d+\. )", tail) if re.match(r"\d+\. ", s)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q24_us_saas_rent", "q36_bursty_b2b_event_mainland"])
def test_api_lead_tests_the_api_at_its_peak_and_soaks_only_the_fallback(name, lang):
    r = advice_plan(name)
    assert api_lead_steps.leads_with_api(r)
    peak = r.start_with.params["peak"]
    md = render_memo_markdown(r, lang)
    steps = _steps(md, lang)
    api = next(s for s in steps if s.split(". ", 1)[1].startswith(translate(lang, "consistent28.next.api_first")[:8]))
    assert f"--concurrency {peak}" in api and str(peak) in api  # the rate limit at the peak, load-tested at it
    for s in steps:  # a step that runs against a server of one's own is the fallback's
        if "SERVER:8000" in s and "--soak" in s:
            assert s.split(". ", 1)[1].startswith(FALLBACK[lang]), s
    soak = next(s for s in r.next_steps if s.id == "soak")
    assert soak.key == api_lead_steps.SOAK_FALLBACK


def test_a_self_hosted_plan_keeps_its_plain_soak():
    r = advice_plan("q14_medical_followup_mainland")
    assert not api_lead_steps.leads_with_api(r)
    assert next(s for s in r.next_steps if s.id == "soak").key == "plan.next.soak"


@pytest.mark.parametrize("lang", LANGS)
def test_hosted_api_plan_asks_the_rate_limit_at_its_peak(lang):
    r = advice_plan("q27_six_month_pilot_no_ops")
    trial = next(s for s in r.next_steps if s.id == "api_trial")
    assert trial.key == api_path43.TRIAL_KEY and trial.params["concurrency"] == 10
    assert "10" in trial.text_in(lang).split(translate(lang, "plan.next.api_trial", concurrency=10))[1]
    one = next(s for s in advice_plan("q15_hosted_api_small_us_team").next_steps if s.id == "api_trial")
    assert one.key == "plan.next.api_trial_one"  # a peak of one request: no rate limit to ask


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q15_hosted_api_small_us_team", "q27_six_month_pilot_no_ops"])
def test_a_trifling_api_bill_gets_a_spending_limit_not_a_quote(name, lang):
    r = advice_plan(name)
    ids = [s.id for s in r.next_steps]
    assert "quotes" not in ids and "spend_cap" in ids
    md = render_memo_markdown(r, lang)
    assert translate(lang, "plan.next.quotes") not in md
    assert translate(lang, api_path43.SPEND_KEY) in page_one(md)


def test_a_bill_that_matters_keeps_the_quote_step():
    r = advice_plan("q16_hosted_api_mainland_registration")
    # the chats' month (up to ¥851 of ¥2,000) counts: the single requests' ¥73 alone would be a trifle
    assert r.costs.hosted_api_monthly.high <= api_path43.TRIVIAL * r.costs.budget_monthly
    assert "quotes" in [s.id for s in r.next_steps]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q15_hosted_api_small_us_team", "q16_hosted_api_mainland_registration"])
def test_api_plan_drops_self_hosted_assumptions(name, lang):
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    assert any(a.key in api_path43.SELF_HOST_ASSUMED for a in r.assumptions)  # assumed, but not said
    for a in r.assumptions:
        if a.key in api_path43.SELF_HOST_ASSUMED:
            assert a.text_in(lang) not in md
    assert translate(lang, "steps34.assume.quantization_no_fix") not in md
    if any(f.id == "sizing.unknown_load" for f in r.findings):  # the finding stays in section 7, off page 1's list
        title = next(f for f in r.findings if f.id == "sizing.unknown_load").title_in(lang)
        assert f"**{title}**" not in page_one(md).split(translate(lang, "memo.next.first"))[0].split("|")[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q14_medical_followup_mainland", "q32_filed_public_chatbot_fast",
                                  "q26_steady_3y_strong_ops_buy"])
def test_a_settled_self_host_says_why_not_an_api(name, lang):
    r = advice_plan(name)
    page = page_one(render_memo_markdown(r, lang))
    assert translate(lang, owner_choice40.LABEL).strip() not in page
    line = next(x for x in page.splitlines() if x.startswith(WHY_NOT[lang]))
    assert "¥" in line  # the API's price beside the reason


@pytest.mark.parametrize("lang", LANGS)
def test_busy_load_says_one_verdict_not_two(lang):
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    line = set_aside.text(r.findings, lang, markdown=True)
    assert line.startswith(WHY_NOT[lang])
    likely = translate(lang, "own39_set_aside.likely_busy", measured=80, busy="X").split("；" if lang == "zh_CN"
                                                                                         else ";")[0]
    assert likely not in line  # "likely the cheaper" beside "no less than running it yourselves" (q26)


def test_an_open_control_trade_stays_the_owners_decision():
    r = advice_plan("q31_icp_filed_hosting_move")
    assert set_aside.text(r.findings, "en", markdown=True).startswith(translate("en", owner_choice40.LABEL).strip())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q35_deepseek_v3_h20_internal", "q42_china_market_gpus_mainland"])
def test_gpus_asked_for_say_the_multiple_and_one_reason(name, lang):
    r = advice_plan(name)
    sw = r.start_with
    assert sw.key == asked_gpus43.KEY and not owner_choice40.applies(sw)
    span = sw.params["times"]["span"]
    lo, hi = (float(x.replace(",", "")) for x in span.split("–"))
    assert 10 <= lo < hi  # a multiple, low to high
    page = page_one(render_memo_markdown(r, lang))
    assert translate(lang, owner_choice40.LABEL).strip() not in page
    assert translate(lang, "fair35.times", span=span) in page
    assert translate(lang, "apilead34.why.gpus", gpus="X", more="").split("；" if lang == "zh_CN" else ";")[1] \
        not in page  # "that question, not the cost, is the only reason for it"
    weighed = only_finding(r, "cost.hosted_weighed")
    if weighed.params.get("why"):  # section 7: the question first, the answers' other reasons as what they are
        assert weighed.detail_key in asked_gpus43.DETAILS.values()


@pytest.mark.parametrize("lang", LANGS)
def test_q27_names_the_filing_number_and_no_underived_purchase(lang):
    r = advice_plan("q27_six_month_pilot_no_ops")
    md = render_memo_markdown(r, lang)
    said = {"en": ("generative-AI filing number", "ICP filing number stays shown"),
            "zh_CN": ("没有生成式人工智能备案号需要标示", "ICP 备案号照常标示")}[lang]
    for words in said:
        assert words in md
    capex = f"{r.costs.bare_metal_capex.low:,.0f}"
    assert capex not in md  # the purchase no table of this memo prints
