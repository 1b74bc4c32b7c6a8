"""The redundancy a plan carries, decided in one place (``advisor.plan.spare_policy``; issue #25, round 13 of the
blind review): each rule adds where it should and not where the budget, the team or the need says no."""

from __future__ import annotations

import math

import pytest

from advisor.plan import spare_policy
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan, only_finding, planned, unled

LANGS = ("en", "zh_CN")


def _units(r):
    lay = r.hardware.layout
    return lay.units, lay.spare_units


# --- rule 2: a rented single unit of a basic-ops team gets its second where every budget covers it -------------
@pytest.mark.parametrize("sid", ["q35_deepseek_v3_h20_internal", "q38_eu_internal_hr_assistant"])
def test_a_basic_ops_teams_single_rented_node_gets_its_second_in_the_plan(sid):
    r = advice_plan(sid)
    assert _units(r) == (2, 1), r.hardware.layout
    f = only_finding(r, "sizing.single_point")
    assert f.title_key.endswith(".added_ops.title")
    # the second is in the plan's cost, and the plan stays within the monthly budget it was checked against
    budget = advice_answers(sid)["monthly_budget"]["amount"]
    assert r.costs.recommended_monthly.high <= budget
    one = planned({**advice_answers(sid), "ops_capability": "strong"})  # a team that restores a node itself
    assert _units(one) == (1, 0)
    # twice the one node, less the parts the second does not double: the site-to-site VPN that joins the rented
    # nodes to the company network is one connection for both (s24-prices24), a few per cent of one node's month
    low_two, low_one = r.costs.recommended_monthly.low, one.costs.recommended_monthly.low
    assert 1.95 * low_one <= low_two <= 2 * low_one


def test_the_precision_tie_is_decided_again_on_the_units_the_plan_now_has():
    # q38: FP8 was kept for the TPOT one L40S gives with all 15 on it; on two units each takes 8 and BF16's TPOT
    # there is too close to FP8's to feel, so the better precision is kept, as the layout search keeps it on a tie
    two = advice_plan("q38_eu_internal_hr_assistant")
    one = planned({**advice_answers("q38_eu_internal_hr_assistant"), "ops_capability": "strong"})
    assert (one.hardware.weights, one.layouts_tried.fp8_gain is not None) == ("fp8", True)
    assert (two.hardware.weights, two.layouts_tried.fp8_gain) == ("bf16", None)
    assert two.capacity.meets_slo
    # q43: the first-token tie still holds on three L40S, with the figures of three (BF16 misses at the peak)
    tie = advice_plan("q43_us_team_mainland_low_latency").layouts_tried.first_token
    assert tie is not None and tie.higher_ttft_ms + tie.rtt_ms > tie.slo_ms


def test_a_strong_team_or_a_short_budget_keeps_one_node_and_is_asked_to_accept_the_downtime_in_writing():
    strong = planned({**advice_answers("q38_eu_internal_hr_assistant"), "ops_capability": "strong"})
    f = only_finding(strong, "sizing.single_point")
    assert f.params["verdict"]["tr"] == "plan.redund24.sp.covered_rent"
    # a budget that covers one L40S VM but not two: not added, said as over the budget
    short = planned({**advice_answers("q38_eu_internal_hr_assistant"),
                     "monthly_budget": {"amount": 1700, "currency": "USD"}})
    assert _units(short) == (1, 0)
    # re-argued (campus32, review 20b): the over-budget verdict of a RENTED VM no longer says "keep a spare card on
    # the shelf" (the provider replaces a rented card; a shelf card is a purchase the plan never costed), so it has
    # its own text; the downtime accepted in writing stays
    over = only_finding(short, "sizing.single_point")
    assert over.params["verdict"]["tr"] == "campus32.sp.over_rented"
    assert "in writing" in over.detail_in("en") and "shelf" not in over.detail_in("en")
    for lang in LANGS:
        text = f.detail_in(lang)
        assert ("in writing" if lang == "en" else "书面确认") in text


def test_a_bought_office_box_is_not_doubled_for_a_basic_ops_team():
    # q02: one 4090D for an office's 7B; a second box is capital spent once, the team's call (its reviewers called
    # "the budget would cover a second server" filler)
    r = advice_plan("q02_office_lan_small_design_agency")
    assert r.hardware.total_gpus == 1 and not r.hardware.layout.spare_units
    assert spare_policy.second_unit_reason(type("C", (), {"ops": "basic"})(), mlps_level=None, rented=False) is None
    assert spare_policy.second_unit_reason(type("C", (), {"ops": "basic"})(), mlps_level=3, rented=False) == "mlps3"


# --- rule 3: one serving unit more where one down leaves the rest within the margin --------------------------
def test_a_failover_within_the_margin_gets_one_more_unit_the_budget_covers():
    r = advice_plan("q43_us_team_mainland_low_latency")
    assert _units(r) == (3, 1), r.hardware.layout  # 2 serve, 1 spare: one down leaves two
    f = only_finding(r, "sizing.redundancy")
    assert f.title_key.endswith(".margin.title")
    p = f.params
    assert p["what"]["tr"].endswith(".ttft") and p["rtt"] and p["load_down"] == 30
    assert p["value"] >= (1 - spare_policy.ONE_DOWN_MARGIN) * p["slo"]  # the figure that triggered it
    for lang in LANGS:
        assert str(p["value"]) in f.detail_in(lang)
    # the latency budget no longer reports a failover within 5 % of the target: with one down each takes 15
    budget = only_finding(r, "region.latency_budget")
    assert "tight_failover" not in str(budget.params)


