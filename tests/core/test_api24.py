"""A cheaper hosted API weighed on what it rests on (s24-api24, issue 25, round 13 of the blind review).

- the volume: a lead on the plan's estimate of the volume (not the user's figure) does not set the plan aside: it is
  said as cheaper at that volume with the volume from which self-hosting pays (q24, q34, q35, q42); on the user's own
  figure, or where the plan is over the budget (q40), the API still leads;
- where the API is served from: a row served from where the prompts may go from the node (the neighbouring region,
  the mainland for a mainland company's mainland users) is weighed, not a "yardstick" (q12, q21, q22); a far one
  (q38's US list for EU staff data) stays a yardstick with a quote asked for;
- the prompts' length: a stated endpoint limit below the plan's long requests rules the API out; an unknown one is
  said as a check where the requests are long (q10);
- the token margin's ratios end for end, as the month is compared (q11).
"""

from __future__ import annotations

import pytest

from advisor.plan import hosted_assumed, hosted_prices, memo_volume_once
from advisor.plan.hosted_weigh import reasons_to_self_host
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.core.test_plan_rules import facts_for
from tests.support.former_l20_rent import former_l20_quotes
from tests.support.planned import advice_answers, planned, quoted, short_lived, unled

LANGS = ("en", "zh_CN")
ESTIMATE = {"en": "not a figure you gave", "zh_CN": "不是你们给出的数字"}


def _head(r: PlanResult, lang: str) -> str:
    """Page 1 above the deciding reasons (the headline and the paragraph under it)."""
    page = render_memo_markdown(r, lang).split("\n## ")[1]
    return page.split("What decides it" if lang == "en" else "决定这个结论的理由")[0]


# s25-apivol25 (round 14: "an estimate is no reason to keep a plan 20–300× dearer"): the estimate no longer keeps
# the plan by itself. q24 kept it because no list prices Qwen2.5-32B-Instruct itself; review 15 called that weak
# (s25-apikept25): Qwen2.5-Coder-32B / Qwen3-32B are a quality test away, so q24 starts on the API with the switch
# said, as it does on a volume the user gives;
# q34, q35 and q42, where nothing but the estimate kept it, start on the API (q35 as on 2,000 requests a day below). Either way the paragraph gives the API's month, the plan's and the volume from which self-hosting pays,
# and never "not a figure you gave" as the reason (tests/core/test_apivol25.py asks the request count first).
# s34-apilead34 (blind review 23): q35 and q42 name the GPUs to run on, so the self-hosted plan heads page 1 and the
# API is the option beside it (reason "asked": tests/core/test_apilead34.py)
@pytest.mark.parametrize(("name", "form"), [("q24_us_saas_rent", "hosted_api"), ("q34_mixed_users_split", "hosted_api")])
@pytest.mark.parametrize("lang", LANGS)
def test_an_api_cheaper_on_an_estimated_volume_is_decided_on_a_real_reason_with_the_flip_volume(name, form, lang):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    r = planned(short_lived(advice_answers(name)))
    sw = r.start_with
    assert sw is not None and sw.form == form
    assert sw.reason in ("lead", "lead_terms")  # s27-pages27: no "assumed" plan kept beside it (dead, removed)
    assert str((r.costs.volume_basis or {}).get("tr")) not in hosted_assumed.OWN_VOLUMES
    head = _head(r, lang)
    said = sw.text_in(lang, markdown=True)
    # Re-argued in s27-pages27 (issue 25, page 1 says each fact once): page 1 prints the lead with the break-even's
    # bracket pointing at the request-count question below it, which gives the same volume in requests a day; the
    # app and --json keep the price list's title (memo_volume_once, tests/core/test_pages26_said_once.py)
    printed = memo_volume_once.start_with(sw, [q for q in r.open_questions if q.changes_decision])
    assert printed is not None and printed.text_in(lang, markdown=True) in head and ESTIMATE[lang] not in said
    # the API's month and the volume from which self-hosting pays (the flip) in the lead; the self-hosted plan's
    # month on page 1 too, in the cost row (cst44, blind review 35, q12/q21: the price bullet says the recommended
    # path's month alone, the fallback's figures out of it)
    page = render_memo_markdown(r, lang).split("\n## 2")[0]
    assert f"{r.costs.hosted_api_monthly.low:,.0f}" in said and f"{r.costs.recommended_monthly.low:,.0f}" in page
    assert sw.break_even is not None and ("Self-hosting becomes cheaper than the API" if lang == "en" else "自建才划算") in said
    # the finding says the same reason, never "nothing in your answers rules it out" where the plan is kept
    f = r.finding("cost.hosted_weighed")
    assert f is not None and (".kept." in f.detail_key) == (form == "this_plan")
    assert ESTIMATE[lang] not in f.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_api_leads_on_the_users_own_request_count(lang):
    """Both directions on q35: the user's requests a day (the volume theirs, the API still a tenth of the plan)
    bring the API lead back; its figures rest on their own count. s34-apilead34 (blind review 23): q35 names the
    H20 to run on, so its plan is kept whatever the count, the API beside it; with no GPU named the lead is back."""
    answers = {**advice_answers("q35_deepseek_v3_h20_internal"), "requests_per_day": 2000}
    r = planned(answers)
    assert str(r.costs.volume_basis["tr"]) in hosted_assumed.OWN_VOLUMES
    assert r.start_with is not None and r.start_with.reason == "asked", r.start_with
    assert ESTIMATE[lang] not in r.start_with.text_in(lang)
    r = planned({k: v for k, v in answers.items() if k != "gpu_constraint"})
    assert r.start_with is not None and r.start_with.form == "hosted_api", r.start_with
    assert ESTIMATE[lang] not in r.start_with.text_in(lang)


