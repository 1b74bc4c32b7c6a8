"""规模估算 Sizing: pick a model, a format, a workload and GPUs; see what fits and how fast, live.

The inputs live in ``SizingInputs`` (ui/sizing_inputs.py: the Qt-free ``SizingRequest``'s fields plus a
``changed`` signal), shared with the other pages through the window's ``AppState``; the page subscribes to it.
The main estimate (``advisor.sizing.size``, ~2 ms) runs on the GUI thread behind a leading-edge throttle (the
first change shows on the next event-loop turn, a drag gets at most one estimate per 40 ms); the catalog table
and the predicted curve run through ``TaskRunner`` with latest-only keys after a 250 ms pause, so dragging a
slider never blocks the window.

The panels are ``InputsPanel`` (inputs_panel.py: ``ModelPanel``, ``WorkloadPanel``, ``HardwarePanel``) and
``ResultsPanel`` (results_panel.py); what can be picked is ``advisor.sizing.choices.SizingChoices``. The project
file's ``sizing`` section is bound to the inputs by one ``SectionBinding`` (load on open, save).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QSplitter, QVBoxLayout, QWidget

from advisor import catalog
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.project import Project, SizingSection
from advisor.domain.sizing import EngineSettings, SizingRequest, SizingResult, SpeedFactors
from advisor.i18n import tr
from advisor.settings import SizingDefaults
from advisor.sizing import KV_DTYPES, WEIGHT_FORMATS, size
from advisor.sizing.choices import SizingChoices, weights_for_new_model
from advisor.validation import validation_message
from ui.pages.sizing.hardware_panel import TP_CHOICES
from ui.pages.sizing.inputs_panel import InputsPanel
from ui.pages.sizing.results_panel import ResultsPanel
from ui.section_binding import SectionBinding, custom
from ui.sizing_inputs import SizingInputs
from ui.sizing_tasks import catalog_rows, predict_curve
from ui.widgets.custom_gpu_dialog import CustomGpuDialog
from ui.widgets.sizing_overview import MEMORY_NUMBERS, SPEED_NUMBERS
from ui.workers import TaskRunner

THROTTLE_MS = 40  # the main estimate: at most ~25 recomputes per second while a slider moves
SLOW_DEBOUNCE_MS = 250  # catalog table and curve: once the user pauses

# the panels' widgets, read on the page under their old names (tests, screenshots, benchmarks)
_MODEL_WIDGETS = ("model_picker", "import_button", "model_error", "model_info")
_WORKLOAD_WIDGETS = ("weights", "kv_dtype", "context_slider", "context_spin", "concurrency_slider",
                     "concurrency_spin", "prefix_spin", "label_prefix", "label_concurrency")  # fmt: skip
_HARDWARE_WIDGETS = ("gpu_picker", "gpu_count", "engine_profile", "engine_switch", "advanced_toggle", "advanced_box",
                     "gpu_util", "mem_fraction", "swa_ratio", "mamba_ratio", "batched_tokens", "max_seqs", "engine_version",
                     "label_engine_profile")  # fmt: skip
_RESULT_WIDGETS = ("overview", "results_tabs", "catalog_table", "table_caption", "curve")
_OVERVIEW_WIDGETS = ("verdict", "memory_bar", "numbers", "number_names", "advice", "command", "explanation")


class SizingPage(QWidget):
    inputs_changed = Signal()  # a user edit (marks the project modified)
    message = Signal(str)  # for the status bar
    results_shown = Signal()  # the overview shows the latest estimate (tests and the repaint benchmark wait on it)
    catalog_shown = Signal()
    curve_shown = Signal()

    # numbers of the overview, in display order (defined with the overview)
    MEMORY_NUMBERS = MEMORY_NUMBERS
    SPEED_NUMBERS = SPEED_NUMBERS

    def __init__(self, runner: TaskRunner, defaults: SizingDefaults | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.setAcceptDrops(True)
        self.choices = SizingChoices()
        self.startup_problem = self.choices.startup_problem
        self.result: SizingResult | None = None
        self.last_error: str | None = None
        self.last_compute_ms = 0.0
        self._dark = False

        defaults = defaults or SizingDefaults()
        model, gpu = self.choices.model_or_first(defaults.model_id), self.choices.gpu_or_first(defaults.gpu_id)
        self.inputs = SizingInputs(model, gpu, self)
        self.inputs.changed.connect(self._schedule)
        self.binding = SectionBinding(SizingSection, {
            "model_source": custom(lambda: self.inputs.model_source, lambda v: setattr(self.inputs, "model_source", v)),
            "model_file": custom(lambda: self.inputs.model_file, lambda v: setattr(self.inputs, "model_file", v)),
            "gpu_source": custom(lambda: self.inputs.gpu_source, lambda v: setattr(self.inputs, "gpu_source", v)),
            "request": custom(self.inputs.request, self._load_request),
            # a record of what was shown; an opened project is estimated afresh, never shown from the file
            "result": custom(lambda: self.result.model_dump(mode="json", exclude={"request"}) if self.result else None,
                             lambda _saved: None),
        })  # fmt: skip

        self._last_compute = 0.0
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.timeout.connect(self.recompute)
        self._slow = QTimer(self)
        self._slow.setSingleShot(True)
        self._slow.setInterval(SLOW_DEBOUNCE_MS)
        self._slow.timeout.connect(self._start_slow_work)

        self.inputs_panel = InputsPanel(self.inputs, self.choices.find_model)
        self.inputs_scroll, self.input_error = self.inputs_panel, self.inputs_panel.input_error
        self.model_panel, self.hardware = self.inputs_panel.model, self.inputs_panel.hardware
        self.model_panel.picked.connect(self._on_model_picked)
        self.model_panel.import_requested.connect(self.import_config)
        self.inputs_panel.workload.edited.connect(lambda values: self._user_edit(**values))
        self.hardware.edited.connect(lambda values: self._user_edit(**values))
        self.speculative = self.inputs_panel.speculative  # vLLM's speculative decoding (speculative_panel.py)
        self.speculative.edited.connect(lambda values: self._user_edit(**values))
        self.hardware.picked.connect(self._on_gpu_picked)
        self.hardware.describe_gpu.connect(self._on_custom_gpu_clicked)
        self.hardware.problem.connect(self._show_problem)
        self.results_panel = ResultsPanel()
        self.results_panel.overview.message.connect(self.message)
        self.results_panel.gpu_chosen.connect(self._on_table_gpu_chosen)
        self.results_panel.catalog_shown.connect(self.catalog_shown)
        self.results_panel.curve_shown.connect(self.curve_shown)
        for panel, names in ((self.model_panel, _MODEL_WIDGETS), (self.inputs_panel.workload, _WORKLOAD_WIDGETS),
                             (self.hardware, _HARDWARE_WIDGETS), (self.results_panel, _RESULT_WIDGETS),
                             (self.results_panel.overview, _OVERVIEW_WIDGETS)):  # fmt: skip
            for name in names:
                setattr(self, name, getattr(panel, name))
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.inputs_panel)
        splitter.addWidget(self.results_panel)  # greyed while the inputs are invalid (old figures)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([380, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(splitter)

        self.set_defaults(defaults)
        self.retranslate()
        self.recompute()

    @property
    def catalog_request(self) -> SizingRequest | None:
        """The inputs the All GPUs table was computed for (a slow table can lag the overview)."""
        return self.results_panel.catalog_request

    def _find_model(self, model_id: str) -> ModelSpec | None:
        return self.choices.find_model(model_id)

    # ------------------------------------------------------------------ language and theme
    def retranslate(self) -> None:
        self.inputs_panel.retranslate()
        self.results_panel.retranslate()
        self._refill_pickers()  # picker labels carry translated suffixes ("imported", "custom")
        last_import = self.model_panel.last_import
        if not self.model_error.isHidden() and last_import:
            self.import_config(last_import)  # an import error shown before the switch, in the new language
        self.recompute()  # the core writes its advice (and its problems) in the current language
        self._schedule_slow()

    def apply_theme(self) -> None:
        # the application's palette: the page's own lags behind a live theme switch (see the Benchmark page)
        self._dark = QApplication.palette().window().color().lightness() < 128
        self.results_panel.set_theme(self._dark)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()

    def _refill_pickers(self) -> None:
        self.model_picker.set_items(self.choices.model_items(), self.inputs.fields["model"].id)
        self.gpu_picker.set_items(self.choices.gpu_items(), self.inputs.fields["gpu"].id)
        self.speculative.set_models(self.choices.model_items())

    # ------------------------------------------------------------------ defaults and projects
    def set_defaults(self, defaults: SizingDefaults) -> None:
        model = self.choices.model_or_first(defaults.model_id)
        gpu = self.choices.gpu_or_first(defaults.gpu_id)
        self.inputs.model_source, self.inputs.model_file, self.inputs.gpu_source = "preset", None, "catalog"
        self.inputs.update(
            model=model,
            gpu=gpu,
            weights=defaults.weights if defaults.weights in WEIGHT_FORMATS else "bf16",
            kv_dtype=defaults.kv_dtype if defaults.kv_dtype in KV_DTYPES else "bf16",
            context=defaults.context,
            concurrency=defaults.concurrency,
            gpus=defaults.gpus if defaults.gpus in TP_CHOICES else 1,
            engine=EngineSettings(),
            engine_profile="vllm",
            shared_prefix_tokens=0,
            factors=SpeedFactors(),
            speculative=None,
        )
        self.model_error.hide()
        self._sync_widgets()

    def to_project(self) -> Project:
        """The project's ``sizing`` section (raises ValidationError when the inputs are invalid)."""
        return Project(sizing=self.binding.save())

    def apply_project(self, project: Project) -> None:
        if project.sizing is None:
            self.set_defaults(SizingDefaults())
            return
        self.binding.load(project.sizing)
        self.model_error.hide()
        self._refill_pickers()
        self._sync_widgets()
        self.recompute()

    def _load_request(self, req: SizingRequest) -> None:
        """A saved request into the inputs; a model or GPU this catalog lacks (imported, described, or changed since)
        joins the pickers as the user's own."""
        if self.inputs.model_source == "imported" or self.choices.find_model(req.model.id) != req.model:
            self.choices.imported[req.model.id] = req.model
        if self.inputs.gpu_source == "custom" or self.choices.find_gpu(req.gpu.id) != req.gpu:
            self.choices.custom_gpus[req.gpu.id] = req.gpu
        self.inputs.update(**{name: getattr(req, name) for name in (
            "model", "gpu", "weights", "kv_dtype", "context", "concurrency", "gpus", "engine", "engine_profile",
            "shared_prefix_tokens", "factors", "speculative")})  # fmt: skip

    # ------------------------------------------------------------------ widget ↔ inputs
    def _sync_widgets(self) -> None:
        """Show the inputs in the widgets without feeding the change back."""
        self._refill_pickers()
        self.inputs_panel.workload.show_fields(self.inputs.fields)
        self.hardware.show_fields(self.inputs.fields)
        self.speculative.show_settings(self.inputs.fields["speculative"])
        self._show_model_info()

    def _user_edit(self, **values: Any) -> None:
        before = dict(self.inputs.fields)
        self.inputs.update(**values)
        if self.inputs.fields != before:
            self.inputs_changed.emit()

    def _show_problem(self, text: str | None) -> None:
        if text:
            self.last_error = text
        self.inputs_panel.show_problem(text)

    def _on_model_picked(self, model_id: object) -> None:
        model = self.choices.find_model(str(model_id))
        if model is None:
            return
        self.inputs.model_source = "imported" if model.id in self.choices.imported else "preset"
        self.model_error.hide()
        self._pick_model(model)
        self._show_model_info()

    def _pick_model(self, model: ModelSpec) -> None:
        """A new model, in its checkpoint's own format unless the user chose another (``weights_for_new_model``)."""
        fields = self.inputs.fields
        self._user_edit(model=model, weights=weights_for_new_model(fields["weights"], fields["model"], model))
        self._sync_widgets()

    def _on_gpu_picked(self, gpu_id: object) -> None:
        gpu = self.choices.find_gpu(str(gpu_id))
        if gpu is None:
            return
        self.inputs.gpu_source = "custom" if gpu.user_defined else "catalog"
        self._user_edit(gpu=gpu)

    def _on_table_gpu_chosen(self, gpu_id: object, gpus_needed: int | None) -> None:
        self.gpu_picker.select_data(gpu_id, emit=True)
        if gpus_needed and gpus_needed in TP_CHOICES:
            self.gpu_count.setCurrentIndex(self.gpu_count.findData(gpus_needed))

    # ------------------------------------------------------------------ import config.json, custom GPU
    def import_config(self, path: str | Path) -> bool:
        """Import a Hugging Face config.json; errors go next to the field, never a traceback."""
        model = self.model_panel.read_config(path)
        if model is None:
            return False
        self.choices.imported[model.id] = model
        self.inputs.model_source = "imported"
        self.inputs.model_file = str(path)
        self.model_picker.set_items(self.choices.model_items(), model.id)
        self._pick_model(model)
        self._show_model_info()
        self.message.emit(tr("ui.sizing.imported_ok", name=model.name))
        return True

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt override
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and urls[0].toLocalFile().lower().endswith(".json"):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt override
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.import_config(urls[0].toLocalFile())

    def _on_custom_gpu_clicked(self) -> None:
        dialog = CustomGpuDialog(self.inputs.fields["gpu"], self)
        if not self.exec_dialog(dialog) or dialog.gpu is None:
            return
        self.add_custom_gpu(dialog.gpu, save=dialog.save.isChecked())

    def exec_dialog(self, dialog) -> bool:
        """Seam for tests."""
        return bool(dialog.exec())

    def add_custom_gpu(self, gpu: GpuSpec, save: bool = False) -> None:
        if save:
            try:
                catalog.add_user_gpu(gpu)
            except (OSError, ValueError) as exc:
                self.message.emit(tr("ui.sizing.custom_not_saved", error=str(exc)))
        self.choices.custom_gpus[gpu.id] = gpu
        self.inputs.gpu_source = "custom"
        self.gpu_picker.set_items(self.choices.gpu_items(), gpu.id)
        self._user_edit(gpu=gpu)

    # ------------------------------------------------------------------ computing
    def _schedule(self) -> None:
        # Leading-edge throttle: the first change after a quiet spell is shown on the next event-loop turn;
        # changes during a drag are coalesced to at most one estimate per THROTTLE_MS.
        if not self._throttle.isActive():
            since_last = (time.perf_counter() - self._last_compute) * 1000
            self._throttle.start(0 if since_last >= THROTTLE_MS else int(THROTTLE_MS - since_last))
        self._schedule_slow()

    def _schedule_slow(self) -> None:
        self._slow.start()  # restart: the slow work waits for a pause

    def stop(self) -> None:
        self._throttle.stop()
        self._slow.stop()

    def recompute(self) -> None:
        """The main estimate, on the GUI thread (it takes well under a millisecond)."""
        self._throttle.stop()
        started = self._last_compute = time.perf_counter()
        try:
            request = self.inputs.request()
            result = size(request)
        except ValidationError as exc:
            self._show_problem(validation_message(exc))  # in the UI's language, field by field
        except (ValueError, ArithmeticError) as exc:
            self._show_problem(tr("ui.sizing.cannot_estimate", reason=str(exc)))
            self.last_error = str(exc)
        else:
            self._show_problem(None)
            self.last_error = None
            self.result = result
            self.results_panel.set_stale(None)
            self._show_model_info()
            self.hardware.show_result(result)
            self.speculative.show_result(result)
            self.overview.show_result(result)
            self.last_compute_ms = (time.perf_counter() - started) * 1000
            self.results_shown.emit()
            return
        if self.result is not None:  # the figures on screen are for the last valid inputs: say so
            self.results_panel.set_stale(tr("ui.stale.sizing"))

    def _start_slow_work(self) -> None:
        try:
            request = self.inputs.request()
        except ValidationError:
            return
        self.results_panel.computing_catalog()
        self.runner.submit(
            catalog_rows, request, self.choices.all_gpus(),
            on_result=lambda rows, r=request: self.results_panel.show_catalog(rows, r),
            on_error=self.results_panel.catalog_failed, key="sizing-catalog",
        )  # fmt: skip
        self.curve.set_requested(request.concurrency)
        self.runner.submit(predict_curve, request, on_result=self.results_panel.show_curve,
                           on_error=self.results_panel.curve_failed, key="sizing-curve")  # fmt: skip

    def _show_model_info(self) -> None:
        for picker in (self.model_picker, self.gpu_picker):
            if not picker.lineEdit().hasFocus():
                picker.lineEdit().setCursorPosition(0)  # a long name shows its start, not its end
        self.model_panel.show_model(self.inputs.fields["model"])
        self.hardware.show_gpu(self.inputs.fields["gpu"])
