"""Cumulative cost over the project's months: cloud against bare metal, each as a line (middle of the
range) with its range as a band, the break-even month as a dashed line. Hovering shows the values of the
month under the pointer.

The data is the memo's own chart (:func:`advisor.plan.charts.cost_chart`), so the screen and the memo can
never disagree. Items are created once and fed with ``setData`` (what-if changes update them in place).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor.i18n import current_language, tr
from advisor.units import format_compact
from ui.widgets.lazy_charts import LazyCharts, LazyChartsOwner

CHART_HEIGHT = 400  # px
_COLOURS = {"primary": "#4C78A8", "secondary": "#F58518", "tertiary": "#E45756", "measured": "#54A24B"}


def _money(value: float) -> str:
    """A chart-sized amount the way the UI language counts (¥20万 in Chinese, 200k in English), as in the memo."""
    return format_compact(value, current_language())


class _MoneyAxis(pg.AxisItem):
    """Tick labels in the UI language's way of counting (20万 / 200k), not pyqtgraph's SI prefixes."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [_money(v * scale) for v in values]


class CostChart(LazyChartsOwner, QWidget):
    LAZY_CHART_ATTRS = frozenset({"plot", "legend", "lines", "bands", "break_even", "cursor", "hover"})

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # the view now, its plot when first shown or read (lazy_charts.py): a session that never reaches a result
        # never makes it; PlotWidget would make the plot at once
        self.view = pg.GraphicsView()
        self.view.enableMouse(False)  # as PlotWidget does
        # A fixed height: a what-if that adds or drops findings above re-lays out the result screen, and a
        # stretchable chart absorbed each intermediate size (five pyqtgraph re-layouts, ~20 ms, per what-if).
        self.view.setFixedHeight(CHART_HEIGHT)
        self._charts = LazyCharts(self.view, self._build_chart)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setObjectName("costCaption")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.caption)
        self.chart: Any = None  # advisor.plan.charts.ChartData
        self._labels: tuple[str, ...] = ()
        self._legend: tuple[tuple[str, str], ...] = ()
        self.hover_text = ""
        self.view.scene().sigMouseMoved.connect(self._on_mouse_moved)

    def _build_chart(self) -> None:
        self.plot = pg.PlotItem(axisItems={"left": _MoneyAxis(orientation="left")})
        self.view.setCentralItem(self.plot)
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setMouseEnabled(x=False, y=False)
        self.legend = self.plot.addLegend(offset=(10, 10))
        self.lines: dict[str, pg.PlotDataItem] = {}
        self.bands: dict[str, tuple[pg.PlotDataItem, pg.PlotDataItem, pg.FillBetweenItem]] = {}
        for role in ("primary", "secondary"):
            colour = _COLOURS[role]
            line = self.plot.plot(pen=pg.mkPen(colour, width=2))
            low = pg.PlotDataItem(pen=pg.mkPen(None))
            high = pg.PlotDataItem(pen=pg.mkPen(None))
            fill = pg.FillBetweenItem(low, high, brush=pg.mkBrush(pg.mkColor(colour).red(), pg.mkColor(colour).green(),
                                                                  pg.mkColor(colour).blue(), 50))  # fmt: skip
            for item in (low, high, fill):
                self.plot.addItem(item)
            self.lines[role] = line
            self.bands[role] = (low, high, fill)
        self.break_even = pg.InfiniteLine(angle=90, pen=pg.mkPen(_COLOURS["tertiary"], width=2, style=Qt.PenStyle.DashLine),
                                          label="", labelOpts={"position": 0.9, "color": _COLOURS["tertiary"]})  # fmt: skip
        self.plot.addItem(self.break_even)
        self.break_even.hide()
        self.cursor = pg.InfiniteLine(angle=90, pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DotLine))
        self.plot.addItem(self.cursor, ignoreBounds=True)
        self.cursor.hide()
        self.hover = pg.TextItem(anchor=(0, 1), color="#333333", fill=pg.mkBrush(255, 255, 255, 220))
        self.plot.addItem(self.hover, ignoreBounds=True)
        self.hover.hide()
        # the figures are drawn by set_chart, whose first read of the plot builds it (an empty chart draws nothing)

    def set_theme(self, dark: bool) -> None:
        self.view.setBackground("#1e1f22" if dark else "w")

    def set_chart(self, chart: Any) -> None:
        """Show a ``ChartData`` (id ``cost``) or nothing (None: no cost data for this plan)."""
        if chart is not None and chart == self.chart:
            return  # same figures (a what-if that did not change the costs): nothing to repaint
        if chart is None and not self.charts_built:  # nothing to draw on a chart not made yet: only say so
            self.chart = None
            self.caption.setText(tr("wizard.result.no_costs"))
            return
        if chart is not None and (self.chart is None or chart.lang != self.chart.lang):
            axis = self.plot.getAxis("left")
            axis.picture = None  # its cached tick labels were written in the other language
            axis.update()
        self.chart = chart
        self.hover.hide()
        self.cursor.hide()
        if chart is None:
            self.legend.clear()
            self._legend = ()
            for role in self.lines:
                self._clear(role)
            self.break_even.hide()
            self.caption.setText(tr("wizard.result.no_costs"))
            return
        labels = (chart.title, chart.x_label, chart.y_label)
        if labels != self._labels:  # pyqtgraph re-lays out its labels on every set: only when they change
            self._labels = labels
            self.plot.setTitle(chart.title)
            self.plot.setLabel("bottom", chart.x_label)
            self.plot.setLabel("left", chart.y_label)
        legend = tuple((s.role, s.label) for s in chart.series)
        if legend != self._legend:
            self._legend = legend
            self.legend.clear()
            done = set()
            for role, label in legend:
                role = role if role in self.lines else "primary"
                if role not in done:
                    done.add(role)
                    self.legend.addItem(self.lines[role], label)
        shown = set()
        for series in chart.series:
            role = series.role if series.role in self.lines else "primary"
            if role in shown:
                continue
            shown.add(role)
            pts = np.array(series.points, dtype=float)
            self.lines[role].setData(pts[:, 0], pts[:, 1])
            low, high, fill = self.bands[role]
            if series.band:
                band = np.array(series.band, dtype=float)
                low.setData(band[:, 0], band[:, 1])
                high.setData(band[:, 0], band[:, 2])
                fill.show()
            else:
                low.setData([], [])
                high.setData([], [])
                fill.hide()
        for role in set(self.lines) - shown:
            self._clear(role)
        marker = next((m for m in chart.markers if m.x is not None), None)
        if marker is not None:
            self.break_even.setValue(marker.x)
            self.break_even.label.setFormat(marker.label)
            self.break_even.show()
        else:
            self.break_even.hide()
        if self.caption.text() != chart.caption:
            self.caption.setText(chart.caption)
        self.plot.enableAutoRange()

    def _clear(self, role: str) -> None:
        self.lines[role].setData([], [])
        low, high, fill = self.bands[role]
        low.setData([], [])
        high.setData([], [])
        fill.hide()

    # -- hover ---------------------------------------------------------------------------------------------
    def values_at(self, month: float) -> list[tuple[str, float, float, float]]:
        """(series label, middle, low, high) at the month nearest ``month``, for each series."""
        out = []
        if self.chart is None:
            return out
        for series in self.chart.series:
            if not series.points:
                continue
            xs = np.array([p[0] for p in series.points])
            i = int(np.abs(xs - month).argmin())
            mid = series.points[i][1]
            low, high = (series.band[i][1], series.band[i][2]) if i < len(series.band) else (mid, mid)
            out.append((series.label, mid, low, high))
        return out

    def describe(self, month: float) -> str:
        if self.chart is None or not self.chart.series or not self.chart.series[0].points:
            return ""
        xs = np.array([p[0] for p in self.chart.series[0].points])
        m = int(xs[int(np.abs(xs - month).argmin())])
        lines = [tr("wizard.chart.month", month=m)]
        for label, mid, low, high in self.values_at(month):
            lines.append(
                tr("wizard.chart.value", series=label, mid=_money(mid), low=_money(low), high=_money(high))
            )
        return "\n".join(lines)

    def show_hover(self, month: float) -> str:
        self.hover_text = self.describe(month)
        if not self.hover_text:
            return ""
        values = self.values_at(month)
        top = max(v[3] for v in values) if values else 0.0
        self.cursor.setValue(month)
        self.cursor.show()
        self.hover.setText(self.hover_text)
        self.hover.setPos(QPointF(month, top))
        self.hover.show()
        return self.hover_text

    def _on_mouse_moved(self, pos: QPointF) -> None:
        if self.chart is None or not self.charts_built or not self.plot.sceneBoundingRect().contains(pos):
            self.hover.hide()
            self.cursor.hide()
            return
        point = self.plot.vb.mapSceneToView(pos)
        self.show_hover(point.x())
