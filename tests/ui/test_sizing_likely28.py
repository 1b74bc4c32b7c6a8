"""The Sizing page's overview states TTFT and TPOT at the chosen load as the range that held for public measurements
in its regime (issue #28), beside its speeds and not only under the latency plot: the predicted curve's P50 at the
requested concurrency times the regime's factors, the regime set by the curve's own knee, in both languages."""

from __future__ import annotations

from advisor import i18n
from advisor.sizing.accuracy import likely_sentence, predictor_accuracy, regime_at
from advisor.sizing_curve import likely_at_requested


def _shown(qtbot, page, concurrency: int):
    with qtbot.waitSignal(page.curve_shown, timeout=60000):
        page.concurrency_spin.setValue(concurrency)
    prediction = page.curve.prediction
    assert prediction is not None
    return prediction


def test_the_overview_states_the_regimes_range_at_the_chosen_load_in_both_languages(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("h100-sxm")
    label = page.overview.likely
    seen = set()
    for n in (1, 300):
        prediction = _shown(qtbot, page, n)
        at, likely = likely_at_requested(prediction)
        assert at.concurrency == n and likely.regime == regime_at(prediction.knee.concurrency, concurrency=n)
        seen.add(likely.regime)
        factors = predictor_accuracy().in_regime(likely.regime)
        assert likely.ttft_ms.low == at.ttft_ms.p50 * factors.ttft_range.low
        assert likely.tpot_ms.high == at.tpot_ms.p50 * factors.range_for("tpot", "dense").high  # qwen2.5-7b: dense
        assert label.isVisible() and label.text() == likely_sentence(likely, concurrency=n)
        assert ("below the predicted knee" if likely.regime == "below_knee" else "past the predicted knee") in label.text()
    assert seen == {"below_knee", "saturated"}  # the regime switches at the knee between the two loads
    i18n.set_language("zh_CN")
    try:
        page.retranslate()
        assert "已过预测拐点" in label.text() and "首 token 延迟（TTFT）" in label.text()
    finally:
        i18n.set_language("en")
        page.retranslate()
    assert "past the predicted knee" in label.text()


def test_another_requests_range_is_not_left_beside_new_figures(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("h100-sxm")
    _shown(qtbot, page, 20)
    assert page.overview.likely.isVisible()
    page.results_panel.overview.show_result(page.result.model_copy(update={"request": page.result.request.model_copy(
        update={"concurrency": 21})}))  # fmt: skip
    assert not page.overview.likely.isVisible()
