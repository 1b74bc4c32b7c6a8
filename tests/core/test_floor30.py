"""Blind review 19 (issue 25, s30-floor30): a month's tokens an expert accepts.

- q08: ~150 staff costed on 3.4B / 860M input / output tokens a month (a busiest-hour floor around the clock):
  "implausible for ~150 staff", and it inflated the power. The floor is never above what the people the answers
  count can send: the most of them at the office range's high rate every working day (``volume_peak.users_cap``).
- q17: 64M / 16M printed beside its basis "20 × 20 × 22 × 2,500" (17.6M / 4.4M); q21, q24 alike: the tokens row
  opens on the figure its basis multiplies out to, and the floor's own row on the figures the costs use, with a line
  that multiplies out to them.
- q33: 150M input above its own row's range (26.4M-105.6M): input and output floored together, never above the
  range's top.
- q09: a floor replacing an estimate silently: both figures are said, with the cost at the estimate.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, volume_peak
from advisor.plan.context import resolve
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from advisor.plan.staff_usage import REQUESTS_PER_PERSON, WORKING_DAYS, days_a_month
from tests.support.planned import advice_answers, advice_plan, headcount_plan, peak_read_plan

LANGS = ("en", "zh_CN")
TOKENS = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}


def _row(r: PlanResult, lang: str, start: str) -> str:
    rows = [x for x in render_memo_markdown(r, lang).splitlines() if x.startswith(start)]
    assert len(rows) == 1
    return rows[0]


def _floor_row(r: PlanResult, lang: str) -> str:
    """The one tokens row of a raised month (onebasis36, review 25, q34: "'Costed on 290,000,000 / 87,000,000'
    beside an estimate of 132M/39.6M. Pick one."): until then a "Costed month" row (misc32: "the people's most")
    under the tokens row gave the figure the costs use, the tokens row the estimate. A reader needs one figure the
    costs rest on, first in the row, and the estimate said as the reading not used: no second row of tokens."""
    memo = render_memo_markdown(r, lang)
    for key in ("volume29.cost.floor", "misc32.cost.people_cap"):
        assert f"| {translate(lang, key)} |" not in memo
    row = _row(r, lang, TOKENS[lang])
    c = r.costs
    assert _figures(row.split("|")[2])[:2] == [round(c.input_tokens_per_month), round(c.output_tokens_per_month)]
    return row


def _figures(text: str) -> list[int]:
    return [int(x.replace(",", "")) for x in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", text)]


@pytest.mark.parametrize("lang", LANGS)
def test_q08s_month_is_its_peaks_unless_its_people_are_counted(lang):
    """q08 (steady around the clock, peak of 30, no head count). Until s34-volume36 its month was held to the most
    ~200 people read from that same peak send (s30-floor30). Blind review 25 (q24: "invents '250 people' ... then
    overrides the stated peak"): a head count the plan assumed from the peak cannot cap the peak it was read from, so
    the costs use the busiest hour's load around the clock, labelled as read from the peak, with nothing capped.
    With the staff counted (``planned.HEADCOUNT``, 200), what they send holds the month: the costs keep their
    estimate (200 × 20 × 30.4 days), and the cost section says the peak's larger reading beside the most they send
    (200 × 40 × 30.4, every day of a steady load, not 22 working days: s33-fleetword)."""
    r = advice_plan("q08_ascend_fleet_internal")
    c = r.costs
    raised = c.volume_basis[volume_peak.FLOOR]
    assert raised["cap"] is None and not volume_peak.people_capped(c)
    assert c.output_tokens_per_month == raised["implied"] == raised["peak_implied"]
    row = _floor_row(r, lang)
    assert f"{c.input_tokens_per_month:,.0f} / {c.output_tokens_per_month:,.0f}" in row
    counted = headcount_plan("q08_ascend_fleet_internal")
    k = counted.costs
    assert volume_peak.FLOOR not in (k.volume_basis or {})
    out = advice_answers("q08_ascend_fleet_internal")["output_tokens"]["avg"]
    assert k.output_tokens_per_month == pytest.approx(200 * 20 * days_a_month("stable") * out, rel=1e-6)
    cap = k.volume_peak["cap"]
    assert cap["people"] == 200 and cap["per"] == REQUESTS_PER_PERSON[-1] and cap["out"] == out
    assert cap["days"] == days_a_month("stable") > WORKING_DAYS
    # the peak's reading, far above what they send: its busiest hour through the office hours of the working days
    # (s35-ownpower37: staff's steady load, not the busiest hour around the clock)
    assert k.volume_peak["implied"] > 2 * cap["output"]
    memo = render_memo_markdown(counted, lang)
    assert f"{round(cap['output']):,}" in memo and "200" in memo


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q09_eu_voice_agent", "q24_us_saas_rent", "q21_fast_launch_hk_rule1"])
def test_a_floors_line_multiplies_out_to_the_figures_the_costs_use(name, lang):
    """The floor's row prints in flight × requests an hour each × days × tokens a request; their product is the
    input + output the costs use, to the two figures they are said in."""
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    r = peak_read_plan(name)
    c = r.costs
    raised = c.volume_basis[volume_peak.FLOOR]
    line = raised["line"]
    row = _floor_row(r, lang)
    for figure in (line["mean"], line["per_hour"], line["days"], line["tokens"]):
        assert f"{figure:,}" in row, (figure, row)
    product = line["mean"] * line["per_hour"] * line["hours"] * line["days"] * line["tokens"]
    assert product == pytest.approx(c.input_tokens_per_month + c.output_tokens_per_month, rel=0.05)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q17_capex_only_university_lab", "q24_us_saas_rent", "q33_office_4090d_fleet",
                                  "q09_eu_voice_agent"])
def test_the_tokens_row_opens_on_what_its_basis_multiplies_out_to(name, lang):
    """q17's basis "20 people × 20 requests × 22 days, 2,500 tokens a request" is 17,600,000 / 4,400,000: the row
    opens on those figures. Re-argued for review 25 (onebasis36, q09/q34 "pick one"): the row opens on the figure
    the costs use; where that is a raised month, the estimate its basis multiplies out to follows in the same row,
    after it, said as the reading not used (until then the row opened on the estimate, a second row on the costs')."""
    r = advice_plan(name)
    c = r.costs
    raised = (c.volume_basis or {}).get(volume_peak.FLOOR)
    row = _row(r, lang, TOKENS[lang])
    opening = _figures(row.split("|")[2].split("(")[0].split("（")[0])
    assert opening[1] == round(c.output_tokens_per_month), row
    if raised:
        # re-argued (s36-rowtrim, review 27, q21: "pick one and footnote the others"): the estimate is the
        # assumptions list's, with a clause that the costs read the peak instead; the row names it no more
        cell = row.split("|")[2]
        estimate = f"{round(float(raised['estimate_in'])):,} / {round(float(raised['estimate'])):,}"
        assert estimate not in cell, row
        return
    if c.volume_basis.get("per") and c.volume_basis.get("who", {}).get("tr") == "plan.volume18.who.users":
        users = advice_answers(name)["users"]  # the answers' head count: the product a reader checks
        tokens = int(c.volume_basis["tokens"].replace(",", ""))
        assert users * c.volume_basis["per"] * WORKING_DAYS * tokens == pytest.approx(sum(opening[:2]), rel=1e-6)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q17_capex_only_university_lab", "q33_office_4090d_fleet"])
def test_a_month_its_people_cannot_reach_past_is_kept_and_the_peak_said_beside_it(name, lang):
    """q17 (20 people, 20 at once at the peak) and q33 (40 people): the busiest hour makes more than the people
    can send at the office range's high rate, and the estimate is at least half of what they can send: the costs
    keep the estimate, and the tokens row says both readings, the people's most and the cost at it."""
    r = advice_plan(name)
    c = r.costs
    assert volume_peak.FLOOR not in (c.volume_basis or {})
    vp = c.volume_peak
    assert vp is not None and vp["cap"] is not None
    assert vp["used"] < vp["cap"]["output"] < vp["implied"]
    assert c.output_tokens_per_month == round(vp["used"])
    row = _row(r, lang, TOKENS[lang])
    for figure in (round(vp["used"]), round(vp["cap"]["output"])):
        assert f"{figure:,}" in row
    assert translate(lang, "volpeak26.why.assumed") not in row  # not the "a peak says how many at once" reason
    # the input the row prints stays inside the range its own basis states (q33: 150M above 26.4M-105.6M)
    high_in = int(c.volume_basis["high_in"].replace(",", ""))
    assert c.input_tokens_per_month <= high_in


def test_the_cap_is_the_peoples_and_only_where_people_are_counted():
    """The cap moves with the head count the answers give (ten times the people, ten times the cap), and there is
    none where the month is not counted by people: a public service (q09) or requests a day answered."""
    q17 = advice_answers("q17_capex_only_university_lab")
    few = volume_peak.users_cap(resolve(answers_from_dict(q17)))
    many = volume_peak.users_cap(resolve(answers_from_dict(dict(q17, users=10 * q17["users"]))))
    assert few is not None and many is not None
    assert many["output"] == pytest.approx(10 * few["output"])
    assert volume_peak.users_cap(resolve(answers_from_dict(advice_answers("q09_eu_voice_agent")))) is None
    assert volume_peak.users_cap(resolve(answers_from_dict(dict(q17, requests_per_day=500)))) is None
