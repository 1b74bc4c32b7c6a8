"""s34-rem36 (issue 25, q39): where a hosted API takes each burst's overflow (``burst_path``), page 1's rows that
describe the rented burst part say it as the fallback, never as the decision: reason 1, the hardware row and the
budget row name the API first and the rented part only after it; without the API leading they keep the rented part."""

from __future__ import annotations

import pytest

from advisor.plan import burst_path
from advisor.plan.memo import _key_rows
from advisor.plan.result import render
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _row(r, lang, key):
    label = render(lang, key, {})
    return next(v for k, v in _key_rows(r, lang) if k == label)


def _api_word(lang):
    return {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]


@pytest.fixture(scope="module")
def plain():
    # s37-burst39 (blind review 28, q39): the API leads where its burst month alone fits the budget
    # (test_burst39_api_lead); with a budget the rented burst month fits too, the rented GPUs lead and the API is the
    # option weighed beside them (reason 4, the headline's end)
    r = planned({**advice_answers(Q39), "monthly_budget": {"amount": 250_000, "currency": "CNY"}})
    assert burst_path.lead_finding(r) is None and r.finding("cost.burst_month").params["api"]
    return r


@pytest.fixture(scope="module")
def not_led():
    a = advice_answers(Q39)
    r = planned({**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}})
    assert burst_path.lead_finding(r) is None
    return r


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("which", ("plain", "not_led"))
def test_without_the_api_leading_the_rows_keep_the_rented_decision(request, which, lang):
    not_led = request.getfixturevalue(which)
    hw = _row(not_led, lang, "memo.key.hardware")
    budget = _row(not_led, lang, "memo.key.budget")
    fleet = next(f for f in not_led.findings if f.id == "cost.fleet")
    title = fleet.title_in(lang)
    for text in (hw, title):
        assert _api_word(lang) not in text
    # s36-hybrid (review 27: "one table: base month, burst month rented, burst month on the API"): the budget row
    # judges the rented burst month first and gives the API's beside it, never before it
    month = not_led.finding("cost.burst_month").params["month"].replace("¥", "")
    head = budget.split(_api_word(lang) if lang == "en" else "API")[0]
    assert month.split("–")[0] in head
    assert not_led.costs.hybrid.burst_gpu_name in hw
