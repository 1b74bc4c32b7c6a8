"""Both readings of an unanswered peak in the month's tokens (s19-volume19b).

"50 concurrent" with no head count may be people using the tool at once (about 250 people behind them,
``people_from_peak``) or requests in flight (the glossary's concurrency: many more people). Session 19's first
change counted the first reading only, and q24's hosted API fell to a tenth of the plan's cost on it. The range now
spans both: its low end and middle from the people, its high end the peak's token rate kept up through the working
hours at the load's peak-to-average ratio. Each figure below is derived here from the stated hours and ratios, not
copied from a plan.
"""

from __future__ import annotations

import pytest

from advisor.plan import people_volume
from advisor.plan.hosted_weigh import high_end_factor
from advisor.plan.memo import render_memo_markdown
from advisor.plan.staff_usage import REQUESTS_PER_PERSON, WORKING_DAYS, people_from_peak
from advisor.plan.volume_low_end import FLOOR
from tests.core.test_plan_rules import facts_for
from tests.support.peak_said import peak_read_said
from tests.support.planned import H20_KEPT, advice_answers, estimated_month, peak_read_answers, planned

LANGS = ("en", "zh_CN")
NO_HEAD_COUNT = ("q38_eu_internal_hr_assistant", "q24_us_saas_rent", "q40_tiny_budget_72b")
OFFICE_HOURS_A_MONTH = 22 * 10  # working days × office hours
DAY_NIGHT_PEAK_TO_AVERAGE = 3.0  # a day/night load's peak ÷ its average over the busy hours


def _people_month(answers: dict, people: int, per_day: int) -> float:
    return people * per_day * WORKING_DAYS * answers["output_tokens"]["avg"]


@pytest.mark.parametrize("name", NO_HEAD_COUNT)
def test_the_in_flight_reading_is_the_peaks_rate_through_the_working_hours_at_the_average(name):
    a = advice_answers(name)
    assert a.get("users") is None and a["load_pattern"] == "diurnal"
    ctx = facts_for(a).ctx
    rate = 37.0 * ctx.peak  # any token rate at the peak: the reading is linear in it
    expected = rate * 3600 * OFFICE_HOURS_A_MONTH / DAY_NIGHT_PEAK_TO_AVERAGE
    assert people_volume.in_flight(ctx, rate) == pytest.approx(expected)
    v = people_volume.estimate(ctx, float("inf"), expected)
    assert v is not None and v.high == pytest.approx(expected)
    few, mid, _ = people_from_peak(ctx.peak)
    lo_r, mid_r, _ = REQUESTS_PER_PERSON
    assert v.low == _people_month(a, few, lo_r) and v.expected == _people_month(a, mid, mid_r)
    # held to the ceiling like the people's own high end
    capped = people_volume.estimate(ctx, expected / 2, expected)
    assert capped is not None and capped.high == expected / 2 and capped.basis["cap"]


@pytest.mark.parametrize("name", NO_HEAD_COUNT)
def test_with_no_head_count_the_plans_range_runs_from_the_people_to_requests_in_flight(name):
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    a = peak_read_answers(name)
    r = planned(a)
    c = r.costs
    few, mid, most = people_from_peak(a["peak_concurrency"])
    lo_r, mid_r, hi_r = REQUESTS_PER_PERSON
    assert estimated_month(c) == _people_month(a, mid, mid_r)  # the estimate, before s28-volume28's floor
    people_top = _people_month(a, most, hi_r)
    # the in-flight reading, not the busiest people (1.9× them for q38 on bf16 since s20-precision20, its stated
    # stream held to what the setup serves since s20-costtoken20; 2.4× before)
    assert c.output_tokens_per_month_high > 1.5 * people_top
    # the high end read back as a token rate per request in flight: the plan's own per-user speed, within the
    # spread between its median and its P99 step (``burst.peak_rate`` takes the P99 step ÷ 1.25)
    per_user = c.output_tokens_per_month_high / (a["peak_concurrency"] * 3600 * OFFICE_HOURS_A_MONTH
                                                 / DAY_NIGHT_PEAK_TO_AVERAGE)
    speed = r.capacity.output_tokens_per_s_per_user
    assert speed is not None and 0.6 * speed < per_user < 1.4 * speed, (per_user, speed)
    # the hosted API's high end moves with it
    assert high_end_factor(c) == pytest.approx(c.output_tokens_per_month_high / c.output_tokens_per_month)


