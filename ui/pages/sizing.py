"""规模估算 Sizing: pick a model, a format, a workload and GPUs; see what fits and how fast, live.

The inputs live in ``SizingInputs`` (ui/sizing_inputs.py: the Qt-free ``SizingRequest``'s fields plus a
``changed`` signal); the page subscribes to it. The main estimate (``advisor.sizing.size``, ~2 ms) runs on
the GUI thread behind a leading-edge throttle (the first change shows on the next event-loop turn, a drag
gets at most one estimate per 40 ms); the catalog table and the predicted curve run through ``TaskRunner``
with latest-only keys after a 250 ms pause, so dragging a slider never blocks the window. The results are
drawn by ``SizingOverview`` (ui/widgets/sizing_overview.py).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from advisor import catalog
from advisor.domain.engine_profiles import PROFILE_IDS
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.project import Project, SizingSection
from advisor.domain.sizing import EngineSettings, SizingRequest, SizingResult, SpeedFactors
from advisor.i18n import tr
from advisor.settings import SizingDefaults
from advisor.sizing import KV_DTYPES, WEIGHT_FORMATS, size
from advisor.units import (
    format_bandwidth,
    format_context,
    format_gib,
    format_tflops,
)
from advisor.validation import validation_message, validation_problems
from advisor.versions import release_number
from ui.sizing_inputs import SizingInputs
from ui.sizing_tasks import catalog_rows, find_predictor, predict_curve
from ui.widgets.catalog_table import CatalogTable
from ui.widgets.custom_gpu_dialog import CustomGpuDialog
from ui.widgets.latency_plot import LatencyPlot
from ui.widgets.search_combo import SearchCombo
from ui.widgets.sizing_overview import ERROR_STYLE, MEMORY_NUMBERS, SPEED_NUMBERS, SizingOverview
from ui.widgets.stale import StalePanel
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

CONTEXT_STEPS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576)
TP_CHOICES = (1, 2, 4, 8, 16)
THROTTLE_MS = 40  # the main estimate: at most ~25 recomputes per second while a slider moves
SLOW_DEBOUNCE_MS = 250  # catalog table and curve: once the user pauses



def _unbroken(figure: str) -> str:
    """A figure with its unit that a wrapping label keeps on one line (no-break space, word joiner after '/')."""
    return figure.replace(" ", "\u00a0").replace("/", "/\u2060")

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
        self.startup_problem: str | None = None
        self.models: list[ModelSpec] = list(catalog.load_models())  # built-in presets: a failure is a packaging bug
        try:
            self.gpus: list[GpuSpec] = list(catalog.load_gpus())
        except catalog.CatalogError as exc:
            # The user's own GPU file is damaged: keep working with the built-in catalog and say so.
            self.gpus = list(catalog._builtin_gpus())
            self.startup_problem = tr("ui.sizing.user_gpus_damaged", error=str(exc))
        self.imported: dict[str, ModelSpec] = {}  # id → imported model (kept in the picker)
        self.custom_gpus: dict[str, GpuSpec] = {g.id: g for g in self.gpus if g.user_defined}
        self.result: SizingResult | None = None
        self.catalog_request: SizingRequest | None = None  # the inputs the All GPUs table was computed for
        self.last_error: str | None = None
        self.last_compute_ms = 0.0
        self._updating_widgets = False
        self._dark = False

        defaults = defaults or SizingDefaults()
        self.inputs = SizingInputs(self._model_or_first(defaults.model_id), self._gpu_or_first(defaults.gpu_id), self)
        self.inputs.changed.connect(self._schedule)

        self._last_compute = 0.0
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.timeout.connect(self.recompute)
        self._slow = QTimer(self)
        self._slow.setSingleShot(True)
        self._slow.setInterval(SLOW_DEBOUNCE_MS)
        self._slow.timeout.connect(self._start_slow_work)

        self._build_inputs()
        self._build_results()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.inputs_scroll)
        self.results_panel = StalePanel(self.results_tabs)  # greyed while the inputs are invalid (old figures)
        splitter.addWidget(self.results_panel)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([380, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(splitter)

        self.set_defaults(defaults)
        self.retranslate()
        self.recompute()

    # ------------------------------------------------------------------ catalog helpers
    def _model_or_first(self, model_id: str) -> ModelSpec:
        for m in self.models:
            if m.id == model_id:
                return m
        return self.models[0]

    def _gpu_or_first(self, gpu_id: str) -> GpuSpec:
        for g in self.gpus:
            if g.id == gpu_id:
                return g
        return self.gpus[0]

    def _model_items(self) -> list[tuple[str, object]]:
        items: list[tuple[str, object]] = [(m.name, m.id) for m in self.models]
        items += [(f"{m.name} ({tr('ui.sizing.imported')})", m.id) for m in self.imported.values()]
        return items

    def _gpu_items(self) -> list[tuple[str, object]]:
        items = []
        for g in self.gpus:
            suffix = f" ({tr('ui.sizing.custom')})" if g.user_defined else ""
            items.append((f"{g.name}{suffix}", g.id))
        for g in self.custom_gpus.values():
            if all(g.id != x.id for x in self.gpus):
                items.append((f"{g.name} ({tr('ui.sizing.custom')})", g.id))
        return items

    def _find_model(self, model_id: str) -> ModelSpec | None:
        return self.imported.get(model_id) or next((m for m in self.models if m.id == model_id), None)

    def _find_gpu(self, gpu_id: str) -> GpuSpec | None:
        return self.custom_gpus.get(gpu_id) or next((g for g in self.gpus if g.id == gpu_id), None)

    # ------------------------------------------------------------------ inputs panel
    def _build_inputs(self) -> None:
        panel = QWidget()
        col = QVBoxLayout(panel)
        col.setSpacing(10)
        self.intro = QLabel()
        self.intro.setObjectName("intro")
        self.intro.setWordWrap(True)
        col.addWidget(self.intro)

        # model
        self.model_box = QGroupBox()
        form = QFormLayout(self.model_box)
        self.model_picker = SearchCombo()
        self.model_picker.setObjectName("modelPicker")
        self.model_picker.picked.connect(self._on_model_picked)
        self.import_button = QPushButton()
        self.import_button.setObjectName("importConfig")
        self.import_button.clicked.connect(self._on_import_clicked)
        self.model_error = QLabel()
        self.model_error.setObjectName("modelError")
        self.model_error.setWordWrap(True)
        self.model_error.setStyleSheet(ERROR_STYLE)
        self.model_error.hide()
        self.model_info = QLabel()
        self.model_info.setWordWrap(True)
        self.model_info.setObjectName("modelInfo")
        self.drop_hint = QLabel()
        self.drop_hint.setWordWrap(True)
        self.drop_hint.setStyleSheet("color: palette(mid)")
        self.label_model = QLabel()
        form.addRow(self.label_model, self.model_picker)
        form.addRow("", self.import_button)
        form.addRow(self.model_error)  # whole rows: the field column is narrow
        form.addRow(self.model_info)
        form.addRow(self.drop_hint)

        # precision
        self.precision_box = QGroupBox()
        form = QFormLayout(self.precision_box)
        self.weights = QComboBox()
        self.weights.setObjectName("weights")
        for fmt in WEIGHT_FORMATS.values():
            self.weights.addItem(fmt.label, fmt.id)
        self.weights.currentIndexChanged.connect(lambda _i: self._user_edit(weights=self.weights.currentData()))
        self.kv_dtype = QComboBox()
        self.kv_dtype.setObjectName("kvDtype")
        for name in KV_DTYPES:
            self.kv_dtype.addItem(name.upper(), name)
        self.kv_dtype.currentIndexChanged.connect(lambda _i: self._user_edit(kv_dtype=self.kv_dtype.currentData()))
        self.label_weights, self.label_kv = QLabel(), QLabel()
        form.addRow(self.label_weights, self.weights)
        form.addRow(self.label_kv, self.kv_dtype)

        # workload
        self.workload_box = QGroupBox()
        form = QFormLayout(self.workload_box)
        self.context_slider = QSlider(Qt.Orientation.Horizontal)
        self.context_slider.setObjectName("contextSlider")
        self.context_slider.setRange(0, len(CONTEXT_STEPS) - 1)
        self.context_slider.setPageStep(1)
        self.context_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.context_slider.valueChanged.connect(self._on_context_slider)
        self.context_spin = QSpinBox()
        self.context_spin.setObjectName("context")
        self.context_spin.setRange(16, 4_194_304)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSuffix(" tokens")
        self.context_spin.setKeyboardTracking(False)
        self.context_spin.valueChanged.connect(lambda v: self._user_edit(context=v))
        self.concurrency_slider = QSlider(Qt.Orientation.Horizontal)
        self.concurrency_slider.setObjectName("concurrencySlider")
        self.concurrency_slider.setRange(1, 256)
        self.concurrency_slider.valueChanged.connect(self._on_concurrency_slider)
        self.concurrency_spin = QSpinBox()
        self.concurrency_spin.setObjectName("concurrency")
        self.concurrency_spin.setRange(1, 100_000)
        self.concurrency_spin.setKeyboardTracking(False)
        self.concurrency_spin.valueChanged.connect(lambda v: self._user_edit(concurrency=v))
        self.label_context, self.label_concurrency = QLabel(), QLabel()
        form.addRow(self.label_context, self._pair(self.context_slider, self.context_spin))
        form.addRow(self.label_concurrency, self._pair(self.concurrency_slider, self.concurrency_spin))
        self.prefix_spin = QSpinBox()  # a system prompt every request shares: prefix caching stores it once
        self.prefix_spin.setObjectName("sharedPrefixTokens")
        self.prefix_spin.setRange(0, 4_194_304)
        self.prefix_spin.setSingleStep(256)
        self.prefix_spin.setSuffix(" tokens")
        self.prefix_spin.setKeyboardTracking(False)
        self.prefix_spin.valueChanged.connect(lambda v: self._user_edit(shared_prefix_tokens=v))
        self.label_prefix = QLabel()
        form.addRow(self.label_prefix, self.prefix_spin)

        # hardware
        self.hardware_box = QGroupBox()
        form = QFormLayout(self.hardware_box)
        self.gpu_picker = SearchCombo()
        self.gpu_picker.setObjectName("gpuPicker")
        self.gpu_picker.picked.connect(self._on_gpu_picked)
        self.custom_gpu_button = QPushButton()
        self.custom_gpu_button.setObjectName("customGpu")
        self.custom_gpu_button.clicked.connect(self._on_custom_gpu_clicked)
        self.gpu_count = QComboBox()
        self.gpu_count.setObjectName("gpuCount")
        for n in TP_CHOICES:
            self.gpu_count.addItem(str(n), n)
        self.gpu_count.currentIndexChanged.connect(lambda _i: self._user_edit(gpus=self.gpu_count.currentData()))
        self.gpu_info = QLabel()
        self.gpu_info.setWordWrap(True)
        self.engine_profile = QComboBox()  # which server runs it: serving overhead, batch behaviour at saturation
        self.engine_profile.setObjectName("engineProfile")
        for pid in PROFILE_IDS:
            self.engine_profile.addItem(pid, pid)
        self.engine_profile.currentIndexChanged.connect(
            lambda _i: self._user_edit(engine_profile=self.engine_profile.currentData())
        )
        self.label_gpu, self.label_gpu_count, self.label_engine_profile = QLabel(), QLabel(), QLabel()
        form.addRow(self.label_gpu, self.gpu_picker)
        form.addRow("", self.custom_gpu_button)
        form.addRow(self.gpu_info)  # the whole row: a half-width column broke "TFLOP/s" over two lines
        form.addRow(self.label_gpu_count, self.gpu_count)
        form.addRow(self.label_engine_profile, self.engine_profile)
        # a GGUF format decides the engine (llama.cpp) whatever is picked above: said here, never silently
        self.engine_switch = QLabel()
        self.engine_switch.setObjectName("engineSwitch")
        self.engine_switch.setWordWrap(True)
        self.engine_switch.setStyleSheet("QLabel#engineSwitch { border-left: 3px solid #E0A100; padding-left: 6px; }")
        self.engine_switch.hide()
        form.addRow(self.engine_switch)

        # advanced engine settings
        self.advanced_toggle = QToolButton()
        self.advanced_toggle.setObjectName("advancedToggle")
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced_toggle.toggled.connect(self._on_advanced_toggled)
        self.advanced_box = QGroupBox()
        form = QFormLayout(self.advanced_box)
        self.gpu_util = QDoubleSpinBox()
        self.gpu_util.setObjectName("gpuMemoryUtilization")
        self.gpu_util.setRange(0.10, 1.00)
        self.gpu_util.setSingleStep(0.01)
        self.gpu_util.setDecimals(2)
        self.gpu_util.setKeyboardTracking(False)
        self.gpu_util.valueChanged.connect(lambda v: self._user_engine(gpu_memory_utilization=round(v, 2)))
        self.batched_tokens = QSpinBox()
        self.batched_tokens.setObjectName("maxNumBatchedTokens")
        # 0 shows as "engine default (N)": the value the engine picks on this GPU, until the user sets one
        self.batched_tokens.setRange(0, 1_048_576)
        self.batched_tokens.setSingleStep(1024)
        self.batched_tokens.setSuffix(" tokens")
        self.batched_tokens.setKeyboardTracking(False)
        self.batched_tokens.valueChanged.connect(lambda v: self._user_engine(max_num_batched_tokens=v or None))
        self.max_seqs = QSpinBox()
        self.max_seqs.setObjectName("maxNumSeqs")
        self.max_seqs.setRange(0, 65536)
        self.max_seqs.setKeyboardTracking(False)
        self.max_seqs.valueChanged.connect(lambda v: self._user_engine(max_num_seqs=v or None))
        # an older engine release than the current one: its fused-MoE kernel and, for vLLM before 0.12, a scheduler
        # that runs between GPU steps (empty: the current release)
        self.engine_version = QLineEdit()
        self.engine_version.setObjectName("engineVersion")
        self.engine_version.setMaxLength(40)
        self.engine_version.setClearButtonEnabled(True)
        self.engine_version.editingFinished.connect(self._on_engine_version)
        self.label_util, self.label_batched, self.label_seqs = QLabel(), QLabel(), QLabel()
        self.label_engine_version = QLabel()
        form.addRow(self.label_util, self.gpu_util)
        form.addRow(self.label_batched, self.batched_tokens)
        form.addRow(self.label_seqs, self.max_seqs)
        form.addRow(self.label_engine_version, self.engine_version)
        self.advanced_box.hide()

        self.input_error = QLabel()
        self.input_error.setObjectName("inputError")
        self.input_error.setWordWrap(True)
        self.input_error.setStyleSheet(ERROR_STYLE)
        self.input_error.hide()

        for w in (self.model_box, self.precision_box, self.workload_box, self.hardware_box):
            col.addWidget(w)
        col.addWidget(self.advanced_toggle)
        col.addWidget(self.advanced_box)
        col.addWidget(self.input_error)
        col.addStretch(1)
        self.inputs_scroll = QScrollArea()
        self.inputs_scroll.setWidgetResizable(True)
        self.inputs_scroll.setWidget(panel)
        self.inputs_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.inputs_scroll.setMinimumWidth(340)

    @staticmethod
    def _pair(slider: QSlider, spin: QSpinBox) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(slider, 1)
        row.addWidget(spin)
        spin.setMinimumWidth(120)
        return box

    # ------------------------------------------------------------------ results panel
    def _build_results(self) -> None:
        self.overview = SizingOverview()
        self.overview.message.connect(self.message)
        # the page exposes the overview widgets under their old names (tests, screenshots, benchmarks)
        for name in ("verdict", "memory_bar", "numbers", "number_names", "advice", "command", "explanation"):
            setattr(self, name, getattr(self.overview, name))
        overview_scroll = QScrollArea()
        overview_scroll.setWidgetResizable(True)
        overview_scroll.setFrameShape(QFrame.Shape.NoFrame)
        overview_scroll.setWidget(self.overview)

        self.catalog_table = CatalogTable()
        self.catalog_table.setObjectName("catalogTable")
        self.catalog_table.doubleClicked.connect(self._on_table_double_clicked)
        table_page = QWidget()
        tcol = QVBoxLayout(table_page)
        self.table_caption = QLabel()
        self.table_caption.setWordWrap(True)
        tcol.addWidget(self.table_caption)
        tcol.addWidget(self.catalog_table, 1)

        self.curve = LatencyPlot()
        self.has_predictor = find_predictor()

        self.results_tabs = QTabWidget()
        self.results_tabs.addTab(overview_scroll, "")
        self.results_tabs.addTab(table_page, "")
        self.results_tabs.addTab(self.curve, "")

    # ------------------------------------------------------------------ language and theme
    def retranslate(self) -> None:
        self.intro.setText(tr("ui.sizing.intro"))
        self.model_box.setTitle(tr("ui.sizing.group_model"))
        self.precision_box.setTitle(tr("ui.sizing.group_precision"))
        self.workload_box.setTitle(tr("ui.sizing.group_workload"))
        self.hardware_box.setTitle(tr("ui.sizing.group_hardware"))
        self.advanced_box.setTitle(tr("ui.sizing.group_engine"))
        self.label_model.setText(tr("ui.sizing.model"))
        self.import_button.setText(tr("ui.sizing.import"))
        self.import_button.setToolTip(tr("ui.sizing.import_tip"))
        self.drop_hint.setText(tr("ui.sizing.drop_hint"))
        self.model_picker.lineEdit().setPlaceholderText(tr("ui.sizing.search"))
        self.gpu_picker.lineEdit().setPlaceholderText(tr("ui.sizing.search"))
        self.label_weights.setText(tr("ui.sizing.weights"))
        self.weights.setToolTip(tr("ui.sizing.weights_tip"))
        self.label_kv.setText(tr("ui.sizing.kv_dtype"))
        self.kv_dtype.setToolTip(tr("ui.sizing.kv_dtype_tip"))
        self.label_context.setText(tr("ui.sizing.context"))
        self.context_spin.setToolTip(tr("ui.sizing.context_tip"))
        self.context_slider.setToolTip(tr("ui.sizing.context_tip"))
        self.label_concurrency.setText(tr("ui.sizing.concurrency"))
        self.concurrency_spin.setToolTip(tr("ui.sizing.concurrency_tip"))
        self.concurrency_slider.setToolTip(tr("ui.sizing.concurrency_tip"))
        self.label_prefix.setText(tr("sizing.prefix.label"))
        self.label_prefix.setToolTip(tr("sizing.prefix.tip"))
        self.prefix_spin.setToolTip(tr("sizing.prefix.tip"))
        self.label_gpu.setText(tr("ui.sizing.gpu"))
        self.custom_gpu_button.setText(tr("ui.sizing.custom_gpu"))
        self.label_gpu_count.setText(tr("ui.sizing.gpu_count"))
        self.gpu_count.setToolTip(tr("ui.sizing.gpu_count_tip"))
        self.label_engine_profile.setText(tr("sizing.engine_profile.label"))
        self.engine_profile.setToolTip(tr("sizing.engine_profile.tip"))
        for i in range(self.engine_profile.count()):
            self.engine_profile.setItemText(i, tr(f"sizing.engine_profile.{self.engine_profile.itemData(i)}"))
        self.advanced_toggle.setText(tr("ui.sizing.advanced"))
        self.label_util.setText("gpu_memory_utilization")
        self.gpu_util.setToolTip(tr("ui.sizing.util_tip"))
        self.label_batched.setText("max_num_batched_tokens")
        self.batched_tokens.setToolTip(tr("ui.sizing.batched_tip"))
        self.label_seqs.setText("max_num_seqs")
        self.max_seqs.setToolTip(tr("ui.sizing.seqs_tip"))
        self.label_engine_version.setText(tr("ui.sizing.engine_version"))
        self.engine_version.setPlaceholderText(tr("ui.sizing.engine_version_current"))
        self.engine_version.setToolTip(tr("ui.sizing.engine_version_tip"))
        self.overview.retranslate()
        self.results_tabs.setTabText(0, tr("ui.sizing.tab_overview"))
        self.results_tabs.setTabText(1, tr("ui.sizing.tab_catalog"))
        self.results_tabs.setTabText(2, tr("ui.sizing.tab_curve"))
        self.catalog_table.retranslate()
        self.curve.retranslate()
        # picker labels carry translated suffixes ("imported", "custom")
        self._refill_pickers()
        # the core writes its advice in the current language: recompute
        if not self.model_error.isHidden() and getattr(self, "_last_import", None):
            self.import_config(self._last_import)  # an import error shown before the switch, in the new language
        self.recompute()
        self._schedule_slow()

    def apply_theme(self) -> None:
        self._dark = self.palette().window().color().lightness() < 128
        self.overview.set_theme(self._dark)
        self.curve.set_theme(self._dark)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()

    def _refill_pickers(self) -> None:
        self._updating_widgets = True
        try:
            self.model_picker.set_items(self._model_items(), self.inputs.fields["model"].id)
            self.gpu_picker.set_items(self._gpu_items(), self.inputs.fields["gpu"].id)
        finally:
            self._updating_widgets = False

    # ------------------------------------------------------------------ defaults and projects
    def set_defaults(self, defaults: SizingDefaults) -> None:
        model = self._model_or_first(defaults.model_id)
        gpu = self._gpu_or_first(defaults.gpu_id)
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
        )
        self.model_error.hide()
        self._sync_widgets()

    def to_project(self) -> Project:
        request = self.inputs.request()
        result = self.result.model_dump(mode="json", exclude={"request"}) if self.result else None
        return Project(
            sizing=SizingSection(
                request=request,
                model_source=self.inputs.model_source,  # type: ignore[arg-type]
                model_file=self.inputs.model_file,
                gpu_source=self.inputs.gpu_source,  # type: ignore[arg-type]
                result=result,
            )
        )

    def apply_project(self, project: Project) -> None:
        section = project.sizing
        if section is None:
            self.set_defaults(SizingDefaults())
            return
        req = section.request
        if section.model_source == "imported" or self._find_model(req.model.id) != req.model:
            self.imported[req.model.id] = req.model
        if section.gpu_source == "custom" or self._find_gpu(req.gpu.id) != req.gpu:
            self.custom_gpus[req.gpu.id] = req.gpu
        self.inputs.model_source = section.model_source
        self.inputs.model_file = section.model_file
        self.inputs.gpu_source = section.gpu_source
        self.inputs.update(
            model=req.model,
            gpu=req.gpu,
            weights=req.weights,
            kv_dtype=req.kv_dtype,
            context=req.context,
            concurrency=req.concurrency,
            gpus=req.gpus,
            engine=req.engine,
            engine_profile=req.engine_profile,
            shared_prefix_tokens=req.shared_prefix_tokens,
            factors=req.factors,
        )
        self.model_error.hide()
        self._refill_pickers()
        self._sync_widgets()
        self.recompute()

    # ------------------------------------------------------------------ widget ↔ inputs
    def _sync_widgets(self) -> None:
        """Show the inputs in the widgets without feeding the change back."""
        f = self.inputs.fields
        self._updating_widgets = True
        try:
            self.model_picker.set_items(self._model_items(), f["model"].id)
            self.gpu_picker.set_items(self._gpu_items(), f["gpu"].id)
            self.weights.setCurrentIndex(max(0, self.weights.findData(f["weights"])))
            self.kv_dtype.setCurrentIndex(max(0, self.kv_dtype.findData(f["kv_dtype"])))
            self.context_spin.setValue(f["context"])
            self._set_context_slider(f["context"])
            self.concurrency_spin.setValue(f["concurrency"])
            self.concurrency_slider.setValue(min(f["concurrency"], self.concurrency_slider.maximum()))
            self.prefix_spin.setValue(f.get("shared_prefix_tokens", 0))
            index = self.gpu_count.findData(f["gpus"])
            if index < 0:
                self.gpu_count.addItem(str(f["gpus"]), f["gpus"])
                index = self.gpu_count.findData(f["gpus"])
            self.gpu_count.setCurrentIndex(index)
            self.engine_profile.setCurrentIndex(max(0, self.engine_profile.findData(f.get("engine_profile", "vllm"))))
            engine: EngineSettings = f["engine"]
            self.gpu_util.setValue(engine.gpu_memory_utilization)
            self.batched_tokens.setValue(engine.max_num_batched_tokens or 0)
            self.max_seqs.setValue(engine.max_num_seqs or 0)
            self.engine_version.setText(f["factors"].engine_version or "")
        finally:
            self._updating_widgets = False
        self._show_model_info()

    def _set_context_slider(self, context: int) -> None:
        nearest = min(range(len(CONTEXT_STEPS)), key=lambda i: abs(CONTEXT_STEPS[i] - context))
        self.context_slider.blockSignals(True)
        self.context_slider.setValue(nearest)
        self.context_slider.blockSignals(False)

    def _user_edit(self, **values: Any) -> None:
        if self._updating_widgets:
            return
        before = dict(self.inputs.fields)
        self.inputs.update(**values)
        if self.inputs.fields != before:
            self.inputs_changed.emit()

    def _user_engine(self, **values: Any) -> None:
        if self._updating_widgets:
            return
        try:
            engine = EngineSettings(**{**self.inputs.fields["engine"].model_dump(), **values})
        except ValidationError as exc:
            self._show_input_error(exc)
            return
        self._user_edit(engine=engine)

    def _on_engine_version(self) -> None:
        """An engine release to model (empty: the current one); anything that is not a release number is refused
        next to the field and changes nothing."""
        if self._updating_widgets:
            return
        text = self.engine_version.text().strip()
        if text and not release_number(text):
            self.last_error = tr("inputs.arg.not_version", value=text)
            self.input_error.setText(self.last_error)
            self.input_error.show()
            return
        factors: SpeedFactors = self.inputs.fields["factors"]
        chosen = {k: getattr(factors, k) for k in factors.model_fields_set if k != "engine_version"}
        self.input_error.hide()
        self._user_edit(factors=SpeedFactors(**chosen, **({"engine_version": text} if text else {})))

    def _on_context_slider(self, index: int) -> None:
        value = CONTEXT_STEPS[index]
        self.context_spin.blockSignals(True)
        self.context_spin.setValue(value)
        self.context_spin.blockSignals(False)
        self._user_edit(context=value)

    def _on_concurrency_slider(self, value: int) -> None:
        self.concurrency_spin.blockSignals(True)
        self.concurrency_spin.setValue(value)
        self.concurrency_spin.blockSignals(False)
        self._user_edit(concurrency=value)

    def _on_model_picked(self, model_id: object) -> None:
        if self._updating_widgets:
            return
        model = self._find_model(str(model_id))
        if model is None:
            return
        self.inputs.model_source = "imported" if model.id in self.imported else "preset"
        self.model_error.hide()
        self._pick_model(model)
        self._show_model_info()

    def _pick_model(self, model: ModelSpec) -> None:
        """A new model. A checkpoint that declares its quantization (gpt-oss's MXFP4, DeepSeek's FP8 blocks, an AWQ
        repository) is sized in that format, as the engine loads it and as `advisor calc` does: the weights follow
        the model, unless the user had chosen a format other than the previous model's own."""
        fields = self.inputs.fields
        weights = fields["weights"]
        if weights == (fields["model"].checkpoint_quant or "bf16"):
            weights = model.checkpoint_quant if model.checkpoint_quant in WEIGHT_FORMATS else "bf16"
        self._user_edit(model=model, weights=weights)
        self._sync_widgets()

    def _on_gpu_picked(self, gpu_id: object) -> None:
        if self._updating_widgets:
            return
        gpu = self._find_gpu(str(gpu_id))
        if gpu is None:
            return
        self.inputs.gpu_source = "custom" if gpu.user_defined else "catalog"
        self._user_edit(gpu=gpu)

    def _on_advanced_toggled(self, shown: bool) -> None:
        self.advanced_box.setVisible(shown)
        self.advanced_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _on_table_double_clicked(self, index) -> None:
        gpu_id = self.catalog_table.proxy.data(index, Qt.ItemDataRole.UserRole)
        row = next((r for r in self.catalog_table.source.rows if r.gpu_id == gpu_id), None)
        if row is None:
            return
        self.gpu_picker.select_data(gpu_id, emit=True)
        if row.gpus_needed and row.gpus_needed in TP_CHOICES:
            self.gpu_count.setCurrentIndex(self.gpu_count.findData(row.gpus_needed))
        self.results_tabs.setCurrentIndex(0)

    # ------------------------------------------------------------------ import config.json
    def ask_config_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("ui.sizing.import"), str(Path.home()), "config.json (*.json);;* (*)")
        return path

    def _on_import_clicked(self) -> None:
        path = self.ask_config_path()
        if path:
            self.import_config(path)

    def import_config(self, path: str | Path) -> bool:
        """Import a Hugging Face config.json; errors go next to the field, never a traceback."""
        path = Path(path)
        self._last_import = path  # re-read on a language switch while its error is shown (the error is re-worded)
        model_id = path.parent.name if path.name == "config.json" and path.parent.name else path.stem
        try:
            model = catalog.model_from_config(path, model_id=model_id or "imported", name=model_id or None)
        except catalog.ModelImportError as exc:
            # the core names the file it read ("/path/config.json: ..."); the label already says which file
            reason = str(exc).removeprefix(f"{path}: ")
            self._show_model_error(tr("ui.sizing.import_failed", file=path.name, reason=reason))
            return False
        except ValidationError as exc:
            reason = validation_problems(exc)[0][1]
            self._show_model_error(tr("ui.sizing.import_failed", file=path.name, reason=reason))
            return False
        except (OSError, ValueError, TypeError, KeyError) as exc:
            self._show_model_error(tr("ui.sizing.import_failed", file=path.name, reason=str(exc)))
            return False
        self.imported[model.id] = model
        self.inputs.model_source = "imported"
        self.inputs.model_file = str(path)
        self.model_error.hide()
        self._updating_widgets = True
        try:
            self.model_picker.set_items(self._model_items(), model.id)
        finally:
            self._updating_widgets = False
        self._pick_model(model)
        self._show_model_info()
        self.message.emit(tr("ui.sizing.imported_ok", name=model.name))
        return True

    def _show_model_error(self, text: str) -> None:
        self.model_error.setText(text)
        self.model_error.show()
        QTimer.singleShot(0, self._fit_model_error)  # once the label has its width in the laid-out column

    def _fit_model_error(self) -> None:
        # A word-wrapped label's height depends on its width, which the form inside the scrolling inputs column
        # does not ask for: a long reason (a refused quantization names what is supported) overlapped the rows
        # below it. Reserve the height its text needs at the width it has.
        label = self.model_error
        if label.isVisible() and label.width() > 0:
            label.setMinimumHeight(label.heightForWidth(label.width()))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_model_error()

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

    # ------------------------------------------------------------------ custom GPU
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
        self.custom_gpus[gpu.id] = gpu
        self.inputs.gpu_source = "custom"
        self._updating_widgets = True
        try:
            self.gpu_picker.set_items(self._gpu_items(), gpu.id)
        finally:
            self._updating_widgets = False
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
        except ValidationError as exc:
            self._show_input_error(exc)
            if self.result is not None:  # the figures on screen are for the last valid inputs: say so
                self.results_panel.set_stale(tr("ui.stale.sizing"))
            return
        try:
            result = size(request)
        except (ValueError, ArithmeticError) as exc:
            self.last_error = str(exc)
            self.input_error.setText(tr("ui.sizing.cannot_estimate", reason=str(exc)))
            self.input_error.show()
            if self.result is not None:
                self.results_panel.set_stale(tr("ui.stale.sizing"))
            return
        self.input_error.hide()
        self.last_error = None
        self.result = result
        self.results_panel.set_stale(None)
        self._show_result(result)
        self.last_compute_ms = (time.perf_counter() - started) * 1000
        self.results_shown.emit()

    def _show_input_error(self, exc: ValidationError) -> None:
        self.last_error = validation_message(exc)  # in the UI's language, field by field
        self.input_error.setText(self.last_error)
        self.input_error.show()

    def _start_slow_work(self) -> None:
        try:
            request = self.inputs.request()
        except ValidationError:
            return
        gpus = [*self.gpus, *(g for g in self.custom_gpus.values() if all(g.id != x.id for x in self.gpus))]
        self.table_caption.setText(tr("ui.sizing.table_computing"))
        self.runner.submit(
            catalog_rows, request, gpus, on_result=lambda rows, r=request: self._show_catalog(rows, r),
            on_error=self._on_slow_error, key="sizing-catalog",
        )  # fmt: skip
        if self.has_predictor:
            self.curve.set_requested(request.concurrency)
            self.runner.submit(
                predict_curve, request, on_result=self._show_curve, on_error=self._on_curve_error, key="sizing-curve"
            )
        else:
            self.curve.set_unavailable(tr("ui.curve.unavailable"))

    def _show_catalog(self, rows, request: SizingRequest) -> None:
        self.catalog_request = request  # which inputs the table shows (a slow table can lag the overview)
        self.catalog_table.set_rows(rows, request.gpus)
        fits = sum(1 for r in rows if r.fits_now)
        self.table_caption.setText(
            tr(
                "ui.sizing.table_caption",
                model=request.model.name,
                weights=WEIGHT_FORMATS[request.weights].label if request.weights in WEIGHT_FORMATS else request.weights,
                context=format_context(request.context),
                n=request.concurrency,
                gpus=request.gpus,
                fits=fits,
                total=len(rows),
            )
        )
        self.catalog_shown.emit()

    def _on_slow_error(self, exc: BaseException) -> None:
        self.table_caption.setText(tr("ui.sizing.cannot_estimate", reason=str(exc)))

    def _show_curve(self, prediction: Any) -> None:
        if prediction is None:
            self.curve.set_unavailable(tr("ui.curve.unavailable"))
        else:
            self.curve.set_prediction(prediction)
        self.curve_shown.emit()

    def _on_curve_error(self, exc: BaseException) -> None:
        # The simulator's own errors are sentences for the user (translated); anything else is a failure.
        if isinstance(exc, ValueError):
            self.curve.set_unavailable(str(exc))
        else:
            self.curve.set_unavailable(tr("ui.curve.failed", reason=str(exc)))
        self.curve_shown.emit()

    # ------------------------------------------------------------------ showing results
    def _show_model_info(self) -> None:
        for picker in (self.model_picker, self.gpu_picker):
            if not picker.lineEdit().hasFocus():
                picker.lineEdit().setCursorPosition(0)  # a long name shows its start, not its end
        m: ModelSpec = self.inputs.fields["model"]
        kind = "MoE" if m.is_moe else tr("ui.sizing.dense")
        self.model_info.setText(
            tr(
                "ui.sizing.model_info",
                arch=m.architecture,
                kind=kind,
                attention=m.attention_kind,
                layers=m.num_layers,
                context=format_context(m.max_context),
            )
        )
        g: GpuSpec = self.inputs.fields["gpu"]
        self.gpu_info.setText(
            tr(
                "ui.sizing.gpu_info",
                # no break inside a figure when the label wraps ("165 TFLOP/s" was split after "165" and "/")
                memory=_unbroken(format_gib(g.memory_bytes, 0)),
                bandwidth=_unbroken(format_bandwidth(g.bandwidth_bytes_per_s)),
                tflops=_unbroken(format_tflops(g.bf16_tflops_dense)),
            )
        )

    def _show_result(self, res: SizingResult) -> None:
        self._show_model_info()
        self.engine_switch.setText(res.engine_switch or "")
        self.engine_switch.setVisible(bool(res.engine_switch))
        self._show_engine_defaults(res)
        self.overview.show_result(res)

    def _show_engine_defaults(self, res: SizingResult) -> None:
        """The batch settings left to the engine read "engine default (N)" with what it picks on this GPU."""
        self.batched_tokens.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{res.engine.max_num_batched_tokens:,}"))
        self.max_seqs.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{res.engine.max_num_seqs:,}"))

