"""A plan that launches offshore and moves to the mainland gives its first year with the lines where page 1 gives its
month with them (issue 25, round 13, q21: "the first 12 months in all" total quietly leaves out the network line
that its own first page includes). Each phase's line is billed for that phase's months, the ends paired as the
total pairs them; an unpriced line leaves the year "lines apart", said so."""

from __future__ import annotations

import pytest

from advisor.plan import phased_cost
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_plan

Q21 = "q21_fast_launch_hk_rule1"


def test_q21s_first_year_adds_each_phases_line_for_its_months():
    p = advice_plan(Q21).costs.phased
    assert p is not None and p.total is not None and p.total_with_lines is not None
    fl, tl = p.first_line_monthly, p.then_line_monthly
    assert fl is not None and tl is not None
    ends = []
    for m in (p.first_months_low, p.first_months_high):
        base_lo = p.first_monthly.low * m + p.then_monthly.low * (p.months - m)
        base_hi = p.first_monthly.high * m + p.then_monthly.high * (p.months - m)
        ends.append((base_lo + fl.low * m + tl.low * (p.months - m), base_hi + fl.high * m + tl.high * (p.months - m)))
    assert p.total_with_lines.low == pytest.approx(min(e[0] for e in ends), abs=1)  # the parts are stored to the cent
    assert p.total_with_lines.high == pytest.approx(max(e[1] for e in ends), abs=1)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_says_the_year_with_the_lines_and_an_unpriced_line_says_apart(lang):
    p = advice_plan(Q21).costs.phased
    said = phased_cost.key_text(p, "CNY", lang)
    assert money_range(p.total_with_lines, "CNY") in said and money_range(p.total, "CNY") not in said
    assert ("both nodes' lines included" if lang == "en" else "含两个节点的线路") in said
    apart = p.model_copy(update={"total_with_lines": None})
    said = phased_cost.key_text(apart, "CNY", lang)
    assert money_range(p.total, "CNY") in said and ("lines apart" if lang == "en" else "线路另计") in said


def test_an_unpriced_line_gives_no_year_with_lines():
    assert phased_cost._with_lines((1.0, 2.0), (1.0, 2.0), 12, (1, 2), None, MoneyRange(low=1, high=2)) is None
