"""Blind review 16 (issue 25, s26-volume26): a horizon no purchase pays back in, said as a deciding reason; the
month's volume against what its own peak implies; the request-count estimate from the tokens row's own low end.

- q27 (a six-month pilot, no ops): the hosted API was recommended for "nobody runs servers" alone; the six months,
  which by themselves rule out buying, were never said. Where even the cheapest purchase costs more than the dearest
  rent over the horizon, the deciding reason says so in both languages; a horizon long enough says nothing.
- q24/q09: 50 (80) requests in flight at a daily peak beside a month counted from people that the peak's busiest
  hour alone exceeds. The cost section says which figure the costs use, the least the peak implies and the cost at
  that reading, and asks for the count; where the month and the peak agree, nothing is said.
- q24: "this plan estimates 3,600–36,000 a day" began at the tokens row's middle, not its low end.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import short_horizon, volume_flip, volume_peak
from advisor.plan.context import DAYS_PER_MONTH
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.former_l20_rent import former_l20_quotes
from tests.support.planned import advice_answers, advice_plan, planned, quoted

LANGS = ("en", "zh_CN")
DECIDES = {"en": "What decides it", "zh_CN": "决定这个结论的理由"}
NO_PAYBACK = {"en": "no purchase pays back in {m} months", "zh_CN": "{m} 个月内采购收不回成本"}
# api43 (review 34, q27 zh: "¥187,000 cannot be derived from the price table"): the rent over the horizon, the
# purchase said without the figure no table of the memo prints
FIGURES = {"en": "Buying the GPUs would cost more than renting them", "zh_CN": "买这些 GPU 的费用超过把它们租满"}
DISAGREE = {"en": "count your requests a day to settle it", "zh_CN": "请统计每天的请求数来确定"}
ANSWERED = {"en": "from your requests a day", "zh_CN": "按你们给的每天请求数"}


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _page1(r: PlanResult, lang: str) -> str:
    return render_memo_markdown(r, lang).split("\n## ")[1]


def _tokens_cell(r: PlanResult, lang: str) -> str:
    """The cost section's tokens row."""
    section = render_memo_markdown(r, lang).split("\n## ")[4]
    label = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}[lang]
    rows = [line for line in section.splitlines() if line.startswith(label)]
    assert len(rows) == 1, section
    return rows[0]



# ---------------------------------------------------------------------------------------------------------------
# a horizon too short for any purchase to pay back
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_six_month_pilot_names_its_horizon_among_the_deciding_reasons(lang):
    """q27: the hosted API's reason says no purchase pays back in 6 months, on page 1's deciding reasons, with the
    purchase and the rent over the six months in its text, the purchase the larger."""
    r = planned(advice_answers("q27_six_month_pilot_no_ops"))
    assert r.deployment_form == "hosted_api" and r.costs.horizon_months == 6
    c = r.costs
    assert c.bare_metal_capex.low > 6 * c.cloud_monthly.high  # the case this is about: buying cannot pay back
    page = _page1(r, lang)
    decides = page.split(DECIDES[lang], 1)[1].split("\n\n|", 1)[0]
    assert NO_PAYBACK[lang].format(m=6) in decides
    reason = next(f for f in r.findings if f.id == "cost.hosted_api")
    detail = reason.detail_in(lang)
    capex, rent = short_horizon.figures(c, 6)
    assert detail.startswith(FIGURES[lang])
    assert capex > rent and f"{capex:,.0f}" not in detail and f"{rent:,.0f}" in detail


@pytest.mark.parametrize("lang", LANGS)
def test_a_horizon_long_enough_to_pay_back_says_nothing_of_it(lang):
    """q27 over 60 months: the purchase costs less than five years of renting, so no horizon sentence."""
    r = advice_plan("q27_six_month_pilot_no_ops", expected_duration_months=60)
    c = r.costs
    assert c.bare_metal_capex.low <= 60 * c.cloud_monthly.high
    assert short_horizon.figures(c, 60) is None
    reason = next(f for f in r.findings if f.id == "cost.hosted_api")
    assert NO_PAYBACK[lang].format(m=60) not in reason.title_in(lang)
    assert FIGURES[lang] not in reason.detail_in(lang)


def _hosted_reason(r: PlanResult):
    return next(f for f in r.findings if f.id == "cost.hosted_api")


