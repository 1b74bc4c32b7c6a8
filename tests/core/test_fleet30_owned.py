"""Owned fleets, session 30 (issue 25; blind review 19 on q04/q08/q18/q33), each held in both languages:

- a server's loss is measured against the replicas that carry the peak itself, the planned headroom left out (q08:
  "1 of 3 replicas, 33 % of the 3 the peak needs" where 2 carry the peak of 30 at 15 each and the 3rd is the 20 %
  headroom's), and the fix offered for it says what it depends on (r19 q08: "the fix offered (a 4th replica on the
  busy cards) depends on moving other work off them");
- the costs of a plan laid out again on the fleet are the costs of that layout (q08's GPU-use share was the month's
  tokens over a 4-replica candidate's capacity beside a plan of 3; q18 and q33 "renting the same setup" priced 12
  and 4 GPUs beside plans of 14 and 6);
- the cost table of a plan on the team's own GPUs alone never adds the rent rows (they were added, then dropped
  by matching their translated labels).
"""

from __future__ import annotations

import math

import pytest

from advisor.i18n import translate
from advisor.plan import memo, owned_rent_rows
from advisor.plan.placement_rules import Spread
from tests.support.planned import advice_answers, advice_plan, only_finding, planned

LANGS = ("en", "zh_CN")
FLEETS = ("q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q18_us_fleet_32_h100", "q33_office_4090d_fleet")


def _q08_busier():
    """q08 with 4 cards' worth of other work (25 %): the spare's cards are full, so the plan keeps 3 replicas and
    recommends the 4th (s33-fleet33: at the scenario's 20 %, 3.2 cards' worth, the 4th is in the plan on its owners'
    sign-off, blind review 21; ``test_fleet33_signoff``)."""
    return planned({**advice_answers("q08_ascend_fleet_internal"), "measured_utilisation": 0.25})


LOSS = {"en": "carry {carried} of the peak's {peak} requests at once", "zh_CN": "同时只能承载峰值 {peak} 个请求中的 {carried} 个"}
ALL = {"en": "still carry all {peak} requests of the peak", "zh_CN": "仍能承载峰值的全部 {peak} 个请求"}


def test_a_spread_is_covered_when_what_is_left_carries_the_peak_not_the_headroom() -> None:
    # 3 replicas sized with the headroom, 2 of them carry the peak: 2 left of 4 carry it; 1 left of 3 does not
    assert Spread(replicas=4, serving=3, servers=2, most=2, need=2).covered
    assert not Spread(replicas=3, serving=3, servers=2, most=2, need=2).covered
    # no peak figure: the replicas sized for it stand in, as before
    assert not Spread(replicas=4, serving=3, servers=2, most=2).covered


@pytest.mark.parametrize("lang", LANGS)
def test_q08s_server_loss_is_said_against_the_two_replicas_that_carry_its_peak(lang: str) -> None:
    r = _q08_busier()
    place = only_finding(r, "sizing.placement")
    p, cap, peak = place.params, r.capacity.max_concurrency_per_replica, r.capacity.peak_concurrency
    need = p["need"]
    # the replicas the peak needs carry it within the per-replica cap, one fewer would not; the plan holds more
    assert need * cap >= peak > (need - 1) * cap, (need, cap, peak)
    assert need < p["replicas"] == r.hardware.replicas
    # s33-numbers2 (review 23): what the replicas left carry, in requests of the peak, not as a share of a second
    # replica count ("67 % of the 3 the peak needs" read as hard to parse): the placement and the sizing reason alike
    carried = min(peak, p["left"] * cap)
    said = LOSS[lang].format(carried=carried, peak=peak) if carried < peak else ALL[lang].format(peak=peak)
    assert said in place.detail_in(lang), place.detail_in(lang)
    reason = only_finding(r, "sizing.plan")
    assert carried >= peak or said in reason.title_in(lang), reason.title_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q08s_fourth_replica_says_it_depends_on_moving_the_other_work(lang: str) -> None:
    detail = only_finding(_q08_busier(), "sizing.placement").detail_in(lang)
    depends = {"en": ("It depends on moving the other work off these cards", "where it cannot, today's plan stands"),
               "zh_CN": ("这取决于能否把这些卡上的其他工作移走", "若不能，就维持现在的方案")}[lang]
    if "section 1's recommended next step" in detail or "第一节建议的下一步" in detail:  # review 36 (own44): page 1's step
        depends = {"en": ("once the other work on them moves", "Where it cannot move, today's plan stands"),
                   "zh_CN": ("其他工作迁走后", "若迁不走，就维持现在的方案")}[lang]
    for words in depends:
        assert words in detail, detail


@pytest.mark.parametrize("name", ["q04_securities_h20_l20_fleet", "q26_steady_3y_strong_ops_buy"])
def test_where_the_peak_needs_every_replica_sized_for_it_the_share_is_unchanged(name: str) -> None:
    """q04 (40 at 17 a replica: 3 carry it) and q26 (100 at 18: 6 of the 7 sized with headroom) say the replicas
    that carry the peak, never more than those sized for it."""
    r = advice_plan(name)
    p = only_finding(r, "sizing.placement").params
    cap, peak = r.capacity.max_concurrency_per_replica, r.capacity.peak_concurrency
    assert p["need"] == min(p["serving"], math.ceil(peak / cap)), p


@pytest.mark.parametrize("name", FLEETS)
def test_a_fleet_plan_is_costed_on_the_gpus_it_lays_out(name: str) -> None:
    r = advice_plan(name)
    assert r.costs.gpus == r.hardware.total_gpus, (r.costs.gpus, r.hardware.total_gpus)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", FLEETS)
def test_an_owned_plans_cost_table_never_adds_rent_rows(name: str, lang: str, monkeypatch) -> None:
    r = advice_plan(name)
    assert owned_rent_rows.owns_it_all(r)
    rent = {translate(lang, key) for key in owned_rent_rows.RENT_ROWS}
    assert not rent & {label for label, _ in memo._cost_rows(r, lang)}
    # the same plan read as not owned outright: the builder adds them (the rows exist; it is the builder that
    # leaves them out, not a fold matching labels afterwards)
    monkeypatch.setattr(owned_rent_rows, "owns_it_all", lambda result: False)
    assert rent & {label for label, _ in memo._cost_rows(r, lang)}
