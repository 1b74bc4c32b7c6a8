"""The result card's headline carries the condition the plan's own numbers set, as the memo's does (s25-headline25,
blind review 15, q26: "Own bare-metal servers" while renting costs less at the middle of the stand-in prices)."""

from __future__ import annotations

import pytest

from advisor import i18n
from advisor.plan import headline25
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import advice_answers, bought_now, only_finding
from ui.widgets.wizard_result import ResultView


def _card(qtbot, r, lang: str) -> str:
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        view = ResultView([])
        qtbot.addWidget(view)
        view.set_result(r)
        return view.headline.text()
    finally:
        i18n.set_language(before)


# s28-own28 re-argued: q26 no longer owns on a condition (bought like for like with the rent, it pays back within its
# horizon at the middle), so the purchase condition is read on q31, which rents now and buys on that condition; q26's
# card says what it buys and its payback instead, as its memo's headline does
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_card_headline_says_the_purchase_condition(qtbot, lang: str) -> None:
    # s29 (the mainland rents wired in): at Alibaba's sourced L20 rent q31 owns outright, with no purchase condition;
    # the rent-first branch whose condition the card must carry is read at the former L20 rent given as a quote, as
    # tests/core/test_headline25.py reads it
    r = former_rents_plan("q31_icp_filed_hosting_move")
    threshold = only_finding(r, "cost.buy").params["threshold"]["max_purchase"]
    text = _card(qtbot, r, lang)
    assert threshold in text and headline25.form_condition(r, lang) in text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_card_headline_says_what_is_bought_and_its_payback(qtbot, lang: str) -> None:
    # s31-ctb32: q26 now rents until a quote proves the purchase pays with a third server; what its card says of the
    # purchase is read on the plan as it buys once such a quote comes (``bought_now``: every figure the same)
    r = bought_now(advice_answers("q26_steady_3y_strong_ops_buy"))
    clause = headline25.like_own_clause(r, lang)
    assert clause and str(r.costs.own_like["gpus"]) in clause and clause in _card(qtbot, r, lang)