@pytest.mark.parametrize("lang", LANGS)
def test_a_twelve_month_hosted_plan_names_its_horizon_too(lang):
    """q16 (a hosted API over 12 months): not only q27; the cheapest purchase is above a year of the dearest rent,
    so its reason says so; the same answers over 60 months do not."""
    # s29-prices29b: with Alibaba's L20 quote wired in (¥14.63 a GPU-hour, above the USD 0.7–1.6 placeholder's top),
    # a year of q16's dearest rent now reaches its cheapest purchase, so no horizon sentence holds there (today's
    # plan: checked below); the twelve-month sentence is read at the L20 rent it was written on, given as a quote
    today = planned(advice_answers("q16_hosted_api_mainland_registration"))
    assert short_horizon.figures(today.costs, 12) is None
    assert NO_PAYBACK[lang].format(m=12) not in _hosted_reason(today).title_in(lang)
    former = former_l20_quotes()
    r = quoted(advice_answers("q16_hosted_api_mainland_registration"), former)
    assert short_horizon.figures(r.costs, 12) is not None
    reason = next(f for f in r.findings if f.id == "cost.hosted_api")
    assert NO_PAYBACK[lang].format(m=12) in reason.title_in(lang)
    long = quoted(dict(advice_answers("q16_hosted_api_mainland_registration"), expected_duration_months=60), former)
    if short_horizon.figures(long.costs, 60) is None:
        reason = next(f for f in long.findings if f.id == "cost.hosted_api")
        assert NO_PAYBACK[lang].format(m=60) not in reason.title_in(lang)


def test_no_horizon_sentence_without_a_priced_purchase():
    """Unknown stays unknown: no purchase price, no claim that a purchase cannot pay back."""

    class _Costs:
        bare_metal_capex = None
        cloud_monthly = None

    assert short_horizon.figures(_Costs(), 6) is None
    assert short_horizon.phrase(_Costs(), 6, str) == ""


# ---------------------------------------------------------------------------------------------------------------
# the month's volume against its own peak
# ---------------------------------------------------------------------------------------------------------------


# s28-volume28 (review 18) re-argued: an ESTIMATED month below what the busiest hour implies is now raised to it
# (tests/core/test_volume28.py), so the sentence that kept the smaller figure only remains where the answers COUNT the
# month (requests a day): the scenarios here give one, far below their peaks; the least the peak implies counts the
# days the service runs (every day for a service for people outside the team), no longer always 22 working days.
ANSWERED_FAR_BELOW = {"q24_us_saas_rent": 500, "q09_eu_voice_agent": 2000}
# the days a month each meets its busiest hour: a B2B tool its customers' working days, a public voice agent every day
RUN_DAYS = {"q24_us_saas_rent": 22, "q09_eu_voice_agent": DAYS_PER_MONTH}


@pytest.mark.parametrize("name", sorted(ANSWERED_FAR_BELOW))
@pytest.mark.parametrize("lang", LANGS)
def test_a_month_far_below_its_own_peak_is_said_in_the_cost_section(name, lang):
    """q24/q09 with few requests a day answered: the busiest hour alone at the peak's mean in flight exceeds twice
    the month: the tokens row says the month used, the least the peak implies, the output's cost at it (the
    volume's own per-million figure × used ÷ implied: the GPUs cost the same however busy) and asks for the count."""
    r = advice_plan(name, requests_per_day=ANSWERED_FAR_BELOW[name])
    vp = r.costs.volume_peak
    assert vp is not None and vp["used"] == r.costs.output_tokens_per_month
    assert vp["implied"] > 2 * vp["used"]
    # the least the peak implies, from the plan's own peak stream: its hour's mean in flight below the peak, above
    # half of it, for one hour each day the service runs (RUN_DAYS)
    assert vp["peak"] / 2 < volume_peak.hour_mean(vp["peak"]) < vp["peak"]
    assert vp["implied"] == pytest.approx(
        volume_peak.hour_mean(vp["peak"]) / vp["peak"] * vp["rate"] * 3600 * RUN_DAYS[name], rel=1e-3)
    # s31-permillion31 re-argued (blind review 20, q12/q24: a per-million figure at another volume beside the cost
    # table's read as a second, conflicting cost per token): the ask now opens its own sentence, no figure priced
    cell = _tokens_cell(r, lang).lower()
    assert DISAGREE[lang] in cell
    said = cell.split(DISAGREE[lang])[0]
    assert f"{vp['used']:,.0f}" in said
    implied = float(f"{vp['implied']:.2g}")  # two significant figures, as an estimate prints
    assert f"{implied:,.0f}" in said


