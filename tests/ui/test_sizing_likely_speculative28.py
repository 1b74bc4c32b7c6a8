"""With speculative decoding chosen on the Sizing page, the overview's likely range says what `advisor calc` says: the
curve behind it and the expected error are without speculative decoding (session 28, predict29; issue #28)."""

from __future__ import annotations

from advisor.i18n import translate
from tests.ui.sizing_page_helpers import settle


def test_the_likely_range_says_it_is_the_curve_without_speculation(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("h100-sxm-80g")
    note = translate("en", "likely28_predict29.speculative_calc")
    with qtbot.waitSignal(page.curve_shown, timeout=60000):
        page.concurrency_spin.setValue(8)
    settle(qtbot, page)
    assert page.overview.likely.isVisible() and note not in page.overview.likely.text()
    page.speculative.tokens.setValue(3)
    with qtbot.waitSignal(page.curve_shown, timeout=60000):
        page.speculative.method.setCurrentIndex(page.speculative.method.findData("ngram"))
    settle(qtbot, page)
    assert page.inputs.request().speculative is not None
    qtbot.waitUntil(lambda: page.overview.likely.isVisible(), timeout=60000)
    assert note in page.overview.likely.text()
