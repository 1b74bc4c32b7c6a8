"""2–4 benchmark runs overlaid on the same axes (TTFT, TPOT, throughput and peak GPU memory vs concurrency), and
the table of differences. Both show ``advisor.bench.history.compare_runs`` output; nothing is computed here.

Curves are created once (four per chart, one per run slot) and fed with ``setData``; log2 x axis (levels double).
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QHeaderView, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from advisor.bench.quality.memo import quality_memo_lines
from advisor.i18n import current_language, tr
from advisor.units import format_bytes
from ui.widgets.lazy_charts import LazyCharts, LazyChartsOwner
from ui.widgets.level_axis import LevelAxis

COLORS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2")
SYMBOLS = ("o", "s", "t", "d")
CHARTS = (("ttft_p50_ms", "history.plot.ttft", "ms"), ("tpot_p50_ms", "history.plot.tpot", "ms"),
          ("output_tokens_per_s", "history.plot.throughput", "tok/s"),
          ("gpu_memory_peak_bytes", "history.plot.memory", "GiB"))


def run_label(run: dict[str, Any], index: int) -> str:
    name = run.get("label") or run.get("model") or run["run_id"]
    return f"{chr(ord('A') + index)}: {name} ({run['run_id'][-6:]})"


def _is_dark(widget: QWidget) -> bool:
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128


class ComparePlot(LazyChartsOwner, QWidget):
    LAZY_CHART_ATTRS = frozenset({"plots", "curves"})

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget()  # its plots are made when first shown or read (lazy_charts.py)
        self._charts = LazyCharts(self.view, self._build_charts)
        # one legend for the four charts, above them (inside a chart it would hide points)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.legend)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.caption)
        self.comparison: dict[str, Any] | None = None
        self.retranslate()

    def _build_charts(self) -> None:
        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[str, list[pg.PlotDataItem]] = {}
        for i, (key, _title, _unit) in enumerate(CHARTS):
            plot = self.view.addPlot(row=i // 2, col=i % 2, axisItems={"bottom": LevelAxis("bottom")})
            plot.setLogMode(x=True, y=False)
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            self.plots[key] = plot
            self.curves[key] = [
                plot.plot(pen=pg.mkPen(COLORS[k], width=2), symbol=SYMBOLS[k], symbolSize=7, symbolBrush=COLORS[k])
                for k in range(4)
            ]
        self._retranslate_charts()  # the curves are drawn by show_comparison, whose first read of them builds them

    def set_theme(self, dark: bool) -> None:
        self.view.setBackground("#1e1f22" if dark else "w")

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.type() == event.Type.PaletteChange:
            self.set_theme(_is_dark(self))
        super().changeEvent(event)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        self.set_theme(_is_dark(self))
        super().showEvent(event)

    def retranslate(self) -> None:
        if self.charts_built:
            self._retranslate_charts()
        if self.comparison is not None:
            self.show_comparison(self.comparison)

    def _retranslate_charts(self) -> None:
        for key, title, unit in CHARTS:
            self.plots[key].setTitle(tr(title))
            self.plots[key].setLabel("bottom", tr("history.plot.concurrency_axis"))
            self.plots[key].setLabel("left", unit)

    def points(self, key: str, index: int) -> tuple[np.ndarray, np.ndarray]:
        """What the curve of run ``index`` on chart ``key`` shows (tests read it)."""
        curve = self.curves[key][index]
        x, y = curve.xData, curve.yData  # as given (getData answers in log-axis coordinates)
        return (np.array([]), np.array([])) if x is None else (np.asarray(x), np.asarray(y))

    def show_comparison(self, comparison: dict[str, Any]) -> None:
        self.comparison = comparison
        levels = comparison["levels"]
        memory_seen = False
        for key, _title, _unit in CHARTS:
            self.plots[key].getAxis("bottom").set_levels(levels)
            for k, curve in enumerate(self.curves[key]):
                if k >= len(comparison["series"]):
                    curve.setData([], [])
                    continue
                values = comparison["series"][k][key]
                pts = [(c, v) for c, v in zip(levels, values, strict=True) if v is not None]
                if key == "gpu_memory_peak_bytes":
                    pts = [(c, v / 2**30) for c, v in pts]
                    memory_seen = memory_seen or bool(pts)
                x = np.array([c for c, _ in pts], dtype=float)
                y = np.array([v for _, v in pts], dtype=float)
                curve.setData(x, y)
        self.legend.setText("&nbsp;&nbsp;&nbsp;".join(
            f'<span style="color:{COLORS[k]}; font-size:large">{"●■▲◆"[k]}</span> {html.escape(run_label(run, k))}'
            for k, run in enumerate(comparison["runs"])))
        notes = list(comparison.get("notes") or [])
        if not memory_seen:
            notes.insert(0, tr("history.plot.no_memory"))
        # a scored quantization A/B stored with these runs: its sentence, as the memo says it
        notes += [f"{tr('quality.md.title')}: {line}"
                  for line in quality_memo_lines(comparison.get("quality") or [], current_language())]
        self.caption.setText("\n".join(notes))


def _cell(metric: str, value: Any) -> str:
    if value is None:
        return "–"
    if metric == "status":
        return tr(f"history.status.{value}")
    if metric == "gpu_memory_peak_bytes":
        return format_bytes(value)
    if metric in ("error_rate", "kv_cache_usage_peak"):
        return f"{value * 100:.1f}%"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


class DifferencesTable(QTableWidget):
    """One row per metric (and concurrency); one column per run; change vs the first run; the best in bold."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.setAlternatingRowColors(True)
        self.comparison: dict[str, Any] | None = None

    def retranslate(self) -> None:
        if self.comparison is not None:
            self.show_comparison(self.comparison)

    def show_comparison(self, comparison: dict[str, Any]) -> None:
        self.comparison = comparison
        runs = comparison["runs"]
        diffs = comparison["differences"]
        self.clear()
        self.setColumnCount(2 + len(runs))
        self.setRowCount(len(diffs))
        self.setHorizontalHeaderLabels([tr("history.col.metric"), tr("history.col.concurrency")]
                                       + [run_label(r, k) for k, r in enumerate(runs)])
        bold = QFont(self.font())
        bold.setBold(True)
        for row, d in enumerate(diffs):
            self.setItem(row, 0, QTableWidgetItem(tr(f"history.metric.{d['metric']}")))
            self.setItem(row, 1, QTableWidgetItem("–" if d["concurrency"] is None else str(d["concurrency"])))
            for k, value in enumerate(d["values"]):
                text = _cell(d["metric"], value)
                change = d["change"][k]
                if change is not None:
                    text += f"  ({change * 100:+.0f}%)"
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if d["best"] == k:
                    item.setFont(bold)
                if d["metric"] == "status" and value in ("failed", "degraded", "incomplete", "interrupted"):
                    item.setForeground(QBrush(QColor("#E45756")))
                self.setItem(row, 2 + k, item)
        header = self.horizontalHeader()
        for col in range(self.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents if col < 2
                                        else QHeaderView.ResizeMode.Stretch)
