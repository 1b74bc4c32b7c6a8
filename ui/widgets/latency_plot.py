"""Predicted concurrency → latency and throughput (from the simulator), with the knee marked.

Curves are created once and fed with ``setData``; log2 x axis because the levels double.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor.i18n import tr
from advisor.sizing.accuracy import likely_sentence
from advisor.sizing_curve import likely_at_requested
from advisor.units import format_count, format_ms, format_tokens_per_s
from ui.widgets.level_axis import LevelAxis
from ui.widgets.plain_log_axis import PlainLogAxis


def _values(levels: list[Any], metric: str, stat: str) -> np.ndarray:
    out = []
    for lv in levels:
        v = getattr(getattr(lv, metric), stat, None)
        out.append(np.nan if v is None else float(v))
    return np.array(out, dtype=float)


class LatencyPlot(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = pg.GraphicsLayoutWidget()
        # concurrency axes label the measured levels only where the labels fit (16 and 20 ran together)
        self.latency = self.view.addPlot(row=0, col=0, axisItems={"left": PlainLogAxis("left"), "bottom": LevelAxis("bottom")})
        self.throughput = self.view.addPlot(row=0, col=1, axisItems={"bottom": LevelAxis("bottom")})
        # log x: levels double; log y for latency: TTFT (seconds) and TPOT (tens of ms) on one chart
        self.latency.setLogMode(x=True, y=True)
        self.throughput.setLogMode(x=True, y=False)
        for plot in (self.latency, self.throughput):
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.setMenuEnabled(False)
            plot.hideButtons()
        # under the chart, not over it: inside the plot it hid the low-concurrency points
        self.legend = pg.LegendItem(colCount=2)
        self.view.addItem(self.legend, row=1, col=0)
        self.ttft_p50 = self.latency.plot(pen=pg.mkPen("#4C78A8", width=2), symbol="o", symbolSize=6, symbolBrush="#4C78A8")
        self.ttft_p95 = self.latency.plot(pen=pg.mkPen("#4C78A8", width=1, style=Qt.PenStyle.DashLine))
        self.tpot_p50 = self.latency.plot(pen=pg.mkPen("#F58518", width=2), symbol="s", symbolSize=6, symbolBrush="#F58518")
        self.tokens = self.throughput.plot(pen=pg.mkPen("#54A24B", width=2), symbol="o", symbolSize=6, symbolBrush="#54A24B")
        self.knee_lines = [pg.InfiniteLine(angle=90, pen=pg.mkPen("#E45756", width=2, style=Qt.PenStyle.DashLine)) for _ in range(2)]
        self.latency.addItem(self.knee_lines[0])
        self.throughput.addItem(self.knee_lines[1])
        for line in self.knee_lines:
            line.hide()
        # the user's own concurrency, for orientation
        self.requested_lines = [pg.InfiniteLine(angle=90, pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DotLine)) for _ in range(2)]
        self.latency.addItem(self.requested_lines[0])
        self.throughput.addItem(self.requested_lines[1])
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.caption)
        self.prediction: Any = None
        self.retranslate()

    def set_theme(self, dark: bool) -> None:
        self.view.setBackground("#1e1f22" if dark else "w")

    def retranslate(self) -> None:
        self.latency.setTitle(tr("ui.curve.latency_title"))
        self.throughput.setTitle(tr("ui.curve.throughput_title"))
        for plot in (self.latency, self.throughput):
            plot.setLabel("bottom", tr("ui.curve.concurrency_axis"))
        self.latency.setLabel("left", "ms")
        self.throughput.setLabel("left", "tok/s")
        self.legend.clear()
        self.legend.addItem(self.ttft_p50, tr("ui.curve.ttft_p50"))
        self.legend.addItem(self.ttft_p95, tr("ui.curve.ttft_p95"))
        self.legend.addItem(self.tpot_p50, tr("ui.curve.tpot_p50"))
        if self.prediction is not None:
            self.set_prediction(self.prediction)

    def set_requested(self, concurrency: int) -> None:
        for line in self.requested_lines:
            line.setValue(np.log10(max(concurrency, 1)))

    def set_unavailable(self, text: str) -> None:
        self.prediction = None
        for curve in (self.ttft_p50, self.ttft_p95, self.tpot_p50, self.tokens):
            curve.setData([], [])
        for line in self.knee_lines:
            line.hide()
        self.caption.setText(text)

    def set_prediction(self, prediction: Any) -> None:
        self.prediction = prediction
        levels = [lv for lv in prediction.levels if lv.concurrency]
        x = np.array([lv.concurrency for lv in levels], dtype=float)
        for plot in (self.latency, self.throughput):
            plot.getAxis("bottom").set_levels(x)
        self.ttft_p50.setData(x, _values(levels, "ttft_ms", "p50"))
        self.ttft_p95.setData(x, _values(levels, "ttft_ms", "p95"))
        self.tpot_p50.setData(x, _values(levels, "tpot_ms", "p50"))
        self.tokens.setData(x, np.array([lv.output_tokens_per_s for lv in levels], dtype=float))
        knee = prediction.knee
        if knee.concurrency:
            at = next((lv for lv in levels if lv.concurrency == knee.concurrency), None)
            for line in self.knee_lines:
                line.setValue(np.log10(knee.concurrency))
                line.show()
            reason = tr(f"ui.curve.reason.{knee.reason}") if knee.reason in ("kv_cache", "queueing", "compute") else knee.reason
            self.caption.setText(
                self._workload_lines(prediction, levels)
                + tr(
                    "ui.curve.knee",
                    n=format_count(knee.concurrency),
                    reason=reason,
                    ttft=format_ms(at.ttft_ms.p50 if at else None),
                    tpot=format_ms(at.tpot_ms.p50 if at else None),
                    tokens=format_tokens_per_s(at.output_tokens_per_s if at else None),
                )
                + "\n"
                + tr("ui.curve.simulated")
            )
        else:
            for line in self.knee_lines:
                line.hide()
            self.caption.setText(self._workload_lines(prediction, levels) + tr("ui.curve.no_knee") + "\n" + tr("ui.curve.simulated"))

    @staticmethod
    def _workload_lines(prediction: Any, levels: list[Any]) -> str:
        """What was simulated, and the figures at the user's own concurrency (the overview's steady state)."""
        eng = getattr(prediction, "engine", {}) or {}
        if "prompt_tokens" not in eng:
            return ""
        text = tr(
            "sizing.curve.assumptions", prompt=format_count(eng["prompt_tokens"]), output=format_count(eng["output_tokens"]),
            engine=tr(f"sizing.engine_profile.{eng.get('engine_profile', 'vllm')}"),
            overhead=format_ms(eng.get("request_overhead_ms", 0.0)),
        ) + (tr("sizing.curve.prefix", prefix=format_count(eng["prefix_tokens"])) if eng.get("prefix_tokens") else "")
        text += "\n"  # fmt: skip
        at = next((lv for lv in levels if lv.concurrency == eng.get("requested")), None)
        if at is not None:
            text += tr(
                "sizing.curve.at_requested", n=format_count(at.concurrency), ttft=format_ms(at.ttft_ms.p50),
                tpot=format_ms(at.tpot_ms.p50), tokens=format_tokens_per_s(at.output_tokens_per_s),
            ) + "\n"  # fmt: skip
            # the range a newcomer can plan with, for the regime the requested load is in (below or past the knee)
            _at, likely = likely_at_requested(prediction)  # the overview states the same (issue #28)
            if sentence := likely_sentence(likely, concurrency=at.concurrency):
                text += sentence + "\n"
        return text
