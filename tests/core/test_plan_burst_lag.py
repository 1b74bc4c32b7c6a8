"""A queue-triggered scale-out's lag at a burst's start (``burst_rules._scale_out_lag``; q23's reviewers: "a reactive
scaling group takes minutes to boot a VM and load weights, so TTFT will be missed at the start of a burst"): the memo
says the burst queues on the warm replicas meanwhile, with what they take and the TTFT target, and asks for the
dates of bursts the team schedules itself. Bursts on known dates (calendar) get no such sentence."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned


def _warm(plan):
    (f,) = [f for f in plan.findings if f.id == "scaling.warm_replica"]
    return f


def _q23_with_burst_replicas() -> dict:
    """q23 at 200 concurrent: its 150 sit within one H200 replica's 180 at the 40 ms TPOT target (a p99 read at
    exactly 40.0 ms), the warm replicas then carry every burst and no lag is left to say; at 200 replicas are
    started for the bursts."""
    return {**advice_answers("q23_japan_game_npc"), "peak_concurrency": 200}


def test_q23_unannounced_bursts_queue_on_the_warm_replicas():
    plan = planned(_q23_with_burst_replicas())
    f = _warm(plan)
    lag = f.params["lag"]
    assert lag["tr"] == "numbers25.lag"  # s25-numbers25: the weight read named as only one step of minutes
    assert lag["warm"] == f.params["warm"] and lag["cap"] == f.params["warm"] * f.params["per"]
    assert lag["ttft"] == "500"
    assert f.params["warm"] < plan.hardware.replicas  # replicas are started for the bursts: the lag is real


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_lag_is_in_the_memo(lang):
    md = render_memo_markdown(planned(_q23_with_burst_replicas()), lang)
    assert ("burst queues on the 2 warm replicas" if lang == "en" else "突发流量排在 2 个常驻副本上") in md


def test_calendar_bursts_have_no_lag_sentence():
    f = _warm(planned(advice_answers("q36_bursty_b2b_event_mainland")))
    assert f.title_key.endswith(".calendar.title")
    text = translate("en", f.detail_key)
    assert "{lag}" not in text and not f.params["lag"]