def test_no_unit_more_where_the_budget_does_not_cover_it_or_the_failover_has_room():
    q43 = advice_answers("q43_us_team_mainland_low_latency")
    two = unled({**q43, "monthly_budget": {"amount": 3000, "currency": "USD"}})  # 2 VMs fit, 3 do not
    assert _units(two) == (2, 1)
    assert "tight_failover" in str(only_finding(two, "region.latency_budget").params)  # the risk, said instead
    roomy = unled({**q43, "latency_slo": {"ttft_p99_ms": 400, "tpot_p99_ms": 40}})  # 146 ms is far from 400
    assert _units(roomy) == (2, 1)
    assert not only_finding(roomy, "sizing.redundancy").title_key.endswith(".margin.title")


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_failover_at_the_knee_but_clear_of_the_target_is_not_given_one_more():
    # q37: with one of two L40S down the other takes all 80 at the knee, TPOT P99 about 79 ms of 100: a fifth from
    # the target, not within the margin (at 20 % seven of the 29 plans with a spare would gain a unit)
    r = unled({**advice_answers("q37_sg_fintech_public")})
    assert _units(r) == (2, 1)


# --- rule 4: on the team's idle cards, the layout that rides out a replica down ------------------------------
def test_a_fleet_plan_keeps_the_layout_that_rides_out_a_replica_down():
    """Round 13, q08: three TP4 replicas kept over one TP8 replica on the free cards. Round 14 (s25-consist25): the
    other two take at most the per-replica cap (12, the serve command's --max-num-seqs), not the 15 each their
    share of the peak would be: the layout is still kept (it keeps 24 of the 30 with one down, the TP8 replica none),
    and the figures are those at the cap, with what is left short said (tests/core/test_consist25.py). s33-fleet33:
    at the scenario's 20 % the 4th replica is in the plan on its owners' sign-off (blind review 21); read at 25 %,
    where the other work fills the spare's cards and the plan keeps the 3 on the free ones."""
    r = planned({**advice_answers("q08_ascend_fleet_internal"), "measured_utilisation": 0.25})
    assert (r.hardware.tp, r.hardware.replicas, r.hardware.total_gpus) == (4, 3, 12)
    tries = {(t.weights, t.tp): t for t in r.layouts_tried.tries}
    tp8 = tries[("bf16", 8)]
    assert (tp8.outcome, tp8.gpus, tp8.replicas) == ("meets", 8, 1)
    fo = r.layouts_tried.failover_fleet
    assert fo is not None and (fo["weights"], fo["tp"], fo["replicas"]) == ("bf16", 8, 3)
    assert fo["load"] == min(math.ceil(30 / 2), r.capacity.max_concurrency_per_replica) and fo["tpot"] <= 100
    assert fo["carried"] == min(30, 2 * fo["load"])
    assert "single replica" in r.layouts_tried.text_in("en")
    assert "只有一个副本" in r.layouts_tried.text_in("zh_CN")


def test_a_fleet_without_the_free_cards_for_it_keeps_the_fewer_cards():
    # at 50 % busy, 8 of the 16 cards are free: three TP4 replicas do not fit beside the other work
    r = planned({**advice_answers("q08_ascend_fleet_internal"), "measured_utilisation": 0.5})
    assert r.hardware.total_gpus == 8
    assert r.layouts_tried is None or r.layouts_tried.failover_fleet is None


def test_the_layouts_tried_on_a_fleet_are_counted_on_its_cards_not_whole_servers_to_rent():
    # round 13, q08: "TP4 would need 16 (4 replicas, 113 % headroom)" was TP4 rounded up to two 8-card servers
    r = advice_plan("q08_ascend_fleet_internal")
    for t in r.layouts_tried.tries:
        if t.outcome in ("chosen", "meets"):
            assert t.gpus <= 12, t


def test_spares_sit_on_idle_cards_alone_and_the_plan_takes_what_the_peak_needs():
    # re-argued in s26-fleet26 (blind review 16, q04): a spare no longer displaces other work even where the load
    # moves some (s24-redund24 took 16 of 16 H20 for 4 replicas, 5 cards' work moved onto L20s of unknown load);
    # the fourth replica is recommended with its condition instead (``fleet_next_replica``)
    assert spare_policy.spare_room(free=11, tp=4) == 2  # q04: 11 free hold 2 replicas of 4, whatever could move
    assert spare_policy.spare_room(free=12, tp=4) == 3
    # re-argued again in s33-fleet33 (blind review 21, q04 en: "the 4-replica/16-card layout should be the headline,
    # not an add-on ... moving 30 % of the load onto the L20s is plausible but needs the owners' sign-off"): the
    # idle room is unchanged, and the one spare beyond it is taken on that sign-off (``fleet.signoff_spares``), said
    # as its condition with the 3-replica plan as the fallback
    r = advice_plan("q04_securities_h20_l20_fleet", **Q04_GIVEN)  # s34-fleet36: its 6,000 ms given, as this reads
    assert (r.hardware.replicas, r.hardware.total_gpus, r.hardware.layout.spare_units) == (4, 16, 1)
    assert r.hardware.layout.load_gpus == 12
    red = next(f for f in r.findings if f.id == "sizing.redundancy")
    assert red.title_key.endswith(".idle_signoff.title") and red.params["without_gpus"] == 12
