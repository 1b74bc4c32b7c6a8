"""A recommended replica that takes every card the team owns says "all 16 of yours", not "16 of your 16"
(s27-fleet27, blind review 16, q04 zh: "使用现有 16 张…中的 16 张" reads awkwardly); fewer keep "12 of your 16"."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import Q04_GIVEN, advice_plan

# s34-fleet36: q08's 4th replica is the conditional upgrade again (its plan is 12 of 16), q04's stays in the plan
FLEETS = ("q04_securities_h20_l20_fleet",)


@pytest.mark.parametrize("name", FLEETS)
def test_the_fourth_replica_on_every_card_says_all_of_them(name):
    # s33-fleet33 (blind review 21): the 4th replica is in the plan on its owners' sign-off, no longer recommended
    # beside it; every card is still said as all of them, never "16 of your 16"
    r = advice_plan(name, **Q04_GIVEN)  # s34-fleet36: q04's sign-off layout, its 6,000 ms given
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "all 16 of your" in en and "(all 16 of yours then) is recommended" not in en
    assert "16 of your 16" not in en
    assert "使用现有全部 16 张" in zh
    assert "16 张中的 16 张" not in zh


def test_fewer_than_every_card_says_how_many_of_how_many():
    params = {"total": 12, "count": 16}
    assert render("en", "fleet27.placement.uses_some", params) == " (12 of your 16)"
    assert render("zh_CN", "fleet27.placement.uses_some", params) == "（共用你们 16 张中的 12 张）"
