"""The next steps start on the critical path (issue #25): an infeasible plan starts with the decision that makes it
feasible, never by starting or testing the setup it ruled out (q40); a launch gated by a filing, an approval or a
purchase's lead time starts that step first (q30); when money is missing, the decision says what the budget buys."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.plan import e2e_gate43
from advisor.plan.critical_steps import BENCH_IDS, DECIDE_ID, GATE_IDS, replanned_already
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

SCENARIOS = sorted(p.stem for p in Path(ADVICE_SCENARIOS).glob("*.json"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_first_step_is_on_the_critical_path(name):
    r = planned(advice_answers(name))
    assert r.next_steps, name
    first = r.next_steps[0]
    # paid tutoring for pupils (q07): the education authority's answer on 双减 comes before the gate, and is the
    # decision when no change of answers makes the plan feasible (s20-duties20)
    asked_first = first.id == "ask_first"
    if asked_first:
        assert "double_reduction_check" in [i.id for i in r.timeline.items], name
        first = r.next_steps[1]
    # review 34 (gt43, q09/q43): a thin end-to-end first-token margin is measured first, before any commitment; the
    # critical path follows it
    if first.key == e2e_gate43.KEY:
        first = r.next_steps[r.next_steps.index(first) + 1]
    # review 23 (q25/q37/q43): a part no provider there is known to sell is confirmed first, by its quote with plan B
    # beside it (an outsourcing review is of the provider the quote names); the critical path follows
    if first.id == "quotes" and first.otherwise and r.in_region_fallback is not None:
        assert len(r.next_steps) > 1, name
        first = r.next_steps[1]
    tl = r.timeline
    gated = tl.gate is not None or bool(tl.untimed)
    if gated:  # a filing, an approval or a purchase sets the launch: it is started first
        assert first.id in GATE_IDS, (name, [s.id for s in r.next_steps])
    if not r.feasible and replanned_already(r):
        # s23-pages23 (q20): the one change is other GPUs and the memo's setup is already that re-plan: its steps test
        # it, with no step asking to decide on the change and re-plan
        assert DECIDE_ID not in [s.id for s in r.next_steps], name
        assert r.hardware.gpu_name == r.fixes[0].params["gpu"]
    elif not r.feasible:  # never a bench or serve step of the plan it just ruled out, and the decision comes early
        assert first.id not in BENCH_IDS, (name, first.id)
        ids = [s.id for s in r.next_steps]
        assert DECIDE_ID in ids[:2] or (asked_first and not r.fixes), (name, ids)
    if not gated and r.feasible:  # nothing to put before the technical steps: nothing is
        assert first.id not in (*GATE_IDS, DECIDE_ID), name
    assert len({s.id for s in r.next_steps if s.id in (*GATE_IDS, DECIDE_ID)}) <= 2


def test_an_unfiled_public_launch_starts_both_filings_now():
    """q30: "should start its ICP and generative-AI filings now", named with their days in both languages."""
    r = planned(advice_answers("q30_unfiled_finetune_public_30d"))
    first = r.next_steps[0]
    assert first.id == "gate"
    en, zh = first.text_in("en"), first.text_in("zh_CN")
    assert "generative-AI service filing (180–240 days)" in en and "ICP filing" in en and "21–35" in en
    assert "生成式人工智能服务备案（180–240 天）" in zh and "ICP 备案" in zh
    assert r.next_steps[1].id == DECIDE_ID and "a launch after the filing" in r.next_steps[1].text_in("en")


def test_a_budget_that_buys_nothing_says_what_it_buys_and_the_least_extra():
    """q40/q29: the decision names the cheapest change and its budget, and the stated budget's share of the same
    tokens through a hosted API (the plan's own figures), never a load test first."""
    # 20,000 people (s19-volume19: the 250 behind its peak of 50 fit a hosted API within the 5,000 CNY; s19-gpu19:
    # at 5,000 people a smaller model's hosted API still fits it); 4,000 CNY (s20-costtoken20: the peak's stream is
    # what the smaller model's replicas stream at that load, so its hosted API's month fits 5,000 CNY)
    budget = 4000
    r = planned({**advice_answers("q40_tiny_budget_72b"), "users": 20000,
                 "monthly_budget": {"amount": budget, "currency": "CNY"}})
    first = r.next_steps[0]
    assert first.id == DECIDE_ID
    hosted = next(f for f in r.fixes if f.id == "hosted_api")
    assert hosted.with_budget is not None  # nothing fits the budget as given
    assert hosted.monthly_cost is not None
    lo, hi = round(100 * budget / hosted.monthly_cost.high), round(100 * budget / hosted.monthly_cost.low)
    least = min(float(f.with_budget["amount"]) for f in r.fixes if f.with_budget)
    en = first.text_in("en")
    assert f"about {lo}–{hi} % of your volume" in en and f"{least:,.0f} CNY a month" in en
    assert f"{lo}–{hi}%" in first.text_in("zh_CN")
    # q29 at 5,000 CNY, not its own 20,000 (s23-uplift23): a batch job now pays storage and support only, so the
    # 7B fix (5,399–16,945 CNY) fits 20,000 alone and q29's first step names that one change; at 5,000 nothing fits
    q29_answers = advice_answers("q29_batch_impossible_budget")
    q29 = planned({**q29_answers, "monthly_budget": {**q29_answers["monthly_budget"], "amount": 5000}})
    job = q29.next_steps[0]
    assert job.id == DECIDE_ID and "of the job through a hosted API" in job.text_in("en")
    # the cheapest change with what it needs beside it: its budget, and its deadline where it needs one (s19: the
    # GPU quota is in GPUs, so a smaller model on one-GPU replicas no longer "needs 27 hours")
    cheapest = min((f for f in q29.fixes if f.with_budget), key=lambda f: float(f.with_budget["amount"]))
    assert f"{float(cheapest.with_budget['amount']):,.0f} CNY" in job.text_in("en")
    hours = cheapest.with_deadline_hours
    assert (f"deadline of {hours:,.0f} hours" in job.text_in("en")) if hours else "deadline of" not in job.text_in("en")


def test_a_budget_that_may_cover_the_hosted_price_says_no_share():
    """The share is said only when the budget is below the whole hosted range (no "pays for 120 %")."""
    answers = {**advice_answers("q40_tiny_budget_72b"), "monthly_budget": {"amount": 30000, "currency": "CNY"}}
    r = planned(answers)
    first = r.next_steps[0]
    assert first.id == DECIDE_ID and "through a hosted API" not in first.text_in("en")


def test_page_one_shows_the_gate_step():
    en = render_memo_markdown(planned(advice_answers("q30_unfiled_finetune_public_30d")), "en")
    steps = en.split("**Next steps:**", 1)[1].split("## 2.", 1)[0]
    assert steps.lstrip().startswith("1. Start this now, since it sets the earliest launch")


def test_a_change_that_fits_the_budget_as_given_is_the_decision_not_more_money():
    """q40 on its customers' people (s19-volume19): a hosted API fits the 5,000 CNY; "nothing above fits the budget
    as given" was said beside it."""
    r = planned(advice_answers("q40_tiny_budget_72b"))
    fits = [f for f in r.fixes if f.with_budget is None and f.id != "more_budget" and not f.with_deadline_hours]
    assert [f.id for f in fits] == ["hosted_api"]
    first = r.next_steps[0]
    # review 31 (q40): the API is the answer, so the decision lists no step for the ruled-out setup (test_plan41)
    assert first.id == DECIDE_ID and first.key == "plan41_next.decide_api"
    assert "hosted API" in first.text_in("en") and "nothing above fits" not in first.text_in("en")
