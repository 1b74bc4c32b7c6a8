"""s34-rem36 (issue 25, q39): where a hosted API takes each burst's overflow (``burst_path``), page 1's rows that
describe the rented burst part say it as the fallback, never as the decision: reason 1, the hardware row and the
budget row name the API first and the rented part only after it; without the API leading they keep the rented part."""

from __future__ import annotations

import pytest

from advisor.plan import burst_path
from advisor.plan.memo import _key_rows
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _row(r, lang, key):
    label = render(lang, key, {})
    return next(v for k, v in _key_rows(r, lang) if k == label)


def _api_word(lang):
    return {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]


@pytest.fixture(scope="module")
def led():
    r = planned(advice_answers(Q39))
    assert burst_path.lead_finding(r) is not None
    return r


@pytest.fixture(scope="module")
def not_led():
    a = advice_answers(Q39)
    r = planned({**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}})
    assert burst_path.lead_finding(r) is None
    return r


@pytest.mark.parametrize("lang", LANGS)
def test_the_hardware_row_names_the_api_before_the_rented_fallback(led, lang):
    hw = _row(led, lang, "memo.key.hardware")
    rented = led.costs.hybrid.burst_gpu_name
    owned = f"{led.costs.hybrid.gpus_owned}"
    assert hw.index(owned) < hw.index(_api_word(lang)) < hw.index(rented)


@pytest.mark.parametrize("lang", LANGS)
def test_the_budget_row_judges_the_apis_burst_month_first_the_rented_one_after(led, lang):
    budget = _row(led, lang, "memo.key.budget")
    lead = burst_path.lead_finding(led)
    lo, hi = lead.params["api_month_range"]
    assert hi <= led.costs.budget_monthly  # the API leads only where its burst month fits
    api = money_range(MoneyRange(low=lo, high=hi), led.costs.currency)
    rented = led.costs.hybrid.burst_gpu_name
    assert api in budget and budget.index(api) < budget.index(rented)


@pytest.mark.parametrize("lang", LANGS)
def test_reason_one_sends_the_overflow_to_the_api_the_rented_part_only_if_it_falls_short(led, lang):
    fleet = next(f for f in led.findings if f.id == "cost.fleet")
    title = fleet.title_in(lang)
    assert title.index(_api_word(lang)) < title.index(led.costs.hybrid.burst_gpu_name)


@pytest.mark.parametrize("lang", LANGS)
def test_without_the_api_leading_the_rows_keep_the_rented_decision(not_led, lang):
    hw = _row(not_led, lang, "memo.key.hardware")
    budget = _row(not_led, lang, "memo.key.budget")
    fleet = next(f for f in not_led.findings if f.id == "cost.fleet")
    title = fleet.title_in(lang)
    for text in (hw, budget, title):
        assert _api_word(lang) not in text
    assert not_led.costs.hybrid.burst_gpu_name in hw
