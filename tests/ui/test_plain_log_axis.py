"""Latency charts on a log scale read as plain numbers (70 ms, 1,000 ms), not pyqtgraph's "7·10¹"."""

import math

from ui.widgets.plain_log_axis import PlainLogAxis, plain_number


def test_plain_numbers():
    assert [plain_number(v) for v in (0.5, 2.5, 10, 70, 1500, 1_000_000)] == ["0.5", "2.5", "10", "70", "1,500",
                                                                               "1,000,000"]


def test_the_result_and_sizing_charts_use_it(qtbot):
    from ui.widgets.bench_result import ResultView
    from ui.widgets.latency_plot import LatencyPlot

    view, curve = ResultView(), LatencyPlot()
    qtbot.addWidget(view)
    qtbot.addWidget(curve)
    for plot in (view.lat_plot, curve.latency):
        axis = plot.getAxis("left")
        assert isinstance(axis, PlainLogAxis)
        assert axis.logTickStrings([math.log10(70), 3.0], 1.0, 1.0) == ["70", "1,000"]