def test_a_plan_over_the_budget_still_starts_on_the_api():
    """q40 (¥76k–¥209k a month against a ¥5k budget): the budget decides, not the estimated volume."""
    r = planned(advice_answers("q40_tiny_budget_72b"))
    assert r.costs.recommended_monthly.low > advice_answers("q40_tiny_budget_72b")["monthly_budget"]["amount"]
    assert r.start_with is not None and r.start_with.form == "hosted_api"


@pytest.mark.parametrize(("name", "where", "words"), [
    # swap42 (blind review 32, q12: "Say 'an HK front-end host calling Alibaba's Singapore API', and note that the
    # onward transfer must be named in the standard contract and the PIA"): the path in the bold line, the recipient
    # a sign-off condition
    ("q12_hk_saas_pi_contract", "singapore", ("calling the API of Alibaba Cloud Model Studio (International) in "
                                              "Singapore", "the PIPL notice")),
    ("q22_hk_company_telecom_only", "singapore", ("calling the API of Alibaba Cloud Model Studio (International) in "
                                                  "Singapore", "Both your host and the API are outside the mainland")),
    # s32-headline33 (blind review 21, q21: "the mainland → HK → mainland data round trip needs a clearer
    # explanation"): "go back to where they came from" became the round trip said step by step
    ("q21_fast_launch_hk_rule1", "mainland", ("served from the mainland", "then back into the mainland to the API"))])
def test_a_row_served_where_the_prompts_may_go_is_weighed_not_a_yardstick(name, where, words):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    """Round 13: "yardstick APIs 40–150× cheaper are set aside without reasons" (q12, q21, q22). Each is weighed
    with where it is served from and where the prompts then go, its figure beside the plan's.

    Re-argued in s25-apikept25 (review 15): where it is served kept these plans ("every prompt would go back to the
    mainland", "on to Singapore"), which is no reason: q21's users are in the mainland, where its API is; q12's and
    q22's Singapore API is offshore like their Hong Kong node. So each starts on the API, and the lead says where it
    is served and why that is no bar."""
    f = facts_for(short_lived(advice_answers(name)))
    assert hosted_assumed.reachable(f) == where
    r = planned(short_lived(advice_answers(name)))
    said = r.start_with.text_in("en")
    assert r.start_with.form == "hosted_api" and "a yardstick only" not in said
    for w in words:
        assert w in said, (name, w)
    assert ("在新加坡提供" if where == "singapore" else "在大陆提供服务") in r.start_with.text_in("zh_CN")
    # the PIPL instruments naming the onward recipient only where the prompts carry personal information (q22's
    # meeting minutes carry none) and leave for another place than the mainland (q21's go back there)
    pi = bool(short_lived(advice_answers(name))["data_sensitivity"].get("personal_info"))
    assert ("the PIPL notice" in said) == (pi and where != "mainland")


