"""A hosted API weighed as an expert would sign (s23-apisg23, issue 25, re-check 12b of the twelfth blind review).

- personal information is no reason against an API where the plan rents its GPUs: their provider is a processor too
  (q12, q13); highly sensitive data keeps the plan in the words of control (q07, q14);
- a public generative-AI service in the mainland: the API's shorter registration is part of its case (q07, q14);
- a split plan's API priced per user group on each region's own list (q34);
- Hong Kong priced on the nearest serving region's list, said with where it serves from (q12, as q13);
- a near tie said as about the same cost, with what decides and a deprecated model (q20);
- an API priced on another model's list: the switch and its quality test in the lead (q24).
"""

from __future__ import annotations

import pytest

from advisor.plan import hosted_prices, hosted_where
from advisor.plan.data import duration
from advisor.plan.hosted_processor import HIGH_RENTED, PI_RENTED, registration_clause
from advisor.plan.hosted_verdict import TIE, api_verdict
from advisor.plan.hosted_weigh import choice, reasons_to_self_host
from tests.core.test_plan_rules import facts_for
from tests.support.planned import advice_answers, own_volume, planned, short_lived

LANGS = ("en", "zh_CN")


def _keys(name: str, **over) -> list[str]:
    return [w["tr"] for w in reasons_to_self_host(facts_for(advice_answers(name), **over))]


def test_personal_information_is_an_arrangement_only_where_the_plan_rents_too():
    """q13 rents GPUs in Singapore: its prompts' personal information is the rented provider's too, so it is worded
    as an arrangement and keeps nothing; the same answers on bought cards keep the general reason (the prompts would
    leave the team's own machines only for the API)."""
    assert _keys("q13_sg_sellers_pi_below_threshold", form="cloud") == [PI_RENTED]
    assert _keys("q13_sg_sellers_pi_below_threshold", form="on_premises") == ["plan.hosted16.why.pi"]
    rented = facts_for(advice_answers("q13_sg_sellers_pi_below_threshold"), form="cloud")
    assert choice(rented) is None or choice(rented) != "answers"


@pytest.mark.parametrize("lang", LANGS)
def test_q13_leads_on_the_api_under_a_processing_agreement_as_the_gpus_are(lang, monkeypatch):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    # s24-api24: on the plan's estimate of the volume the API no longer leads (reason "assumed"); the lead's
    # wording is checked on the same figures taken as the user's own (``own_volume``)
    r = own_volume(short_lived(advice_answers("q13_sg_sellers_pi_below_threshold")), monkeypatch)
    assert r.deployment_form == "cloud"  # the decision is the engine's: unchanged
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    assert r.start_with.key == "plan.apisg23.lead_dpa"
    lead = r.start_with.text_in(lang)
    # re-argued in s26-privacy26 (blind review 16, q10/q12/q13): "your rented GPUs' provider holds it too" equated a
    # GPU host, which never reads the prompts, with an API that processes each one; the lead now says the difference
    # and the duty that makes the API possible (the provider as the team's processor, under a supervised contract)
    assert ("holds it too" if lang == "en" else "同样持有它") not in lead
    assert ("take it only as your processor, under a contract you supervise" if lang == "en"
            else "把它作为受托处理者并加以监督") in lead
    f = r.finding("cost.hosted_weighed")
    assert ("personal information" if lang == "en" else "个人信息") not in f.title_in(lang)
    # the agreement said once, in the lead; the finding's checks do not repeat it
    assert ("as your rented GPUs' provider is" if lang == "en" else "与租用 GPU 的云服务商一样") not in f.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_sensitive_data_on_rented_gpus_is_argued_on_control_not_on_another_company(lang):
    """q14's patient data: the reason stands, but not as "a hosted API hands every prompt to another company" when
    the rented GPUs' provider is another company too; on bought cards the old words stand."""
    assert HIGH_RENTED in _keys("q14_medical_followup_mainland", form="cloud")
    assert "plan.hosted16.why.high" in _keys("q14_medical_followup_mainland", form="on_premises")
    r = planned(advice_answers("q14_medical_followup_mainland"))
    assert r.start_with is not None and r.start_with.reason == "answers"  # still kept, for the data
    text = r.finding("cost.hosted_weighed").detail_in(lang)
    assert ("only your own software reads the prompts" if lang == "en" else "提示词只由你们自己的软件读取") in text
    assert ("hands every prompt to another company" if lang == "en" else "交给另一家公司") not in text


