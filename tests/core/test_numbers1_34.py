"""s33-numbers1 (issue 25, blind review 23): numbers in one memo agree with each other, and fix lists say which
change fits the budget.

q23: the open question said "whether it fits the budget (not checked)" while the budget row said "within budget"."""

from __future__ import annotations

import copy

import pytest

from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


# q23: a budget given is checked, so another answer changes the fit, not a check never made ---------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_question_on_a_plan_with_a_budget_does_not_say_the_budget_is_not_checked(lang):
    r = planned(advice_answers("q23_japan_game_npc"))
    assert r.costs.budget_monthly is not None
    qs = [q for q in r.open_questions if "budget_check" in q.changes]
    assert qs, "the burst schedule's question changes the budget's fit"
    text = memo_document(r, lang).markdown()
    never = "(not checked)" if lang == "en" else "（未检查）"
    for q in qs:
        said = q.text_in(lang)
        assert said in text and never not in q.changes_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_budget_the_question_still_says_the_fit_is_not_checked(lang):
    answers = copy.deepcopy(advice_answers("q23_japan_game_npc"))
    answers.pop("monthly_budget", None)
    r = planned(answers)
    q = next(q for q in r.open_questions if q.field == "monthly_budget")
    assert ("(not checked)" if lang == "en" else "（未检查）") in q.changes_in(lang)


# q39: the bursts' path, one rented count, and counts that exist ------------------------------------------------------

Q39 = "q39_hybrid_l20_base_cloud_burst"


def _f(r, rule_id):
    return next((x for x in r.findings if x.id == rule_id), None)


def _head(r, lang):
    return next(line for line in memo_document(r, lang).markdown().splitlines() if line.startswith("**"))


def _amounts(text):
    import re

    return [float(x.replace(",", "")) for x in re.findall(r"¥([\d,]+)", text)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_leads_the_bursts_where_it_fits_the_budget_the_rented_burst_breaks_and_the_data_may_go(lang):
    r = planned(advice_answers(Q39))
    f = _f(r, "cost.burst_month")
    budget = r.costs.budget_monthly
    assert f is not None and f.title_key == "numbers1_34.burst_month.api.title" and f.params["api_lead"]
    lo, hi = f.params["api_month_range"]
    rented_month = _amounts(f.params["month"])
    assert hi <= budget < rented_month[-1]  # the conditions, from the finding's own figures
    head = _head(r, lang)
    n = r.costs.hybrid.gpus_burst
    assert f.params["api_month"] in head and f.params["month"] in head  # both paths, the API first
    assert head.index(f.params["api_month"]) < head.index(f.params["month"])
    assert {"en": f"{n} × ", "zh_CN": f"{n} 张"}[lang] in head
    # the form no longer says "rent cloud GPUs for the peak" before recommending the API
    assert {"en": "rent cloud GPUs for the peak", "zh_CN": "高峰时租用云 GPU"}[lang] not in head


@pytest.mark.parametrize("lang", LANGS)
def test_one_rented_count_everywhere_and_the_lost_servers_cover_said_outside_the_monthly_cost(lang):
    r = planned(advice_answers(Q39))
    n = r.costs.hybrid.gpus_burst
    down = _f(r, "sizing.hybrid_server_down")
    res = _f(r, "scaling.burst_reservation")
    step = next(s for s in r.next_steps if s.id == "burst_reserve")
    assert res.params["total"] == step.params["total"] == step.params["order"]["total"] == n
    assert res.params["spare"]["n"] == step.params["standby"]["n"] == down.params["more"]
    memo = memo_document(r, lang).markdown()
    outside = {"en": "in the monthly cost", "zh_CN": "月成本里"}[lang]
    step_text = step.text_in(lang) if hasattr(step, "text_in") else ""
    assert memo.count(outside) >= 3  # the reservation, the step and the server-down finding say it
    # no order counts the burst and the cover together (the old "14")
    together = n + down.params["more"]
    assert {"en": f"order {together} ×", "zh_CN": f"订购一个月的 {together} 张"}[lang] not in memo
    assert step_text == "" or str(n) in step_text


def test_the_rented_burst_keeps_the_lead_where_the_data_may_not_simply_go_or_the_budget_covers_it():
    a = advice_answers(Q39)
    personal = {**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}}
    f = _f(planned(personal), "cost.burst_month")
    assert f is not None and not f.params.get("api_lead") and f.title_key == "plan.rule.cost.burst_month.budget.title"
    rich = {**a, "monthly_budget": {"amount": 400000, "currency": "CNY"}}
    g = _f(planned(rich), "cost.burst_month")
    assert g is not None and not g.params.get("api_lead")
    step = next(s for s in planned(rich).next_steps if s.id == "burst_reserve")
    assert step.key != "numbers1_34.next.api_or_order"


@pytest.mark.parametrize("lang", LANGS)
def test_the_replica_counts_in_the_owned_gpu_say_which_cards_exist(lang):
    from advisor.plan.result import render

    r = planned(advice_answers(Q39))
    hyb = r.costs.hybrid
    memo = memo_document(r, lang).markdown()
    said = {"en": f"{hyb.gpus_burst} × {hyb.burst_gpu_name}", "zh_CN": f"{hyb.gpus_burst} 张 {hyb.burst_gpu_name}"}[lang]
    for rule_id, part in (("sizing.redundancy", "detail"), ("sizing.plan", "title")):
        f = _f(r, rule_id)
        assert f is not None and f.params["owned"] == hyb.gpus_owned and f.params["plan"] == hyb.burst_plan_gpus
        text = render(lang, f.title_key if part == "title" else f.detail_key, f.params)
        # the owned-GPU count stays, with the cards that exist beside it: the owned count and the rented part
        assert str(hyb.gpus_owned) in text and str(hyb.burst_plan_gpus) in text and said in text, rule_id
        assert text in memo
