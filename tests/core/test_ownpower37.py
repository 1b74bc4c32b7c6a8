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
OFFICE = {"en": "only in office hours", "zh_CN": "只在办公时间"}


def _row(md: str, label: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_staff_tools_steady_load_draws_power_through_office_hours_not_around_the_clock(lang):
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
    assert ("office hours" in tokens and "24 hours a day" not in tokens) if lang == "en" else \
        ("办公小时" in tokens and "每天计 24 小时" not in tokens)


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_steady_load_for_a_business_service_still_runs_around_the_clock(lang):
    """Only a tool staff alone reach is read as office hours: a steady load a business service carries keeps every
    hour (the answers' "stable around the clock")."""
    staff = advice_plan(Q08)
    business = advice_plan(Q08, audience="business", reach="internet")
    assert volume_peak.FLOOR in business.costs.volume_basis
    assert business.costs.volume_basis[volume_peak.FLOOR]["line"]["hours"] == 24
    assert business.costs.output_tokens_per_month > 2 * staff.costs.output_tokens_per_month
    assert OFFICE[lang] not in _row(render_memo_markdown(business, lang), POWER[lang])