def test_a_far_row_stays_a_yardstick_with_the_deciding_reason():
    """q38: the only list is W&B's, served from the US: EU staff data would leave the EU; no neighbour serves it. The
    reason against it is said first: no provider serving Europe is priced, a quote from one is asked for."""
    f = facts_for(advice_answers("q38_eu_internal_hr_assistant"))
    assert hosted_assumed.reachable(f) is None
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    said = r.start_with.text_in("en")
    assert r.start_with.reason == "unserved" and said.startswith("No hosted API serving this model from Europe")
    assert "GDPR Chapter V" in said


def test_a_us_list_for_a_hong_kong_node_is_no_neighbour(monkeypatch):
    """q12 without the nearest-region row (the US list as before s23-apisg23): the US is no neighbour of Hong Kong."""
    monkeypatch.setattr(hosted_prices, "NEAREST_REGIONS", {})
    assert hosted_assumed.reachable(facts_for(advice_answers("q12_hk_saas_pi_contract"))) is None


def test_a_neighbour_past_the_first_token_target_is_ruled_out_by_its_round_trip():
    """q43 (150 ms, a Hong Kong node placed for it): Singapore's round trip from the mainland (38–60 ms) plus the
    plan's first token fits the target, so it is weighed; past the target (a first token of 120 ms) it is not."""
    answers = advice_answers("q43_us_team_mainland_low_latency")
    assert hosted_assumed.reachable(facts_for(answers, card_ttft_p99=80.0)) == "singapore"
    assert hosted_assumed.reachable(facts_for(answers, card_ttft_p99=120.0)) is None


@pytest.mark.parametrize("lang", LANGS)
def test_long_requests_say_to_check_the_endpoints_context_limit_where_the_list_gives_none(lang):
    """q10 (round 13: "without checking that the endpoint accepts 120k-token prompts"): the rows state no context
    limit, so the paragraph asks for the check with the plan's longest requests (p95 prompt + p95 answer)."""
    answers = advice_answers("q10_128k_document_assistant")
    r = planned(answers)
    need = answers["prompt_tokens"]["p95"] + answers["output_tokens"]["p95"]
    assert hosted_assumed.max_context(facts_for(answers)) is None  # unknown stays unknown
    assert f"{need:,}" in r.start_with.text_in(lang)
    # short requests: no check said (q24: 4,000 + 1,000 tokens)
    assert hosted_assumed.context_clause(facts_for(advice_answers("q24_us_saas_rent"))) == ""


def test_a_stated_context_limit_below_the_requests_rules_the_api_out(monkeypatch):
    """Both directions on q10: a row stating a 32,768-token limit is a reason the answers give against the API (the
    plan is kept for it); a limit above the requests is none."""
    answers = advice_answers("q10_128k_document_assistant")
    rates = hosted_prices.hosted_rates

    def with_limit(limit: int):
        def patched(ctx):
            got = rates(ctx)
            return got if got.tier is None else type(got)(got.input_usd, got.output_usd,
                                                          {**got.tier, "max_context": limit})
        return patched

    monkeypatch.setattr(hosted_prices, "hosted_rates", with_limit(32_768))
    keys = [w["tr"] for w in reasons_to_self_host(facts_for(answers))]
    assert keys[:1] == ["plan.api24.why.context"] or "plan.api24.why.context" in keys
    monkeypatch.setattr(hosted_prices, "hosted_rates", with_limit(131_072))
    f = facts_for(answers)
    assert "plan.api24.why.context" not in [w["tr"] for w in reasons_to_self_host(f)]
    assert hosted_assumed.context_clause(f) == ""  # a known limit that holds: no check asked


