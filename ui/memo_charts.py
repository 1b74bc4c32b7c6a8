"""Paint the memo's chart data (``advisor.plan.charts.ChartData``) to PNG, offscreen, with QPainter.

A plain line chart, untitled (the memo's heading above it names it): axes with round tick values and unit-bearing
titles, grid, one polyline per series, markers (the knee as a dot, the SLO as a horizontal line, the break-even month as a vertical line),
and a legend. Same look in both languages: a CJK family follows the Latin one so Chinese labels never print
as boxes. No widget and no display is needed (QImage + QPainter under the offscreen platform).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPainterPath, QPen

from advisor.atomic import write_bytes_atomic
from advisor.plan.charts import ChartData
from advisor.units import format_compact

WIDTH, HEIGHT = 1200, 340  # pixels; printed 15 cm wide this is about 200 dpi, labels about 8 pt; low, so a memo
# keeps to 4 pages (the plot itself about 2.5 cm tall: two curves and a few markers read well at that)
# No title on the image: the memo's section heading names the chart (and a Markdown memo's alt text), and a title
# band would make every chart 5 mm taller.
COLORS = {"primary": "#1f77b4", "secondary": "#d62728", "tertiary": "#2ca02c", "measured": "#ff7f0e", "neutral": "#7f7f7f"}


def _app() -> QGuiApplication:
    from ui.pdf import ensure_gui_app

    return ensure_gui_app()


def _font(points: float, bold: bool = False) -> QFont:
    from ui.fonts import find_cjk_family

    font = QFont()
    families = ["Noto Sans", "DejaVu Sans", "Liberation Sans"]
    cjk = find_cjk_family()
    if cjk:
        families.append(cjk)
    font.setFamilies(families)
    font.setPixelSize(int(points))
    font.setBold(bold)
    return font


def nice_ticks(lo: float, hi: float, target: int = 6) -> list[float]:
    """Round tick values covering [lo, hi]: steps of 1, 2 or 5 × 10^k."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, target)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    if ticks[-1] < hi:
        ticks.append(ticks[-1] + step)
    return ticks


