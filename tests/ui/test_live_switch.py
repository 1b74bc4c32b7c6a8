"""Issue #26 item 9: a live language or theme switch re-renders what is already on screen — results, not only the
labels — and nothing is left near-invisible on the dark theme (the Benchmark title, the wizard's breadcrumbs, the
timeline's verdict)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor

from tests.core.test_bench_report import result as bench_result
from tests.ui.test_wizard import scenario
from ui.pages.wizard import RESULT_STEP

CJK = re.compile(r"[\u4e00-\u9fff]")


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def text_contrast(widget) -> float:
    """WCAG contrast between the widget's background (its commonest pixel) and its commonest ink (the solid colour
    of most of its text; anti-aliased edges are rarer), as the window shows it (a grab of the window, cropped)."""
    window = widget.window()
    image = window.grab().toImage().copy(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size()))
    pixels = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
    (background, _), *inks = pixels.most_common()
    bg = _luminance(QColor.fromRgb(background))
    far = [(n, rgb) for rgb, n in inks if abs(_luminance(QColor.fromRgb(rgb)) - bg) > 0.005]
    ink = _luminance(QColor.fromRgb(max(far)[1])) if far else bg
    return (max(ink, bg) + 0.05) / (min(ink, bg) + 0.05)


@pytest.fixture
def shown(qtbot, main_window):
    """The window with results on every page: an estimate, a benchmark result and a wizard recommendation."""
    w = main_window
    qtbot.waitUntil(lambda: w.sizing_page.result is not None, timeout=5000)
    w.benchmark_page.result_view.show_result(bench_result(simulated=True))
    wizard = w.wizard_page
    w.tabs.setCurrentWidget(wizard)
    qtbot.waitUntil(wizard.isVisible, timeout=3000)
    wizard.answers = json.loads(json.dumps(scenario("01")["answers"]))
    wizard.compute_plan(inline=True)
    wizard.step = RESULT_STEP
    wizard._show_step()
    assert wizard.result is not None
    return w


def test_a_live_language_switch_re_renders_the_results_on_screen(qtbot, shown):
    w = shown
    view = w.benchmark_page.result_view
    assert view.knee.text().startswith("Knee at concurrency 4")
    w.set_language("zh_CN")
    try:
        # the benchmark's knee sentence was stored in English with the run: it is rebuilt in Chinese
        assert CJK.search(view.knee.text()) and "Knee" not in view.knee.text(), view.knee.text()
        assert CJK.search(view.verdict.text())
        assert CJK.search(w.sizing_page.verdict.text())
        assert all(CJK.search(a.text) for a in w.sizing_page.result.advice)
        assert CJK.search(w.wizard_page.result_view.headline.text())
    finally:
        w.set_language("en")
    assert view.knee.text().startswith("Knee at concurrency 4")


def test_a_live_switch_to_dark_leaves_no_text_near_invisible(qtbot, shown):
    w = shown
    w.tabs.setCurrentWidget(w.benchmark_page)  # both pages on screen in the light theme first, as a user has them
    qtbot.waitUntil(w.benchmark_page.title.isVisible, timeout=3000)
    w.tabs.setCurrentWidget(w.wizard_page)
    qtbot.waitUntil(w.wizard_page.step_names.isVisible, timeout=3000)
    w.apply_settings(w.settings.model_copy(update={"theme": "dark"}))
    qtbot.wait(100)  # the palette change reaches the widgets through the event loop
    try:
        bench = w.benchmark_page
        w.tabs.setCurrentWidget(bench)
        qtbot.waitUntil(bench.title.isVisible, timeout=3000)
        assert text_contrast(bench.title) > 4.5  # was near-black on dark grey (1.3)
        wizard = w.wizard_page
        w.tabs.setCurrentWidget(wizard)
        qtbot.waitUntil(wizard.step_names.isVisible, timeout=3000)
        assert text_contrast(wizard.step_names) > 4.5  # the links were dark blue on dark grey (1.6)
        # Qt's rich text has no 'inherit' colour: the met-deadline verdict was drawn black
        assert "inherit" not in wizard.result_view.timeline.text()
    finally:
        w.apply_settings(w.settings.model_copy(update={"theme": "light"}))


def _max_contrast(widget) -> float:
    image = widget.grab().toImage()
    pixels = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
    bg = _luminance(QColor.fromRgb(pixels.most_common(1)[0][0]))
    lums = [_luminance(QColor.fromRgb(rgb)) for rgb in pixels]
    return max((max(v, bg) + 0.05) / (min(v, bg) + 0.05) for v in lums)


def test_check_boxes_and_tick_columns_show_on_dark(qtbot, main_window):
    from PySide6.QtWidgets import QCheckBox, QRadioButton

    main_window.apply_settings(main_window.settings.model_copy(update={"theme": "dark"}))
    qtbot.wait(50)
    try:
        for widget in (QCheckBox(), QRadioButton()):  # the indicator alone: no text to measure instead
            qtbot.addWidget(widget)
            widget.show()
            qtbot.waitExposed(widget)
            assert _max_contrast(widget) > 3.0  # Fusion's outline on the dark palette: ~1.2:1
    finally:
        main_window.apply_settings(main_window.settings.model_copy(update={"theme": "light"}))
