"""Paint the memo's chart data (``advisor.plan.charts.ChartData``) to PNG, offscreen, with QPainter.

A plain line chart: title, axes with round tick values and unit-bearing titles, grid, one polyline per
series, markers (the knee as a dot, the SLO as a horizontal line, the break-even month as a vertical line),
and a legend. Same look in both languages: a CJK family follows the Latin one so Chinese labels never print
as boxes. No widget and no display is needed (QImage + QPainter under the offscreen platform).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPainterPath, QPen

from advisor.atomic import write_bytes_atomic
from advisor.plan.charts import ChartData
from advisor.units import format_compact

WIDTH, HEIGHT = 1200, 600  # pixels; printed 16 cm wide this is about 190 dpi, labels about 8 pt
COLORS = {"primary": "#1f77b4", "secondary": "#d62728", "tertiary": "#2ca02c", "measured": "#ff7f0e"}


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


def _paint(p: QPainter, chart: ChartData, width: int, height: int) -> None:
    title_font, label_font, tick_font = _font(32, bold=True), _font(27), _font(24)

    def _fmt(v: float) -> str:  # tick numbers the way the chart's language counts (20万 in Chinese, 200k in English)
        return format_compact(v, chart.lang)

    tick_metrics = QFontMetricsF(tick_font)
    label_h = QFontMetricsF(label_font).height()

    xs = [x for s in chart.series for x, _ in s.points] + [m.x for m in chart.markers if m.x is not None]
    ys = [y for s in chart.series for _, y in s.points] + [m.y for m in chart.markers if m.y is not None]
    ys += [hi for s in chart.series for _, _, hi in s.band]
    y_ticks = nice_ticks(min(0.0, min(ys)), max(ys) * 1.05)
    if chart.x_log2:
        lo = max(1.0, min(xs))
        hi = max(xs)
        x_ticks = [2.0 ** k for k in range(int(math.floor(math.log2(lo))), int(math.ceil(math.log2(hi))) + 1)]
    else:
        x_ticks = nice_ticks(min(0.0, min(xs)), max(xs))
    x_lo, x_hi = x_ticks[0], x_ticks[-1]
    y_lo, y_hi = y_ticks[0], y_ticks[-1]

    left = 40 + label_h + max(tick_metrics.horizontalAdvance(_fmt(t)) for t in y_ticks) + 14
    top = 70.0
    right = width - 44.0  # room for the last tick label
    legend_rows = len(chart.series) + sum(1 for m in chart.markers)
    bottom = height - (label_h * 2 + 30)
    plot = QRectF(left, top, right - left, bottom - top)

    def fx(x: float) -> float:
        if chart.x_log2:
            span = math.log2(x_hi) - math.log2(x_lo) or 1.0
            return plot.left() + (math.log2(max(x, x_lo)) - math.log2(x_lo)) / span * plot.width()
        return plot.left() + (x - x_lo) / ((x_hi - x_lo) or 1.0) * plot.width()

    def fy(y: float) -> float:
        return plot.bottom() - (y - y_lo) / ((y_hi - y_lo) or 1.0) * plot.height()

    # title
    p.setFont(title_font)
    p.setPen(QColor("#1f3a5f"))
    p.drawText(QRectF(0, 10, width, 50), int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
               chart.title)
    # grid and ticks
    p.setFont(tick_font)
    for t in y_ticks:
        y = fy(t)
        p.setPen(QPen(QColor("#e3e6ea"), 1))
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(0, y - 15, plot.left() - 8, 30),
                   int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), _fmt(t))
    for t in x_ticks:
        x = fx(t)
        p.setPen(QPen(QColor("#e3e6ea"), 1))
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        p.setPen(QColor("#333333"))
        p.drawText(QRectF(x - 60, plot.bottom() + 4, 120, 30), int(Qt.AlignmentFlag.AlignHCenter), _fmt(t))
    p.setPen(QPen(QColor("#555555"), 2))
    p.drawRect(plot)
    # axis titles
    p.setFont(label_font)
    p.setPen(QColor("#222222"))
    p.drawText(QRectF(plot.left(), plot.bottom() + 34, plot.width(), label_h + 4),
               int(Qt.AlignmentFlag.AlignHCenter), chart.x_label)
    p.save()
    p.translate(24, plot.center().y())
    p.rotate(-90)
    p.drawText(QRectF(-plot.height() / 2, -label_h / 2, plot.height(), label_h + 4),
               int(Qt.AlignmentFlag.AlignHCenter), chart.y_label)
    p.restore()
    # series
    p.setClipRect(plot.adjusted(-2, -2, 2, 2))
    for s in chart.series:  # ranges first, under every line
        if len(s.band) >= 2:
            band = QPainterPath()
            band.moveTo(QPointF(fx(s.band[0][0]), fy(s.band[0][2])))
            for x, _, hi in s.band[1:]:
                band.lineTo(QPointF(fx(x), fy(hi)))
            for x, lo, _ in reversed(s.band):
                band.lineTo(QPointF(fx(x), fy(lo)))
            band.closeSubpath()
            fill = QColor(COLORS[s.role])
            fill.setAlpha(45)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawPath(band)
    for s in chart.series:
        path = QPainterPath()
        for i, (x, y) in enumerate(s.points):
            pt = QPointF(fx(x), fy(y))
            if i == 0:
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
        for x, y in s.points if len(s.points) <= 16 else ():  # dots only where they say something
            p.drawEllipse(QPointF(fx(x), fy(y)), 4, 4)
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
    # legend, top-left inside the plot
    p.setFont(tick_font)
    row_h = tick_metrics.height() + 6
    entries: list[tuple[str, str, Qt.PenStyle | None]] = [
        (s.label, COLORS[s.role], Qt.PenStyle.DashLine if s.dashed else Qt.PenStyle.SolidLine) for s in chart.series]
    # a line marker shows as a dotted line, a point marker (None) as the circle drawn on the chart
    entries += [(m.label, COLORS[m.role], Qt.PenStyle.DotLine if (m.x is None) != (m.y is None) else None)
                for m in chart.markers]
    box_w = 60 + max(tick_metrics.horizontalAdvance(label) for label, _, _ in entries)
    box = QRectF(plot.left() + 12, plot.top() + 12, box_w, row_h * legend_rows + 10)
    p.setPen(QPen(QColor("#cccccc"), 1))
    p.setBrush(QColor(255, 255, 255, 230))
    p.drawRect(box)
    for i, (label, color, style) in enumerate(entries):
        y = box.top() + 5 + row_h * i + row_h / 2
        if style is None:
            p.setPen(QPen(QColor(color), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(QPointF(box.left() + 26, y), 11, 11)
        else:
            p.setPen(QPen(QColor(color), 4, style))
            p.drawLine(QPointF(box.left() + 8, y), QPointF(box.left() + 44, y))
        p.setPen(QColor("#222222"))
        p.drawText(QRectF(box.left() + 52, y - row_h / 2, box_w, row_h),
                   int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), label)


def write_chart_png(chart: ChartData, path: str | os.PathLike[str]) -> Path:
    target = Path(path)
    write_bytes_atomic(target, render_chart_png(chart))
    return target


def write_memo_charts(charts: Mapping[str, ChartData], folder: str | os.PathLike[str]) -> dict[str, Path]:
    """One PNG per chart (``<id>.png``) in ``folder``; returns chart id → file."""
    out = {}
    for key, chart in charts.items():
        out[key] = write_chart_png(chart, Path(folder) / f"{key}.png")
    return out
