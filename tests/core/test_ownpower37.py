"""Owned hardware's running costs as a deployment engineer reads them (s35-ownpower37, issue 25, blind review 26).

q08 zh: "The monthly volume assumes the peak load runs 24 hours a day ('按最忙一小时的负载每天计 24 小时') ... That
drives '全天平均功率为满载的 78–100%' and ¥2,765–11,144/month of electricity for an internal assistant on cards the
situation says are mostly idle." A staff tool's steady load is steady through its office hours: the month, the busy
hours and the kWh follow, and the rows say which hours they count.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import volume_peak
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_forms import chosen_owned
from advisor.plan.staff_usage import WORKING_DAYS
from advisor.plan.volume_range import HOURS_PER_MONTH, OFFICE_HOURS
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
Q08 = "q08_ascend_fleet_internal"
POWER = {"en": "Power", "zh_CN": "电费"}
TOKENS = {"en": "Tokens per month (input / output)", "zh_CN": "每月 tokens（输入 / 输出）"}
DRAW = {"en": r"average draw (\d+)–(\d+) % of full load", "zh_CN": r"全天平均功率为满载的 (\d+)–(\d+)%"}
OFFICE = {"en": "only in office hours", "zh_CN": "只在办公时间"}  # the power row's clause


def _row(md: str, label: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_staff_tools_steady_load_draws_power_through_office_hours_not_around_the_clock(lang):
    """s40-volume (blind review 32, q08: "the power cost assumes load around the clock (78–100 % draw); say that it
    falls if staff use it only by day"): the office hours are the base case, the power row counts them and says the
    answered clock would draw more."""
    r = advice_plan(Q08)
    md = render_memo_markdown(r, lang)
    power = _row(md, POWER[lang])
    low, high = (int(x) for x in re.search(DRAW[lang], power).groups())
    # the cards are busy in the office hours at most: the average draw is idle plus that share of the rest
    form = chosen_owned(r)
    assert form is not None and form.idle_draw is not None
    busy_most = OFFICE_HOURS / HOURS_PER_MONTH
    ceiling = form.idle_draw.high + (1 - form.idle_draw.high) * busy_most
    assert high <= round(ceiling * 100) < 78 and low < high
    assert OFFICE[lang] in power and f"{round(busy_most * 100)}" in power
    # the month the kWh follow is the one the tokens row says, counted through the office hours of the working days
    raised = r.costs.volume_basis[volume_peak.FLOOR]
    assert raised["line"]["hours"] == round(OFFICE_HOURS / WORKING_DAYS) and raised["line"]["days"] == WORKING_DAYS
    tokens = _row(md, TOKENS[lang])
    assert f"{r.costs.input_tokens_per_month:,.0f} / {r.costs.output_tokens_per_month:,.0f}" in tokens


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_steady_load_for_a_business_service_still_runs_around_the_clock(lang):
    """Only a tool staff alone reach is read as office hours: a steady load a business service carries keeps every
    hour (the answers' "stable around the clock")."""
    staff = advice_plan(Q08)
    business = advice_plan(Q08, audience="business", reach="internet")
    assert business.costs.volume_basis[volume_peak.FLOOR]["line"]["hours"] == 24
    assert business.costs.output_tokens_per_month > 2 * staff.costs.output_tokens_per_month
    assert OFFICE[lang] not in _row(render_memo_markdown(business, lang), POWER[lang])


# --- the power price: a mainland node on the mainland row, said as a national average (q01/q02/q17) ---------------

Q01, Q03, Q05, Q17, Q18 = ("q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical",
                           "q05_filed_finetune_mainland_sg", "q17_capex_only_university_lab", "q18_us_fleet_32_h100")
NATIONAL = {"en": "national average business rate", "zh_CN": "全国平均的工商业电价"}
NOTE = {"en": "(national average, not your local tariff)", "zh_CN": "（全国平均，不是你们当地的电价）"}


def _power_rows(r):
    return [p for p in r.costs.prices if p.kind == "power"]


def _price_line(md: str, row) -> str:
    return next(line for line in md.splitlines() if line.startswith("| ") and f"{row.low:g}–{row.high:g} USD/kWh" in line)


@pytest.mark.parametrize("lang", LANGS)
def test_a_mainland_nodes_power_row_names_its_mainland_source(lang):
    r = advice_plan(Q01)
    rows = _power_rows(r)
    assert [p.region for p in rows] == ["mainland"] and all(p.grade == "C" and p.url for p in rows)
    md = render_memo_markdown(r, lang)
    line = _price_line(md, rows[0])
    assert "China Briefing" in line and "Statista" in line and NOTE[lang] in line
    cost = next(f for f in r.findings if f.id == "cost.on_premises").detail_in(lang)
    assert NATIONAL[lang] in cost  # still asked for: not the local tariff
    # the kWh at the printed price: the power row's money is kWh × price (converted), not the US tool's range
    o = r.costs.owned
    conv = o.power_monthly.high / (o.energy_kwh_monthly.high * rows[0].high)
    assert o.power_monthly.low == pytest.approx(o.energy_kwh_monthly.low * rows[0].low * conv, rel=0.02)


@pytest.mark.parametrize("lang", LANGS)
def test_a_plan_elsewhere_keeps_the_us_rate_said_as_a_stand_in(lang):
    us = advice_plan(Q18)
    assert {p.region for p in _power_rows(us)} == {"us"}
    split = advice_plan(Q05)  # a mainland node and an overseas one: each on its own row, the US one said as the overseas
    regions = sorted(p.region for p in _power_rows(split))
    assert regions == ["mainland", "us"]
    md = render_memo_markdown(split, lang)
    us_row = next(p for p in _power_rows(split) if p.region == "us")
    overseas = {"en": "the overseas node's", "zh_CN": "境外节点"}
    assert overseas[lang] in _price_line(md, us_row)


# --- a one-off budget and no monthly one: amortisation is accounting, and the running costs need a payer (q01/q17) ---

COST = {"en": "Cost", "zh_CN": "成本"}
AMORTISED = {"en": "accounting amortisation", "zh_CN": "会计摊销"}
PAYER = {"en": "say who pays it", "zh_CN": "由谁承担"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q01, Q17])
def test_a_one_off_budget_reads_the_amortisation_as_accounting_and_asks_who_pays_the_power(name, lang):
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    cost = _row(md, COST[lang])
    assert AMORTISED[lang] in cost and PAYER[lang] in cost
    assert ("in all" not in cost) if lang == "en" else ("连同运行费每月共" not in cost)
    finding = next(f for f in r.findings if f.id == "cost.on_premises").detail_in(lang)
    assert AMORTISED[lang] in finding


@pytest.mark.parametrize("lang", LANGS)
def test_a_monthly_budget_keeps_the_purchase_spread_as_its_months(lang):
    md = render_memo_markdown(advice_plan(Q03), lang)  # a monthly budget: the spread purchase is what it pays
    cost = _row(md, COST[lang])
    assert AMORTISED[lang] not in cost and (("in all" in cost) if lang == "en" else ("连同运行费每月共" in cost))


# --- the KV memory a tensor-parallel replica keeps: said per card and on all its cards (q01 zh) ------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_kv_memory_of_a_tp_replica_is_said_per_card_and_in_all(lang):
    r = advice_plan(Q01)
    b = r.binding_constraint
    assert b is not None and b.kind == "kv_memory" and b.figures["tp"] > 1
    gib, tp = b.figures["kv_gib"], b.figures["tp"]
    text = b.text_in(lang)
    said = {"en": f"{gib:g} GiB per card, {gib * tp:g} GiB on the {tp}", "zh_CN": f"每张卡 {gib:g} GiB，{tp} 张共 {gib * tp:g} GiB"}
    assert said[lang] in text
    # the tokens are the replica's: its cards' KV bytes over one token's (the per-card GiB alone would hold half)
    assert f"{b.figures['kv_tokens']:,}" in text
