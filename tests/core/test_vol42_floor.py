"""A month that is the busiest hour's floor alone says the day/night rule's central reading beside it (s40-volume,
issue 25, blind review 32, q21 zh: "'只计每天最忙的一小时' is an odd basis, and it drives the headline API cost: use
the same peak÷3 rule as the other memos"; q24: "probably understates a SaaS with daytime load")."""

from __future__ import annotations

import pytest

from advisor.plan import volume_peak
from advisor.plan.context import PEAK_FACTOR
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import about
from advisor.plan.volume_low_end import FLOOR
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
TOKENS = {"en": "| Tokens per month", "zh_CN": "| 每月 tokens"}


def _row(md: str, lang: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(TOKENS[lang]))


@pytest.mark.parametrize("name", ["q21_fast_launch_hk_rule1", "q24_us_saas_rent"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_floor_alone_is_said_with_the_peak_over_three_through_the_busy_hours(name, lang):
    r = advice_plan(name)
    raised = r.costs.volume_basis[FLOOR]
    assert raised["line"]["hours"] == volume_peak.PEAK_HOURS_A_DAY  # the busiest hour alone
    mid = volume_peak.central(r.costs)
    high = r.costs.output_tokens_per_month_high
    assert mid == pytest.approx(high / PEAK_FACTOR["diurnal"])
    assert r.costs.output_tokens_per_month < mid < high  # between the floor costed and the high end
    row = _row(render_memo_markdown(r, lang), lang)
    floor_at, mid_at, high_at = (row.index(x) for x in (f"{r.costs.output_tokens_per_month:,.0f}", about(mid),
                                                        about(high)))
    assert floor_at < mid_at < high_at  # the floor, the central reading, the high end, in that order


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_price_on_page_1_names_the_central_month(lang):
    """q21: the API's month at the central reading is the floor's month scaled by the central ÷ the floor (the API
    bills by the token), said between the floor's and the high end's."""
    r = advice_plan("q21_fast_launch_hk_rule1")
    mid = volume_peak.central(r.costs)
    assert mid is not None
    api = r.costs.hosted_api_monthly
    scale = mid / r.costs.output_tokens_per_month
    md = render_memo_markdown(r, lang)
    price = next(line for line in md.splitlines() if ("Price:**" if lang == "en" else "价格**") in line)
    # cst44 (blind review 35, q21: "splitting '¥68–¥743' into three load cases in the summary is too much detail"):
    # page 1's price bullet gives the tokens' one range, floor to high end; the central reading is not spelled out there
    assert f"¥{round(api.high * scale):,}" not in price and f"¥{round(api.low):,}–" in price, price


def test_a_month_not_read_from_the_busiest_hour_alone_has_no_central_reading():
    """q08's office hours, q32's daily users: their months are not the one-hour floor."""
    for name in ("q08_ascend_fleet_internal", "q32_filed_public_chatbot_fast"):
        assert volume_peak.central(advice_plan(name).costs) is None
