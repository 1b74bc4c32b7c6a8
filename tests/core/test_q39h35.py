"""s34-q39h35 (blind review 24): page 1 of a hybrid gives one decision with one condition, a part sold only by the
month is no same-day cover for a lost owned server, the cap and the curve's figure are labelled in one sentence
(q39); and a batch over both its deadline and its budget lists both blockers on page 1 (q29)."""

from __future__ import annotations

import math

import pytest

from advisor.plan.binding import BETWEEN
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.planned import advice_answers

# s38-burst40: q39's bursts now rent a part by the hour; these tests pin the month-booked H20 path, kept on q39's
# answers through ``sales_month`` (the same plan for every other scenario: only a hybrid's burst part is chosen there)
from tests.support.planned import sales_month as planned

LANGS = ("en", "zh_CN")
Q39, Q29 = "q39_hybrid_l20_base_cloud_burst", "q29_batch_impossible_budget"


def _f(r, rule_id):
    return next((x for x in r.findings if x.id == rule_id), None)


def _head(r, lang):
    return next(line for line in memo_document(r, lang).markdown().splitlines() if line.startswith("**"))


def _page_one(r, lang):
    return memo_document(r, lang).markdown().split("\n## ")[1]


# q39: one decision, one condition -----------------------------------------------------------------------------------

# s37-burst39 (blind review 28): where the API's burst month fits the budget and the rented one does not, the API
# leads the bursts (tests/core/test_burst39_api_lead.py); the rented decision stays where the data may not go


def test_without_the_api_leading_the_headline_keeps_the_rented_decision():
    a = advice_answers(Q39)
    personal = {**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}}
    r = planned(personal)
    assert not _f(r, "cost.burst_month").params.get("api_lead")
    head = _head(r, "en")
    # s36-hybrid: the rented bursts lead either way; the API beside them is for the bursts only, so the owned
    # cards' reason stays "for the base load" wherever page 1 weighs the API for the bursts
    assert "first count the requests in flight" not in head and f"rents {r.costs.hybrid.gpus_burst} × " in head
    assert "for the base load" in _page_one(r, "en")


# q39: a lost owned server where the rented part is sold only by the month -------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_part_sold_by_the_month_is_not_the_same_day_cover_the_api_takes_the_share(lang):
    r = planned(advice_answers(Q39))
    down = _f(r, "sizing.hybrid_server_down")
    assert down.params["cover"] == "api" and down.params["same_day"] is False
    text = render(lang, down.title_key, down.params) + render(lang, down.detail_key, down.params)
    assert {"en": "cannot be started on the day", "zh_CN": "无法当天启动"}[lang] in text
    assert {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang] in text
    memo = memo_document(r, lang).markdown()
    # no standby of the month-sold part in the order step, nor a rented count said to cover the server
    step = next(s for s in r.next_steps if s.id == "burst_reserve")
    assert step.params["standby"] == ""
    assert {"en": "cover a lost owned server are not in the monthly cost",
            "zh_CN": "一台自有服务器故障时顶上的"}[lang] not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_without_the_api_the_lost_server_is_said_uncovered_with_what_would_cover_it(lang):
    a = advice_answers(Q39)
    r = planned({**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}})
    down = _f(r, "sizing.hybrid_server_down")
    assert down.params["cover"] == "none" and down.severity == "warning"
    detail = render(lang, down.detail_key, down.params)
    assert {"en": "the loss is uncovered", "zh_CN": "这部分损失没有顶替"}[lang] in detail
    hyb = r.costs.hybrid
    assert down.params["more"] == math.ceil(down.params["lost_gpus"] * hyb.gpus_burst / hyb.burst_plan_gpus)


# q39: the cap and the curve's figure labelled in one sentence -------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_cap_and_the_curves_figure_are_labelled_in_one_sentence(lang):
    r = planned(advice_answers(Q39))
    b = r.binding_constraint
    between = next(p for p in b.then if isinstance(p, dict) and p.get("tr") == BETWEEN)
    cap = r.capacity.max_concurrency_per_replica
    assert between["cap"] == cap < between["ok"]
    sentence = render(lang, BETWEEN, between)
    assert sentence in b.text_in(lang)
    # s38-burst40 (review 29: "a newcomer cannot tell which is the plan"): one cap, the command's, named as the plan;
    # the curve's figure said as its ceiling, not the plan
    words = {"en": (f"The plan's cap is {cap} a replica", f"{between['ok']} is the curve's ceiling", "not the plan"),
             "zh_CN": (f"方案的上限是每个副本 {cap} 个", f"{between['ok']} 只是预测曲线", "不是方案")}[lang]
    assert all(w in sentence for w in words)
    assert f"--max-num-seqs {cap} " in r.hardware.command


# q29: every blocking finding on page 1 -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_batch_over_its_deadline_and_its_budget_lists_both_blockers_on_page_one(lang):
    r = planned(advice_answers(Q29))
    blockers = [x for x in r.findings if x.severity == "blocker"]
    ids = [x.id for x in blockers]
    assert "sizing.batch_deadline" in ids and "cost.budget_short" in ids
    fig = r.binding_constraint.figures
    budget = _f(r, "cost.budget_short")
    assert fig["job_low"] > fig["budget"] and budget.params["times"] == math.floor(fig["job_low"] / fig["budget"])
    page = _page_one(r, lang)
    for x in blockers:  # each blocker's title among the reasons on page 1
        assert render(lang, x.title_key, x.params) in page, x.id
    assert f"¥{fig['job_low']:,}" in render(lang, budget.title_key, budget.params)


def test_a_batch_whose_budget_covers_the_nearest_price_keeps_the_deadline_as_its_only_blocker():
    a = advice_answers(Q29)
    r = planned({**a, "monthly_budget": {"amount": 1_000_000, "currency": "CNY"}})
    ids = [x.id for x in r.findings if x.severity == "blocker"]
    assert "sizing.batch_deadline" in ids and "cost.budget_short" not in ids
