"""The headroom sentence's budget check counts the network line as the budget row does (s23-pages23, issue 25):
q10's "397,772 CNY at the high end, over the budget" was the GPUs alone beside a budget row "with the network line"."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.layout_search import BUDGET_KEYS
from tests.support.planned import advice_answers, planned


def _amount(text: str) -> float:
    return float(text.replace(",", ""))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_headroom_total_adds_a_priced_line_and_says_so(lang):
    r = planned(advice_answers("q10_128k_document_assistant"))
    f = r.finding("sizing.plan")
    short = f.params["short"]
    assert short["tr"] in BUDGET_KEYS
    c = r.costs
    assert c.monthly_with_line is not None, "q10's BGP line is priced: the case this test guards"
    assert c.monthly_with_line.high > c.recommended_monthly.high
    # the plan with the headroom = the plan as it stands (its total with the line, as the budget row judges it) plus
    # what the headroom adds a month; to the unit the memo rounds each figure to
    assert abs(_amount(short["total"]) - (c.monthly_with_line.high + _amount(short["extra"]))) <= 2
    assert _amount(short["total"]) > _amount(short["budget"])
    assert short["line"] == {"tr": "pages23.headroom.with_line"}
    assert translate(lang, "pages23.headroom.with_line").strip(" ，") in f.detail_in(lang)
