"""The headroom sentence's budget check counts the network line as the budget row does (s23-pages23, issue 25):
q10's "397,772 CNY at the high end, over the budget" was the GPUs alone beside a budget row "with the network line"."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, gpu_choice, make_plan
from advisor.plan.layout_search import BUDGET_KEYS
from tests.support.planned import advice_answers


def _amount(text: str) -> float:
    return float(text.replace(",", ""))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_headroom_total_adds_a_priced_line_and_says_so(lang, monkeypatch):
    """q10 (business users on a BGP line) with no N+1 reason: since s23-gpu23 a production service keeps its headroom
    over the budget (no headroom sentence to judge), and an internal tool has no carrier line; so q10 as it was,
    with the service's N+1 reason taken away, trades its headroom for its budget (120,000 CNY: since s23-uplift23's
    uplift by component its own 150,000 pays for the headroom's server). ``make_plan`` directly, not the shared
    plans, as the patch changes the plan."""
    monkeypatch.setattr(gpu_choice, "redundancy_reason", lambda c: None)
    r = make_plan(answers_from_dict({**advice_answers("q10_128k_document_assistant"),
                                     "monthly_budget": {"amount": 120_000, "currency": "CNY"}}))
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
