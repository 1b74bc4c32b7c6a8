"""The live GPU panel: per GPU memory used/total (bar + line), utilisation, power, temperature, clocks; the
server's own figures from ``/metrics`` (KV-cache usage, running/waiting requests, preemptions).

It reads telemetry samples (``GpuSample`` / ``ServerSample`` from advisor.telemetry) handed in by the page;
it never samples by itself. Every field that has no value says why: "no NVIDIA driver" (NVML state),
"not exposed by this server" (a metric the server does not publish), "not supported by this GPU" (NVML N/A),
and readings from the simulated server are labelled "simulated".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QFrame, QGridLayout, QGroupBox, QLabel, QProgressBar, QVBoxLayout, QWidget

from advisor.domain.telemetry import GpuSample, ServerSample
from advisor.i18n import tr
from advisor.units import format_gib, format_percent
from ui.widgets.stale import StaleMark

MAX_GPUS = 8
FIELDS = ("util", "power", "temperature", "clocks")


class Sparkline(QWidget):
    """Memory used over time as one polyline drawn with QPainter (y 0..1, newest at the right edge).

    Not a pyqtgraph PlotWidget: creating one of those when a GPU's first reading arrives mid-run cost
    100–225 ms of the GUI thread (bench/gui_bench_lag.py), and its repaint goes through a scene of Python items.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedHeight(70)
        self.x = np.empty(0)
        self.y = np.empty(0)
        self.color = QColor("#4C78A8")
        self.background = QColor("white")

    def setData(self, x: Any, y: Any) -> None:  # noqa: N802 - the pyqtgraph curve's name, which this replaces
        self.x, self.y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        self.update()

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802
        return self.x, self.y

    def setBackground(self, color: str) -> None:  # noqa: N802
        self.background = QColor("white" if color == "w" else color)
        self.update()

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.fillRect(self.rect(), self.background)
        p.setPen(QPen(QColor(128, 128, 128, 80), 1))
        w, h = self.width() - 4, self.height() - 4
        p.drawRect(1, 1, w + 2, h + 2)
        if len(self.x) >= 2:
            span = max(float(self.x[-1] - self.x[0]), 1e-9)
            xs = 2 + (self.x - self.x[0]) / span * w
            ys = 2 + (1.0 - np.clip(self.y, 0.0, 1.0)) * h
            p.setPen(QPen(self.color, 2))
            p.drawPolyline(QPolygonF([QPointF(float(a), float(b)) for a, b in zip(xs, ys, strict=True)]))
        p.end()


class _GpuRow(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("QLabel { font-weight: bold; }")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.line = Sparkline()
        self.curve = self.line  # what the panel feeds (setData)
        self.history: deque[tuple[float, float]] = deque(maxlen=600)
        self.values: dict[str, QLabel] = {}
        self.names: dict[str, QLabel] = {}
        grid = QGridLayout()
        for i, key in enumerate(FIELDS):
            name, value = QLabel(), QLabel()
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setWordWrap(True)
            grid.addWidget(name, i, 0)
            grid.addWidget(value, i, 1)
            self.names[key], self.values[key] = name, value
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.bar)
        layout.addWidget(self.line)
        layout.addLayout(grid)


