"""Latency charts on a log scale read as plain numbers (70 ms, 1,000 ms), not pyqtgraph's "7·10¹"."""

import math
from itertools import pairwise

import pytest

from ui.widgets.plain_log_axis import PlainLogAxis, plain_number


def test_plain_numbers():
    assert [plain_number(v) for v in (0.5, 2.5, 10, 70, 1500, 1_000_000)] == [
        "0.5",
        "2.5",
        "10",
        "70",
        "1,500",
        "1,000,000",
    ]


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


def _drawn_labels(qtbot, height: int, low: float, high: float):
    """The tick labels (text, rectangle) pyqtgraph draws on a PlainLogAxis of a chart this tall over [low, high]."""
    import pyqtgraph as pg
    from PySide6.QtGui import QPainter, QPicture

    chart = pg.PlotWidget(axisItems={"left": PlainLogAxis("left")})
    qtbot.addWidget(chart)
    chart.setLogMode(y=True)
    chart.resize(400, height)
    chart.show()
    qtbot.waitExposed(chart)
    chart.setYRange(math.log10(low), math.log10(high), padding=0)
    qtbot.wait(10)
    axis = chart.getAxis("left")
    picture = QPicture()
    painter = QPainter(picture)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    ticks = [10**v for _, level in axis.tickValues(math.log10(low), math.log10(high), 500) for v in level]
    return [(text, rect) for rect, _, text in texts], ticks


def _values(labels):
    return sorted(float(text.replace(",", "")) for text, _ in labels)


def _assert_apart(labels):
    rects = sorted((rect for _, rect in labels), key=lambda r: r.top())
    for upper, lower in pairwise(rects):
        assert not upper.intersects(lower), (upper, lower, [text for text, _ in labels])


# a tall chart has room for 1, 2 and 5 × 10ⁿ; a short one (two or three decades in ~80 px) only for the decades
@pytest.mark.parametrize(
    ("height", "low", "high", "expected"),
    [
        (700, 1, 1000, [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]),
        (100, 1, 1000, [1, 10, 100, 1000]),
        (700, 0.05, 5, [0.05, 0.1, 0.2, 0.5, 1, 2, 5]),
        (100, 0.05, 5, [0.1, 1]),
    ],
)
def test_log_ticks_label_one_two_five_or_only_decades_and_never_overlap(qtbot, height, low, high, expected):
    labels, ticks = _drawn_labels(qtbot, height, low, high)
    assert _values(labels) == pytest.approx(expected)
    _assert_apart(labels)
    # the in-between ticks (3, 4, 6… × 10ⁿ) are still there, just without text
    three = 3 * 10 ** math.floor(math.log10(low) + 1)
    assert any(math.isclose(v, three, rel_tol=1e-9) for v in ticks)


def test_a_range_inside_one_decade_still_gets_labels_that_do_not_overlap(qtbot):
    for height in (140, 700):
        labels, _ = _drawn_labels(qtbot, height, 36, 90)
        assert len(labels) >= 2 and 50 in _values(labels)
        _assert_apart(labels)


def test_many_decades_on_a_short_axis_thin_the_decades(qtbot):
    labels, _ = _drawn_labels(qtbot, 140, 0.001, 1e6)
    values = _values(labels)
    assert 2 <= len(values) < 10 and all(math.log10(v).is_integer() for v in values)
    _assert_apart(labels)
