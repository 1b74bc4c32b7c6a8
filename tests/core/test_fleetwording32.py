"""Wording on the team's own cards and on the layout a comparison implies (s31-bigctx32, blind review 20):

- q08 zh: "'采购前请确认' makes no sense when nothing is bought; it should read 部署前" — the domestic-accelerator check
  is said "before deploying" where the plan runs on the team's fleet alone, "before buying/committing" where it buys.
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
