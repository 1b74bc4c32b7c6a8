"""Issue #26 item 9, the dark-theme traps test_live_switch.py did not cover: after a live switch to dark the wizard's
cost chart and the Sizing page's curve are no longer white boxes (the pages read their own palette, which lags
behind the switch), and the knee row of a benchmark result stays readable (its pink highlight
keeps dark ink whatever the theme's text colour). Found while mapping the walk's traps to tests
(docs/newcomer-walk.md)."""

from __future__ import annotations

from PySide6.QtGui import QColor

from tests.ui.test_live_switch import _luminance, shown  # noqa: F401 - the fixture: results on every page


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_the_cost_chart_and_the_knee_row_follow_a_live_switch_to_dark(qtbot, shown):  # noqa: F811
    w = shown
    chart = w.wizard_page.result_view.cost_chart
    assert chart.chart is not None  # the recommendation has costs: the chart is drawn
    assert chart.view.backgroundBrush().color().lightness() > 128
    curve = w.sizing_page.results_panel.curve  # the Sizing page's latency curve, on screen since the estimate
    view = w.benchmark_page.result_view
    knee = view.knee_row()
    assert knee is not None
    w.apply_settings(w.settings.model_copy(update={"theme": "dark"}))
    qtbot.wait(100)
    try:
        assert chart.view.backgroundBrush().color().lightness() < 128  # was the white box on the dark page
        assert curve.view.backgroundBrush().color().lightness() < 128  # read the page's palette, still light
        for col in range(view.table.columnCount()):
            item = view.table.item(knee, col)
            ink, paper = item.foreground().color(), item.background().color()
            assert _contrast(ink, paper) > 4.5, (col, ink.name(), paper.name())
        other = view.table.item(0 if knee else 1, 0)  # a plain row keeps the theme's own colours
        assert other.background().style() == other.background().style().NoBrush
    finally:
        w.apply_settings(w.settings.model_copy(update={"theme": "light"}))
    assert chart.view.backgroundBrush().color().lightness() > 128
