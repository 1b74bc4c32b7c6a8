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
    # q12's A10 (TP2) left the list once its TP2 was priced on a 4-GPU instance (price36, review 25 q25); gl42 (blind
    # review 32: "8 × A10 beside 2 cards") then left out q31's 24 × A10 in fours beside 12 L20 in pairs, twice the
    # cards a replica and in all at a higher price: q43 at 90 at once has 6 × A100 in pairs (bf16, no FP8) beside
    # 4 × L40S one a replica, 1.5 × the cards, in scale
    r = advice_plan("q43_us_team_mainland_low_latency", peak_concurrency=90)
    text = r.gpu_choice.text_in(lang)
    split = [d for d in r.gpu_choice.dearer if d.tp > 1 and d.tp != d.chosen_tp]
    assert [d.gpu_name for d in split] == ["NVIDIA A100 SXM4 80GB"]  # the A100 in bf16 needs more cards a replica
    said = REPLICA_CARDS[lang].format(tp=split[0].tp)
    assert text.count(said) == 1
    # said inside the A100's clause (after its name)
    assert text.index("NVIDIA A100 SXM4 80GB") < text.index(said)
