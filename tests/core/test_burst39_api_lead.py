"""s37-burst39 (issue 25, blind review 28, q39): a hybrid's bursts go to a hosted API of the same model where the data
may go there and the API's burst month fits the monthly budget while the rented burst month does not; the rented GPUs
are then the fallback, ramp-tested before the order. Step 1's count of vllm:num_requests_running stays the gate named
first in the headline, and page 1's budget row judges the month without a burst and the burst months, never the
year's average that spreads the bursts over twelve months. Elsewhere (personal information, an API month over the
budget, a rented month within it) the rented GPUs lead as the user asked."""

from __future__ import annotations

import pytest

from advisor.plan import burst_path, hybrid_path43
from advisor.plan.burst_bill import bill
from advisor.plan.memo import memo_document
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, render
from tests.support.planned import advice_answers

# s38-burst40: q39's bursts now rent a part by the hour; these tests pin the month-booked H20 path, kept on q39's
# answers through ``sales_month`` (the same plan for every other scenario: only a hybrid's burst part is chosen there)
from tests.support.planned import sales_month as planned

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


class _Ds:
    def __init__(self, level: str, personal_info: bool | None) -> None:
        self.level, self.personal_info = level, personal_info


class _Answers:
    def __init__(self, level: str = "low", personal_info: bool | None = False) -> None:
        self.data_sensitivity = _Ds(level, personal_info)


def _burst(r):
    return next(x for x in r.findings if x.id == "cost.burst_month")


def _head(r, lang):
    return next(line for line in memo_document(r, lang).markdown().splitlines() if line.startswith("**"))


def _row(r, lang, key):
    label = render(lang, key, {})
    return next(line for line in memo_document(r, lang).markdown().splitlines() if line.startswith(f"| {label} |"))


def _with_budget(amount: int):
    return planned({**advice_answers(Q39), "monthly_budget": {"amount": amount, "currency": "CNY"}})


# the rule, pure: both months are burst months, judged against the budget at their high ends ----------------------------

def test_the_api_leads_only_where_the_data_may_go_and_only_its_burst_month_fits():
    api, rented = (35_000.0, 78_000.0), (59_000.0, 173_000.0)
    assert burst_path.leads(api, rented, 80_000, _Answers())
    # the rented month fits too: the rented GPUs, as asked, lead
    assert not burst_path.leads(api, rented, 180_000, _Answers())
    # the API's month is over the budget at its high end: no lead
    assert not burst_path.leads(api, rented, 70_000, _Answers())
    # the data may not go: sensitive, personal information, or personal information not answered (no permission)
    assert not burst_path.leads(api, rented, 80_000, _Answers(level="high"))
    assert not burst_path.leads(api, rented, 80_000, _Answers(personal_info=True))
    assert not burst_path.leads(api, rented, 80_000, _Answers(personal_info=None))
    # no API priced or no budget: nothing to judge on
    assert not burst_path.leads(None, rented, 80_000, _Answers())
    assert not burst_path.leads(api, rented, None, _Answers())


# q39 as answered: the API leads, the rented GPUs the fallback ---------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q39_the_headline_counts_first_then_the_api_then_the_rented_fallback(lang):
    r = planned(advice_answers(Q39))
    burst = _burst(r)
    p = burst.params
    lo, hi = p["api_month_range"]
    assert p["api_lead"] and hi <= r.costs.budget_monthly < _rented_month(r)[1]
    head = _head(r, lang)
    hyb = r.costs.hybrid
    gate = "vllm:num_requests_running"
    api = {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]
    fallback = {"en": "if it falls short, the fallback", "zh_CN": "API 达不到要求时的备选"}[lang]
    rented = {"en": f"{hyb.gpus_burst} × {hyb.burst_gpu_name}", "zh_CN": f"{hyb.gpus_burst} 张 {hyb.burst_gpu_name}"}[lang]
    tested = {"en": "ramp-tested on one first", "zh_CN": "先在一张上做压力测试"}[lang]
    # the count on the owned GPUs first, the API's burst month within the budget next, the rented part last
    assert f"{hyb.gpus_owned}" in head and p["api_month"] in head
    assert head.index(gate) < head.index(api) < head.index(p["api_month"]) < head.index(fallback) \
        < head.index(rented) < head.index(tested)
    # the threshold under which nothing leaves the owned GPUs is the fleet-load finding's
    disagree = next(x for x in r.findings if x.id == "sizing.fleet_load_disagrees")
    assert f"{disagree.params['carry']}" in head


