"""The window's charts on tabs not shown are built at their first show or first read, not at start-up (issue #27:
17 pyqtgraph plots were ~30 % of a window's build), and a chart built late shows what was drawn before it existed."""

from __future__ import annotations

import pyqtgraph as pg
import pytest

from ui.widgets.bench_result import ResultView
from ui.widgets.compare_plot import ComparePlot


@pytest.fixture
def plot_items(monkeypatch) -> list[pg.PlotItem]:
    made: list[pg.PlotItem] = []
    original = pg.PlotItem.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(pg.PlotItem, "__init__", counting)
    return made


def test_the_benchmark_and_history_tabs_build_their_charts_when_first_shown(qtbot, plot_items, main_window):
    window = main_window
    assert window.tabs.currentWidget() is not window.benchmark_page
    at_start = len(plot_items)
    assert at_start <= 4, "only the tab shown at start-up (and nothing hidden) makes its plots"
    bench, history = window.benchmark_page, window.history_page
    assert not bench.live.charts_built and not bench.result_view.charts_built
    assert not history.result_view.charts_built and not history.compare_tab.plot.charts_built
    window.tabs.setCurrentWidget(bench)
    qtbot.waitUntil(lambda: bench.live.charts_built, timeout=3000)
    assert len(plot_items) >= at_start + 4  # the four live charts
    assert bench.plots.items() and bench.ttft_plot.vb is not None  # the page's own names reach the built charts


def test_a_result_drawn_while_hidden_is_on_the_charts_when_they_are_built(qtbot):
    view = ResultView()
    qtbot.addWidget(view)
    assert not view.charts_built
    steps = [{"concurrency": c, "requests_ok": 8, "ttft_ms": {"p50": 100.0 * c}, "tpot_ms": {"p50": 20.0},
              "output_tokens_per_s": 50.0 * c} for c in (1, 2, 4)]  # fmt: skip
    view.show_result({"run_id": "r1", "model": "m", "url": "u", "steps": steps})
    assert view.charts_built  # drawing a result needs them
    view.show()
    qtbot.waitExposed(view)
    x, _y = view.m_ttft.getData()
    assert len(x) == 3


def test_a_comparison_reads_the_same_before_and_after_the_first_show(qtbot):
    plot = ComparePlot()
    qtbot.addWidget(plot)
    assert not plot.charts_built
    plot.set_theme(True)  # the theme reaches the chart area before its plots exist …
    assert plot.view.backgroundBrush().color().lightness() < 128
    x, _y = plot.points("ttft_p50_ms", 0)  # … and reading a curve builds them, empty
    assert plot.charts_built and len(x) == 0
    assert plot.plots["ttft_p50_ms"].titleLabel.text  # titled in the current language at build
