"""Wording on the team's own cards and on the layout a comparison implies (s31-bigctx32, blind review 20):

- q08 zh: "'采购前请确认' makes no sense when nothing is bought; it should read 部署前" — the domestic-accelerator check
  is said "before deploying" where the plan runs on the team's fleet alone, "before buying/committing" where it buys;
- q12 zh: the A10 comparison's "one replica … 36 requests" with TP2 implied — said where a replica spans cards.
"""

from __future__ import annotations

import pytest

from tests.support.planned import advice_plan, only_finding

Q08 = "q08_ascend_fleet_internal"
DEPLOY = {"en": "Before deploying on your cards", "zh_CN": "部署前请确认"}
BUY = {"en": "Before committing", "zh_CN": "采购前请确认"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_ascend_check_on_the_teams_own_fleet_is_before_deploying(lang: str) -> None:
    f = only_finding(advice_plan(Q08), "gpu.domestic")
    assert DEPLOY[lang] in f.detail_in(lang) and BUY[lang] not in f.detail_in(lang)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_ascend_check_when_the_cards_are_bought_stays_before_buying(lang: str) -> None:
    r = advice_plan(Q08, current_fleet=None)  # no fleet: the 910B cards are bought
    f = only_finding(r, "gpu.domestic")
    assert BUY[lang] in f.detail_in(lang) and DEPLOY[lang] not in f.detail_in(lang)


# q12 zh: "the A10 comparison says '一个副本…36 个请求', but 14B bf16 (~29.5 GB) does not fit on one 24 GB A10, so TP2 is
# implied without being said" — a dearer alternative whose replica spans more cards than the chosen one's says so
REPLICA_CARDS = {"en": "a replica there spans {tp} cards, TP{tp}", "zh_CN": "其每个副本跨 {tp} 张卡，即 TP{tp}"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_dearer_alternative_split_over_cards_says_its_replica_spans_them(lang: str) -> None:
    # q12's A10 (TP2) left the list once its TP2 was priced on a 4-GPU instance (price36, review 25 q25): q31's A10
    # in bf16 splits over 4 cards beside the chosen L20's 2
    r = advice_plan("q31_icp_filed_hosting_move")
    text = r.gpu_choice.text_in(lang)
    split = [d for d in r.gpu_choice.dearer if d.tp > 1 and d.tp != d.chosen_tp]
    assert [d.gpu_name for d in split] == ["NVIDIA A10 24GB"]  # the A10 in bf16 needs more cards a replica
    said = REPLICA_CARDS[lang].format(tp=split[0].tp)
    assert text.count(said) == 1
    # said inside the A10's clause (after its name)
    assert text.index("NVIDIA A10 24GB") < text.index(said)