@pytest.mark.parametrize("lang", LANGS)
def test_q39_the_budget_row_judges_the_month_without_a_burst_and_the_burst_months_not_the_average(lang):
    r = planned(advice_answers(Q39))
    b = bill(r.costs, r.answers, str(r.deployment_form), r.hardware.gpu)
    cur = r.costs.currency
    base = money_range(MoneyRange(low=b.average_month[0] - b.averaged[0], high=b.average_month[1] - b.averaged[1]), cur)
    burst_month = money_range(MoneyRange(low=b.burst_month[0], high=b.burst_month[1]), cur)
    api = money_range(MoneyRange(low=_burst(r).params["api_month_range"][0],
                                 high=_burst(r).params["api_month_range"][1]), cur)
    row = _row(r, lang, "memo.key.budget")
    if hybrid_path43.applies(r):  # s41-q39 (review 34): the figures once, in the cost row; the budget row's verdicts
        assert base not in row and burst_month not in row
        row = _row(r, lang, "memo.key.cost") + row
    assert base in row and api in row and burst_month in row
    # the year's averaged month and its bare verdict are not what page 1's budget row judges
    average = money_range(MoneyRange(low=b.average_month[0], high=b.average_month[1]), cur)
    assert average not in row and render(lang, "memo.cost.within", {}) not in row
    assert row.index(base) < row.index(api) < row.index(burst_month)


@pytest.mark.parametrize("lang", LANGS)
def test_q39_the_order_step_ramp_tests_the_rented_part_before_ordering(lang):
    r = planned(advice_answers(Q39))
    step = next(s for s in r.next_steps if s.id == "burst_reserve")
    assert step.params["order"]["tr"] == "burst39_next.order_month_tested"
    text = step.text_in(lang)
    assert r.costs.hybrid.burst_gpu_name in text
    assert {"en": "ramp-test one rented", "zh_CN": "做压力测试"}[lang] in text


# the rented GPUs lead where the API may not take the bursts or is not the only month within the budget ---------------

@pytest.mark.parametrize("lang", LANGS)
def test_personal_information_keeps_the_rented_bursts_leading(lang):
    a = advice_answers(Q39)
    r = planned({**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}})
    assert not _burst(r).params.get("api_lead")
    head = _head(r, lang)
    hyb = r.costs.hybrid
    rent = {"en": f"each burst rents {hyb.gpus_burst} × {hyb.burst_gpu_name}",
            "zh_CN": f"每次扩容租用 {hyb.gpus_burst} 张 {hyb.burst_gpu_name}"}[lang]
    assert rent in head and "vllm:num_requests_running" in head
    assert render(lang, "burst39_form.api", {"api_month": "", "budget": "", "rented": "", "basis": "",
                                             "measure": ""})[:8] not in head


@pytest.mark.parametrize("amount", [60_000, 250_000])
@pytest.mark.parametrize("lang", LANGS)
def test_a_budget_the_api_month_breaks_or_the_rented_month_fits_keeps_the_rented_bursts_leading(lang, amount):
    r = _with_budget(amount)
    burst = _burst(r)
    assert not burst.params.get("api_lead") and burst.params["api"]
    budget = r.costs.budget_monthly
    api_hi = burst.params["api"]["range"][1]
    # the case at hand: the API's month over the budget, or the rented month within it
    assert api_hi > budget or _rented_month(r)[1] <= budget
    hyb = r.costs.hybrid
    assert {"en": f"each burst rents {hyb.gpus_burst} × ",
            "zh_CN": f"每次扩容租用 {hyb.gpus_burst} 张 "}[lang] in _head(r, lang)


def _rented_month(r):
    b = bill(r.costs, r.answers, str(r.deployment_form), r.hardware.gpu)
    return b.burst_month
