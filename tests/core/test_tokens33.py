"""Blind review 21 (issue 25, s33-tokens33): the month of tokens a newcomer can follow, the rent row named for what
it prices, the purchase said once, and another region's power tariff said as the stand-in it is.

q02/q17 zh: the token paragraph "contradicts itself" (a peak's larger month, then "at most" a smaller one, then
"the costs keep the estimate"); q09/q24/q34: the "busiest-hour floor" / "最忙一小时下限" row ("64 in flight × 3,804
requests an hour each") could not be followed; q08 zh: "workdays" beside a load stable around the clock; q02 zh:
the purchase cell pasted twice and "云 GPU 服务器" pricing a 4090 marketplace; q01/q02 zh: a US USD tariff for a
Shanghai/Shenzhen box.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import power_tariff, rent_row_label, volume_peak
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_plan, peak_read_plan

LANGS = ("en", "zh_CN")
TOKENS = {"en": "| Tokens per month (input / output) |", "zh_CN": "| 每月 tokens（输入 / 输出） |"}
# s36-rowtrim (review 27, q02: "'Your peak of 4 at once would mean more, 6,300,000 output tokens…' is too long"): the
# row's own range, then one clause on the peak naming no other month
HELD = {"en": "Your peak of ", "zh_CN": "个并发只是一天里短时的集中使用"}  # (zh reworded, review 34, q02)
BIG = re.compile(r"\d{1,3}(?:,\d{3}){2,}")  # a month's figure (a million or more)


def _row(md: str, start: str) -> str:
    rows = [x for x in md.splitlines() if x.startswith(start)]
    assert len(rows) == 1, (start, rows)
    return rows[0]


def _floor_row(r: PlanResult, lang: str, md: str) -> str:
    """A raised month's row: the tokens row itself (onebasis36, review 25, q34: "'Costed on 290,000,000 /
    87,000,000' beside an estimate of 132M/39.6M. Pick one."), which opens on the figure the costs use; the
    "Costed month" rows that used to follow an estimate's tokens row are gone, so no second total is printed."""
    for key in ("misc32.cost.people_cap", "volume29.cost.floor"):
        assert f"| {translate(lang, key)} |" not in md
    return _row(md, TOKENS[lang])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q02_office_lan_small_design_agency", "q17_capex_only_university_lab",
                                  "q33_office_4090d_fleet"])
def test_a_held_month_names_the_figure_the_costs_use_before_the_larger_readings(name, lang):
    """Where the peak's reading and the people's most both exceed the estimate and the costs keep the estimate, the
    row opens on the month the costs use, then its range (the people's most its high end), then one clause reading
    the peak as a short burst that names no other month (s36-rowtrim)."""
    r = advice_plan(name)
    vp = r.costs.volume_peak
    assert vp is not None and vp["cap"] is not None and volume_peak.FLOOR not in (r.costs.volume_basis or {})
    row = _row(render_memo_markdown(r, lang), TOKENS[lang])
    before, held = row.split(HELD[lang], 1)
    months = [int(x.replace(",", "")) for x in BIG.findall(before)]
    assert months[1] == round(r.costs.output_tokens_per_month) and len(months) == 6, row
    assert months[5] == round(vp["cap"]["output"])  # the range's high end: the people's most
    assert not BIG.findall(held), row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q09_eu_voice_agent", "q24_us_saas_rent", "q34_mixed_users_split",
                                  "q08_ascend_fleet_internal"])
def test_a_raised_month_opens_on_what_the_costs_use_in_plain_words(name, lang):
    """A month raised to its peak's reading (or to the people's most) opens on the figure the costs use, the one the
    per-million row divides; its label and the per-million row never say "busiest-hour floor" / "最忙一小时下限"."""
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    row = _floor_row(r, lang, md)
    c = r.costs
    opening = row.split("|")[2].split("(")[0].split("（")[0]
    assert f"{c.input_tokens_per_month:,.0f} / {c.output_tokens_per_month:,.0f}" in opening, row
    for word in ("busiest-hour floor", "最忙一小时下限"):
        assert word not in md


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name,working", [("q24_us_saas_rent", True), ("q09_eu_voice_agent", False)])
def test_working_days_only_where_the_days_are_working_days(name, working, lang):
    """The peak's month counts working days for a tool used at work (q24) and every day for a public service (q09):
    the row says "working days" only in the first case, and the seconds a request takes match its requests an hour."""
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    r = peak_read_plan(name)
    row = _floor_row(r, lang, render_memo_markdown(r, lang))
    line = r.costs.volume_basis[volume_peak.FLOOR]["line"]
    word = {"en": "working days", "zh_CN": "个工作日"}[lang]
    assert (word in row) == working, row
    # the requests an hour each, the factor a reader multiplies out (s36-rowtrim: the seconds beside it went, q09:
    # "hard to follow")
    each = {"en": f"× {line['per_hour']:,} an hour each", "zh_CN": f"每个每小时 {line['per_hour']:,} 个"}[lang]
    assert each in row, row


@pytest.mark.parametrize("lang", LANGS)
def test_q02s_purchase_is_said_once_and_its_rent_row_names_the_marketplace(lang):
    """q02: page 1's purchase cell weighs buying against the rent; the cost table's purchase row points to it
    instead of repeating it, and the rent row it prices on a GPU marketplace's rows is named as that."""
    r = advice_plan("q02_office_lan_small_design_agency")
    md = render_memo_markdown(r, lang)
    label = f"| {translate(lang, 'memo.forms.key.capex')} |"
    cells = [x for x in md.splitlines() if x.startswith(label)]
    assert len(cells) == 2 and cells[0] != cells[1]
    # s39-box41 (blind review 31, q02): page 1's cell is the price and one line of reason; the cost table's points
    # to the payback row that weighs renting
    assert translate(lang, "box41.capex_said_in_payback").strip() in cells[1]
    assert len(cells[0]) < 200
    assert rent_row_label.marketplace_only(r)
    assert f"| {translate(lang, 'tokens33.cost.cloud_market')} |" in md
    assert f"| {translate(lang, 'memo4.cost.cloud_monthly')} |" not in md


def test_a_cloud_providers_rent_keeps_the_cloud_label():
    """q24 rents H100s from cloud providers: its rent row stays "Cloud GPU servers"."""
    r = advice_plan("q24_us_saas_rent")
    assert not rent_row_label.marketplace_only(r)
    md = render_memo_markdown(r, "en")
    assert translate("en", "tokens33.cost.cloud_market") not in md


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name,stand_in", [("q09_eu_voice_agent", True), ("q24_us_saas_rent", False)])
def test_a_us_power_tariff_is_labelled_a_stand_in_outside_the_us(name, stand_in, lang):
    """The US tool's power price on a plan outside the US: an EU plan's price table says it stands in for that
    region's tariff; a US plan's does not. A mainland plan (q02, Shenzhen) is costed on the mainland row since
    s35-ownpower37, said as the national average it is (``test_ownpower37``)."""
    r = advice_plan(name)
    power = [p for p in r.costs.prices if p.kind == "power"]
    assert power and {p.region for p in power} == {"us"}
    note = power_tariff.offer_note(power[0], str(r.region), lang)
    assert bool(note) == stand_in
    if stand_in:
        assert translate(lang, f"plan.region.{r.region}") in note
        assert note in render_memo_markdown(r, lang)