@pytest.mark.parametrize("name", NO_HEAD_COUNT)
def test_a_head_count_keeps_the_narrow_people_range(name):
    a = {**advice_answers(name), "users": 120}
    c = planned(a).costs
    lo_r, mid_r, hi_r = REQUESTS_PER_PERSON
    assert estimated_month(c) == _people_month(a, 120, mid_r)  # the estimate, before s28-volume28's floor
    top = _people_month(a, 120, hi_r)  # no higher figure where the floor is above the people's top
    assert c.output_tokens_per_month_high == (None if c.output_tokens_per_month >= top else top)
    assert not c.volume_basis["flight"]
    assert people_volume.in_flight(facts_for(a).ctx, 1000.0) is None
    assert all(q.field != "users" for q in planned(a).open_questions)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q24_us_saas_rent", "q38_eu_internal_hr_assistant"])
def test_the_memo_says_both_readings_once_and_asks_for_the_people(name, lang):
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    a = peak_read_answers(name)
    r = planned(a)
    [assumed] = [x for x in r.assumptions if x.field == "requests_per_day"]
    said = assumed.text_in(lang)
    words = ("requests in flight", "head count") if lang == "en" else ("同时处理", "人数")
    text = render_memo_markdown(r, lang)
    raised = (r.costs.volume_basis or {}).get(FLOOR)
    if raised and not raised.get("cap"):  # read from the peak: that one basis, the head count asked (s38-usage)
        said = peak_read_said(r, lang)
        assert words[1] in said and said in text and words[0] in text
    else:
        assert all(w in said for w in words), said
        assert said in text and text.count(words[0]) == 2  # the assumption and the tokens row, nowhere else
    label = "Tokens per month" if lang == "en" else "每月 token"
    row = next(line for line in text.splitlines() if line.startswith(f"| {label}"))
    high = r.costs.output_tokens_per_month_high
    assert f"{float(f'{high:.2g}'):,.0f}" in row, row  # the in-flight figure, rounded as an estimate
    [asked] = [q for q in r.open_questions if q.field == "users"]
    few, mid, most = people_from_peak(a["peak_concurrency"])
    assert asked.assumed == mid and asked.alternatives == [few, most] and not asked.changes_decision
    assert asked.question_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_hosted_api_cheaper_even_on_the_high_end_is_said_plainly(lang):
    """q24: "may cost less: $19–98 against $3,322–9,308" for an API cheaper at every price on every volume."""
    r = planned(advice_answers("q24_us_saas_rent"))
    c = r.costs
    assert c.hosted_api_monthly.high * high_end_factor(c) < c.recommended_monthly.low
    title = r.finding("cost.hosted_weighed").title_in(lang)
    assert ("would cost less" if lang == "en" else "更便宜") in title
    assert ("may" if lang == "en" else "可能") not in title


@pytest.mark.parametrize("lang", LANGS)
def test_cheaper_on_the_volume_costed_and_dearer_only_on_its_high_end_says_the_volume_decides(lang):
    """q01: ¥32–¥59 against ¥218–¥692 was called "the ranges overlap, so the prices you get decide". q01's office
    LAN now rules the API out, unpriced (s21-apilead21); q09 is the same case ($31–$272 against $5,834 and up, up to
    $13,619 on the volume's high end). Since s22-apilead22 q09's US lists serve no provider from Europe, so no
    verdict is drawn from them; q07 (mainland lists for a mainland service) is the same case: ¥1,050–¥2,700 against
    ¥10,766 and up, up to ¥13,831 on the volume's high end. On its H20 (``h20_kept``): as written q07 rents the L20
    since s36-sourced, whose month starts above the API's even on the volume's high end. Since s37-usage39 q07's
    homework app is counted a day, at its peak's reading: a service its people use now and then (a sector outside
    study and consumer chat) keeps the yearly reading this case needs."""
    a = advice_answers("q07_minors_education_app")
    now_and_then = {"data_sensitivity": {**a["data_sensitivity"], "sector": "other"}}
    r = planned({**a, **H20_KEPT, **now_and_then})
    c = r.costs
    top = c.hosted_api_monthly.high * high_end_factor(c)
    assert c.hosted_api_monthly.high < c.recommended_monthly.low < top  # the case this test is about
    f = r.finding("cost.hosted_weighed")
    assert f.title_key.endswith(".volume.title")
    assert f"{top:,.0f}" in f.title_in(lang) and f"{top:,.0f}" in f.detail_in(lang)
    assert ("overlap" if lang == "en" else "重叠") not in f.title_in(lang) + f.detail_in(lang)
