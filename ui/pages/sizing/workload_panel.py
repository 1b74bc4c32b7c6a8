"""The Sizing page's precision and workload groups: weight format and KV dtype; context, concurrency (slider and
exact figure, kept in step) and the shared prefix."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QSpinBox,
    QWidget,
)

from advisor.i18n import tr
from advisor.sizing import KV_DTYPES, WEIGHT_FORMATS

CONTEXT_STEPS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576)


def _pair(slider: QSlider, spin: QSpinBox) -> QWidget:
    box = QWidget()
    row = QHBoxLayout(box)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(slider, 1)
    row.addWidget(spin)
    spin.setMinimumWidth(120)
    return box


def _tokens_spin(name: str, top: int, step: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setObjectName(name)
    spin.setRange(0, top)
    spin.setSingleStep(step)
    spin.setSuffix(" tokens")
    spin.setKeyboardTracking(False)
    return spin


class WorkloadPanel(QObject):
    """Two groups (``precision_box``, ``workload_box``); ``edited`` carries the inputs a user changed."""

    edited = Signal(dict)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._syncing = False
        self.precision_box = QGroupBox()
        form = QFormLayout(self.precision_box)
        self.weights = QComboBox()
        self.weights.setObjectName("weights")
        for fmt in WEIGHT_FORMATS.values():
            self.weights.addItem(fmt.label, fmt.id)
        self.weights.currentIndexChanged.connect(lambda _i: self._edit(weights=self.weights.currentData()))
        self.kv_dtype = QComboBox()
        self.kv_dtype.setObjectName("kvDtype")
        for name in KV_DTYPES:
            self.kv_dtype.addItem(name.upper(), name)
        self.kv_dtype.currentIndexChanged.connect(lambda _i: self._edit(kv_dtype=self.kv_dtype.currentData()))
        self.label_weights, self.label_kv = QLabel(), QLabel()
        form.addRow(self.label_weights, self.weights)
        form.addRow(self.label_kv, self.kv_dtype)

        self.workload_box = QGroupBox()
        form = QFormLayout(self.workload_box)
        self.context_slider = QSlider(Qt.Orientation.Horizontal)
        self.context_slider.setObjectName("contextSlider")
        self.context_slider.setRange(0, len(CONTEXT_STEPS) - 1)
        self.context_slider.setPageStep(1)
        self.context_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.context_slider.valueChanged.connect(self._on_context_slider)
        self.context_spin = _tokens_spin("context", 4_194_304, 1024)
        self.context_spin.setMinimum(16)
        self.context_spin.valueChanged.connect(lambda v: self._edit(context=v))
        self.concurrency_slider = QSlider(Qt.Orientation.Horizontal)
        self.concurrency_slider.setObjectName("concurrencySlider")
        self.concurrency_slider.setRange(1, 256)
        self.concurrency_slider.valueChanged.connect(self._on_concurrency_slider)
        self.concurrency_spin = QSpinBox()
        self.concurrency_spin.setObjectName("concurrency")
        self.concurrency_spin.setRange(1, 100_000)
        self.concurrency_spin.setKeyboardTracking(False)
        self.concurrency_spin.valueChanged.connect(lambda v: self._edit(concurrency=v))
        self.label_context, self.label_concurrency = QLabel(), QLabel()
        form.addRow(self.label_context, _pair(self.context_slider, self.context_spin))
        form.addRow(self.label_concurrency, _pair(self.concurrency_slider, self.concurrency_spin))
        # a system prompt every request shares: prefix caching stores it once
        self.prefix_spin = _tokens_spin("sharedPrefixTokens", 4_194_304, 256)
        self.prefix_spin.valueChanged.connect(lambda v: self._edit(shared_prefix_tokens=v))
        self.label_prefix = QLabel()
        form.addRow(self.label_prefix, self.prefix_spin)

    def retranslate(self) -> None:
        self.precision_box.setTitle(tr("ui.sizing.group_precision"))
        self.workload_box.setTitle(tr("ui.sizing.group_workload"))
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

    def show_fields(self, f: dict[str, Any]) -> None:
        """Show the inputs without feeding the change back."""
        self._syncing = True
        try:
            self.weights.setCurrentIndex(max(0, self.weights.findData(f["weights"])))
            self.kv_dtype.setCurrentIndex(max(0, self.kv_dtype.findData(f["kv_dtype"])))
            self.context_spin.setValue(f["context"])
            self._set_context_slider(f["context"])
            self.concurrency_spin.setValue(f["concurrency"])
            self.concurrency_slider.setValue(min(f["concurrency"], self.concurrency_slider.maximum()))
            self.prefix_spin.setValue(f.get("shared_prefix_tokens", 0))
        finally:
            self._syncing = False

    def _edit(self, **values: Any) -> None:
        if not self._syncing:
            self.edited.emit(values)

    def _set_context_slider(self, context: int) -> None:
        nearest = min(range(len(CONTEXT_STEPS)), key=lambda i: abs(CONTEXT_STEPS[i] - context))
        self.context_slider.blockSignals(True)
        self.context_slider.setValue(nearest)
        self.context_slider.blockSignals(False)

    def _on_context_slider(self, index: int) -> None:
        value = CONTEXT_STEPS[index]
        self.context_spin.blockSignals(True)
        self.context_spin.setValue(value)
        self.context_spin.blockSignals(False)
        self._edit(context=value)

    def _on_concurrency_slider(self, value: int) -> None:
        self.concurrency_spin.blockSignals(True)
        self.concurrency_spin.setValue(value)
        self.concurrency_spin.blockSignals(False)
        self._edit(concurrency=value)
