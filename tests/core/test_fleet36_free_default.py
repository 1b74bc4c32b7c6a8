"""A spare replica is no reason to displace other work: where the replicas that carry the peak and their spare sit
on the fleet's free cards, the plan stays on them and the replica on busy cards is the conditional upgrade
(s34-fleet36, ``fleet.signoff_spares``; blind review 25). q08 en/zh: "With '实测 20 %' load the plan still takes all
16 cards including 4 busy ones for a spare; make three replicas on the 12 idle cards the default and the fourth
conditional." q04 zh: "the default should be the plan that evicts nobody". q33 en: the spare-replica wording "will
confuse a newcomer" (plain counts). And the rent comparison for owned cards is left out (q04 zh: "irrelevant for
owned cards")."""

from __future__ import annotations

import pytest

from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown
from advisor.plan.rules_fleet import OWNED_DETAIL
from tests.support.planned import advice_answers, advice_plan, only_finding, planned

LANGS = ("en", "zh_CN")
Q04, Q08, Q33 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q33_office_4090d_fleet"
SIGNOFF = ".idle_signoff.title"


def _row(md: str, *labels: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


def _fleet(name: str) -> tuple[int, float]:
    f = advice_answers(name)["current_fleet"]
    return int(f["count"]), float(advice_answers(name)["measured_utilisation"])


@pytest.mark.parametrize("name", [Q08, Q33])
def test_the_plan_stays_on_the_free_cards_where_only_a_spare_would_take_busy_ones(name):
    r = advice_plan(name)
    count, util = _fleet(name)
    free = free_gpus(count, util)
    lay = r.hardware.layout
    # the replicas that carry the peak with their spare fit the free cards: nothing of the plan on busy cards
    assert r.hardware.total_gpus <= free < count
    assert lay.fleet_used == r.hardware.total_gpus and not any(f.title_key.endswith(SIGNOFF) for f in r.findings)
    # one replica more would fit the fleet's cards, but only the busy ones: it is the upgrade, with its condition
    assert r.hardware.total_gpus + r.hardware.gpus_per_replica > free
    assert r.hardware.total_gpus + r.hardware.gpus_per_replica <= count


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q08, Q33])
def test_page_one_names_the_replica_on_busy_cards_as_the_conditional_upgrade(name, lang):
    r = advice_plan(name)
    count, _ = _fleet(name)
    md = render_memo_markdown(r, lang)
    hardware = _row(md, "Hardware", "硬件")
    used, tp = r.hardware.total_gpus, r.hardware.gpus_per_replica
    if lang == "en":
        assert f"{used} of your {count}" in hardware and f"all {count} of your" not in hardware
        assert f"recommended besides: a replica more on the other {count - used} cards" in hardware
        assert "once the other work is moved off them" in hardware and "sign off" not in hardware
    else:
        assert f"使用现有全部 {count} 张" not in hardware and "另建议" in hardware
        assert f"在其余 {count - used} 张卡上再加一个副本" in hardware
    # the placement says the same upgrade and its condition: the owners are asked, today's plan stands without it
    place = only_finding(r, "sizing.placement").detail_in(lang)
    assert f"{count - used}" in place and tp == r.hardware.gpus_per_replica
    assert ("today's plan stands" in place or "move it off these" in place) if lang == "en" else "其他工作" in place


def test_q33_says_its_spare_in_plain_counts():
    r = advice_plan(Q33)
    title = only_finding(r, "sizing.redundancy").title_in("en")
    assert title.endswith("2 replicas carry the peak, plus 1 spare replica on GPUs of yours that would stand idle")
    assert "one more spare replica" not in render_memo_markdown(r, "en")


def test_q04_whose_load_itself_takes_a_busy_card_keeps_its_sign_off_spare():
    # 3 × TP4 = 12 cards with 11 free: the load itself takes a busy card, so the sign-off is needed either way and
    # the spare on it stays in the plan (the spare is not the only reason to move work)
    r = advice_plan(Q04)
    assert r.hardware.total_gpus == 16 and any(f.title_key.endswith(SIGNOFF) for f in r.findings)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q04, Q08, Q33, "q18_us_fleet_32_h100"])
def test_a_plan_on_owned_cards_alone_quotes_no_rent_for_them(name, lang):
    r = advice_plan(name)
    f = only_finding(r, "cost.fleet")
    assert not r.costs.owned.gpus_bought and f.detail_key == OWNED_DETAIL
    detail = f.detail_in(lang)
    assert ("renting" not in detail) if lang == "en" else ("租用" not in detail)
    rent = f.params["rent"].get("rent")
    assert rent and rent not in render_memo_markdown(r, lang)


def test_a_fleet_that_buys_or_rents_keeps_the_rent_comparison():
    # q39's hybrid rents its bursts: there renting is the alternative, and the finding still weighs it
    f = only_finding(planned(advice_answers("q39_hybrid_l20_base_cloud_burst")), "cost.fleet")
    assert f.detail_key != OWNED_DETAIL
