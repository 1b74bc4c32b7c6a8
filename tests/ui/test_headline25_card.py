"""The result card's headline carries the condition the plan's own numbers set, as the memo's does (s25-headline25,
blind review 15, q26: "Own bare-metal servers" while renting costs less at the middle of the stand-in prices)."""

from __future__ import annotations

import pytest

from advisor import i18n
from advisor.plan import headline25
from tests.support.planned import advice_plan, only_finding
from ui.widgets.wizard_result import ResultView


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_card_headline_says_the_purchase_condition(qtbot, lang: str) -> None:
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    threshold = only_finding(r, "cost.buy").params["threshold"]["max_purchase"]
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        view = ResultView([])
        qtbot.addWidget(view)
        view.set_result(r)
        text = view.headline.text()
    finally:
        i18n.set_language(before)
    assert threshold in text and headline25.form_condition(r, lang) in text
