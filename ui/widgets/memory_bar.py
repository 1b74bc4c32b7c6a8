"""Stacked horizontal bar per GPU: weights / KV cache / activations / CUDA context & graphs / held back / free.

Items are created once and updated with ``setOpts`` (pyqtgraph's own advice); the legend is a row of
labels that also carry each number and its formula as a tooltip.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from advisor.units import GiB, format_gib

SEGMENTS: tuple[tuple[str, str], ...] = (
    ("weights", "#4C78A8"),
    ("kv_cache", "#F58518"),
    ("activations", "#54A24B"),
    ("cuda", "#B279A2"),
    ("held_back", "#D9CFC1"),  # what vLLM's --gpu-memory-utilization never hands out
    ("free", "#BAB0AC"),
)
MAX_ROWS = 8  # beyond this one bar stands for "each GPU"


@dataclass
class Segment:
    key: str
    bytes: int
    label: str
    tooltip: str


class MemoryBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setFixedHeight(self._height(1))
        self.plot.getPlotItem().showGrid(x=True, y=False, alpha=0.25)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for key, color in SEGMENTS:
            item = pg.BarGraphItem(x0=[0], y=[0], height=0.6, width=[0], brush=QColor(color), pen=pg.mkPen(None))
            self.plot.addItem(item)
            self.bars[key] = item
        self.capacity_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#E45756", width=2, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.capacity_line)
        self.legend_labels: dict[str, QLabel] = {}
        legend = QHBoxLayout()
        legend.setSpacing(14)
        for key, color in SEGMENTS:
            label = QLabel()
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setProperty("swatch", color)
            self.legend_labels[key] = label
            legend.addWidget(label)
        legend.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addLayout(legend)
        self.segments: list[Segment] = []

    @staticmethod
    def _height(rows: int) -> int:
        return 70 + 26 * rows  # axis + one thin bar per GPU; a tall single bar wastes the page

    def set_theme(self, dark: bool) -> None:
        self.plot.setBackground("#1e1f22" if dark else "w")
        fg = "#dfe1e5" if dark else "#333"
        for axis in ("left", "bottom"):
            ax = self.plot.getPlotItem().getAxis(axis)
            ax.setPen(pg.mkPen(fg))
            ax.setTextPen(pg.mkPen(fg))

    def set_data(self, segments: list[Segment], gpus: int, total_bytes: int, axis_label: str, row_label: str) -> None:
        """One row per GPU (they hold equal shards under tensor parallelism)."""
        self.segments = segments
        rows = min(gpus, MAX_ROWS)
        y = np.arange(rows, dtype=float)
        x0 = np.zeros(rows)
        for seg in segments:
            width = np.full(rows, max(seg.bytes, 0) / GiB)
            self.bars[seg.key].setOpts(x0=x0.copy(), y=y, width=width, height=0.6)
            x0 = x0 + width
        for key in self.bars:
            if key not in {s.key for s in segments}:
                self.bars[key].setOpts(x0=np.zeros(rows), y=y, width=np.zeros(rows), height=0.6)
                self.legend_labels[key].setText("")  # no stale figure from an earlier result in the legend
        self.capacity_line.setValue(total_bytes / GiB)
        self.plot.setFixedHeight(self._height(rows))
        axis = self.plot.getPlotItem().getAxis("left")
        if gpus > MAX_ROWS:
            ticks = [(0.0, row_label.format(index="0…" + str(gpus - 1)))]
        else:
            ticks = [(float(i), row_label.format(index=i)) for i in range(rows)]
        axis.setTicks([ticks])
        self.plot.getPlotItem().setLabel("bottom", axis_label)
        self.plot.setXRange(0, max(total_bytes, sum(max(s.bytes, 0) for s in segments)) / GiB * 1.02, padding=0)
        self.plot.setYRange(-0.5, rows - 0.5, padding=0.05)
        for seg in segments:
            label = self.legend_labels[seg.key]
            color = label.property("swatch")
            label.setText(f'<span style="color:{color}">■</span> {seg.label} <b>{format_gib(seg.bytes)}</b>')
            label.setToolTip(seg.tooltip)
