"""The result of one benchmark run: status, knee with its evidence, SLO verdict, client-bound warnings, the step
table (knee row highlighted), measured vs predicted curve, peak GPU memory and "copy as Markdown".

Everything it says is computed by ``advisor.bench.report`` (Qt-free); this widget only lays it out.
``ResultView.show_result(result_dict | run_id)`` — a run id is read from the bench store (default path, or
``db_path``). ``set_prediction(prediction)`` draws the predictor's curve beside the measurement; with a
``TaskRunner`` and a result carrying ``setup`` (model/gpu/weights/gpus/workload) the view computes it itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor import run_prediction
from advisor.bench import report
from advisor.bench.provenance import at_real_speed
from advisor.i18n import tr
from advisor.units import format_gib
from ui.widgets.lazy_charts import LazyCharts, LazyChartsOwner
from ui.widgets.level_axis import LevelAxis
from ui.widgets.plain_log_axis import PlainLogAxis
from ui.widgets.stale import StaleMark

KNEE_COLOR = "#E45756"
MEASURED = "#4C78A8"
PREDICTED = "#9D755D"
TPOT_COLOR = "#F58518"
THROUGHPUT_COLOR = "#54A24B"
COLUMNS = ("concurrency", "ok", "failed", "ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "tok_s", "note")


def _cell(value: float | int | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, int):
        return str(value)
    return f"{value:.{digits}f}"


class ResultView(LazyChartsOwner, QWidget):
    LAZY_CHART_ATTRS = frozenset({"lat_plot", "thr_plot", "legend", "m_ttft", "m_tpot", "p_ttft", "p_tpot",
                                  "m_thr", "p_thr", "knee_lines"})  # fmt: skip
    shown = Signal()  # a result is on screen (tests wait on it)
    prediction_shown = Signal()

    def __init__(
        self, runner: Any = None, parent: QWidget | None = None, *, db_path: str | Path | None = None
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.db_path = db_path
        self.result: dict[str, Any] | None = None
        self.prediction: Any = None
        self.markdown = ""

        self.status = QLabel()
        self.status.setObjectName("benchResultStatus")
        # wraps: the time-scale note is one long line, which unwrapped widened the window to 1,672 px (#26)
        self.status.setWordWrap(True)
        self.simulated_badge = QLabel("simulated · 模拟")
        self.simulated_badge.setStyleSheet(
            "QLabel { background: #F2CF5B; color: #222; padding: 1px 6px; border-radius: 3px; }"
        )
        self.simulated_badge.hide()
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_markdown)
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        # at the top of the row: a wrapped two-line status stretched the badge into a tall block
        top.addWidget(self.simulated_badge, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)

        self.knee = QLabel()
        self.knee.setWordWrap(True)
        self.knee.setStyleSheet("QLabel { font-weight: bold; }")
        self.evidence = QLabel()
        self.evidence.setWordWrap(True)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.client_note = QLabel()
        self.client_note.setWordWrap(True)
        self.client_note.setStyleSheet("QLabel { color: #C0392B; }")
        self.client_note.hide()
        self.memory = QLabel()
        self.memory.setWordWrap(True)
        for label in (self.knee, self.evidence, self.verdict, self.client_note, self.memory, self.status):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.plots = pg.GraphicsLayoutWidget()  # its plots are made when first shown or read (lazy_charts.py)
        self._charts = LazyCharts(self.plots, self._build_charts)
        self.plot_caption = QLabel()
        self.plot_caption.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.knee)
        layout.addWidget(self.evidence)
        layout.addWidget(self.verdict)
        layout.addWidget(self.client_note)
        layout.addWidget(self.memory)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.plots, 3)
        layout.addWidget(self.plot_caption)
        # beside inputs changed since this run, the figures are greyed and say so (they stay the run's own record)
        self.stale = StaleMark([self.knee, self.evidence, self.verdict, self.client_note, self.memory, self.table,
                                self.plots, self.plot_caption])  # fmt: skip
        layout.insertWidget(1, self.stale.note)
        self.retranslate()

    def _build_charts(self) -> None:
        # concurrency axes label the measured levels only where the labels fit (16 and 20 ran together)
        self.lat_plot = self.plots.addPlot(row=0, col=0, axisItems={"left": PlainLogAxis("left"), "bottom": LevelAxis("bottom")})
        self.thr_plot = self.plots.addPlot(row=0, col=1, axisItems={"bottom": LevelAxis("bottom")})
        self.lat_plot.setLogMode(x=True, y=True)
        self.thr_plot.setLogMode(x=True, y=False)
        for plot in (self.lat_plot, self.thr_plot):
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.setMenuEnabled(False)
            plot.hideButtons()
        # under the chart, not over it: inside the plot it hid the low-concurrency points
        self.legend = pg.LegendItem(colCount=2)
        self.plots.addItem(self.legend, row=1, col=0)
        sym = {"symbol": "o", "symbolSize": 6}
        self.m_ttft = self.lat_plot.plot(pen=pg.mkPen(MEASURED, width=2), symbolBrush=MEASURED, **sym)
        self.m_tpot = self.lat_plot.plot(
            pen=pg.mkPen(TPOT_COLOR, width=2), symbolBrush=TPOT_COLOR, symbol="s", symbolSize=6
        )
        self.p_ttft = self.lat_plot.plot(pen=pg.mkPen(MEASURED, width=1, style=Qt.PenStyle.DashLine))
        self.p_tpot = self.lat_plot.plot(pen=pg.mkPen(TPOT_COLOR, width=1, style=Qt.PenStyle.DashLine))
        self.m_thr = self.thr_plot.plot(pen=pg.mkPen(THROUGHPUT_COLOR, width=2), symbolBrush=THROUGHPUT_COLOR, **sym)
        self.p_thr = self.thr_plot.plot(pen=pg.mkPen(PREDICTED, width=1, style=Qt.PenStyle.DashLine))
        self.knee_lines = [pg.InfiniteLine(angle=90, pen=pg.mkPen(KNEE_COLOR, width=2, style=Qt.PenStyle.DashLine))
                           for _ in range(2)]  # fmt: skip
        self.lat_plot.addItem(self.knee_lines[0])
        self.thr_plot.addItem(self.knee_lines[1])
        for line in self.knee_lines:
            line.hide()
        self._retranslate_charts()
        if self.result is not None:
            self._render_plot()

    # ------------------------------------------------------------------------------------------ public
    def set_theme(self, dark: bool) -> None:
        self.plots.setBackground("#1e1f22" if dark else "w")

    def retranslate(self) -> None:
        self.copy_button.setText(tr("bench.result.copy_markdown"))
        self.table.setHorizontalHeaderLabels([tr(f"bench.result.col.{c}") for c in COLUMNS])
        if self.charts_built:
            self._retranslate_charts()
        if self.result is not None:
            self._render()

    def _retranslate_charts(self) -> None:
        self.lat_plot.setTitle(tr("bench.result.latency_title"))
        self.thr_plot.setTitle(tr("bench.result.throughput_title"))
        for plot in (self.lat_plot, self.thr_plot):
            plot.setLabel("bottom", tr("bench.result.concurrency_axis"))
        self.lat_plot.setLabel("left", "ms")
        self.thr_plot.setLabel("left", "tok/s")
        self.legend.clear()
        self.legend.addItem(self.m_ttft, tr("bench.result.m_ttft"))
        self.legend.addItem(self.m_tpot, tr("bench.result.m_tpot"))
        self.legend.addItem(self.p_ttft, tr("bench.result.p_ttft"))
        self.legend.addItem(self.p_tpot, tr("bench.result.p_tpot"))

    def show_result(self, result: dict[str, Any] | str, *, prediction: Any = None) -> bool:
        """Show a result dict, or the run with this id from the bench store; False if the run is unknown."""
        if isinstance(result, str):
            loaded = report.load_result(result, self.db_path)
            if loaded is None:
                self.result = None
                self.status.setText(tr("bench.result.unknown_run", run_id=result))
                return False
            result = loaded
        # a time-scaled simulator run's figures at the simulated GPU's real speed, never the sped-up wall clock
        self.result = at_real_speed(result)
        self.prediction = prediction
        self._render()
        if prediction is None and self.runner is not None and result.get("setup"):
            self._request_prediction(result["setup"])
        self.shown.emit()
        return True

    def set_prediction(self, prediction: Any) -> None:
        self.prediction = prediction
        self._render_plot()
        self.prediction_shown.emit()

    def copy_markdown(self) -> str:
        if self.result is None:
            return ""
        self.markdown = report.to_markdown(self.result)
        QGuiApplication.clipboard().setText(self.markdown)
        return self.markdown

    # ----------------------------------------------------------------------------------------- drawing
    def _request_prediction(self, setup: dict[str, Any]) -> None:
        from advisor.domain.bench import WorkloadConfig

        workload = WorkloadConfig.model_validate(setup["workload"]) if setup.get("workload") else None
        steps = [dict(s) for s in self.result.get("steps") or []]  # read here, not in the worker thread
        levels = sorted({s["concurrency"] for s in steps if s.get("concurrency")}) or None

        def work(_token: Any) -> Any:
            # each level as its step ran (requests sent, start stagger): like for like with what it measured
            return run_prediction.predicted_curve(setup["model"], setup["gpu"], setup.get("weights"), setup.get("gpus") or 1,
                                          workload, levels, time_scale=scale, steps=steps)  # fmt: skip

        # the steps are already at real speed when converted; else the prediction is scaled to the run's clock
        scale = 1.0 if (self.result.get("provenance") or {}).get("shown_at_real_speed") else (setup.get("time_scale") or 1.0)

        self.runner.submit(
            work, on_result=self.set_prediction, on_error=self._prediction_failed, key="bench-result-predict"
        )

    def _prediction_failed(self, exc: BaseException) -> None:
        self.plot_caption.setText(tr("bench.result.no_prediction", reason=str(exc)))

    def _render(self) -> None:
        r = self.result or {}
        simulated = bool(r.get("simulated"))
        self.simulated_badge.setVisible(simulated)
        self.status.setText(tr("bench.result.status", status=report.status_text(r), model=r.get("model") or "?",
                               url=r.get("url") or "?"))  # fmt: skip
        if r.get("error"):
            self.status.setText(self.status.text() + "\n" + str(r["error"]))
        if (prov := r.get("provenance") or {}).get("shown_at_real_speed"):
            self.status.setText(self.status.text() + "\n" + tr("bench.report.real_speed_note", scale=f"{prov['time_scale']:g}"))
        message, evidence = report.knee_text(r)
        self.knee.setText(message)
        self.evidence.setText("\n".join(f"• {e}" for e in evidence))
        self.evidence.setVisible(bool(evidence))
        self.verdict.setText(report.slo_verdict(r))
        notes = report.failure_notes(r) + report.client_bound_notes(r)
        self.client_note.setText("\n".join(notes))
        self.client_note.setVisible(bool(notes))
        mem = report.peak_memory(r)
        if mem:
            sim = f" ({tr('bench.report.simulated_short')})" if any(m[3] for m in mem) else ""
            self.memory.setText(tr("bench.result.peak_memory") + " " + "; ".join(
                f"{label}: {format_gib(peak)} / {format_gib(total)}" for label, peak, total, _s in mem) + sim)  # fmt: skip
        else:
            self.memory.setText(tr("bench.result.peak_memory") + " " + tr("bench.result.no_gpu_samples"))
        rows = report.step_rows(r)
        self.table.setRowCount(len(rows))
        knee_brush = QBrush(QColor(KNEE_COLOR).lighter(160))
        client_brush = QBrush(QColor("#BAB0AC"))
        for i, row in enumerate(rows):
            note = tr("bench.report.knee_flag") if row["knee"] else (tr("bench.report.client_flag")
                                                                    if row["client_bound"] else "")  # fmt: skip
            if row["partial"]:
                note = " · ".join(filter(None, [note, tr("bench.report.partial_flag")]))
            values = [_cell(row["concurrency"]), _cell(row["ok"]), _cell(row["failed"]), _cell(row["ttft_p50"]),
                      _cell(row["ttft_p99"]), _cell(row["tpot_p50"]), _cell(row["tpot_p99"]), _cell(row["tok_s"]),
                      note]  # fmt: skip
            for j, text in enumerate(values):
                item = QTableWidgetItem(text)
                if j < len(values) - 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if row["knee"]:
                    item.setBackground(knee_brush)
                    item.setForeground(QBrush(QColor("#000000")))
                elif row["client_bound"]:
                    item.setBackground(client_brush)
                    item.setForeground(QBrush(QColor("#000000")))
                self.table.setItem(i, j, item)
        self.markdown = report.to_markdown(r)
        self._render_plot()

    def _legend_predicted(self, shown: bool) -> None:
        """The legend names the dashed predicted curves only when they are drawn (a real server's run has none)."""
        listed = {id(sample.item) for sample, _label in self.legend.items}
        for curve, key in ((self.p_ttft, "bench.result.p_ttft"), (self.p_tpot, "bench.result.p_tpot")):
            if shown and id(curve) not in listed:
                self.legend.addItem(curve, tr(key))
            elif not shown and id(curve) in listed:
                self.legend.removeItem(curve)

    def knee_row(self) -> int | None:
        """Index of the highlighted knee row in the table (None when there is no knee)."""
        for i, row in enumerate(report.step_rows(self.result or {})):
            if row["knee"]:
                return i
        return None

    def _render_plot(self) -> None:
        r = self.result or {}
        lost = report.lost_step(r)  # the server stopped answering there: not a point of the load curve
        steps = sorted((s for s in r.get("steps") or [] if s.get("concurrency") and s.get("requests_ok") and s is not lost),
                       key=lambda s: s["concurrency"])  # fmt: skip
        x = np.array([s["concurrency"] for s in steps], dtype=float)

        def col(metric: str, stat: str) -> np.ndarray:
            return np.array([np.nan if (s.get(metric) or {}).get(stat) is None else s[metric][stat] for s in steps],
                            dtype=float)  # fmt: skip

        # A step with more failures than the run allows keeps its point, hollow: its figures cover only the requests
        # that finished (the history compare and the memo leave such steps out altogether)
        degraded = [s.get("status") == "degraded" for s in steps]
        for curve, color, y in ((self.m_ttft, MEASURED, col("ttft_ms", "p50")), (self.m_tpot, TPOT_COLOR, col("tpot_ms", "p50")),
                                (self.m_thr, THROUGHPUT_COLOR,
                                 np.array([s.get("output_tokens_per_s") or 0.0 for s in steps], dtype=float))):  # fmt: skip
            brushes = [pg.mkBrush(0, 0, 0, 0) if bad else pg.mkBrush(color) for bad in degraded]
            curve.setData(x, y, symbolBrush=brushes, symbolPen=pg.mkPen(color, width=1.5))
        xs = set(x.tolist())
        p = self.prediction
        if p is not None:
            levels = [lv for lv in p.levels if lv.concurrency]
            px = np.array([lv.concurrency for lv in levels], dtype=float)
            xs |= set(px.tolist())
            self.p_ttft.setData(px, np.array([lv.ttft_ms.p50 or np.nan for lv in levels], dtype=float))
            self.p_tpot.setData(px, np.array([lv.tpot_ms.p50 or np.nan for lv in levels], dtype=float))
            self.p_thr.setData(px, np.array([lv.output_tokens_per_s for lv in levels], dtype=float))
            caption = tr("bench.result.prediction_caption")
        else:
            for curve in (self.p_ttft, self.p_tpot, self.p_thr):
                curve.setData([], [])
            caption = ""
        if any(degraded):
            levels = ", ".join(str(s["concurrency"]) for s, bad in zip(steps, degraded, strict=True) if bad)
            caption = " ".join(filter(None, [caption, tr("bench.result.degraded_hollow", levels=levels,
                                                         limit=f"{report.slo_of(r).max_error_rate:.0%}")]))  # fmt: skip
        if lost is not None:
            ok, failed = lost.get("requests_ok", 0), lost.get("requests_failed", 0)
            caption = " ".join(filter(None, [caption, tr("bench.result.lost_step_not_drawn", concurrency=lost.get("concurrency"),
                                                         ok=ok, total=ok + failed)]))  # fmt: skip
        self.plot_caption.setText(caption)
        self._legend_predicted(p is not None)
        for plot in (self.lat_plot, self.thr_plot):
            plot.getAxis("bottom").set_levels(xs)
        knee = (r.get("knee") or {}).get("concurrency")
        for line in self.knee_lines:
            if knee:
                line.setValue(np.log10(knee))
                line.show()
            else:
                line.hide()
