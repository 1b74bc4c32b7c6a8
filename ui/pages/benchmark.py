"""压测 Benchmark: pick a target (the embedded simulated server or a URL), connect, choose a workload and a load
shape, watch it run live (tokens, latency, concurrency, errors, GPU), and read the result.

The page is a view: the load runs in ``ui.bench_session.BenchSession`` (one background task, events drained
at ≤10 Hz into ring buffers); the simulated server runs as a child process (``advisor.sim.launcher``); the
result is drawn by ``ui.widgets.bench_result.ResultView`` from ``advisor.bench.report``. Runs land in the bench
store at its default path, so the History page sees them.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor import catalog
from advisor.bench import report
from advisor.bench.keys import KeyStore
from advisor.bench.presets import DEFAULT_PRESET, PRESETS, get_preset
from advisor.domain.bench import BenchConfig, LengthDist
from advisor.i18n import tr
from advisor.sizing import WEIGHT_FORMATS
from ui.bench_session import BenchSession
from ui.widgets.bench_live import LiveView
from ui.widgets.bench_result import ResultView
from ui.widgets.stale import StaleMark
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

# Where the load runs (measured in bench/gui_bench_lag.py, docs/measure.md): from this many streams the load goes
# to spawned client processes (when there are cores for them), so the GUI thread and the load do not share one
# interpreter lock.
AUTO_PROCESSES_FROM = 64
AUTO_PROCESSES = 2
AUTO_MIN_CPUS = (
    4  # the client processes need cores of their own: on 2 cores they made both lag and ITL error worse
)


def auto_client_processes(highest_concurrency: int, cpus: int | None = None) -> int:
    """The "auto" client-process count: 2 from 64 streams when the machine has ≥ 4 cores, else 1 (in a thread)."""
    import os

    cpus = cpus if cpus is not None else (os.cpu_count() or 1)
    return AUTO_PROCESSES if highest_concurrency >= AUTO_PROCESSES_FROM and cpus >= AUTO_MIN_CPUS else 1


SHAPES = ("single", "fixed", "ramp", "soak", "rate")
SIM_BADGE = "simulated · 模拟"
ERROR_STYLE = "QLabel { color: #C0392B; }"
OK_STYLE = "QLabel { color: #2E7D32; }"


class BenchmarkPage(QWidget):
    message = Signal(str)
    sim_state_changed = Signal(str)  # "starting" | "running" | "stopped" | "error"
    probed = Signal(object)  # ProbeResult (or None on error)
    run_finished = Signal(object)  # the result dict
    live_updated = Signal()  # a live refresh was drawn (tests wait on it)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None, *, sizing_page: Any = None,
                 db_path: str | Path | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.runner = runner
        self.sizing_page = sizing_page
        self.db_path = db_path
        self.project_id: str | None = None  # the open saved project (set by the window); runs are stored with it
        self.session = BenchSession(runner, self)
        self.session.updated.connect(self._on_updated)
        self.session.finished.connect(self._on_finished)
        self.session.failed.connect(self._on_failed)
        self.session.probe_done.connect(self._on_probe_during_run)
        self.launcher: Any = None
        self.sim_url: str | None = None
        self.probe_result: Any = None
        self.dataset: list[Any] | None = None
        self.keys = KeyStore()
        self.last_result: dict[str, Any] | None = None
        self._run_started_at = 0.0
        self._levels: list[int] = []
        self._dark = False
        self._build()
        self._fill_pickers()
        self.preset_box.setCurrentIndex(max(0, self.preset_box.findData(DEFAULT_PRESET)))
        self._apply_preset()
        self.shape_box.setCurrentIndex(SHAPES.index("ramp"))
        self._on_shape()
        self._on_target_kind()
        self.retranslate()

    # ============================================================================================ build
    def _build(self) -> None:
        # ---- target
        self.target_box = QGroupBox()
        self.sim_radio, self.url_radio = QRadioButton(), QRadioButton()
        self.sim_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.sim_radio)
        group.addButton(self.url_radio)
        self.sim_radio.toggled.connect(self._on_target_kind)
        self.sim_badge = QLabel(SIM_BADGE)
        self.sim_badge.setStyleSheet(
            "QLabel { background: #F2CF5B; color: #222; padding: 1px 6px; border-radius: 3px; }"
        )
        self.sim_model, self.sim_gpu, self.sim_weights = QComboBox(), QComboBox(), QComboBox()
        self.sim_model.setEditable(False)
        self.sim_gpus = QSpinBox()
        self.sim_gpus.setRange(1, 16)
        self.sim_speed = QDoubleSpinBox()
        self.sim_speed.setRange(0.01, 1.0)
        self.sim_speed.setSingleStep(0.1)
        self.sim_speed.setValue(1.0)
        self.sim_from_sizing = QPushButton()
        self.sim_from_sizing.clicked.connect(self.use_sizing_choice)
        self.sim_button = QPushButton()
        self.sim_button.clicked.connect(self.toggle_sim)
        self.sim_status = QLabel()
        self.sim_status.setWordWrap(True)
        self.sim_form = QFormLayout()
        self.sim_labels = [QLabel() for _ in range(5)]
        for lab, w in zip(self.sim_labels, (self.sim_model, self.sim_gpu, self.sim_weights, self.sim_gpus,
                                            self.sim_speed), strict=True):  # fmt: skip
            self.sim_form.addRow(lab, w)
        self.sim_widget = QWidget()
        sim_layout = QVBoxLayout(self.sim_widget)
        sim_layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.sim_badge)
        head.addStretch(1)
        head.addWidget(self.sim_from_sizing)
        sim_layout.addLayout(head)
        sim_layout.addLayout(self.sim_form)
        row = QHBoxLayout()
        row.addWidget(self.sim_button)
        row.addWidget(self.sim_status, 1)
        sim_layout.addLayout(row)

        self.url_edit = QLineEdit()  # its placeholder reads as an example (set in retranslate), never as a value
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_note = QLabel()
        self.key_note.setWordWrap(True)
        self.exporter_edit = QLineEdit()
        self.url_widget = QWidget()
        url_form = QFormLayout(self.url_widget)
        url_form.setContentsMargins(0, 0, 0, 0)
        self.url_labels = [QLabel() for _ in range(3)]
        url_form.addRow(self.url_labels[0], self.url_edit)
        url_form.addRow(self.url_labels[1], self.key_edit)
        url_form.addRow("", self.key_note)
        url_form.addRow(self.url_labels[2], self.exporter_edit)
        self.url_edit.editingFinished.connect(self._load_key)

        self.connect_button = QPushButton()
        self.connect_button.clicked.connect(self.connect_target)
        self.probe_label = QLabel()
        self.probe_label.setWordWrap(True)
        self.probe_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model_pick = QComboBox()
        self.model_pick.setEditable(True)
        self.model_label = QLabel()
        tl = QVBoxLayout(self.target_box)
        radios = QHBoxLayout()
        radios.addWidget(self.sim_radio)
        radios.addWidget(self.url_radio)
        radios.addStretch(1)
        tl.addLayout(radios)
        tl.addWidget(self.sim_widget)
        tl.addWidget(self.url_widget)
        crow = QHBoxLayout()
        crow.addWidget(self.connect_button)
        crow.addWidget(self.model_label)
        crow.addWidget(self.model_pick, 1)
        tl.addLayout(crow)
        # what the probe read is about the server it reached: once that server stops or the URL changes it says so
        self.probe_mark = StaleMark([self.probe_label])
        tl.addWidget(self.probe_mark.note)
        tl.addWidget(self.probe_label)
        self.url_edit.textEdited.connect(self._probe_target_changed)

        # ---- workload
        self.workload_box = QGroupBox()
        self.preset_box = QComboBox()
        self.preset_box.currentIndexChanged.connect(self._apply_preset)
        self.preset_desc = QLabel()
        self.preset_desc.setWordWrap(True)
        self.prompt_mean, self.output_mean = QSpinBox(), QSpinBox()
        self.prompt_mean.setRange(1, 1_000_000)
        self.output_mean.setRange(1, 100_000)
        self.file_button = QPushButton()
        self.file_button.clicked.connect(self._on_file_clicked)
        self.file_clear = QPushButton("×")
        self.file_clear.setMaximumWidth(28)
        self.file_clear.clicked.connect(lambda: self.set_dataset(None))
        self.file_label = QLabel()
        self.file_label.setWordWrap(True)
        self.hist = pg.PlotWidget()
        self.hist.setFixedHeight(90)
        self.hist.setMenuEnabled(False)
        self.hist.setMouseEnabled(x=False, y=False)
        self.hist.hideButtons()
        self.hist_bars = pg.BarGraphItem(x=[0], height=[0], width=1.0, brush="#4C78A8")
        self.hist.addItem(self.hist_bars)
        self.hist.hide()
        self.shape_box = QComboBox()
        for s in SHAPES:
            self.shape_box.addItem(s, s)
        self.shape_box.currentIndexChanged.connect(self._on_shape)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 4096)
        self.concurrency.setValue(8)
        self.max_concurrency = QSpinBox()
        self.max_concurrency.setRange(1, 4096)
        self.max_concurrency.setValue(64)
        self.requests = QSpinBox()
        self.requests.setRange(1, 1_000_000)
        self.requests.setValue(64)
        self.duration = QDoubleSpinBox()
        self.duration.setRange(1, 86_400)
        self.duration.setValue(120)
        self.rate = QDoubleSpinBox()
        self.rate.setRange(0.01, 10_000)
        self.rate.setValue(4)
        self.ttft_slo = QDoubleSpinBox()
        self.ttft_slo.setRange(0, 600_000)
        self.ttft_slo.setValue(2000)
        self.tpot_slo = QDoubleSpinBox()
        self.tpot_slo.setRange(0, 60_000)
        self.tpot_slo.setValue(100)
        self.client_processes = QSpinBox()
        self.client_processes.setRange(
            0, 16
        )  # 0 = auto: 2 spawned client processes from 64 streams (docs/measure.md)
        self.client_processes.setValue(0)
        self.sample_check = QCheckBox()
        self.sample_check.setChecked(True)
        self.workload_form = QFormLayout()
        # long labels (SLO fields in Chinese) beside the prompt-file row made the left column wider than its scroll
        # area, which cut off the right edge of every row (the probe text included): wrap such a row instead
        self.workload_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.w_labels: dict[str, QLabel] = {}
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_button)
        file_row.addWidget(self.file_clear)
        file_row.addWidget(self.file_label, 1)
        for key, widget in (("preset", self.preset_box), ("", self.preset_desc), ("prompt", self.prompt_mean),
                            ("output", self.output_mean), ("file", file_row), ("", self.hist),
                            ("shape", self.shape_box), ("concurrency", self.concurrency),
                            ("max_concurrency", self.max_concurrency), ("requests", self.requests),
                            ("duration", self.duration), ("rate", self.rate), ("ttft_slo", self.ttft_slo),
                            ("tpot_slo", self.tpot_slo), ("client_processes", self.client_processes)):  # fmt: skip
            lab = QLabel()
            if key:
                self.w_labels[key] = lab
            if isinstance(widget, QHBoxLayout):
                self.workload_form.addRow(lab, widget)
            else:
                self.workload_form.addRow(lab, widget)
        self.workload_form.addRow(self.sample_check)  # the whole row: its text must not widen the left column
        QVBoxLayout(self.workload_box).addLayout(self.workload_form)

        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.start_run)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop_run)
        self.stop_button.setEnabled(False)
        self.run_error = QLabel()
        self.run_error.setWordWrap(True)
        self.run_error.setStyleSheet(ERROR_STYLE)
        self.run_error.hide()

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.addWidget(self.target_box)
        ll.addWidget(self.workload_box)
        brow = QHBoxLayout()
        brow.addWidget(self.start_button)
        brow.addWidget(self.stop_button)
        ll.addLayout(brow)
        ll.addWidget(self.run_error)
        ll.addStretch(1)
        self._run_inputs: Any = None  # benchmark_section() of the run whose result is shown
        for edit in left.findChildren(QLineEdit):  # every input of the form: the result beside it may go stale
            edit.textChanged.connect(self._check_result_stale)
        for spin in (*left.findChildren(QSpinBox), *left.findChildren(QDoubleSpinBox)):
            spin.valueChanged.connect(self._check_result_stale)
        for combo in left.findChildren(QComboBox):
            combo.currentIndexChanged.connect(self._check_result_stale)
        for button in left.findChildren(QAbstractButton):
            button.toggled.connect(self._check_result_stale)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(left)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(430)

        # ---- live view (ui/widgets/bench_live.py: drawn in stages, one chart per tick)
        self.live = LiveView(self.session)
        self.live.cycle_done.connect(self.live_updated)
        for name in ("step_label", "progress", "counts_label", "sample_title", "sample_text", "ttft_plot", "itl_plot",
                     "tok_plot", "conc_plot", "ttft_scatter", "itl_p50", "itl_p99", "tok_curve", "active_curve",
                     "target_curve", "error_scatter", "gpu_panel", "itl_legend", "conc_legend"):  # fmt: skip
            setattr(self, name, getattr(self.live, name))  # the page's names for them (tests read these)
        self.plots = self.live.plot_widgets[0]  # the first chart (was the one view holding all four)

        self.result_view = ResultView(self.runner, db_path=self.db_path)
        self.right = QTabWidget()
        self.right.addTab(self.live, "")
        self.right.addTab(self.result_view, "")

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(scroll)
        split.addWidget(self.right)
        split.setStretchFactor(1, 1)
        split.setSizes([440, 960])
        self.title = QLabel()  # the page's heading and a one-line "what this does" for newcomers
        self.title.setStyleSheet("QLabel { font-size: 15px; font-weight: bold; }")
        self.body = QLabel()
        self.body.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addWidget(self.body, 1)
        layout.addLayout(head)
        layout.addWidget(split, 1)

        self._gpu_timer = QTimer(self)  # the GPU panel outside a run (the simulated server's /metrics)
        self._gpu_timer.setInterval(1000)

    def _fill_pickers(self) -> None:
        self.sim_model.clear()
        for m in catalog.load_models():
            self.sim_model.addItem(f"{m.id}", m.id)
        self.sim_gpu.clear()
        try:
            gpus = list(catalog.load_gpus())
        except (
            catalog.CatalogError
        ):  # a damaged user GPU file: the Sizing page says why; the built-in ones stay
            gpus = list(catalog._builtin_gpus())
        for g in gpus:
            self.sim_gpu.addItem(f"{g.id} · {g.name}", g.id)
        self.sim_weights.clear()
        self.sim_weights.addItem(tr("bench.page.weights_checkpoint"), None)
        for w in WEIGHT_FORMATS:
            self.sim_weights.addItem(w, w)
        self.preset_box.blockSignals(True)
        for pid, preset in PRESETS.items():
            self.preset_box.addItem(preset.name, pid)
        self.preset_box.blockSignals(False)
        self.use_sizing_choice()

    # ======================================================================================== language
    def retranslate(self) -> None:
        self.title.setText(tr("ui.page.benchmark"))
        self.body.setText(tr("bench.page.intro"))
        self.target_box.setTitle(tr("bench.page.target"))
        self.sim_radio.setText(tr("bench.page.target_sim"))
        self.url_radio.setText(tr("bench.page.target_url"))
        for lab, key in zip(self.sim_labels, ("model", "gpu", "weights", "gpus", "speed"), strict=True):
            lab.setText(tr(f"bench.page.sim.{key}"))
        self.sim_speed.setToolTip(tr("bench.page.sim.speed_tip"))
        self.sim_from_sizing.setText(tr("bench.page.sim.from_sizing"))
        for lab, key in zip(self.url_labels, ("url", "api_key", "exporter"), strict=True):
            lab.setText(tr(f"bench.page.{key}"))
        self.key_edit.setPlaceholderText(tr("bench.page.api_key_placeholder"))
        # "http://127.0.0.1:8000" greyed in an empty field read as the URL already filled in (Connect then said
        # "Enter the server's URL"): an example says it is one
        self.url_edit.setPlaceholderText(tr("ui.placeholder.example", value="http://127.0.0.1:8000"))
        self.exporter_edit.setPlaceholderText(tr("ui.placeholder.example", value="http://gpu-host:9400/metrics"))
        self.connect_button.setText(tr("bench.page.connect"))
        self.model_label.setText(tr("bench.page.served_model"))
        self.workload_box.setTitle(tr("bench.page.workload"))
        for key, lab in self.w_labels.items():
            lab.setText(tr(f"bench.page.w.{key}"))
        self.file_button.setText(tr("bench.page.w.file_button"))
        self.sample_check.setText(tr("bench.page.w.sample"))
        self.sample_check.setToolTip(tr("bench.page.w.sample_tip"))
        self.client_processes.setSpecialValueText(tr("bench.page.w.client_auto"))
        for i, s in enumerate(SHAPES):
            self.shape_box.setItemText(i, tr(f"bench.page.shape.{s}"))
        for i in range(self.preset_box.count()):
            self.preset_box.setItemText(i, get_preset(self.preset_box.itemData(i)).name)
        self.sim_weights.setItemText(0, tr("bench.page.weights_checkpoint"))
        self._show_preset_desc()
        self.start_button.setText(tr("bench.page.start"))
        self.stop_button.setText(tr("bench.page.stop"))
        self.right.setTabText(0, tr("bench.page.tab_live"))
        self.right.setTabText(1, tr("bench.page.tab_result"))
        self.live.retranslate()
        self._update_sim_status()
        self._show_probe(self.probe_result)
        self._update_key_note()
        self.result_view.retranslate()

    def apply_theme(self) -> None:
        # the application's palette: a widget's own lags behind a theme switch until its change event arrives
        self._dark = QApplication.palette().window().color().lightness() < 128
        bg = "#1e1f22" if self._dark else "w"
        self.live.set_theme(self._dark)
        self.hist.setBackground(bg)
        self.result_view.set_theme(self._dark)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.apply_theme()

    # ======================================================================================== target
    def _on_target_kind(self, *_args: Any) -> None:
        sim = self.sim_radio.isChecked()
        self.sim_widget.setVisible(sim)
        self.url_widget.setVisible(not sim)
        self.probe_result = None
        self._show_probe(None)

    def target_url(self) -> str | None:
        if self.sim_radio.isChecked():
            return self.sim_url
        return self.url_edit.text().strip() or None

    def use_sizing_choice(self) -> None:
        """The model/GPU/format/GPU count chosen on the Sizing page become the simulated server's defaults."""
        page = self.sizing_page
        fields = getattr(getattr(page, "inputs", None), "fields", None)
        if not fields:
            return
        self._select(self.sim_model, fields["model"].id)
        self._select(self.sim_gpu, fields["gpu"].id)
        self._select(self.sim_weights, fields.get("weights"))
        self.sim_gpus.setValue(int(fields.get("gpus") or 1))

    @staticmethod
    def _select(box: QComboBox, data: Any) -> bool:
        i = box.findData(data)
        if i >= 0:
            box.setCurrentIndex(i)
        return i >= 0

    def sim_spec(self) -> Any:
        from advisor.sim.launcher import SimLaunchSpec

        return SimLaunchSpec(model=self.sim_model.currentData(), gpu=self.sim_gpu.currentData(),
                             weights=self.sim_weights.currentData(), gpus=self.sim_gpus.value(),
                             time_scale=self.sim_speed.value(), port=0)  # fmt: skip

    def toggle_sim(self) -> None:
        if self.launcher is not None:
            self.stop_sim()
        else:
            self.start_sim()

    def start_sim(self) -> None:
        from advisor.sim.launcher import SimLauncher

        if self.launcher is not None:
            return
        self.launcher = SimLauncher(self.sim_spec())
        self.sim_url = None
        self._sim_state = "starting"
        self._update_sim_status()
        self.sim_state_changed.emit("starting")
        launcher = self.launcher
        self.runner.submit(lambda _t: launcher.start(), on_result=self._on_sim_started,
                           on_error=self._on_sim_error)  # fmt: skip

    def _on_sim_started(self, url: str) -> None:
        self.sim_url = url
        self._sim_state = "running"
        self._update_sim_status()
        self.sim_state_changed.emit("running")
        if self.sim_radio.isChecked():
            self.model_pick.clear()
            self.model_pick.addItem(self.sim_model.currentData())
            self.connect_target()

    def _on_sim_error(self, exc: BaseException) -> None:
        self.launcher = None
        self.sim_url = None
        self._sim_state = "error"
        self._sim_error = str(exc)
        self._update_sim_status()
        self.sim_state_changed.emit("error")

    def stop_sim(self) -> None:
        if self.session.running:
            self.session.stop()
        launcher, self.launcher = self.launcher, None
        self.sim_url = None
        if launcher is not None:
            launcher.stop()
        self._probe_target_changed()
        self._sim_state = "stopped"
        self._update_sim_status()
        self.sim_state_changed.emit("stopped")

    def _update_sim_status(self) -> None:
        state = getattr(self, "_sim_state", "stopped")
        running = state in ("running", "starting")
        self.sim_button.setText(tr("bench.page.sim.stop") if running else tr("bench.page.sim.start"))
        for w in (self.sim_model, self.sim_gpu, self.sim_weights, self.sim_gpus, self.sim_speed):
            w.setEnabled(not running)
        if state == "running":
            self.sim_status.setText(tr("bench.page.sim.running", url=self.sim_url or ""))
            self.sim_status.setStyleSheet(OK_STYLE)
        elif state == "starting":
            self.sim_status.setText(tr("bench.page.sim.starting"))
            self.sim_status.setStyleSheet("")
        elif state == "error":
            self.sim_status.setText(tr("bench.page.sim.error", error=getattr(self, "_sim_error", "")))
            self.sim_status.setStyleSheet(ERROR_STYLE)
        else:
            self.sim_status.setText(tr("bench.page.sim.stopped"))
            self.sim_status.setStyleSheet("")

    # ---------------------------------------------------------------------------------------- API key
    def _load_key(self) -> None:
        url = self.url_edit.text().strip()
        if url and not self.key_edit.text():
            key = self.keys.get(url)
            if key:
                self.key_edit.setText(key)
        self._update_key_note()

    def api_key(self) -> str | None:
        """The key for the target, checked as the CLI checks it (``SecretError`` for a key with a line break or
        non-ASCII characters, with the message to show); a good new key is kept in the OS keyring."""
        from advisor.redact import check_api_key

        if self.sim_radio.isChecked():
            return None
        key = check_api_key(self.key_edit.text().strip())
        url = self.url_edit.text().strip()
        if key and url and self.keys.get(url) != key:
            self.keys.put(url, key)
            self._update_key_note()
        return key

    def _update_key_note(self) -> None:
        if self.keys.backend_ok is False:
            self.key_note.setText(tr("bench.page.key_memory_only"))
            self.key_note.setStyleSheet(ERROR_STYLE)
        else:
            self.key_note.setText(tr("bench.page.key_keyring"))
            self.key_note.setStyleSheet("")

    # ---------------------------------------------------------------------------------------- connect
    def connect_target(self) -> None:
        url = self.target_url()
        if not url:
            self._show_probe_error(tr("bench.page.error.no_target_sim") if self.sim_radio.isChecked()
                                   else tr("bench.page.error.no_url"))  # fmt: skip
            return
        if not url.startswith(("http://", "https://")):
            self._show_probe_error(tr("bench.page.error.bad_url", url=url))
            return
        model = self.model_pick.currentText().strip() or (self.sim_model.currentData() if self.sim_radio.isChecked()
                                                           else "")  # fmt: skip
        from advisor.redact import SecretError

        try:
            key = self.api_key()
        except SecretError as exc:  # refused before any request, as on the command line
            self._show_probe_error(str(exc))
            return
        self.probe_mark.set_stale(None)
        self.probe_label.setText(tr("bench.page.connecting", url=url))
        self.probe_label.setStyleSheet("")

        def work(_t: Any) -> Any:
            from advisor.bench.probe import probe, served_models

            if not model:  # list the models first, then probe the first one
                ids = served_models(url, api_key=key)
                first = ids[0] if ids else ""
                return probe(url, first or "default", api_key=key, timeout_s=30), first
            return probe(url, model, api_key=key, timeout_s=30), model

        self.runner.submit(work, on_result=self._on_probed, on_error=self._on_probe_error, key="bench-probe")

    def _on_probed(self, value: Any) -> None:
        result, model = value
        self.probe_result = result
        self._probed_model = model
        current = self.model_pick.currentText().strip() or model
        self.model_pick.blockSignals(True)
        self.model_pick.clear()
        for m in result.models:
            self.model_pick.addItem(m)
        if current and self.model_pick.findText(current) < 0:
            self.model_pick.addItem(current)
        self.model_pick.setCurrentText(current)
        self.model_pick.blockSignals(False)
        self._show_probe(result)
        self.probed.emit(result)

    def _on_probe_error(self, exc: BaseException) -> None:
        self.probe_result = None
        self._show_probe_error(tr("bench.page.error.probe_failed", error=str(exc) or type(exc).__name__))
        self.probed.emit(None)

    def _probe_target_changed(self, *_args: Any) -> None:
        """The server the probe read may be gone (the simulated one stopped, another URL typed)."""
        if self.probe_result is not None:
            self.probe_mark.set_stale(tr("ui.stale.probe"))

    def _check_result_stale(self, *_args: Any) -> None:
        if self._run_inputs is None or self.last_result is None or self.session.running:
            return
        try:
            changed = self.benchmark_section() != self._run_inputs
        except ValueError:  # a field that no longer validates is a change too
            changed = True
        self.result_view.stale.set_stale(tr("ui.stale.bench_result") if changed else None)

    def _show_probe_error(self, text: str) -> None:
        self.probe_mark.set_stale(None)
        self.probe_label.setText(text)
        self.probe_label.setStyleSheet(ERROR_STYLE)

    def _show_probe(self, result: Any) -> None:
        self.probe_mark.set_stale(None)
        if result is None:
            self.probe_label.setText(tr("bench.page.not_connected"))
            self.probe_label.setStyleSheet("")
            return
        from advisor.bench.probe import probe_problem

        model = self.model_pick.currentText().strip()
        yes, no = tr("bench.page.yes"), tr("bench.page.no")
        lines = [
            tr(
                "bench.page.probe.engine",
                dialect=result.dialect,
                evidence=", ".join(result.dialect_evidence[:3]) or "–",
            ),
            tr("bench.page.probe.models", models=", ".join(result.models) or "–"),
            tr("bench.page.probe.metrics", value=yes if result.metrics_endpoint else no),
            tr("bench.page.probe.usage", value=yes if result.usage_in_stream else no),
        ]
        from advisor.bench.probe import one_request_at_a_time

        if one_request_at_a_time(result):
            lines.append(tr("bench.page.probe.one_at_a_time"))
        problem = probe_problem(result, model) if model else None
        if problem:
            lines.insert(0, problem)
            self.probe_label.setStyleSheet(ERROR_STYLE)
        else:
            self.probe_label.setStyleSheet("")
        self.probe_label.setText("\n".join(lines))

    # ======================================================================================= workload
    def _apply_preset(self, *_args: Any) -> None:
        pid = self.preset_box.currentData()
        if not pid:
            return
        preset = get_preset(pid)
        self.prompt_mean.setValue(preset.prompt_mean)
        self.output_mean.setValue(preset.output_mean)
        self._show_preset_desc()

    def _show_preset_desc(self) -> None:
        pid = self.preset_box.currentData()
        self.preset_desc.setText(get_preset(pid).description if pid else "")

    def _on_shape(self, *_args: Any) -> None:
        shape = self.shape_box.currentData()
        visible = {
            "concurrency": shape in ("fixed", "soak"),
            "max_concurrency": shape in ("ramp", "rate"),
            "requests": shape in ("fixed", "ramp", "rate"),
            "duration": shape == "soak",
            "rate": shape == "rate",
        }
        form = self.workload_form
        for key, widget in (("concurrency", self.concurrency), ("max_concurrency", self.max_concurrency),
                            ("requests", self.requests), ("duration", self.duration), ("rate", self.rate)):  # fmt: skip
            form.setRowVisible(widget, visible[key])

    def ask_dataset_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, tr("bench.page.w.file_button"), "",
                                              "Prompts (*.jsonl *.json *.csv);;All files (*)")  # fmt: skip
        return path

    def _on_file_clicked(self) -> None:
        path = self.ask_dataset_path()
        if path:
            self.set_dataset(path)

    def set_dataset(self, path: str | Path | None) -> bool:
        """Load a JSONL/CSV/ShareGPT prompt file and show its length histogram; False (and why) on bad input."""
        from advisor.bench.workload import histogram, load_dataset

        self.dataset, self.dataset_path = None, None
        self.hist.hide()
        if path is None:
            self.file_label.setText("")
            self.file_label.setStyleSheet("")
            return True
        try:
            prompts = load_dataset(path)
        except (ValueError, OSError) as exc:
            self.file_label.setText(tr("bench.page.error.dataset", error=str(exc)))
            self.file_label.setStyleSheet(ERROR_STYLE)
            return False
        if not prompts:
            self.file_label.setText(
                tr("bench.page.error.dataset", error=tr("bench.page.error.dataset_empty"))
            )
            self.file_label.setStyleSheet(ERROR_STYLE)
            return False
        self.dataset, self.dataset_path = prompts, str(path)
        lengths = sorted(p.prompt_tokens for p in prompts)
        self.file_label.setStyleSheet("")
        self.file_label.setText(tr("bench.page.dataset_info", name=Path(path).name, count=len(lengths),
                                   p50=lengths[len(lengths) // 2], max=lengths[-1]))  # fmt: skip
        bins = histogram(lengths, bins=12)
        xs = np.array([(b["lo"] + b["hi"]) / 2 for b in bins], dtype=float)
        widths = np.array([max(1, b["hi"] - b["lo"]) for b in bins], dtype=float)
        self.hist_bars.setOpts(
            x=xs, height=np.array([b["count"] for b in bins], dtype=float), width=widths * 0.9
        )
        self.hist.setTitle(tr("bench.page.hist_title"))
        self.hist.show()
        return True

    # ========================================================================================= config
    def build_config(self) -> BenchConfig:
        """The run's configuration from the fields (raises ValueError with a field-level message)."""
        url = self.target_url()
        if not url:
            raise ValueError(tr("bench.page.error.no_target_sim") if self.sim_radio.isChecked()
                             else tr("bench.page.error.no_url"))  # fmt: skip
        model = self.model_pick.currentText().strip() or (self.sim_model.currentData() if self.sim_radio.isChecked()
                                                           else "")  # fmt: skip
        if not model:
            raise ValueError(tr("bench.page.error.no_model"))
        pid = self.preset_box.currentData() or DEFAULT_PRESET
        preset = get_preset(pid)
        pm, om = self.prompt_mean.value(), self.output_mean.value()
        prompt = LengthDist(kind="lognormal", mean=pm, std=pm * preset.prompt_std / preset.prompt_mean, min=8,
                            max=max(pm, preset.prompt_max * pm // preset.prompt_mean))  # fmt: skip
        output = LengthDist(kind="lognormal", mean=om, std=om * preset.output_std / preset.output_mean, min=1,
                            max=max(om, preset.output_max * om // preset.output_mean))  # fmt: skip
        shape = self.shape_box.currentData()
        highest = {
            "fixed": self.concurrency.value(),
            "soak": self.concurrency.value(),
            "ramp": self.max_concurrency.value(),
            "rate": self.max_concurrency.value(),
        }.get(shape, 1)
        procs = self.client_processes.value() or auto_client_processes(highest)
        sched: dict[str, Any] = {"kind": shape, "client_processes": procs, "warmup_requests": 1}
        if shape == "fixed":
            sched.update(concurrency=[self.concurrency.value()], requests=self.requests.value())
        elif shape == "ramp":
            sched.update(
                concurrency=[1], max_concurrency=self.max_concurrency.value(), requests=self.requests.value()
            )
        elif shape == "soak":
            d = self.duration.value()
            sched.update(
                concurrency=[self.concurrency.value()], duration_s=d, window_s=max(5.0, min(60.0, d / 10))
            )
        elif shape == "rate":
            sched.update(rate=self.rate.value(), max_concurrency=self.max_concurrency.value(),
                         requests=self.requests.value())  # fmt: skip
        slo = {
            "ttft_ms": self.ttft_slo.value() or None,
            "tpot_ms": self.tpot_slo.value() or None,
            "percentile": 99,
        }
        label = ""
        if self.sim_radio.isChecked():
            spec = self.sim_spec()
            label = report.sim_label(spec.model, spec.gpu, spec.weights, spec.gpus, spec.time_scale)
        workload = {"prompt_tokens": prompt, "output_tokens": output, "dataset": getattr(self, "dataset_path", None),
                    "ignore_eos": True}  # fmt: skip
        return BenchConfig(endpoint={"url": url, "model": model, "use_keyring": False}, workload=workload,
                           schedule=sched, slo=slo, label=label)  # fmt: skip

    # ========================================================================================== run
    def start_run(self) -> bool:
        from pydantic import ValidationError

        if self.session.running:
            return False
        try:
            config = self.build_config()
        except ValidationError as exc:
            from advisor.validation import validation_message

            self._show_run_error(validation_message(exc))
            return False
        except ValueError as exc:
            self._show_run_error(str(exc))
            return False
        from advisor.redact import SecretError

        try:
            key = self.api_key()
        except SecretError as exc:  # refused before any request, as on the command line
            self._show_run_error(str(exc))
            return False
        self.run_error.hide()
        self._levels = self._plan_levels(config)
        self._run_started_at = time.monotonic()
        setup = None
        if self.sim_radio.isChecked():  # stored with the result: provenance and the predicted curve
            from advisor.domain.run import SimSetup

            spec = self.sim_spec()
            setup = SimSetup(model=spec.model, gpu=spec.gpu, weights=spec.weights, gpus=spec.gpus,
                             time_scale=spec.time_scale, workload=config.workload.model_dump(mode="json"))
        prompts = None
        if self.dataset:
            from advisor.bench.workload import PromptSource

            prompts = PromptSource(config.workload, self.dataset)
        self.live.reset(self._levels, self._run_started_at)
        self._run_inputs = self.benchmark_section()  # what the result of this run will be for
        self.result_view.stale.set_stale(None)
        self.session.start(config, api_key=key, prompts=prompts, db_path=self.db_path,
                           exporter_url=self.exporter_edit.text().strip() or None if self.url_radio.isChecked() else None,
                           sample_text=self.sample_check.isChecked(), setup=setup,
                           project_id=self.project_id)  # fmt: skip
        self.start_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.right.setCurrentIndex(0)
        self._refresh_live()
        return True

    def stop_run(self) -> None:
        self.session.stop()
        self.stop_button.setEnabled(False)

    def _plan_levels(self, config: BenchConfig) -> list[int]:
        sch = config.schedule
        if sch.kind == "single":
            return [1]
        if sch.kind == "ramp":
            levels, c = [], 1
            while c <= sch.max_concurrency:
                levels.append(c)
                c *= 2
            return levels
        if sch.kind == "rate":
            return [sch.max_concurrency]
        return list(sch.concurrency)

    def _show_run_error(self, text: str) -> None:
        self.run_error.setText(text)
        self.run_error.show()
        self.message.emit(text)

    def _on_probe_during_run(self, result: Any) -> None:
        self.probe_result = result
        self._show_probe(result)

    def _on_failed(self, text: str) -> None:
        self._show_run_error(text)

    def _on_finished(self, result: dict[str, Any]) -> None:
        self.start_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.last_result = result
        self._refresh_live()
        self.result_view.show_result(result)
        self._check_result_stale()  # inputs edited during the run: the result is already for older ones
        self.right.setCurrentIndex(1)
        self.run_finished.emit(result)

    # ====================================================================================== live view
    def _on_updated(self) -> None:
        """The drain timer's tick: a staged refresh (texts now, then one chart per short tick)."""
        self.live.levels = self._levels
        self.live.run_started_at = self._run_started_at
        self.live.refresh()

    def _refresh_live(self) -> None:
        """Everything at once (run start and end)."""
        self.live.levels = self._levels
        self.live.run_started_at = self._run_started_at
        self.live.finished = self.last_result is not None and not self.session.running
        self.live.refresh_all()

    # ====================================================================================== contracts
    def preconfigure(self, *, model: str | None = None, gpu: str | None = None, weights: str | None = None,
                     gpus: int | None = None, prompt_tokens: int | None = None, output_tokens: int | None = None,
                     ttft_p99_ms: float | None = None, tpot_p99_ms: float | None = None,
                     shape: str = "ramp") -> None:  # fmt: skip
        """Fill the page for a simulated run of this setup (the wizard's "measure it" hand-off)."""
        self.sim_radio.setChecked(True)
        if model is not None and not self._select(self.sim_model, model):
            self.sim_model.addItem(model, model)
            self._select(self.sim_model, model)
        if gpu is not None and not self._select(self.sim_gpu, gpu):
            self.sim_gpu.addItem(gpu, gpu)
            self._select(self.sim_gpu, gpu)
        if weights is not None and not self._select(self.sim_weights, weights):
            self.sim_weights.addItem(weights, weights)
            self._select(self.sim_weights, weights)
        if gpus is not None:
            self.sim_gpus.setValue(int(gpus))
        if prompt_tokens is not None:
            self.prompt_mean.setValue(int(prompt_tokens))
        if output_tokens is not None:
            self.output_mean.setValue(int(output_tokens))
        if ttft_p99_ms is not None:
            self.ttft_slo.setValue(float(ttft_p99_ms))
        if tpot_p99_ms is not None:
            self.tpot_slo.setValue(float(tpot_p99_ms))
        if shape in SHAPES:
            self.shape_box.setCurrentIndex(SHAPES.index(shape))
        if model is not None:
            self.model_pick.setCurrentText(model)

    def benchmark_section(self) -> Any:
        """What the project file keeps of this page (never the API key)."""
        from advisor.domain.project import BenchmarkSection

        return BenchmarkSection(
            target="simulated" if self.sim_radio.isChecked() else "url", url=self.url_edit.text().strip(),
            model=self.model_pick.currentText().strip(), sim_model=self.sim_model.currentData(),
            sim_gpu=self.sim_gpu.currentData(), sim_weights=self.sim_weights.currentData(),
            sim_gpus=self.sim_gpus.value(), sim_time_scale=self.sim_speed.value(),
            exporter_url=self.exporter_edit.text().strip(), preset=self.preset_box.currentData() or DEFAULT_PRESET,
            prompt_tokens=self.prompt_mean.value(), output_tokens=self.output_mean.value(),
            shape=self.shape_box.currentData(), concurrency=self.concurrency.value(),
            max_concurrency=self.max_concurrency.value(), requests=self.requests.value(),
            duration_s=self.duration.value(), rate=self.rate.value(), ttft_p99_ms=self.ttft_slo.value() or None,
            tpot_p99_ms=self.tpot_slo.value() or None,
        )  # fmt: skip

    def apply_project(self, project: Any) -> None:
        section = getattr(project, "benchmark", None)
        if section is None:
            return
        (self.sim_radio if section.target == "simulated" else self.url_radio).setChecked(True)
        self.url_edit.setText(section.url)
        self.exporter_edit.setText(section.exporter_url)
        for box, value in ((self.sim_model, section.sim_model), (self.sim_gpu, section.sim_gpu),
                           (self.sim_weights, section.sim_weights)):  # fmt: skip
            if value is not None or box is self.sim_weights:
                self._select(box, value)
        self.sim_gpus.setValue(section.sim_gpus)
        self.sim_speed.setValue(section.sim_time_scale)
        self._select(self.preset_box, section.preset)
        self.prompt_mean.setValue(section.prompt_tokens)
        self.output_mean.setValue(section.output_tokens)
        self.shape_box.setCurrentIndex(SHAPES.index(section.shape))
        self.concurrency.setValue(section.concurrency)
        self.max_concurrency.setValue(section.max_concurrency)
        self.requests.setValue(section.requests)
        self.duration.setValue(section.duration_s)
        self.rate.setValue(section.rate)
        self.ttft_slo.setValue(section.ttft_p99_ms or 0)
        self.tpot_slo.setValue(section.tpot_p99_ms or 0)
        self.model_pick.setCurrentText(section.model)
        self._load_key()

    def stop(self) -> None:
        """The app quits: stop the run and the simulated server (no orphan process)."""
        self.session.shutdown()
        if self.launcher is not None:
            self.launcher.stop(grace_s=1.0)
            self.launcher = None
