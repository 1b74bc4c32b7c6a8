"""Where the replicas go (``advisor.plan.placement_rules``): the arithmetic of a whole server down, checked on the
fifth blind review's cases — q18's 6 TP2 replicas on a 32 × H100 fleet (4 servers of 8), q33's two TP2 replicas on
8 × 4090D in machines of unknown size — and the spread helpers on their own."""

from __future__ import annotations

import pytest

from advisor.plan.placement_rules import Spread, _bought_spread, _fleet_spread
from tests.support.planned import Q33_BUSIER, advice_answers, planned
from tests.support.without_signoff import plan_without_signoff

LANGS = ("en", "zh_CN")


def test_fleet_spread_over_its_servers():
    # 6 TP2 replicas (5 carry the peak) on 32 H100: 4 servers, at most 2 on one; one down leaves 4 of the 5 needed
    s = _fleet_spread(6, 5, 2, 32)
    assert s == Spread(replicas=6, serving=5, servers=4, most=2)
    assert (s.left, s.covered) == (4, False)
    # one 8-GPU server: nothing to spread over
    assert _fleet_spread(2, 1, 1, 8) is None
    # two replicas over two servers: one down leaves the one the peak needs
    assert _fleet_spread(2, 1, 1, 16).covered


def test_bought_spread_packs_the_servers_bought():
    # 3 TP4 replicas in 2 bought 8-GPU servers: 2 in one, 1 in the other
    assert _bought_spread(3, 3, 4, 8, 2) == Spread(replicas=3, serving=3, servers=2, most=2)
    assert _bought_spread(2, 2, 2, 4, 1) is None  # one server: the single-server risk is said elsewhere


def _placement(plan):
    return [f for f in plan.findings if f.id == "sizing.placement"]


def test_q18_fleet_spares_ride_out_a_whole_server_and_the_free_gpus_are_checked():
    # 5 TP2 replicas carry the peak; 17 of 32 H100 free: two spares on idle GPUs (7 over 4 servers, at most 2 on
    # one) leave the 5 the peak needs with a whole server down (ninth blind review: 6 left 4 of 5, 80 %)
    plan = planned(advice_answers("q18_us_fleet_32_h100"))
    (f,) = _placement(plan)
    p = f.params
    assert (p["replicas"], p["tp"], p["servers"], p["most"], p["left"], p["serving"]) == (7, 2, 4, 2, 5, 5)
    # session 30: the replicas that carry the peak without headroom; at 48 a replica the peak of 200 needs all 5 sized
    # for it. s33-numbers2 (review 23): what the 5 left carry said in requests of the peak, all of it, once
    assert p["need"] == 5 and p["carry"] == {"tr": "numbers2_34.carry.all", "peak": 200, "left": 5}
    assert p["spare_part"]["tr"] == "plan.owned20.placement.spares"
    # the fleet is 45 % busy: the spread assumes the free GPUs lie that way, and says to check it
    # the "covered" sentence left out beside the carry's "still carry all 200" (s33-numbers2)
    # review 28 (q18 zh: the caveat "appears three times; say it once"): the next steps give the servers' free GPUs,
    # the finding points at them
    assert p["cover"]["tr"] == "own39_placement.check_free_plain"
    step = next(s for s in plan.next_steps if s.id == "placement_check")
    assert step.params["per_server"] == p["cover"]["per_server"]
    assert p["cover"]["cover"]["tr"] == "plan.placement16.covered"
    # server by server, as the 7 replicas spread (2, 2, 2, 1 TP2), adding up to the 14 GPUs the plan takes (s22:
    # q08's "each server has 8 free" beside 12 free in all)
    assert (p["cover"]["busy"], p["cover"]["per_server"], p["cover"]["need"]) == (45, "4 + 4 + 4 + 2", 14)


@pytest.mark.parametrize("lang", LANGS)
def test_q33_unknown_machines_one_replica_each_and_not_a_deciding_reason(lang):
    from advisor.plan.memo import render_memo_markdown

    plan = planned(advice_answers("q33_office_4090d_fleet"))
    (f,) = _placement(plan)
    fleet = advice_answers("q33_office_4090d_fleet")["current_fleet"]["count"]
    # s21-gpu21b (eleventh review: "3 TP2 replicas cannot be on 3 different machines when there are only two
    # workstations (4+4 cards)"): more replicas than two, so the machines' smallest split is said, never "one to a
    # machine"; the figures follow the plan's layout
    assert f.title_key.endswith(".unknown_uneven.title")
    p, hw = f.params, plan.hardware
    assert (p["replicas"], p["tp"], p["count"]) == (hw.replicas, hw.tp, fleet)
    assert p["most"] + p["rest"] == hw.replicas and p["most"] >= p["rest"] and p["most"] * hw.tp <= p["per"]
    assert 2 * p["per"] == fleet and p["remain"] == p["rest"]
    md = render_memo_markdown(plan, lang)
    page1 = md.split("\n## ")[1]  # section 1 (the decision), whatever the language numbers it
    title = "Where the replicas go" if lang == "en" else "副本放在哪里"
    assert title in md and title not in page1  # how to run the plan, not why it was chosen


def test_cloud_plans_say_nothing_of_servers():
    for sid in ("q24_us_saas_rent", "q09_eu_voice_agent", "q39_hybrid_l20_base_cloud_burst"):
        assert _placement(planned(advice_answers(sid))) == [], sid


def test_q33_says_the_left_over_pair_as_a_further_spare_with_its_spread(monkeypatch):
    """The cards the plan leaves over hold one more replica: said with the fleet's measured load (the answers'), and
    the spread of that many replicas over the two machines.

    Re-argued in s33-fleetword (blind review 22, q33: "the headline says 6 of 8 cards while the placement section
    recommends all 8"): q33's plan takes the 4th replica on its owners' sign-off, so the pair left over is read on
    the plan without it (the sign-off's fallback), where it is still said."""
    plan = plan_without_signoff(monkeypatch, advice_answers(Q33_BUSIER))
    (f,) = _placement(plan)
    fleet = advice_answers(Q33_BUSIER)["current_fleet"]["count"]
    p, hw = f.params, plan.hardware
    free = fleet - hw.total_gpus
    assert free >= hw.tp
    s = p["spare_pair"]
    assert s["free"] == free and s["next"] == hw.replicas + 1
    assert s["busy"] == round(100 * advice_answers(Q33_BUSIER)["measured_utilisation"])
    assert s["most"] + s["left"] == s["next"] and s["most"] * hw.tp <= p["per"]


def test_the_spread_helper_refuses_what_one_to_a_machine_already_covers():
    from advisor.plan.placement_rules import _two_machines

    assert _two_machines(2, 2, 8, 1, 0.0) is None  # two replicas: one to a machine is sound
    assert _two_machines(3, 2, 7, 2, 0.0) is None  # an odd fleet: no even split to assume
    assert _two_machines(3, 4, 12, 2, 0.0) is None  # six cards a machine hold one TP4 replica: 3 do not fit on two
    got = _two_machines(3, 2, 8, 2, 0.0)
    assert got is not None and (got["most"], got["rest"]) == (2, 1)
