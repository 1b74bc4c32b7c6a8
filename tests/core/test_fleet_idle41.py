"""Blind review 31 (issue #25), q33 en: "it recommends '4 replicas on all 8 of your cards', but every figure is for 3,
and it treats the 10 % measured load as other people's work ('ask its owners'), even though the team says the cards
are almost idle. Lead with 4 × TP2 on the 8 cards, 2 per machine, which also survives a whole machine down." A fleet
with under one card's worth of light load serves on every card, its figures are the plan's, and no question about
whose the load is is asked; a busier fleet keeps its free share."""

from __future__ import annotations

import pytest

from advisor.plan import fleet_idle41, layout_headline40
from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown
from advisor.plan.unknowns import FLEET_LOAD_QUESTION
from tests.support.planned import advice_answers, advice_plan, only_finding, planned

Q33 = "q33_office_4090d_fleet"


def test_nearly_idle_means_under_a_cards_worth_at_a_light_load() -> None:
    assert fleet_idle41.nearly_idle(8, 0.1) and free_gpus(8, 0.1) == 8
    assert not fleet_idle41.nearly_idle(10, 0.1) and free_gpus(10, 0.1) == 9  # a whole card's worth of work
    assert not fleet_idle41.nearly_idle(2, 0.4) and free_gpus(2, 0.4) == 1  # under a card, but each card 40 % busy
    assert not fleet_idle41.nearly_idle(8, 0.0)  # nothing measured busy: the plain rule already frees all
    assert free_gpus(16, 0.2) == 12  # q08's 3.2 cards' worth stays other work


def test_q33_runs_on_every_card_and_its_figures_are_the_plans() -> None:
    r = advice_plan(Q33)
    hw = r.hardware
    count = advice_answers(Q33)["current_fleet"]["count"]
    assert hw.total_gpus == count and hw.replicas * hw.gpus_per_replica == count
    assert not layout_headline40.applies(r)  # no "deploy 3 now, the 4th once the other work moves"
    assert all(q.field != FLEET_LOAD_QUESTION for q in r.open_questions)
    assert any(a.key == fleet_idle41.KEY for a in r.assumptions)
    red = only_finding(r, "sizing.redundancy")
    assert red.params["server_t"] == {"tr": "lead41.idle.machine_title"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q33_memo_says_all_cards_a_machine_down_and_no_owners_to_ask(lang: str) -> None:
    r = advice_plan(Q33)
    md = render_memo_markdown(r, lang)
    page1 = md[: md.index("## 2." if lang == "en" else "## 二、")]
    if lang == "en":
        assert f"all {r.hardware.total_gpus} of your" in page1 and "rides out a whole machine down" in page1
        assert "ask its owners" not in md and "cards' worth idle" not in md and "nearly idle" in md
    else:
        assert f"全部 {r.hardware.total_gpus} 张" in page1 and "整台机器宕机" in page1
        assert "算力空闲" not in md and "几乎空闲" in md


def test_a_busier_fleet_keeps_its_free_share_and_the_question() -> None:
    r = planned({**advice_answers(Q33), "measured_utilisation": 0.15})  # 1.2 cards' worth
    assert r.hardware.total_gpus < advice_answers(Q33)["current_fleet"]["count"]
    assert any(q.field == FLEET_LOAD_QUESTION for q in r.open_questions)