class GpuPanel(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state_label = QLabel()
        self.state_label.setWordWrap(True)
        self.setMinimumWidth(280)
        self.rows: list[_GpuRow] = []
        self.server = QLabel()
        self.server.setWordWrap(True)
        self.server.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the readings in one widget, so that after a run they can be greyed as a whole under a note saying so
        self.readings = QWidget()
        readings = QVBoxLayout(self.readings)
        readings.setContentsMargins(0, 0, 0, 0)
        readings.addWidget(self.state_label)
        self._rows_box = QVBoxLayout()
        readings.addLayout(self._rows_box)
        readings.addWidget(self.server)
        self.ended_mark = StaleMark([self.readings])
        self._layout = QVBoxLayout(self)
        self._layout.addWidget(self.ended_mark.note)
        self._layout.addWidget(self.readings)
        self._layout.addStretch(1)
        self.ended = False
        self.nvml_state: str | None = None
        self.last_gpus: list[GpuSample] = []
        self.last_server: ServerSample | None = None
        self.server_expected = False
        self.dark = False
        self.retranslate()

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        for row in self.rows:
            row.line.setBackground("#1e1f22" if dark else "w")

    def set_ended(self, ended: bool) -> None:
        """The run is over (ended, stopped or failed): nothing samples the GPU now, so the last readings are
        greyed under a note saying they are a run's last, not the GPU's state (#26 item 9)."""
        self.ended = ended
        self.ended_mark.set_stale(tr("ui.stale.gpu") if ended else None)

    def retranslate(self) -> None:
        self.setTitle(tr("bench.gpu.title"))
        self.set_ended(self.ended)
        for row in self.rows:
            for key in FIELDS:
                row.names[key].setText(tr(f"bench.gpu.{key}"))
        self.update_samples(self.last_gpus, self.last_server, nvml_state=self.nvml_state,
                            server_expected=self.server_expected)  # fmt: skip

    # --------------------------------------------------------------------------------------------- data
    def clear(self) -> None:
        for row in self.rows:
            row.history.clear()
            row.curve.setData([], [])

    def update_samples(self, gpus: Sequence[GpuSample], server: ServerSample | None, *, nvml_state: str | None,
                       server_expected: bool) -> None:  # fmt: skip
        """Show the latest reading of each GPU (local NVML and/or exporter/simulated) and of the server."""
        self.last_gpus, self.last_server = list(gpus), server
        self.nvml_state, self.server_expected = nvml_state, server_expected
        local_note = ""
        if nvml_state and nvml_state != "ok":
            key = (
                "bench.gpu.why.no_driver"
                if nvml_state in ("no_driver", "no_bindings")
                else f"telemetry.state.{nvml_state}"
            )
            try:
                local_note = tr(key)
            except Exception:
                local_note = nvml_state
        elif nvml_state is None:
            local_note = tr("bench.gpu.why.not_sampled")
        shown = list(gpus)[:MAX_GPUS]
        if shown:
            sim = any(g.simulated for g in shown)
            text = tr("bench.gpu.local_state", note=local_note) if local_note else ""
            if sim:
                text = (text + "\n" if text else "") + tr("bench.gpu.simulated_note")
            self.state_label.setText(text)
        else:
            self.state_label.setText(tr("bench.gpu.none", note=local_note or tr("bench.gpu.why.no_readings")))
        while len(self.rows) < len(shown):
            row = _GpuRow()
            row.line.setBackground("#1e1f22" if self.dark else "w")
            for key in FIELDS:
                row.names[key].setText(tr(f"bench.gpu.{key}"))
            self.rows.append(row)
            self._rows_box.addWidget(row)
        for i, row in enumerate(self.rows):
            row.setVisible(i < len(shown))
        for row, g in zip(self.rows, shown, strict=False):
            self._show_gpu(row, g)
        self._show_server(server, server_expected)

    @staticmethod
    def _why(g: GpuSample, field: str) -> str:
        if g.simulated:
            return tr("bench.gpu.why.simulated_na")
        reason = g.na.get(field)
        if reason:
            return tr(f"telemetry.na.{reason}")
        if g.source in ("dcgm", "nvitop"):
            return tr("bench.gpu.why.exporter_na")
        return tr("telemetry.na.not_available")

    def _show_gpu(self, row: _GpuRow, g: GpuSample) -> None:
        where = g.host or (tr("bench.gpu.this_machine") if g.source == "nvml" else g.source)
        badge = " · simulated · 模拟" if g.simulated else ""
        row.title.setText(f"GPU {g.index} · {g.name or '?'} · {where}{badge}")
        frac = g.memory_used_fraction()
        if frac is None:
            row.bar.setValue(0)
            row.bar.setFormat(tr("bench.gpu.memory") + ": " + self._why(g, "memory_used_bytes"))
        else:
            row.bar.setValue(int(frac * 1000))
            row.bar.setFormat(tr("bench.gpu.memory_value", used=format_gib(g.memory_used_bytes),
                                 total=format_gib(g.memory_total_bytes), pct=format_percent(frac)))  # fmt: skip
            if not row.history or g.t_s > row.history[-1][0]:  # a new reading (the page refreshes more often)
                row.history.append((g.t_s, frac))
                xs = np.array([t for t, _ in row.history], dtype=float)
                row.curve.setData(xs - xs[-1], np.array([v for _, v in row.history], dtype=float))
        vals = row.values
        vals["util"].setText(
            f"{g.gpu_util_pct:.0f} %" if g.gpu_util_pct is not None else self._why(g, "gpu_util_pct")
        )
        if g.power_w is not None:
            limit = f" / {g.power_limit_w:.0f}" if g.power_limit_w else ""
            vals["power"].setText(f"{g.power_w:.0f}{limit} W")
        else:
            vals["power"].setText(self._why(g, "power_w"))
        vals["temperature"].setText(f"{g.temperature_c:.0f} °C" if g.temperature_c is not None
                                    else self._why(g, "temperature_c"))  # fmt: skip
        if g.sm_clock_mhz is not None:
            mem = f" · mem {g.mem_clock_mhz:.0f}" if g.mem_clock_mhz is not None else ""
            vals["clocks"].setText(f"SM {g.sm_clock_mhz:.0f}{mem} MHz")
        else:
            vals["clocks"].setText(self._why(g, "sm_clock_mhz"))

    def _show_server(self, s: ServerSample | None, expected: bool) -> None:
        if s is None:
            if expected:
                why = tr("bench.gpu.why.waiting")
            elif self.nvml_state is None:  # no run has sampled anything yet: whether /metrics exists is unknown
                why = tr("bench.gpu.why.not_sampled")
            else:
                why = tr("bench.gpu.why.no_metrics_endpoint")
            self.server.setText(tr("bench.gpu.server_title") + "\n" + why)
            return
        if not s.ok:
            self.server.setText(tr("bench.gpu.server_title") + "\n" + tr("bench.gpu.why.scrape_failed",
                                                                        error=s.error or "?"))  # fmt: skip
            return
        missing = tr("bench.gpu.why.not_exposed")
        sim = " (" + tr("bench.report.simulated_short") + ")" if s.simulated else ""

        def g(name: str, fmt: Any = lambda v: f"{v:.0f}") -> str:
            v = s.gauges.get(name)
            return missing if v is None else fmt(v)

        preempt = s.counters.get("preemptions")
        lines = [
            tr("bench.gpu.server_title") + f" · {s.kind}{sim}",
            tr("bench.gpu.kv_usage") + ": " + g("kv_cache_usage", lambda v: format_percent(v)),
            tr("bench.gpu.running")
            + ": "
            + g("requests_running")
            + "   "
            + tr("bench.gpu.waiting")
            + ": "
            + g("requests_waiting"),
            tr("bench.gpu.preemptions") + ": " + (missing if preempt is None else f"{preempt:.0f}"),
        ]
        self.server.setText("\n".join(lines))

    def field_texts(self) -> dict[str, str]:
        """What the panel shows now (tests read it)."""
        out = {"state": self.state_label.text(), "server": self.server.text()}
        for i, row in enumerate(r for r in self.rows if not r.isHidden()):
            out[f"gpu{i}.title"] = row.title.text()
            out[f"gpu{i}.memory"] = row.bar.format()
            for key in FIELDS:
                out[f"gpu{i}.{key}"] = row.values[key].text()
        return out
