"""Describe a GPU that is not in the catalog (a new card, a cloud SKU): the few figures sizing needs."""

from __future__ import annotations

import re

from pydantic import ValidationError
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from advisor.domain.gpu import GiB, GpuSpec
from advisor.i18n import tr
from advisor.validation import validation_problems


def _spin(low: float, high: float, value: float, decimals: int, suffix: str, step: float) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(low, high)
    spin.setDecimals(decimals)
    spin.setSingleStep(step)
    spin.setSuffix(suffix)
    spin.setValue(value)
    return spin


class CustomGpuDialog(QDialog):
    def __init__(self, base: GpuSpec | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("ui.custom_gpu.title"))
        self.name = QLineEdit(tr("ui.custom_gpu.default_name") if base is None else f"{base.name} (custom)")
        self.memory = _spin(1, 2048, base.memory_bytes / GiB if base else 24, 1, " GiB", 1)
        self.bandwidth = _spin(10, 100_000, base.bandwidth_bytes_per_s / 1e9 if base else 1000, 0, " GB/s", 50)
        self.bf16 = _spin(1, 100_000, base.bf16_tflops_dense if base else 165, 1, " TFLOP/s", 10)
        self.fp8 = _spin(0, 200_000, (base.fp8_tflops_dense or 0) if base else 0, 1, " TFLOP/s", 10)
        self.fp8.setSpecialValueText(tr("ui.custom_gpu.no_fp8"))
        self.tdp = _spin(10, 5000, base.tdp_watts if base else 350, 0, " W", 10)
        self.interconnect = QComboBox()
        for code in ("pcie", "nvlink"):
            self.interconnect.addItem(code.upper() if code == "pcie" else "NVLink", code)
        if base is not None:
            self.interconnect.setCurrentIndex(max(0, self.interconnect.findData(base.interconnect)))
        self.save = QCheckBox(tr("ui.custom_gpu.save"))
        self.save.setChecked(True)
        self.error = QLabel()
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828")
        self.error.hide()
        form = QFormLayout()
        form.addRow(tr("ui.custom_gpu.name"), self.name)
        form.addRow(tr("ui.custom_gpu.memory"), self.memory)
        form.addRow(tr("ui.custom_gpu.bandwidth"), self.bandwidth)
        form.addRow(tr("ui.custom_gpu.bf16"), self.bf16)
        form.addRow(tr("ui.custom_gpu.fp8"), self.fp8)
        form.addRow(tr("ui.custom_gpu.tdp"), self.tdp)
        form.addRow(tr("ui.custom_gpu.interconnect"), self.interconnect)
        hint = QLabel(tr("ui.custom_gpu.hint"))
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(self.save)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.gpu: GpuSpec | None = None

    def build(self) -> GpuSpec:
        """The GpuSpec of the form; raises ValueError with a readable message."""
        name = self.name.text().strip()
        if not name:
            raise ValueError(tr("ui.custom_gpu.need_name"))
        slug = re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-") or "gpu"
        try:
            return GpuSpec(
                id=f"custom-{slug}",
                name=name,
                memory_bytes=int(self.memory.value() * GiB),
                bandwidth_bytes_per_s=self.bandwidth.value() * 1e9,
                bf16_tflops_dense=self.bf16.value(),
                fp16_tflops_dense=self.bf16.value(),
                fp8_tflops_dense=self.fp8.value() or None,
                tdp_watts=self.tdp.value(),
                interconnect=self.interconnect.currentData(),
                market="consumer",
                source=tr("ui.custom_gpu.source"),
                confidence="low",
                user_defined=True,
            )
        except ValidationError as exc:
            where, what = validation_problems(exc)[0]  # the first problem, in the UI's language
            raise ValueError(tr("validation.line", where=where, what=what)) from exc

    def accept(self) -> None:
        try:
            self.gpu = self.build()
        except ValueError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        super().accept()
