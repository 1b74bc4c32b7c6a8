"""The Benchmark page's live view: step and progress, counts, the sample request's text, four live charts and
the GPU panel — drawn in small slices so the GUI thread stays responsive during a many-stream run.

Measured in bench/gui_bench_lag.py (docs/measure.md, "Where the load runs, and why"): with the load in a thread
of this process, one refresh that redrew everything at once cost ≈50 ms of the GUI thread (much of it the
repaint of one scene holding all four charts, each Python callback of that repaint waiting for the interpreter
lock the load holds). So:

- each chart is its own ``PlotWidget`` (its own scene): new data repaints that chart's items only;
- a refresh is split into stages that run on consecutive ticks of a short timer (``STAGE_MS``), each followed
  by its own repaint: texts, then one chart per tick, then the sample text, then the GPU panel;
- charts redraw only when their ring changed; axis ranges move in steps and the left axes have a fixed width,
  so a new tick label never re-lays out the page;
- ``refresh_all()`` draws every stage at once (run start and end, language change).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.progress import run_fraction, seconds_left
from advisor.i18n import tr
from ui.widgets.gpu_panel import GpuPanel
from ui.widgets.lazy_charts import LazyCharts, LazyChartsOwner

SCATTER_POINTS = 800  # a scatter costs per point: the newest ones tell the story
STAGE_MS = 25  # between two stages of one refresh: 7 stages fit well inside the 250 ms drain period
AXIS_WIDTH = 52  # px, fixed: a wider tick label must not re-lay out the charts
ERROR_STYLE = "QLabel { color: #C0392B; }"


def nice(value: float) -> float:
    """The next 1-2-5 step at or above ``value`` (a y range that moves rarely)."""
    if not np.isfinite(value) or value <= 0:
        return 1.0
    exp = 10 ** np.floor(np.log10(value))
    for m in (1, 2, 5, 10):
        if value <= m * exp:
            return float(m * exp)
    return float(10 * exp)


class LiveView(LazyChartsOwner, QWidget):
    """Reads a ``BenchSession``'s buffers, sample text and telemetry; never touches the engine."""

    LAZY_CHART_ATTRS = frozenset({"ttft_plot", "itl_plot", "tok_plot", "conc_plot", "ttft_scatter", "itl_legend",
                                  "itl_p50", "itl_p99", "tok_curve", "conc_legend", "active_curve", "target_curve",
                                  "error_scatter"})  # fmt: skip

    cycle_done = Signal()  # every stage of one refresh has been drawn

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.levels: list[int] = []
        self.run_started_at = 0.0
        self.finished = False  # the run ended: progress shows 1000
        self.stage_cost_ms: dict[str, list[float]] = {}  # perf_counter per stage (bench/gui_bench_lag.py)
        self._drawn: dict[int, tuple[int, int]] = {}
        self._ranges: dict[int, tuple[float, float]] = {}
        self._pending: list[Callable[[], None]] = []
        self._stage_timer = QTimer(self)
        self._stage_timer.setInterval(STAGE_MS)
        self._stage_timer.timeout.connect(self._next_stage)
        self._build()

    # ------------------------------------------------------------------------------------------ build
    def _build(self) -> None:
        self.step_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.counts_label = QLabel()
        self.sample_title = QLabel()
        self.sample_title.setWordWrap(True)  # a sentence when no sample is sent (a one-request-at-a-time server)
        self.sample_text = QPlainTextEdit()
        self.sample_text.setReadOnly(True)
        self.sample_text.setMaximumHeight(110)
        # each chart's view now, its plot when first shown or read (lazy_charts.py): the view holds the place and the
        # background; PlotWidget would make the plot at once
        self.plot_widgets = [pg.GraphicsView() for _ in range(4)]
        self._charts = LazyCharts(self.plot_widgets[0], self._build_charts)  # the four are shown together
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(2)
        for i, w in enumerate(self.plot_widgets):
            # let the grid give each chart its quarter; titles and legends must fit in it (a title wider than its
            # chart widens the plot past its view, under the GPU panel: keep them short)
            w.setMinimumSize(160, 140)
            w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
            w.enableMouse(False)  # as PlotWidget does
            grid.addWidget(w, i // 2, i % 2)
        self.gpu_panel = GpuPanel()

        charts = QWidget()
        cl = QVBoxLayout(charts)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.sample_title)
        cl.addWidget(self.sample_text)
        cl.addLayout(grid, 1)
        live_split = QSplitter(Qt.Orientation.Horizontal)
        live_split.addWidget(charts)
        gpu_scroll = QScrollArea()
        gpu_scroll.setWidgetResizable(True)
        gpu_scroll.setWidget(self.gpu_panel)
        gpu_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        gpu_scroll.setMinimumWidth(300)
        live_split.addWidget(gpu_scroll)
        live_split.setStretchFactor(0, 3)
        live_split.setStretchFactor(1, 2)
        top = QHBoxLayout()
        top.addWidget(self.step_label)
        top.addWidget(self.progress, 1)
        lv = QVBoxLayout(self)
        lv.addLayout(top)
        lv.addWidget(self.counts_label)
        lv.addWidget(live_split, 1)

    def _build_charts(self) -> None:
        self.ttft_plot, self.itl_plot, self.tok_plot, self.conc_plot = (pg.PlotItem() for _ in self.plot_widgets)
        for w, p in zip(self.plot_widgets, self.charts(), strict=True):
            w.setCentralItem(p)
            p.showGrid(x=True, y=True, alpha=0.25)
            p.setMenuEnabled(False)
            p.hideButtons()
            p.setMouseEnabled(x=False, y=False)
            p.setClipToView(True)
            p.setDownsampling(auto=True, mode="peak")
            p.getAxis("left").setWidth(AXIS_WIDTH)
            p.disableAutoRange()
            p.setXRange(0, 30, padding=0.02)
            p.setYRange(0, 1, padding=0.02)
        self.ttft_scatter = pg.ScatterPlotItem(
            size=4, pen=None, brush=pg.mkBrush(76, 120, 168, 160), antialias=False
        )
        self.ttft_plot.addItem(self.ttft_scatter)
        # legends under the plots, not over them: inside they covered the curves (ITL sits near the top)
        self.itl_legend = _legend_below(self.itl_plot, columns=2)
        self.itl_p50 = self.itl_plot.plot(pen=pg.mkPen("#F58518", width=2), antialias=False)
        self.itl_p99 = self.itl_plot.plot(pen=pg.mkPen("#E45756", width=1), antialias=False)
        self.tok_curve = self.tok_plot.plot(pen=pg.mkPen("#54A24B", width=2), antialias=False)
        self.conc_legend = _legend_below(self.conc_plot, columns=3)
        self.active_curve = self.conc_plot.plot(pen=pg.mkPen("#4C78A8", width=2), antialias=False)
        self.target_curve = self.conc_plot.plot(pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DashLine))
        self.error_scatter = pg.ScatterPlotItem(size=7, symbol="x", pen=pg.mkPen("#E45756", width=2))
        self.conc_plot.addItem(self.error_scatter)
        self._retranslate_charts()
        for _name, fn in self._chart_stages():  # what the buffers hold already, if anything
            fn()

    def charts(self) -> tuple[Any, Any, Any, Any]:
        return self.ttft_plot, self.itl_plot, self.tok_plot, self.conc_plot

    def retranslate(self) -> None:
        if self.charts_built:
            self._retranslate_charts()
        self.gpu_panel.retranslate()
        self.refresh_all()

    def _retranslate_charts(self) -> None:
        self.ttft_plot.setTitle(tr("bench.live.ttft_title"))
        self.itl_plot.setTitle(tr("bench.live.itl_title"))
        self.tok_plot.setTitle(tr("bench.live.tok_title"))
        self.conc_plot.setTitle(tr("bench.live.conc_title"))
        for p in self.charts():
            p.setLabel("bottom", tr("bench.live.time_axis"))
        self.itl_legend.clear()
        self.itl_legend.addItem(self.itl_p50, "p50")
        self.itl_legend.addItem(self.itl_p99, "p99")
        self.conc_legend.clear()
        self.conc_legend.addItem(self.active_curve, tr("bench.live.active"))
        self.conc_legend.addItem(self.target_curve, tr("bench.live.target"))
        self.conc_legend.addItem(self.error_scatter, tr("bench.live.errors"))

    def set_theme(self, dark: bool) -> None:
        for w in self.plot_widgets:
            w.setBackground("#1e1f22" if dark else "w")
        self.gpu_panel.set_theme(dark)

    def reset(self, levels: list[int], started_at: float) -> None:
        """A new run: clear the charts' memory of what they drew."""
        self._charts.ensure()  # a run's data only ever goes into built charts (their tab may still be hidden)
        self.levels = levels
        self.run_started_at = started_at
        self.finished = False
        self.gpu_panel.clear()
        self._drawn.clear()
        self._ranges.clear()
        self._pending.clear()
        self._stage_timer.stop()
        self.sample_text.clear()

    # ---------------------------------------------------------------------------------------- refresh
    def _stages(self) -> list[tuple[str, Callable[[], None]]]:
        # charts not built yet (their tab never shown, no run started) have nothing to draw
        charts = self._chart_stages() if self.charts_built else []
        return [("texts", self._refresh_texts), *charts, ("sample", self._refresh_sample), ("gpu", self._refresh_gpu)]

    def _chart_stages(self) -> list[tuple[str, Callable[[], None]]]:
        b = self.session.buffers
        return [
            ("ttft", lambda: self._draw(((self.ttft_scatter, b.ttft),), self.ttft_plot)),
            (
                "itl",
                lambda: self._draw(((self.itl_p50, b.itl_p50), (self.itl_p99, b.itl_p99)), self.itl_plot),
            ),
            ("tok", lambda: self._draw(((self.tok_curve, b.tok_s),), self.tok_plot)),
            (
                "conc",
                lambda: self._draw(
                    (
                        (self.active_curve, b.active),
                        (self.target_curve, b.target),
                        (self.error_scatter, b.errors),
                    ),
                    self.conc_plot,
                ),
            ),  # fmt: skip
        ]

    def refresh(self) -> None:
        """Start a staged refresh (the drain timer's tick); a refresh still under way is finished first."""
        while self._pending:  # the previous cycle did not end within the drain period: draw what it left
            self._pending.pop(0)()
        stages = self._stages()
        self._timed(*stages[0])
        self._pending = [partial(self._timed, n, f) for n, f in stages[1:]]
        self._stage_timer.start()

    def refresh_all(self) -> None:
        """Every stage now, in one slice (run start and end, language change)."""
        self._stage_timer.stop()
        self._pending.clear()
        for _name, fn in self._stages():
            fn()
        self.cycle_done.emit()

    def _next_stage(self) -> None:
        if self._pending:
            self._pending.pop(0)()
        if not self._pending:
            self._stage_timer.stop()
            self.cycle_done.emit()

    def _timed(self, name: str, fn: Callable[[], None]) -> None:
        t = time.perf_counter()
        fn()
        costs = self.stage_cost_ms.setdefault(name, [])
        costs.append((time.perf_counter() - t) * 1e3)
        if len(costs) > 4000:
            del costs[:2000]

    def _refresh_texts(self) -> None:
        s = self.session
        b = s.buffers
        levels = self.levels or [1]
        step, conc = b.step, b.concurrency
        cfg = s.config
        index = levels.index(conc) if conc in levels else min(step, len(levels) - 1)
        finished = [st for st in b.steps if st.step >= 0]
        elapsed = float(b.progress.get("elapsed_s") or 0.0)
        frac = 0.0
        if cfg is not None and levels:  # the steps the runner will run, each by what it needs (advisor.bench.progress)
            frac = run_fraction(cfg, levels, index, b.step_done, elapsed, finished)
        if not s.running and self.finished and not any(st.stop_reason == "cancelled" for st in b.steps):
            frac = 1.0  # a stopped run keeps the share it reached: its last step is partial, not 100 %
        value = int(frac * 1000)
        if self.progress.value() != value:
            self.progress.setValue(value)
        left = None
        if s.running and cfg is not None:
            # as the runner will run it: steps that end once stable, the ramp's stop rule (advisor.bench.progress)
            left = seconds_left(cfg, levels, index, elapsed, finished)
        stopped = not s.running and self.finished and any(st.stop_reason == "cancelled" for st in b.steps)
        if not self.levels and not s.running:  # no run yet: "Step 1 of 1 · concurrency –" would describe none
            self._set_text(self.step_label, tr("bench.live.not_started"))
        else:
            self._set_text(self.step_label, tr("bench.live.stopped_step" if stopped else "bench.live.step",
                                               step=index + 1, steps=len(levels), concurrency=conc or "–",
                                               left=tr("bench.live.left", seconds=round(left)) if left is not None
                                               else tr("bench.live.left_unknown")))  # fmt: skip
        self._set_text(
            self.counts_label, tr("bench.live.counts", ok=b.ok, failed=b.failed, in_flight=b.in_flight)
        )
        style = ERROR_STYLE if b.failed else ""
        if self.counts_label.styleSheet() != style:  # a style sheet change re-polishes the widget
            self.counts_label.setStyleSheet(style)

    @staticmethod
    def _set_text(label: QLabel, text: str) -> None:
        if label.text() != text:
            label.setText(text)

    def _draw(self, items: tuple[tuple[Any, Any], ...], plot: Any) -> None:
        for item, ring in items:
            key = (id(ring), ring.version)
            if self._drawn.get(id(item)) == key:
                continue  # unchanged since the last refresh: no redraw
            self._drawn[id(item)] = key
            x, y = ring.xy()
            if item is self.error_scatter:
                y = np.zeros(len(x))
            else:
                self._fit(plot, x, y)
            if item is self.ttft_scatter:
                x, y = x[-SCATTER_POINTS:], y[-SCATTER_POINTS:]
            item.setData(x.copy(), y.copy())

    def _fit(self, plot: Any, x: np.ndarray, y: np.ndarray) -> None:
        """Axis ranges that change in steps (30 s of time, 1-2-5 values): a moving range repaints the axes,
        which costs more than the curves themselves."""
        if not len(x):
            return
        x_hi = 30.0 * max(1, int(np.ceil(float(x[-1]) / 30.0)))
        y_hi = nice(float(np.nanmax(y)) if len(y) else 1.0)
        prev = self._ranges.get(id(plot), (0.0, 0.0))
        x_hi, y_hi = max(prev[0], x_hi), max(prev[1], y_hi)
        if (x_hi, y_hi) != prev:
            self._ranges[id(plot)] = (x_hi, y_hi)
            plot.setXRange(0, x_hi, padding=0.02)
            plot.setYRange(0, y_hi, padding=0.02)

    def _refresh_sample(self) -> None:
        step, text, ttft, ttft_chars, done, error = self.session.sample.snapshot()
        if step < 0:
            self._set_text(self.sample_title, tr("bench.live.sample_none"))
            return
        if self.session.sample.not_sent:
            self._set_text(self.sample_title, self.session.sample.not_sent)
            if self.sample_text.toPlainText():
                self.sample_text.clear()
            return
        state = tr("bench.live.sample_done") if done else tr("bench.live.sample_streaming")
        ttft_s = (
            tr("bench.live.sample_ttft", ms=round(ttft))
            if ttft is not None
            else tr("bench.live.sample_waiting")
        )
        title = tr(
            "bench.live.sample_title", concurrency=self.session.buffers.concurrency, ttft=ttft_s, state=state
        )
        if getattr(self.session, "simulated", False):  # generated text, not a model's answer: said, not left to guess
            title += " " + tr("bench.live.sample_placeholder")
        self._set_text(self.sample_title, title + (" — " + error if error else ""))
        if self.sample_text.toPlainText() != text:
            # setPlainText inserts with the cursor's current format, which after the previous refresh is the first
            # token's highlight (the cursor sits at its end when the text was only that token — a slow real server
            # shows exactly that): reset it, or the whole answer comes out highlighted
            self.sample_text.setCurrentCharFormat(QTextCharFormat())
            self.sample_text.setPlainText(text)
            if ttft_chars:  # the first token, marked
                cursor = QTextCursor(self.sample_text.document())
                cursor.setPosition(0)
                cursor.setPosition(min(ttft_chars, len(text)), QTextCursor.MoveMode.KeepAnchor)
                fmt = QTextCharFormat()
                fmt.setBackground(pg.mkColor("#F2CF5B"))
                fmt.setForeground(pg.mkColor("#222222"))
                cursor.setCharFormat(fmt)
            self.sample_text.moveCursor(QTextCursor.MoveOperation.End)

    def _refresh_gpu(self) -> None:
        tel = self.session.telemetry
        gpus: list[Any] = []
        server = None
        nvml_state = None
        expected = False
        if tel is not None:
            if tel.gpu is not None:
                gpus.extend(tel.gpu.latest())
                try:
                    nvml_state = tel.gpu.reader.state
                except Exception:
                    nvml_state = None
            if tel.server is not None:
                expected = True
                latest: dict[str, Any] = {}
                for g in tel.server.gpu_history()[-16:]:
                    latest[(g.host or "") + g.index] = g
                gpus.extend(latest.values())
                hist = tel.server.history()
                server = hist[-1] if hist else None
        self.gpu_panel.update_samples(gpus, server, nvml_state=nvml_state, server_expected=expected)


def _legend_below(plot: pg.PlotItem, columns: int) -> pg.LegendItem:
    """A legend in the plot's own layout, under its bottom axis (row 4 of PlotItem's grid), in one row."""
    legend = pg.LegendItem(colCount=columns)
    plot.layout.addItem(legend, 4, 1)
    plot.layout.setRowAlignment(4, Qt.AlignmentFlag.AlignHCenter)
    return legend
