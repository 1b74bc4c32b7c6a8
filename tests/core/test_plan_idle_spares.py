"""Spare replicas from a fleet's idle GPUs (``advisor.plan.fleet.idle_spares``, the N+1 finding's ``idle`` variant;
ninth blind review): GPUs a team owns and leaves idle cost only their power, so the plan lays spares on them — an
internal tool gets one where the idle GPUs hold it, and on 8-GPU servers spares are added until the fullest server
down still leaves the peak's replicas. Never on GPUs busy with other work, never bought, never on a fleet whose load
is this service's own."""

from __future__ import annotations

import pytest

from advisor.plan import fleet
from advisor.plan.fleet_spread import rides_out_a_server, server_spread
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import Q04_GIVEN, Q33_BUSIER, advice_answers, planned
from tests.support.without_signoff import plan_without_signoff

LANGS = ("en", "zh_CN")


def _redundancy(plan):
    return next((f for f in plan.findings if f.id == "sizing.redundancy"), None)


def _free(a):
    f = a["current_fleet"]
    return fleet.free_gpus(f["count"], a["measured_utilisation"])


def test_spread_arithmetic():
    assert server_spread(7, 2, 32) == (4, 2)
    assert not rides_out_a_server(6, 5, 2, 32)  # 6 over 4 servers: one down leaves 4 of 5
    assert rides_out_a_server(7, 5, 2, 32)  # 7: one down leaves 5
    assert not rides_out_a_server(3, 2, 4, 8)  # one server: nothing rides it out


def test_q33_idle_4090ds_carry_a_spare_replica_within_the_target_with_one_down():
    a = advice_answers(Q33_BUSIER)
    plan = planned(a)
    lay = plan.hardware
    # 2 TP2 replicas carry the peak; the 7 free cards hold a third as a spare (it left 4 of 8 idle before)
    # re-argued in s33-fleetword (blind review 22, q33: "the headline says 6 of 8 cards while the placement section
    # recommends all 8"): the free cards still hold the third (3 × 2 ≤ 7 free), and a 4th on the last 2 cards is
    # taken on its owners' sign-off, as q04/q08's. Re-argued again in s34-fleet36 (blind review 25, q08: "make three
    # replicas on the 12 idle cards the default and the fourth conditional"): the 4th is the conditional upgrade
    assert (lay.replicas, lay.gpus_per_replica) == (3, 2)
    assert lay.total_gpus <= _free(a)
    f = _redundancy(plan)
    assert f is not None and f.title_key.endswith(".idle.title")
    down = f.params["down"]
    # the latency with one replica down: the other 2 take 6 each, from the plan's own curve, within the target
    # ... a replica's failure, not a machine's (review 29: two machines of 4 cards, 2 replicas on one)
    assert down["tr"] == "layout40_one_down.replica" and down["n"] == 6
    level = next(p for p in plan.latency_curve.points if p.concurrency == 6)  # the memo's table shows the same
    assert down["ttft"] == pytest.approx(level.ttft_p99_ms, abs=0.1) and down["ttft"] <= down["ttft_slo"]
    assert down["tpot"] == pytest.approx(level.tpot_p99_ms, abs=0.1) and down["tpot"] <= down["tpot_slo"]


def test_q33_without_idle_cards_no_spare_is_laid():
    a = advice_answers("q33_office_4090d_fleet")
    a["measured_utilisation"] = 0.5  # 4 of 8 free: the 2 replicas the peak needs, nothing idle beside them
    plan = planned(a)
    assert plan.hardware.replicas == 2
    assert _redundancy(plan) is None


def test_q18_idle_h100s_ride_out_a_whole_server():
    a = advice_answers("q18_us_fleet_32_h100")
    plan = planned(a)
    hw = plan.hardware
    assert (hw.replicas, hw.gpus_per_replica) == (7, 2)  # 5 + the paid service's spare + one more on idle GPUs
    assert hw.total_gpus <= _free(a)
    f = _redundancy(plan)
    assert f.title_key.endswith(".idle.title")
    assert f.params["server"]["tr"] == "plan.owned20.redundancy.server"
    assert (f.params["server"]["left"], f.params["server"]["serving"]) == (5, 5)
    assert f.params["down"]["what"]["tr"] == "plan.owned20.redundancy.server_down"
    # nothing decides "one server down leaves 80 %" any more
    assert not any("80 %" in r["text"] for r in [{"text": x.title_in("en")} for x in plan.findings])


def test_q18_busier_fleet_keeps_the_one_spare_a_paid_service_needs():
    a = advice_answers("q18_us_fleet_32_h100")
    a["measured_utilisation"] = 0.62  # 12 free: 5 + 1 replicas, no idle GPUs beside them
    plan = planned(a)
    assert plan.hardware.replicas == 6
    f = _redundancy(plan)
    assert f is not None and not f.title_key.endswith(".idle.title")


def test_a_fleet_whose_load_is_this_service_gets_no_idle_spares():
    a = advice_answers("q33_office_4090d_fleet")
    a["current_fleet"] = {**a["current_fleet"], "load_is_this_service": True}
    plan = planned(a)
    f = _redundancy(plan)
    assert f is None or not f.title_key.endswith(".idle.title")


def test_q04_no_spare_on_busy_cards_it_is_recommended_with_its_condition(monkeypatch):
    # 11 of 16 H20 free, 3 TP4 replicas need 12 (one card's work moved onto the idle L20s). s24-redund24 (round 13)
    # put a fourth replica on four more busy cards where the load already moved some work; blind review 16 sent it
    # back: "the plan takes all 16 to add a spare replica, while only 11 are free ... moving 5 cards of existing
    # work onto the L20s, whose own load is unknown, and it leaves zero H20 headroom". The spare now sits on idle
    # cards alone (``spare_policy.spare_room``): the plan takes the 12 the peak needs, and the fourth replica is
    # recommended with its condition, the other work moved off (``fleet_next_replica``), as q08's is
    # recommended, not taken, is kept where the owners do not sign off; re-argued in s33-fleet33 (blind review 21,
    # q04: "the 4-replica/16-card layout should be the headline, not an add-on ... needs the owners' sign-off"):
    # the plan now takes it with that condition said (test_fleet33_signoff)
    # q04 with its 6,000 ms given: as written it now stays on its free cards at the free cards' step (s34-fleet36)
    plan = plan_without_signoff(monkeypatch, {**advice_answers("q04_securities_h20_l20_fleet"), **Q04_GIVEN})
    assert (plan.hardware.replicas, plan.hardware.total_gpus, plan.hardware.layout.spare_units) == (3, 12, 0)
    f = _redundancy(plan)
    assert f is None or not f.title_key.endswith(".idle_moved.title")
    placement = next(x for x in plan.findings if x.id == "sizing.placement")
    assert "consist25.placement.one_more" in repr(placement.params) or "consist25.spare_pair.recommend" in repr(
        placement.params)


@pytest.mark.parametrize("lang", LANGS)
def test_memos_say_the_spares_and_the_latency_with_one_down(lang):
    plan = planned(advice_answers("q33_office_4090d_fleet"))
    md = render_memo_markdown(plan, lang)
    f = _redundancy(plan)
    assert f.title_in(lang) in md and f.detail_in(lang) in md
    assert f"{f.params['down']['ttft']:,.0f}" in f.detail_in(lang)
