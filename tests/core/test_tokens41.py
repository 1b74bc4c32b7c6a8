"""s39-tokens41 (issue 25, blind review 31): the month's token volume on page 1 and in the tokens row.

- q12/q21/q24: an API priced on the busiest hour's floor was "a floor" with its high end an aside; the price is now
  the range up to the volume's high end, each end's basis said in plain words (requests a day; the peak through the
  busy hours), and the path's total and the section-7 comparison carry the same range.
- q05: a daily app's rate past what its peak serves is said once as the figure planned on, not also as the range's
  "up to".
- q42: business customers with no head count are not counted with staff systems' share at once.
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, tokens41, volume_peak
from advisor.plan.context import Ctx, resolve
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import symbol_range
from advisor.plan.volume_low_end import FLOOR
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
FLOORED_LEADS = ("q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1", "q24_us_saas_rent")


def _page1_price(md: str, lang: str) -> str:
    label = "**Price:**" if lang == "en" else "**价格**"
    return next(line for line in md.splitlines() if label in line)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", FLOORED_LEADS)
def test_an_api_on_the_busiest_hour_floor_is_priced_as_the_range_up_to_its_high_end(name, lang):
    r = planned(advice_answers(name))
    costs, start = r.costs, r.start_with
    raised = costs.volume_basis[FLOOR]
    assert start is not None and start.form == "hosted_api"
    low, top = start.params["month37"]
    factor = costs.output_tokens_per_month_high / costs.output_tokens_per_month
    # the lead's month runs from the floor's cheapest to the high end's dearest (a linear price: at least the
    # volume's own ratio apart)
    assert top >= low * factor * 0.999
    price = _page1_price(render_memo_markdown(r, lang), lang)
    cur = costs.currency
    assert symbol_range(top, top, cur) in price  # the high end visible on page 1, never the floor alone
    rpd = tokens41.requests_a_day(raised["line"])
    assert rpd == round(raised["line"]["mean"] * raised["line"]["per_hour"] * raised["line"]["hours"])
    assert f"{rpd:,}" in price  # the floor's basis as requests a day, multiplied out from the tokens row
    assert translate(lang, "tokens41_lead.span.hour").strip("，") in price
    assert "a floor:" not in price and "下限" not in price


@pytest.mark.parametrize("name", FLOORED_LEADS)
def test_the_total_and_the_comparison_carry_the_same_high_end(name):
    r = planned(advice_answers(name))
    start = r.start_with
    low, top = start.params["month37"]
    total = start.params["cost37"]["total"]
    # the path's whole month (API + host + line) reaches past the API's high end: the floor alone is not the total
    assert int(re.sub(r"[^0-9]", "", total.split("–")[-1])) > round(top) > round(low)
    # section 7's comparison (the model asked for, whose month the lead may have scaled to its next generation's):
    # the same range up to the volume's high end
    costs = r.costs
    high = costs.hosted_api_monthly.high * costs.output_tokens_per_month_high / costs.output_tokens_per_month
    weighed = next(f for f in r.findings if f.id == "cost.hosted_weighed")
    hosted = weighed.params["hosted"]
    amount = hosted["amount"] if isinstance(hosted, dict) else hosted
    assert amount.endswith(symbol_range(high, high, costs.currency))


@pytest.mark.parametrize("lang", LANGS)
def test_a_daily_rate_past_the_peak_is_said_once_as_the_figure_planned_on(lang):
    r = planned(advice_answers("q05_filed_finetune_mainland_sg"))
    b = r.costs.volume_basis
    assert b["capped"] and b["capped"]["tr"] == "tokens41.public.capped"
    assert b["ends"]["tr"] == "tokens41.public.low"  # the range's other end is its low end alone
    md = render_memo_markdown(r, lang)
    label = "Tokens per month" if lang == "en" else "每月 tokens"
    line = next(x for x in md.splitlines() if x.startswith(f"| {label}"))
    head = line.split("|")[2].strip().split(" ")[0]  # the figure planned on, input / output's input
    assert line.count(head) == 1, line  # not also printed as the range's "up to"
    assert "costed at the peak's reading" not in line and "按高峰推算" not in line


def test_business_customers_without_a_head_count_are_counted_from_their_peak():
    a = advice_answers("q42_china_market_gpus_mainland")
    r = planned(a)
    assert a["audience"] == "business" and not a.get("users")
    assert r.costs.volume_basis.get(FLOOR)  # the peak's own reading, not staff systems' share at once
    md = render_memo_markdown(r, "en")
    assert "field notes on staff systems" not in md
    assert "依性能测试经验" not in render_memo_markdown(r, "zh_CN")


def test_a_head_count_or_staff_keep_the_people_reading():
    base = advice_answers("q42_china_market_gpus_mainland")
    assert volume_peak.customers_guessed(_ctx(base))
    assert not volume_peak.customers_guessed(_ctx({**base, "users": 300}))  # a head count: the people's reading
    assert not volume_peak.customers_guessed(_ctx({**base, "audience": "internal"}))  # staff: field notes fit


def _ctx(a: dict) -> Ctx:
    return resolve(answers_from_dict(a))