@pytest.mark.parametrize("name", ["q07_minors_education_app", "q14_medical_followup_mainland"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_api_s_shorter_registration_is_part_of_its_case(name, lang):
    """A public generative-AI service in the mainland hosting an open-weight model: the API called unchanged takes
    the registration, with both durations from the facts (deployment facts §2.2) and the filing's sources cited."""
    r = planned(advice_answers(name))
    f = r.finding("cost.hosted_weighed")
    text = f.detail_in(lang)
    (r_lo, r_hi), (f_lo, f_hi) = duration("genai_registration"), duration("genai_filing")
    assert f"{r_lo}–{r_hi}" in text and f"{f_lo}–{f_hi}" in text
    assert "登记" in text
    assert any("registration" in s.title for s in f.sources)


def test_no_registration_clause_outside_mainland_public_genai():
    assert registration_clause(facts_for(advice_answers("q24_us_saas_rent"), form="cloud")) is None
    assert registration_clause(facts_for(advice_answers("q13_sg_sellers_pi_below_threshold"), form="cloud")) is None
    r = planned(advice_answers("q24_us_saas_rent"))
    assert "登记" not in r.finding("cost.hosted_weighed").detail_in("en")


def test_q34_prices_each_user_group_on_its_own_regions_list():
    """60 % mainland users on the mainland lists, the rest on Model Studio International's Singapore list: the rates
    lie between the two lists' and are those shares of them; the API is no yardstick any more (a provider serves
    each group's region), and both lists are cited."""
    f = facts_for(advice_answers("q34_mixed_users_split"))
    split = hosted_prices.split_rows(f.ctx)
    assert split is not None
    home, away, share = split
    assert home["market"] == "mainland" and away["region"] == "singapore" and 0 < share < 1
    rates = hosted_prices.hosted_rates(f.ctx)
    (h_lo, h_hi), (a_lo, a_hi) = hosted_prices._usd(home, "output"), hosted_prices._usd(away, "output")
    assert rates.output_usd[0] == pytest.approx(share * h_lo + (1 - share) * a_lo)
    assert rates.output_usd[1] == pytest.approx(share * h_hi + (1 - share) * a_hi)
    r = planned(advice_answers("q34_mixed_users_split"))
    assert r.start_with is not None and r.start_with.reason != "unserved"
    assert sorted(r.costs.hosted_api_served_from) == ["mainland", "singapore"]
    w = r.finding("cost.hosted_weighed")
    titles = {s.title for s in w.sources}
    assert home["source"] in titles and away["source"] in titles
    for lang in LANGS:
        assert ("60 %" if lang == "en" else "60%") in w.detail_in(lang)


def test_a_one_region_plan_keeps_its_single_row():
    assert hosted_prices.split_rows(facts_for(advice_answers("q13_sg_sellers_pi_below_threshold")).ctx) is None
    assert "parts" not in hosted_prices.hosted_rates(facts_for(advice_answers("q14_medical_followup_mainland")).ctx).tier


@pytest.mark.parametrize("lang", LANGS)
def test_hong_kong_is_priced_on_the_nearest_serving_regions_list_and_says_where(lang, monkeypatch):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    """q12 (Hong Kong) was measured on W&B's US list while q13 had Model Studio International's Singapore one: the
    nearest region a provider serves from is the yardstick, named; still a yardstick (none serves Hong Kong)."""
    # s24-api24: on the plan's estimate of the volume the API no longer leads (reason "assumed"); the lead's
    # wording is checked on the same figures taken as the user's own (``own_volume``)
    f = facts_for(short_lived(advice_answers("q12_hk_saas_pi_contract")))
    tier = hosted_prices.hosted_rates(f.ctx).tier
    assert tier["region"] == hosted_prices.NEAREST_REGIONS["hong_kong"][0] == "singapore"
    assert hosted_where.mismatch(f) is not None
    # s25-apikept25 (review 15): Singapore and Hong Kong are both offshore: the API the prompts may reach leads, where
    # it is served named (no longer a yardstick's "the Singapore list")
    said = own_volume(short_lived(advice_answers("q12_hk_saas_pi_contract")), monkeypatch).start_with.text_in(lang)
    # swap42/pg42 (blind review 32): the bold line names the path, the API's provider and where it is served
    assert ("the API of Alibaba Cloud Model Studio (International) in Singapore" if lang == "en"
            else "Alibaba Cloud Model Studio (International) 在新加坡提供的模型 API") in said and "W&B" not in said


def test_a_near_tie_is_its_own_verdict():
    assert api_verdict((1009, 1009), (1010, 1432), 1211).kind == "tie"
    low = 1010 * (1 - TIE) - 1  # just outside the tie: the volume decides, as before
    assert api_verdict((low, low), (1010, 1432), 1211).kind == "volume"
    assert api_verdict((500, 1000), (1010, 1432), 1000).kind == "clear"
    # round 13 (q11): an API range reaching far under the plan's cheapest month is no tie, though its dearest end is
    assert api_verdict((6606, 14901), (15333, 43092), 17882).kind == "volume"


@pytest.mark.parametrize("lang", LANGS)
def test_q20_says_about_the_same_cost_and_what_decides_with_the_deprecated_model(lang):
    """q20 (re-check 12b): "the API ($1,009) is called cheaper at every list price, yet the memo keeps
    self-hosting". On the flat 30–50 % uplift the plan was $1,010–$1,432 and the API 0.1 % under its low end: the
    tie verdict (``test_a_near_tie_is_its_own_verdict`` keeps that rule). Since the uplift is by component
    (s23-uplift23) the plan is $846–$1,225 and the API's $1,009 falls inside it: "may cost less or more", the
    verdict of ranges that overlap, and never "cheaper at every list price"."""
    r = planned(advice_answers("q20_china_parts_offshore_sg"))
    f = r.finding("cost.hosted_weighed")
    low, high = r.costs.cloud_monthly.low, r.costs.cloud_monthly.high
    api = r.costs.hosted_api_monthly.low
    assert low < api < high
    if f is None:  # s33-kvdef: on its FP8 KV cache the month's tokens (read from the peak's rate) grew and the API's
        # month sits above the plan's middle: not weighed as cheaper at all (hosted_weigh.py), so nothing to say
        assert api >= (low + high) / 2 and r.start_with is None
        return
    assert f.title_key.endswith("alternative_overlap.title")
    head = r.start_with.text_in(lang)
    assert ("cheaper at every list price" if lang == "en" else "在任何标价下都更便宜") not in head
    # the deprecated model said once in the finding (its price basis): page 1 says it only where the tie or a
    # lead rests on that list
    assert ("as deprecated" if lang == "en" else "标为弃用") not in head
    assert f.detail_in(lang).count("deprecated" if lang == "en" else "弃用") == 1


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_priced_on_another_model_says_the_switch_in_the_lead(lang, monkeypatch):
    """q24: no sourced US list of Qwen2.5-32B-Instruct; the lead says whose figure it is and the quality test, and
    drops "for the same model"; q13's API is its own model's list: no switch said."""
    # s24-api24: on the plan's estimate of the volume the API no longer leads (reason "assumed"); the lead's
    # wording is checked on the same figures taken as the user's own (``own_volume``)
    lead = own_volume(advice_answers("q24_us_saas_rent"), monkeypatch).start_with
    assert lead.form == "hosted_api" and lead.key.startswith("plan.apisg23.switch_lead.")
    text = lead.text_in(lang)
    assert "Qwen2.5-32B-Instruct" in text and ("quality test" if lang == "en" else "质量测试") in text
    assert ("for the same model" if lang == "en" else "同一模型") not in text
    own = own_volume(advice_answers("q13_sg_sellers_pi_below_threshold"), monkeypatch).start_with.text_in(lang)
    assert ("switching model" if lang == "en" else "换模型") not in own


@pytest.mark.parametrize("lang", LANGS)
def test_a_lead_on_a_list_that_marks_its_model_deprecated_says_so_with_the_horizon(lang, monkeypatch):
    """q13: "the source also notes Qwen2.5 is deprecated on that API, which matters for a 24-month plan"; a lead on a
    list that marks nothing deprecated (q24's US lists) says nothing of it."""
    # s24-api24: on the plan's estimate of the volume the API no longer leads (reason "assumed"); the lead's
    # wording is checked on the same figures taken as the user's own (``own_volume``)
    # re-argued in s32-apinext32 (blind review 21): q13's 24-month plan no longer starts on the deprecated model but
    # on its next generation on the same list, and says the deprecation as the reason it names that model; the
    # horizon is checked on a plan short enough for the deprecated model itself to lead (``hosted_tie``)
    answers = {**advice_answers("q13_sg_sellers_pi_below_threshold"), "expected_duration_months": 3}
    lead = own_volume(answers, monkeypatch).start_with.text_in(lang)
    months = str(answers["expected_duration_months"])
    assert ("as deprecated" if lang == "en" else "标为弃用") in lead and months in lead
    nxt = own_volume(advice_answers("q13_sg_sellers_pi_below_threshold"), monkeypatch).start_with.text_in(lang)
    assert ("deprecated" if lang == "en" else "标为弃用") in nxt and "Qwen3-14B" in nxt
    other = own_volume(advice_answers("q24_us_saas_rent"), monkeypatch).start_with.text_in(lang)
    assert ("deprecated" if lang == "en" else "弃用") not in other
