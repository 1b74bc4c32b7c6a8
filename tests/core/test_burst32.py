"""s31-burst32 (issue 25): a bursty plan's burst wording agrees with how it is billed, and the GPU ranking weighs
a part the cloud sells only through its sales (billed every card all month) against parts rented by the hour on
what each one's month bills.

q36 (trade fairs, bursty, mainland) had picked 3 × H20 on its hourly price, then billed all 3 all month (s31-q42fix32)
while its question block still said "the extra replicas started for those whole days and stopped after; the cost's
low end bills 2 days, its high end 6", its findings "start 1 more by calendar" and "reserve the 1 event GPU"."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.plan import burst_rank
from advisor.plan.context import resolve
from advisor.plan.instance_on_request import listed_on_request
from advisor.plan.memo import memo_document
from advisor.plan.unknowns import BURST_QUESTION
from tests.support.planned import advice_answers, advice_plan, planned

Q36 = "q36_bursty_b2b_event_mainland"
LANGS = ("en", "zh_CN")


def _mid(r) -> float:
    m = r.costs.recommended_monthly
    return (m.low + m.high) / 2


# 1. a sales-only part on a bursty load: every statement says the cards run all month --------------------------------

def _h20_fairs():
    r = advice_plan(Q36, gpu_constraint=["h20-96g"])
    assert listed_on_request(r.hardware.gpu) and r.costs.cloud_warm.get("on_request")
    return r


def test_no_replica_is_started_for_the_bursts_where_every_card_is_billed_all_month():
    r = _h20_fairs()
    f = r.finding("scaling.warm_replica")
    assert f is not None and f.title_key.endswith(".on_request.title")
    assert f.params["warm"] == r.hardware.replicas  # all kept on: none started by calendar
    assert r.finding("scaling.burst_reservation") is None  # no event GPU to book
    pre = r.finding("scaling.prestage_weights")
    assert pre is not None and ".burst" not in pre.title_key  # no burst node loads the weights
    assert r.costs.cloud_billed_gpus_range is None and r.costs.cloud_billed_gpus == r.hardware.total_gpus


@pytest.mark.parametrize("lang", LANGS)
def test_the_burst_days_question_says_they_set_the_tokens_not_the_bill(lang):
    r = _h20_fairs()
    q = next(q for q in r.open_questions if q.field == BURST_QUESTION)
    assert q.assumption_key == "burst32.assume.burst_days_all_month"
    assert "cost" not in q.changes and "budget_check" not in q.changes and "tokens" in q.changes
    text = memo_document(r, lang).markdown()
    said = q.text_in(lang)
    assert said in text and str(r.hardware.total_gpus) in said
    for stale in (("started for those whole days", "the cost's low end bills", "start 1 more by calendar",
                   "event GPU") if lang == "en" else ("整天开启", "费用下限按", "按日历另启", "活动 GPU")):
        assert stale not in text, stale


def test_a_plan_that_bursts_keeps_the_burst_days_priced():
    # the same fairs on the A10s it now rents: the question still says the days set the bill
    r = advice_plan(Q36)
    q = next(q for q in r.open_questions if q.field == BURST_QUESTION)
    assert q.assumption_key == "cost19.assume.burst_days" and "cost" in q.changes
    assert r.costs.cloud_billed_gpus_range is not None


# 2. the ranking on what each part's month bills ---------------------------------------------------------------------

def test_q36_rents_the_gpu_whose_month_costs_less_not_the_one_cheaper_by_the_hour():
    r, h20 = advice_plan(Q36), _h20_fairs()
    assert not listed_on_request(r.hardware.gpu)
    assert r.deployment_form == "cloud" and r.feasible
    # the H20 is cheaper by the hour, yet its month (every card all month) costs more than this plan's
    assert r.gpu_choice.all_month is not None
    d = r.gpu_choice.all_month
    assert d["per_hour"] < d["chosen_per_hour"] and d["billed"] > d["chosen_billed"]
    assert _mid(h20) > _mid(r)
    assert h20.costs.recommended_monthly.high > r.costs.recommended_monthly.high


@pytest.mark.parametrize("lang", LANGS)
def test_why_this_gpu_says_why_the_cheaper_hourly_part_lost(lang):
    r = advice_plan(Q36)
    d = r.gpu_choice.all_month
    text = memo_document(r, lang).markdown()
    why = next(x for x in text.splitlines() if x.startswith(("**Why this GPU", "**为什么选这款")))
    clause = why.split(d["gpu_name"])[1]
    for fig in (d["per_hour"], d["chosen_per_hour"], d["billed"], d["chosen_billed"]):
        assert f"{fig:,.2f}" in clause, why
    assert ("perhaps cheaper" if lang == "en" else "可能更便宜") not in why  # not cheaper at its middle price


def test_billing_weighed_only_where_the_setups_are_billed_in_different_ways():
    def cand(gid):
        return SimpleNamespace(gpu=SimpleNamespace(id=gid))

    fairs = resolve(__import__("advisor.plan", fromlist=["answers_from_dict"]).answers_from_dict(advice_answers(Q36)))
    assert burst_rank.mixed(fairs, [cand("h20-96g"), cand("a10")])
    assert not burst_rank.mixed(fairs, [cand("l20-48g"), cand("a10")])  # both rented by the hour: hourly ranks them
    steady = resolve(__import__("advisor.plan", fromlist=["answers_from_dict"]).answers_from_dict(
        {**advice_answers(Q36), "load_pattern": "stable"}))
    assert not burst_rank.mixed(steady, [cand("h20-96g"), cand("a10")])  # every card all month either way


def test_a_steady_load_keeps_the_h20_it_bills_all_month_either_way():
    # on a budget of 30,000 CNY a month, under the 4 × L20's month on demand: with the 50,000 as written the listed
    # L20 is the plan since s36-sourced (``sure_first38``: the H20's placeholder top, 34,308, is above its 27,362)
    r = planned({**advice_answers(Q36), "load_pattern": "stable", "monthly_budget": {"amount": 30000, "currency": "CNY"}})
    assert r.hardware.gpu == "h20-96g" and r.gpu_choice.all_month is None