def render_chart_png(chart: ChartData, *, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """The chart as PNG bytes."""
    _app()
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    try:
        _paint(p, chart, width, height)
    finally:
        p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


LOW_PLOT_PX = 250  # a plot lower than this gets about 4 ticks on its y axes instead of 6
RIGHT_AXIS_SHARE = 0.15  # a dashed second series that peaks below this share of the left axis gets its own axis
MONTH_STEPS = (1, 2, 3, 6, 12, 24)  # a month axis ticks at quarters, half years, years: "36" ends it, not "40"


@dataclass(frozen=True)
class Axes:
    """Tick values of a chart: x, left y, and right y (empty without a right axis) with the series drawn on it."""

    x: list[float]
    y: list[float]
    y2: list[float] = field(default_factory=list)
    on_right: frozenset[int] = frozenset()


def tick_text(chart: ChartData, value: float) -> str:
    """A tick number the way the chart's language counts: 20万 in Chinese, 200k in English."""
    return format_compact(value, chart.lang)


def chart_axes(chart: ChartData, y_ticks: int = 6) -> Axes:
    """The ticks of ``chart``. The predicted TPOT (tens of ms) next to TTFT (thousands) would lie flat on zero,
    so a dashed secondary series that small is drawn against a right-hand axis of its own."""
    def top(series: list[int]) -> float:
        return max([y for i in series for _, y in chart.series[i].points] or [0.0])

    everything = list(range(len(chart.series)))
    on_right = frozenset(i for i, s in enumerate(chart.series) if s.role == "secondary" and s.dashed and len(
        chart.series) > 1 and 0 < top([i]) < RIGHT_AXIS_SHARE * max(
        [top([j for j in everything if j != i])] + [m.y for m in chart.markers if m.y is not None]))
    left = [i for i in everything if i not in on_right]
    xs = [x for s in chart.series for x, _ in s.points] + [m.x for m in chart.markers if m.x is not None]
    ys = [y for i in left for _, y in chart.series[i].points] + [m.y for m in chart.markers if m.y is not None]
    ys += [hi for i in left for _, _, hi in chart.series[i].band]
    y = nice_ticks(min(0.0, min(ys)), max(ys) * 1.05, y_ticks)
    y2 = nice_ticks(0.0, top(sorted(on_right)) * 1.05, y_ticks) if on_right else []
    if chart.x_log2:
        lo, hi = max(1.0, min(xs)), max(xs)
        x = [2.0 ** k for k in range(int(math.floor(math.log2(lo))), int(math.ceil(math.log2(hi))) + 1)]
    elif chart.id == "cost":  # months
        hi = max(xs)
        step = next((m for m in MONTH_STEPS if hi / m <= 8), MONTH_STEPS[-1])
        x = [float(m) for m in range(0, int(math.ceil(hi / step)) * step + 1, step)]
    else:
        x = nice_ticks(min(0.0, min(xs)), max(xs))
    return Axes(x=x, y=y, y2=y2, on_right=on_right)


def _paint(p: QPainter, chart: ChartData, width: int, height: int) -> None:
    label_font, tick_font = _font(27), _font(24)
    tick_metrics = QFontMetricsF(tick_font)
    label_h = QFontMetricsF(label_font).height()
    axes = chart_axes(chart)
    left = 40 + label_h + max(tick_metrics.horizontalAdvance(tick_text(chart, t)) for t in axes.y) + 14
    top = 18.0
    right = width - (44.0 if not axes.y2 else 20 + max(tick_metrics.horizontalAdvance(tick_text(chart, t))
                                                        for t in axes.y2))
    entries = _legend_entries(chart, axes)
    legend_rows = _legend_rows(entries, tick_metrics, width - 80)
    row_h = tick_metrics.height() + 8
    bottom = height - (34 + label_h + 10) - row_h * len(legend_rows) - 4  # x ticks, x title, legend rows
    plot = QRectF(left, top, right - left, bottom - top)
    if plot.height() < LOW_PLOT_PX:  # a low plot: fewer, further-apart ticks
        axes = chart_axes(chart, y_ticks=4)
    x_lo, x_hi = axes.x[0], axes.x[-1]
    y_lo, y_hi = axes.y[0], axes.y[-1]

    def fx(x: float) -> float:
        if chart.x_log2:
            span = math.log2(x_hi) - math.log2(x_lo) or 1.0
            return plot.left() + (math.log2(max(x, x_lo)) - math.log2(x_lo)) / span * plot.width()
        return plot.left() + (x - x_lo) / ((x_hi - x_lo) or 1.0) * plot.width()

    def fy(y: float, right_axis: bool = False) -> float:
        lo, hi = (axes.y2[0], axes.y2[-1]) if right_axis else (y_lo, y_hi)
        return plot.bottom() - (y - lo) / ((hi - lo) or 1.0) * plot.height()

    # grid and ticks
    p.setFont(tick_font)
    for t in axes.y:
        y = fy(t)
        p.setPen(QPen(QColor("#e3e6ea"), 1))
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(0, y - 15, plot.left() - 8, 30),
                   int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), tick_text(chart, t))
    right_colour = QColor(COLORS[chart.series[min(axes.on_right)].role]) if axes.on_right else QColor("#333333")
    for t in axes.y2:  # in the colour of the series it belongs to
        p.setPen(right_colour)
        p.drawText(QRectF(plot.right() + 8, fy(t, True) - 15, width - plot.right() - 8, 30),
                   int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), tick_text(chart, t))
    for t in axes.x:
        x = fx(t)
        p.setPen(QPen(QColor("#e3e6ea"), 1))
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(x - 60, plot.bottom() + 4, 120, 30), int(Qt.AlignmentFlag.AlignHCenter),
                   tick_text(chart, t))
    p.setPen(QPen(QColor("#555555"), 2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(plot)
    # axis titles
    p.setFont(label_font)
    p.setPen(QColor("#222222"))
    p.drawText(QRectF(plot.left(), plot.bottom() + 34, plot.width(), label_h + 4),
               int(Qt.AlignmentFlag.AlignHCenter), chart.x_label)
    # the y title may be longer than the (low) plot is tall: centred on the plot, it may reach above and below it,
    # within the image
    span = min(height - 8.0, max(plot.height(), QFontMetricsF(label_font).horizontalAdvance(chart.y_label) + 8))
    centre = min(max(plot.center().y(), 4 + span / 2), height - 4 - span / 2)
    p.save()
    p.translate(24, centre)
    p.rotate(-90)
    p.drawText(QRectF(-span / 2, -label_h / 2, span, label_h + 4), int(Qt.AlignmentFlag.AlignHCenter), chart.y_label)
    p.restore()
    # series
    p.setClipRect(plot.adjusted(-2, -2, 2, 2))
    for i, s in enumerate(chart.series):  # ranges first, under every line
        if len(s.band) >= 2:
            on_right = i in axes.on_right
            band = QPainterPath()
            band.moveTo(QPointF(fx(s.band[0][0]), fy(s.band[0][2], on_right)))
            for x, _, hi in s.band[1:]:
                band.lineTo(QPointF(fx(x), fy(hi, on_right)))
            for x, lo, _ in reversed(s.band):
                band.lineTo(QPointF(fx(x), fy(lo, on_right)))
            band.closeSubpath()
            fill = QColor(COLORS[s.role])
            fill.setAlpha(45)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawPath(band)
    for i, s in enumerate(chart.series):
        points = [QPointF(fx(x), fy(y, i in axes.on_right)) for x, y in s.points]
        path = QPainterPath()
        for k, pt in enumerate(points):
            if k == 0:
                path.moveTo(pt)
            else:
                path.lineTo(pt)
        pen = QPen(QColor(COLORS[s.role]), 4)
        if s.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        p.setBrush(QColor(COLORS[s.role]))
        for pt in points if len(points) <= 16 else ():  # dots only where they say something
            p.drawEllipse(pt, 4, 4)
    # markers
    for m in chart.markers:
        color = QColor(COLORS[m.role])
        pen = QPen(color, 3, Qt.PenStyle.DotLine)
        p.setPen(pen)
        if m.x is not None and m.y is None:
            p.drawLine(QPointF(fx(m.x), plot.top()), QPointF(fx(m.x), plot.bottom()))
        elif m.y is not None and m.x is None:
            p.drawLine(QPointF(plot.left(), fy(m.y)), QPointF(plot.right(), fy(m.y)))
        elif m.x is not None and m.y is not None:
            p.setPen(QPen(color, 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(fx(m.x), fy(m.y)), 13, 13)
    p.setClipping(False)
    # legend under the axis title, off the data whatever its shape
    p.setFont(tick_font)
    y = plot.bottom() + 34 + label_h + 10
    for row in legend_rows:
        row_w = sum(w for _, w in row)
        x = (width - row_w) / 2
        for (label, colour, style), w in row:
            _legend_symbol(p, QPointF(x + 22, y + row_h / 2), colour, style)
            p.setPen(QColor("#222222"))
            p.drawText(QRectF(x + 50, y, w - 50, row_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                       label)
            x += w
        y += row_h


LegendEntry = tuple[str, str, Qt.PenStyle | None]  # label, colour, line style (None: a circle)


def _legend_entries(chart: ChartData, axes: Axes) -> list[LegendEntry]:
    """One entry per series (" →": read it on the right-hand axis) and per marker: a line marker shows as a
    dotted line, a point marker as the circle drawn on the chart."""
    entries: list[LegendEntry] = [
        (s.label + (" →" if i in axes.on_right else ""), COLORS[s.role],
         Qt.PenStyle.DashLine if s.dashed else Qt.PenStyle.SolidLine) for i, s in enumerate(chart.series)]
    entries += [(m.label, COLORS[m.role], Qt.PenStyle.DotLine if (m.x is None) != (m.y is None) else None)
                for m in chart.markers]
    return entries


def _legend_rows(entries: list[LegendEntry], metrics: QFontMetricsF, width: float) -> list[list[tuple[LegendEntry, float]]]:
    """Entries flowed into rows no wider than ``width``, each with the width it takes."""
    rows: list[list[tuple[LegendEntry, float]]] = [[]]
    used = 0.0
    for entry in entries:
        w = 50 + metrics.horizontalAdvance(entry[0]) + 36
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0.0
        rows[-1].append((entry, w))
        used += w
    return rows if rows[0] else []


def _legend_symbol(p: QPainter, at: QPointF, colour: str, style: Qt.PenStyle | None) -> None:
    if style is None:
        p.setPen(QPen(QColor(colour), 3))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(at, 11, 11)
    else:
        p.setPen(QPen(QColor(colour), 4, style))
        p.drawLine(QPointF(at.x() - 18, at.y()), QPointF(at.x() + 18, at.y()))


def write_chart_png(chart: ChartData, path: str | os.PathLike[str]) -> Path:
    target = Path(path)
    write_bytes_atomic(target, render_chart_png(chart))
    return target
