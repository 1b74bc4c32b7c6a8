"""The Sizing page's hardware group (GPU, "Describe a GPU…", GPU count, engine) and the advanced engine settings
(memory share, batch limits left to the engine or set, an older engine release)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
)

from advisor.domain.engine_profiles import PROFILE_IDS
from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import EngineSettings, SizingResult, SpeedFactors
from advisor.i18n import tr
from advisor.sizing.sglang_pool import default_mem_fraction_static
from advisor.units import format_bandwidth, format_gib, format_tflops
from advisor.validation import validation_message
from advisor.versions import release_number
from ui.pages.sizing.sglang_ratio_fields import SglangRatioFields
from ui.sizing_inputs import SizingInputs
from ui.widgets.search_combo import SearchCombo

TP_CHOICES = (1, 2, 4, 8, 16)
FRACTION_UNSET = 0.05  # below SGLang's accepted range (EngineSettings: > 0.05): the spin box's "engine default"


def _unbroken(figure: str) -> str:
    """A figure with its unit that a wrapping label keeps on one line (no-break space, word joiner after '/')."""
    return figure.replace(" ", "\u00a0").replace("/", "/\u2060")


class HardwarePanel(QObject):
    """Two groups (``hardware_box``, ``advanced_box``) and the toggle between them. ``edited`` carries the inputs a
    user changed; ``picked`` a GPU id; ``describe_gpu`` asks for the custom-GPU dialog; ``problem`` is a refused
    engine setting, in words (``None``: the last one is fixed)."""

    edited = Signal(dict)
    picked = Signal(object)
    describe_gpu = Signal()
    problem = Signal(object)

    def __init__(self, inputs: SizingInputs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.inputs = inputs  # read for the engine settings a change starts from (the page writes them)
        self._syncing = False
        self._memory_engine = "vllm"  # whose memory setting the advanced group shows (_show_memory_field)
        self.hardware_box = QGroupBox()
        form = QFormLayout(self.hardware_box)
        self.gpu_picker = SearchCombo()
        self.gpu_picker.setObjectName("gpuPicker")
        self.gpu_picker.picked.connect(self.picked)
        self.custom_gpu_button = QPushButton()
        self.custom_gpu_button.setObjectName("customGpu")
        self.custom_gpu_button.clicked.connect(self.describe_gpu)
        self.gpu_count = QComboBox()
        self.gpu_count.setObjectName("gpuCount")
        for n in TP_CHOICES:
            self.gpu_count.addItem(str(n), n)
        self.gpu_count.currentIndexChanged.connect(lambda _i: self._edit(gpus=self.gpu_count.currentData()))
        self.gpu_info = QLabel()
        self.gpu_info.setWordWrap(True)
        self.engine_profile = QComboBox()  # which server runs it: serving overhead, batch behaviour at saturation
        self.engine_profile.setObjectName("engineProfile")
        for pid in PROFILE_IDS:
            self.engine_profile.addItem(pid, pid)
        self.engine_profile.currentIndexChanged.connect(self._on_engine_profile)
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
        self.gpu_util.valueChanged.connect(lambda v: self._edit_engine(gpu_memory_utilization=round(v, 2)))
        # SGLang sizes its KV pool from --mem-fraction-static, not gpu_memory_utilization (advisor/sizing/
        # sglang_pool.py): with SGLang this field takes the other's row, so no field on the page does nothing
        self.mem_fraction = QDoubleSpinBox()
        self.mem_fraction.setObjectName("memFractionStatic")
        self.mem_fraction.setRange(FRACTION_UNSET, 1.00)
        self.mem_fraction.setSingleStep(0.01)
        self.mem_fraction.setDecimals(3)
        self.mem_fraction.setKeyboardTracking(False)
        self.mem_fraction.valueChanged.connect(
            lambda v: self._edit_engine(mem_fraction_static=round(v, 3) if v > FRACTION_UNSET else None))
        self.batched_tokens = QSpinBox()
        self.batched_tokens.setObjectName("maxNumBatchedTokens")
        # 0 shows as "engine default (N)": the value the engine picks on this GPU, until the user sets one
        self.batched_tokens.setRange(0, 1_048_576)
        self.batched_tokens.setSingleStep(1024)
        self.batched_tokens.setSuffix(" tokens")
        self.batched_tokens.setKeyboardTracking(False)
        self.batched_tokens.valueChanged.connect(lambda v: self._edit_engine(max_num_batched_tokens=v or None))
        self.max_seqs = QSpinBox()
        self.max_seqs.setObjectName("maxNumSeqs")
        self.max_seqs.setRange(0, 65536)
        self.max_seqs.setKeyboardTracking(False)
        self.max_seqs.valueChanged.connect(lambda v: self._edit_engine(max_num_seqs=v or None))
        # an older engine release than the current one: its fused-MoE kernel and, for vLLM before 0.12, a scheduler
        # that runs between GPU steps (empty: the current release)
        self.engine_version = QLineEdit()
        self.engine_version.setObjectName("engineVersion")
        self.engine_version.setMaxLength(40)
        self.engine_version.setClearButtonEnabled(True)
        self.engine_version.editingFinished.connect(self._on_engine_version)
        self.label_util, self.label_batched, self.label_seqs = QLabel(), QLabel(), QLabel()
        self.label_engine_version, self.label_fraction = QLabel(), QLabel()
        form.addRow(self.label_util, self.gpu_util)
        form.addRow(self.label_fraction, self.mem_fraction)
        self.engine_form = form
        # SGLang's ratios for a hybrid model's pools, next to its memory share (shown by the estimate's pool kind)
        self.ratios = SglangRatioFields(form, self._edit_engine)
        self.swa_ratio, self.mamba_ratio = self.ratios.swa_ratio, self.ratios.mamba_ratio
        form.addRow(self.label_batched, self.batched_tokens)
        form.addRow(self.label_seqs, self.max_seqs)
        form.addRow(self.label_engine_version, self.engine_version)
        self.advanced_box.hide()
        self._show_memory_field("vllm")

    def retranslate(self) -> None:
        self.hardware_box.setTitle(tr("ui.sizing.group_hardware"))
        self._title_engine_box()
        self.gpu_picker.lineEdit().setPlaceholderText(tr("ui.sizing.search"))
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
        self.label_fraction.setText("mem_fraction_static")
        self.mem_fraction.setToolTip(tr("sizing18_ui18.fraction_tip"))
        self.label_batched.setText("max_num_batched_tokens")
        self.batched_tokens.setToolTip(tr("ui.sizing.batched_tip"))
        self.label_seqs.setText("max_num_seqs")
        self.max_seqs.setToolTip(tr("ui.sizing.seqs_tip"))
        self.label_engine_version.setText(tr("ui.sizing.engine_version"))
        self.engine_version.setPlaceholderText(tr("ui.sizing.engine_version_current"))
        self.engine_version.setToolTip(tr("ui.sizing.engine_version_tip"))
        self.ratios.retranslate()

    def show_fields(self, f: dict[str, Any]) -> None:
        """Show the inputs without feeding the change back."""
        self._syncing = True
        try:
            index = self.gpu_count.findData(f["gpus"])
            if index < 0:
                self.gpu_count.addItem(str(f["gpus"]), f["gpus"])
                index = self.gpu_count.findData(f["gpus"])
            self.gpu_count.setCurrentIndex(index)
            self.engine_profile.setCurrentIndex(max(0, self.engine_profile.findData(f.get("engine_profile", "vllm"))))
            engine: EngineSettings = f["engine"]
            self.gpu_util.setValue(engine.gpu_memory_utilization)
            self.mem_fraction.setValue(engine.mem_fraction_static or FRACTION_UNSET)
            self.ratios.show_engine(engine)
            self._show_memory_field(f.get("engine_profile", "vllm"))
            self.batched_tokens.setValue(engine.max_num_batched_tokens or 0)
            self.max_seqs.setValue(engine.max_num_seqs or 0)
            self.engine_version.setText(f["factors"].engine_version or "")
        finally:
            self._syncing = False

    def show_gpu(self, g: GpuSpec) -> None:
        self.gpu_info.setText(
            tr(
                "ui.sizing.gpu_info",
                # no break inside a figure when the label wraps ("165 TFLOP/s" was split after "165" and "/")
                memory=_unbroken(format_gib(g.memory_bytes, 0)),
                bandwidth=_unbroken(format_bandwidth(g.bandwidth_bytes_per_s)),
                tflops=_unbroken(format_tflops(g.bf16_tflops_dense)),
            )
        )

    def show_result(self, res: SizingResult) -> None:
        """The engine switch a format forces, and the batch settings left to the engine read "engine default (N)"
        with what it picks on this GPU."""
        self.engine_switch.setText(res.engine_switch or "")
        self.engine_switch.setVisible(bool(res.engine_switch))
        self.batched_tokens.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{res.engine.max_num_batched_tokens:,}"))
        self.max_seqs.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{res.engine.max_num_seqs:,}"))
        self._show_memory_field(res.perf.engine_profile)  # the engine the core sized for (GGUF: llama.cpp)
        self.ratios.show_for(res)
        f = self.inputs.fields
        share = default_mem_fraction_static(res.memory.gpu_memory_bytes, f["gpus"], f["factors"].engine_version,
                                            f["model"].has_vision)  # what SGLang picks unset: the Tips note's share
        self.mem_fraction.setSpecialValueText(tr("ui.sizing.engine_default", value=f"{share:.3f}"))

    def _show_memory_field(self, engine_id: str) -> None:
        """The engine's own memory setting: SGLang's mem_fraction_static in place of vLLM's gpu_memory_utilization
        (a format that forces llama.cpp keeps the latter, as the core sizes it)."""
        self._memory_engine = engine_id
        sglang = engine_id == "sglang"
        self.engine_form.setRowVisible(self.gpu_util, not sglang)
        self.engine_form.setRowVisible(self.mem_fraction, sglang)
        if not sglang:
            self.ratios.show_for(None)
        self._title_engine_box()

    def _title_engine_box(self) -> None:
        """"(vLLM names)" no longer holds once SGLang's mem_fraction_static is among them."""
        sglang = self._memory_engine == "sglang"  # set by _show_memory_field, first in __init__
        self.advanced_box.setTitle(tr("sizing18_ui18.group_engine_sglang" if sglang else "ui.sizing.group_engine"))

    def _on_engine_profile(self, _index: int) -> None:
        self._show_memory_field(self.engine_profile.currentData())
        self._edit(engine_profile=self.engine_profile.currentData())

    def _edit(self, **values: Any) -> None:
        if not self._syncing:
            self.edited.emit(values)

    def _edit_engine(self, **values: Any) -> None:
        if self._syncing:
            return
        try:
            engine = EngineSettings(**{**self.inputs.fields["engine"].model_dump(), **values})
        except ValidationError as exc:
            self.problem.emit(validation_message(exc))
            return
        self._edit(engine=engine)

    def _on_engine_version(self) -> None:
        """An engine release to model (empty: the current one); anything that is not a release number is refused
        next to the field and changes nothing."""
        if self._syncing:
            return
        text = self.engine_version.text().strip()
        if text and not release_number(text):
            self.problem.emit(tr("inputs.arg.not_version", value=text))
            return
        factors: SpeedFactors = self.inputs.fields["factors"]
        chosen = {k: getattr(factors, k) for k in factors.model_fields_set if k != "engine_version"}
        self.problem.emit(None)
        self._edit(factors=SpeedFactors(**chosen, **({"engine_version": text} if text else {})))

    def _on_advanced_toggled(self, shown: bool) -> None:
        self.advanced_box.setVisible(shown)
        self.advanced_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