@pytest.mark.parametrize("lang", LANGS)
def test_a_month_that_agrees_with_its_peak_says_nothing(lang):
    """q24 with requests a day that the busiest hour cannot exceed twice (the peak's hour × 2 a day): no sentence;
    q27 (10 at once of 50 people: the hour's ~5 in flight agree with the month) none either; a bursty load, whose
    peak is not daily, none."""
    vp = advice_plan("q24_us_saas_rent", requests_per_day=500).costs.volume_peak  # (answered: s28-volume28)
    assert vp is not None
    answers = advice_answers("q24_us_saas_rent")
    out_avg = answers["output_tokens"]["avg"]
    # requests a day whose month holds the implied least: implied ÷ (average answer × days of a month) × 2
    rpd = round(2 * vp["implied"] / out_avg / DAYS_PER_MONTH)
    agree = advice_plan("q24_us_saas_rent", requests_per_day=rpd)
    assert agree.costs.volume_peak is None
    assert DISAGREE[lang] not in _tokens_cell(agree, lang)
    q27 = planned(advice_answers("q27_six_month_pilot_no_ops"))
    assert q27.costs.volume_peak is None
    # s28-volume28: q27's month may be raised to its busiest hour's floor (a sentence that ends on the same ask),
    # never said as a month kept far below its peak
    assert translate(lang, "volpeak26.why.assumed") not in render_memo_markdown(q27, lang)
    bursty = advice_plan("q24_us_saas_rent", load_pattern="bursty")
    assert bursty.costs.volume_peak is None


@pytest.mark.parametrize("lang", LANGS)
def test_requests_a_day_far_below_the_peak_are_said_as_yours(lang):
    """q24 with 500 requests a day: the month is the answers', and the sentence says so."""
    r = advice_plan("q24_us_saas_rent", requests_per_day=500)
    assert r.costs.volume_peak is not None and r.costs.volume_peak["answered"]
    cell = _tokens_cell(r, lang)
    assert ANSWERED[lang] in cell and DISAGREE[lang] in cell.lower()  # the ask a sentence of its own (s31-permillion31)


# ---------------------------------------------------------------------------------------------------------------
# the request-count estimate from the tokens row's own low end
# ---------------------------------------------------------------------------------------------------------------


def test_the_request_count_estimate_starts_at_the_tokens_rows_low_end():
    """q24: the estimate beside the request-count question runs from the tokens row's low end, not from below it.
    s28-volume28 re-argued: q24's head count (44,000,000 output tokens) is below what its busiest hour makes on
    working days, so the month costed is raised to that floor and the floor is the row's low end: the head count's
    10-requests-a-person end (the old start) is below what the peak implies, and the estimate starts at the floor."""
    answers = advice_answers("q24_us_saas_rent")
    r = planned(answers)
    q = next(q for q in r.open_questions if q.field == volume_flip.FIELD)
    basis = r.costs.volume_basis
    assert basis[volume_peak.FLOOR]["estimate"] < r.costs.output_tokens_per_month  # the premise: raised
    head_count_low = _number(basis["low_in"]) + _number(basis["low_out"])
    floor = r.costs.input_tokens_per_month + r.costs.output_tokens_per_month
    assert head_count_low < floor
    per_request = answers["prompt_tokens"]["avg"] + answers["output_tokens"]["avg"]
    first = q.assumption_params["est"].split("–")[0]
    assert _number(first) == pytest.approx(floor / DAYS_PER_MONTH / per_request, rel=0.05)


@pytest.mark.parametrize("name", sorted(ANSWERED_FAR_BELOW))
@pytest.mark.parametrize("lang", LANGS)
def test_the_peak_sentence_is_two_short_sentences_that_keep_every_figure(name, lang):
    """s27-pages27 (issue 25: "one long clause chain"): the peak's reading in one sentence (the busiest hour's mean,
    what that hour makes in a month against the month costed, and why the costs keep the smaller one), the cost at
    that volume and the ask in a second; each under 45 words in English, every figure of ``costs.volume_peak`` kept."""
    r = advice_plan(name, requests_per_day=ANSWERED_FAR_BELOW[name])  # (answered: s28-volume28)
    vp = r.costs.volume_peak
    text = volume_peak.sentence(r.costs, r.deployment_form == "hosted_api", lang)
    stop = ". " if lang == "en" else "。"
    first, second = text.rstrip("。").split(stop)
    implied = float(f"{vp['implied']:.2g}")  # two significant figures, as an estimate prints
    for figure in (str(vp["peak"]), str(vp["mean"]), f"{vp['used']:,.0f}", f"{implied:,.0f}"):
        assert figure in first, figure
    # s31-permillion31 re-argued: the second sentence is the ask alone; it no longer prices an output token at the
    # peak's reading (a second per-million figure beside the cost table's own, blind review 20, q12/q24)
    assert DISAGREE[lang] in second.lower() and not re.search(r"\d", second)
    if lang == "en":
        assert all(len(s.split()) < 45 for s in (first, second)), text
