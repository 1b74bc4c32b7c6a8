"""压测 Benchmark: pick a target (the embedded simulated server or a URL), connect, choose a workload and a load
shape, watch it run live (tokens, latency, concurrency, errors, GPU), and read the result.

The page puts its panels together (ui/pages/bench/: the target, the simulated server's process, the workload,
Start/Stop, the project section's one mapping) and owns the run: the load runs in ``ui.bench_session.BenchSession``
(one background task, events drained at ≤10 Hz into ring buffers); the simulated server runs as a child process
(``SimController``); the result is drawn by ``ui.widgets.bench_result.ResultView`` from ``advisor.bench.report``.
Runs land in the bench store at its default path, so the History page sees them. Other pages reach it through
its contracts (``preconfigure``, ``benchmark_section``, ``apply_project``) and signals, never through its widgets.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.presets import DEFAULT_PRESET
from advisor.bench.run_config import auto_client_processes, run_levels
from advisor.domain.bench import BenchConfig
from advisor.i18n import tr
from ui.bench_session import BenchSession
from ui.pages.bench.run_config import build_config
from ui.pages.bench.run_controls import RunControls
from ui.pages.bench.section import benchmark_binding
from ui.pages.bench.styles import ERROR_STYLE, OK_STYLE, SIM_BADGE
from ui.pages.bench.target_panel import TargetPanel
from ui.pages.bench.workload_panel import SHAPES, WorkloadPanel
from ui.widgets.bench_live import LiveView
from ui.widgets.bench_result import ResultView
from ui.widgets.lazy_charts import LazyAliases
from ui.workers import TaskRunner

if TYPE_CHECKING:
    from ui.sizing_inputs import SizingInputs

# what other modules and tools import from here
__all__ = ["ERROR_STYLE", "OK_STYLE", "SHAPES", "SIM_BADGE", "BenchmarkPage", "auto_client_processes"]

_log = logging.getLogger(__name__)

# The panels' widgets under the page's own names (tests, tools and the screenshot scripts read these).
_TARGET_NAMES = ("sim_radio", "url_radio", "connect_button", "model_pick", "model_label", "probe_label",
                 "probe_mark")  # fmt: skip
_SIM_NAMES = ("sim_badge", "sim_model", "sim_gpu", "sim_weights", "sim_gpus", "sim_speed", "sim_from_sizing",
              "sim_button", "sim_status", "sim_labels", "sim_form")  # fmt: skip
_URL_NAMES = ("url_edit", "key_edit", "key_note", "exporter_edit", "ca_edit", "ca_button", "ca_note", "url_labels",
              "client_cert_edit", "client_cert_button", "client_key_edit", "client_key_button", "client_note")
_WORKLOAD_NAMES = ("preset_box", "preset_desc", "prompt_mean", "output_mean", "file_button", "file_clear",
                   "file_label", "hist", "hist_bars", "shape_box", "concurrency", "max_concurrency", "requests",
                   "duration", "rate", "ttft_slo", "tpot_slo", "client_processes", "sample_check", "workload_form",
                   "w_labels")  # fmt: skip
_CONTROL_NAMES = ("start_button", "stop_button", "run_error")
_LIVE_NAMES = ("step_label", "progress", "counts_label", "sample_title", "sample_text", "ttft_plot", "itl_plot",
               "tok_plot", "conc_plot", "ttft_scatter", "itl_p50", "itl_p99", "tok_curve", "active_curve",
               "target_curve", "error_scatter", "gpu_panel", "itl_legend", "conc_legend")  # fmt: skip


class BenchmarkPage(LazyAliases, QWidget):
    message = Signal(str)
    sim_state_changed = Signal(str)  # "starting" | "running" | "stopped" | "error"
    probed = Signal(object)  # ProbeResult (or None on error)
    run_finished = Signal(object)  # the result dict
    live_updated = Signal()  # a live refresh was drawn (tests wait on it)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None, *,
                 sizing_inputs: SizingInputs | None = None, db_path: str | Path | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.runner = runner
        self.sizing_inputs = sizing_inputs  # the Sizing page's inputs (shared state): "Use the Sizing choice"
        self.db_path = db_path
        self.project_id: str | None = None  # the open saved project (set by the window); runs are stored with it
        self.session = BenchSession(runner, self)
        self.session.updated.connect(self._on_updated)
        self.session.finished.connect(self._on_finished)
        self.session.failed.connect(self._on_failed)
        self.session.probe_done.connect(self._on_probe_during_run)
        self.last_result: dict[str, Any] | None = None
        self._run_inputs: Any = None  # benchmark_section() of the run whose result is shown
        self._run_started_at = 0.0
        self._levels: list[int] = []
        self._dark = False
        self._build()
        self.section = benchmark_binding(self.target, self.workload)
        self.target.sim.fill_pickers()
        self.workload.fill_presets()
        self.use_sizing_choice()
        self.workload.preset_box.setCurrentIndex(max(0, self.workload.preset_box.findData(DEFAULT_PRESET)))
        self.workload._apply_preset()
        self.workload.shape_box.setCurrentIndex(SHAPES.index("ramp"))
        self.workload._on_shape()
        self.target._on_target_kind()
        self.retranslate()

    # ============================================================================================ build
    def _build(self) -> None:
        self.target = TargetPanel(self.runner)
        self.controller = self.target.controller
        self.controller.state_changed.connect(self.sim_state_changed)
        self.controller.stopping.connect(self._on_sim_stopping)
        self.target.probed.connect(self.probed)
        self.target.sim.sim_from_sizing.clicked.connect(self.use_sizing_choice)
        self.workload = WorkloadPanel()
        self.controls = RunControls()
        self.controls.start_button.clicked.connect(self.start_run)
        self.controls.stop_button.clicked.connect(self.stop_run)
        self.target_box, self.workload_box = self.target, self.workload
        for owner, names in ((self.target, _TARGET_NAMES), (self.target.sim, _SIM_NAMES),
                             (self.target.url, _URL_NAMES), (self.workload, _WORKLOAD_NAMES),
                             (self.controls, _CONTROL_NAMES)):  # fmt: skip
            self.alias(owner, names)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.addWidget(self.target)
        ll.addWidget(self.workload)
        ll.addWidget(self.controls)
        ll.addStretch(1)
        for edit in left.findChildren(QLineEdit):  # every input of the form: the result beside it may go stale
            edit.textChanged.connect(self._check_result_stale)
        for box in left.findChildren(QSpinBox):
            box.valueChanged.connect(self._check_result_stale)
        for dbox in left.findChildren(QDoubleSpinBox):
            dbox.valueChanged.connect(self._check_result_stale)
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
        self.alias(self.live, _LIVE_NAMES)  # its charts are read through it: naming them does not build them
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

    # ======================================================================================== language
    def retranslate(self) -> None:
        self.title.setText(tr("ui.page.benchmark"))
        self.body.setText(tr("bench.page.intro"))
        self.target.retranslate()
        self.workload.retranslate()
        self.controls.retranslate()
        self.right.setTabText(0, tr("bench.page.tab_live"))
        self.right.setTabText(1, tr("bench.page.tab_result"))
        self.live.retranslate()
        self.result_view.retranslate()

    def apply_theme(self) -> None:
        # the application's palette: a widget's own lags behind a theme switch until its change event arrives
        self._dark = QApplication.palette().window().color().lightness() < 128
        self.live.set_theme(self._dark)
        self.workload.set_theme(self._dark)
        self.result_view.set_theme(self._dark)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.apply_theme()

    # ========================================================================================== target
    @property
    def launcher(self) -> Any:
        return self.controller.launcher

    @property
    def sim_url(self) -> str | None:
        return self.controller.url

    @sim_url.setter
    def sim_url(self, url: str | None) -> None:
        self.controller.url = url

    @property
    def probe_result(self) -> Any:
        return self.target.probe_result

    @property
    def keys(self) -> Any:
        return self.target.url.keys

    def target_url(self) -> str | None:
        return self.target.target_url()

    def sim_spec(self) -> Any:
        return self.target.sim.spec()

    def use_sizing_choice(self) -> None:
        """The model/GPU/format/GPU count chosen on the Sizing page become the simulated server's defaults."""
        self.target.sim.use_sizing_fields(self.sizing_inputs.fields if self.sizing_inputs is not None else None)

    def toggle_sim(self) -> None:
        self.target.sim.toggle()

    def start_sim(self) -> None:
        self.controller.start(self.sim_spec())

    def stop_sim(self) -> None:
        self.controller.stop()

    def _on_sim_stopping(self) -> None:
        if self.session.running:  # the run's server is going away: stop the run first
            self.session.stop()

    def connect_target(self) -> None:
        self.target.connect_target()

    def set_dataset(self, path: str | Path | None) -> bool:
        return self.workload.set_dataset(path)

    def _check_result_stale(self, *_args: Any) -> None:
        if self._run_inputs is None or self.last_result is None or self.session.running:
            return
        try:
            changed = _measured(self.benchmark_section()) != _measured(self._run_inputs)
        except ValueError:  # a field that no longer validates is a change too
            changed = True
        self.result_view.stale.set_stale(tr("ui.stale.bench_result") if changed else None)

    # ========================================================================================== run
    def build_config(self) -> BenchConfig:
        """The run's configuration from the fields (raises ValueError with a field-level message)."""
        return build_config(self.target, self.workload)

    def start_run(self) -> bool:
        from pydantic import ValidationError

        from advisor.redact import SecretError
        from advisor.tls import TlsFileError

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
        try:
            key = self.target.api_key()
            ca_bundle = self.target.ca_bundle()
            client_cert = self.target.client_cert()
        except (SecretError, TlsFileError) as exc:  # refused before any request, as on the command line
            self._show_run_error(str(exc))
            return False
        self.controls.clear_error()
        self._levels = run_levels(config.schedule)
        self._run_started_at = time.monotonic()
        setup = None
        if self.target.is_sim():  # stored with the result: provenance and the predicted curve
            from advisor.domain.run import SimSetup

            spec = self.sim_spec()
            setup = SimSetup(model=spec.model, gpu=spec.gpu, weights=spec.weights, gpus=spec.gpus,
                             time_scale=spec.time_scale, workload=config.workload.model_dump(mode="json"))
        prompts = None
        if self.workload.dataset:
            from advisor.bench.workload import PromptSource

            prompts = PromptSource(config.workload, self.workload.dataset)
        self.live.reset(self._levels, self._run_started_at)
        self.live.gpu_panel.set_ended(False)
        self._run_inputs = self.benchmark_section()  # what the result of this run will be for
        self.result_view.stale.set_stale(None)
        exporter = None if self.target.is_sim() else self.target.url.exporter_edit.text().strip() or None
        self.session.start(config, api_key=key, prompts=prompts, db_path=self.db_path, exporter_url=exporter,
                           sample_text=self.workload.sample_check.isChecked(), setup=setup, project_id=self.project_id,
                           ca_bundle=ca_bundle, client_cert=client_cert)  # fmt: skip
        self.controls.set_running(True)
        self.right.setCurrentIndex(0)
        self._refresh_live()
        return True

    def stop_run(self) -> None:
        self.session.stop()
        self.controls.stop_button.setEnabled(False)

    def _show_run_error(self, text: str) -> None:
        self.controls.show_error(text)
        self.message.emit(text)

    def _on_probe_during_run(self, result: Any) -> None:
        self.target.show_probe(result)

    def _on_failed(self, text: str) -> None:
        self._show_run_error(text)
        if not self.session.running:  # the engine raised: no result follows, the run is over all the same
            self.controls.set_running(False)
            self.live.gpu_panel.set_ended(True)

    def _on_finished(self, result: dict[str, Any]) -> None:
        self.controls.set_running(False)
        self.last_result = result
        self._refresh_live()
        self.live.gpu_panel.set_ended(True)  # its last reading stays, greyed: nothing samples the GPU between runs
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
        self.section.prefill(target="simulated", sim_model=model, sim_gpu=gpu, sim_weights=weights, sim_gpus=gpus,
                             prompt_tokens=prompt_tokens, output_tokens=output_tokens, ttft_p99_ms=ttft_p99_ms,
                             tpot_p99_ms=tpot_p99_ms, shape=shape if shape in SHAPES else None,
                             model=model)  # fmt: skip

    def benchmark_section(self) -> Any:
        """What the project file keeps of this page (never the API key)."""
        return self.section.save()

    def apply_project(self, project: Any) -> None:
        if project.benchmark is None:
            return
        self.section.load(project.benchmark)
        self.target.url.load_key()

    def stop(self) -> None:
        """The app quits: stop the run and the simulated server (no orphan process)."""
        self.session.shutdown()
        self.controller.shutdown()


def _measured(section: Any) -> dict[str, Any]:
    """A section's inputs to the measurement: the CA bundle and the client certificate decide whom to trust and who
    we are, not what is measured."""
    return dict(section.model_dump(exclude={"ca_bundle", "client_cert", "client_key"}))