@pytest.mark.parametrize("lang", LANGS)
def test_q11_the_month_and_the_token_margin_compare_end_for_end(lang):
    """Round 13, q11: "about the same" (the API's high end against the plan's low) beside "1–14 ×" (the opposite
    ends). Each comparison is end for end now: each side's token ratio range is own low ÷ API low … own high ÷ API
    high, and the month's verdict (the API under the plan at every end) agrees with every ratio above 1."""
    r = planned(advice_answers("q11_paid_api_b25"))
    f = r.finding("cost.token_margin")
    assert f is not None
    hosted, plan = r.costs.hosted_api_monthly, r.costs.recommended_monthly
    assert hosted.low < plan.low and hosted.high < plan.high  # the month, end for end: the API cheaper
    for key in ("in_times", "out_times"):
        lo = float(f.params[key].split("–")[0])
        assert lo > 1, (key, f.params[key])  # each token, end for end: dearer to make than the API charges
    assert ("about the same" if lang == "en" else "大致相同") not in _head(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_batch_job_at_about_the_apis_cost_weighs_it_with_the_batch_api_a_source_prices(lang):
    """Round 13, q28: "the hosted API (¥2,079–3,900 for the job) costs about the same and is not weighed, nor is a
    batch-API discount". Its middle within TIE above the plan's: weighed as an overlap, kept for the answers' reason
    (a bank's highly sensitive data), the market's batch API named with the models it covers; q06's API, 30 % dearer
    in the middle, is not weighed.

    s25-prices25: AWS's support share is no longer put on a mainland cloud's bill, so q28's own job costs 3–10 % less
    and its API (unchanged) is 8.7 % dearer in the middle, past TIE (5 %), and no longer weighed as an overlap. The
    case this test is about is made with a 32-hour deadline (more GPUs at once, a dearer job): the API then 4.3 %
    dearer in the middle, within TIE.

    Re-argued in s28-prices28: the L20's mainland rent is Alibaba's dated quote now (¥14.63 an hour, above the old
    placeholder), so q28 runs on the H20, cheaper even at the top of its placeholder range (USD 1.2–2.6), and its
    job's range (about ¥1,840–4,740 at 48 hours, ¥1,860–4,990 at 32) holds the API's whole range (¥2,079–3,900):
    the API's middle is no longer above the plan's at any deadline, but the two ranges overlap outright, the case
    this test is about (weighed as an overlap, kept for the answers' reason, the batch API named). The 48-hour
    scenario as the bench has it shows it."""
    r = unled(advice_answers("q28_bank_backfill_batch_48h"))
    h, p = r.costs.hosted_api_monthly, r.costs.recommended_monthly
    assert p.low < h.low and h.high < p.high  # the API's range within the plan's: about the same, quotes decide
    f = r.finding("cost.hosted_weighed")
    assert f is not None and f.title_key.endswith("overlap.title") and r.start_with.reason == "answers"
    assert f"{h.low:,.0f}" in f.title_in(lang) and f"{p.low:,.0f}" in f.title_in(lang)
    assert "batch-inference" in f.detail_in(lang) and "50%" in f.detail_in(lang)
    page = render_memo_markdown(r, lang).split("\n## ")[1]
    # s34-fairreason (review 24): a cheaper API set aside is said on page 1's own "weighed and set aside" line with
    # the same figures, not as one of the deciding reasons
    # the owner's decision since s38-usage (review 29); kept for the answers' reason, "why not" (api43, review 34)
    aside = "Why not a hosted API" if lang == "en" else "为什么不用模型 API 服务"
    assert f.title_in(lang) in _head(r, lang) or f.title_in(lang) in page or (
        aside in page and f"{h.low:,.0f}" in page and f"{p.low:,.0f}" in page)
    # q06's API was 30 % dearer in the middle than its L20 job on the placeholder rent (USD 0.7–1.6 an hour), and not
    # weighed. s28-prices28: on Alibaba's quote (¥14.63) the job costs ¥3,454–3,985 and the API (¥2,240–3,600) is
    # likely cheaper, weighed and kept for the answers' reason (the customers' personal data); the job at the old
    # rent, given as a quote, still does not weigh a dearer API
    assert unled(advice_answers("q06_l20_batch_72h_claims")).finding("cost.hosted_weighed") is not None
    q06 = quoted(advice_answers("q06_l20_batch_72h_claims"), former_l20_quotes())
    assert q06.finding("cost.hosted_weighed") is None
