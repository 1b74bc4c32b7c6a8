"""What to send and how: a workload preset (or a prompt file, with its length histogram), the prompt and answer
lengths, the load's shape (single, fixed, ramp, soak, rate) and its numbers, the SLO, the client processes and
whether a sample answer streams beside the load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.presets import PRESETS, get_preset
from advisor.i18n import tr
from ui.pages.bench.styles import ERROR_STYLE
from ui.widgets.lazy_charts import LazyCharts, LazyChartsOwner

SHAPES = ("single", "fixed", "ramp", "soak", "rate")
# which numbers each shape uses (the others are hidden)
SHAPE_FIELDS = {
    "concurrency": ("fixed", "soak"),
    "max_concurrency": ("ramp", "rate"),
    "requests": ("fixed", "ramp", "rate"),
    "duration": ("soak",),
    "rate": ("rate",),
}


def _int_spin(low: int, high: int, value: int | None = None) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    if value is not None:
        box.setValue(value)
    return box


def _float_spin(low: float, high: float, value: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    return box


class WorkloadPanel(LazyChartsOwner, QGroupBox):
    LAZY_CHART_ATTRS = frozenset({"hist_plot", "hist_bars"})

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dataset: list[Any] | None = None
        self.dataset_path: str | None = None
        self.preset_box = QComboBox()
        self.preset_box.currentIndexChanged.connect(self._apply_preset)
        self.preset_desc = QLabel()
        self.preset_desc.setWordWrap(True)
        self.prompt_mean = _int_spin(1, 1_000_000)
        self.output_mean = _int_spin(1, 100_000)
        self.file_button = QPushButton()
        self.file_button.clicked.connect(self._on_file_clicked)
        self.file_clear = QPushButton("×")
        self.file_clear.setMaximumWidth(28)
        self.file_clear.clicked.connect(lambda: self.set_dataset(None))
        self.file_label = QLabel()
        self.file_label.setWordWrap(True)
        # the view now, its plot when a prompt file is first shown (lazy_charts.py): most sessions load none
        self.hist = pg.GraphicsView()
        self.hist.setFixedHeight(90)
        self.hist.enableMouse(False)  # as PlotWidget does
        self.hist.hide()
        self._charts = LazyCharts(self.hist, self._build_hist)
        self.shape_box = QComboBox()
        for s in SHAPES:
            self.shape_box.addItem(s, s)
        self.shape_box.currentIndexChanged.connect(self._on_shape)
        self.concurrency = _int_spin(1, 4096, 8)
        self.max_concurrency = _int_spin(1, 4096, 64)
        self.requests = _int_spin(1, 1_000_000, 64)
        self.duration = _float_spin(1, 86_400, 120)
        self.rate = _float_spin(0.01, 10_000, 4)
        self.ttft_slo = _float_spin(0, 600_000, 2000)
        self.tpot_slo = _float_spin(0, 60_000, 100)
        self.client_processes = _int_spin(0, 16, 0)  # 0 = auto: 2 spawned processes from 64 streams (docs/measure.md)
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
            self.workload_form.addRow(lab, widget)
        self.workload_form.addRow(self.sample_check)  # the whole row: its text must not widen the left column
        QVBoxLayout(self).addLayout(self.workload_form)

    def fill_presets(self) -> None:
        self.preset_box.blockSignals(True)
        for pid, preset in PRESETS.items():
            self.preset_box.addItem(preset.name, pid)
        self.preset_box.blockSignals(False)

    def retranslate(self) -> None:
        self.setTitle(tr("bench.page.workload"))
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
        self._show_preset_desc()

    def _build_hist(self) -> None:
        self.hist_plot = pg.PlotItem()
        self.hist.setCentralItem(self.hist_plot)
        self.hist_plot.setMenuEnabled(False)
        self.hist_plot.setMouseEnabled(x=False, y=False)
        self.hist_plot.hideButtons()
        self.hist_bars = pg.BarGraphItem(x=[0], height=[0], width=1.0, brush="#4C78A8")
        self.hist_plot.addItem(self.hist_bars)

    def set_theme(self, dark: bool) -> None:
        self.hist.setBackground("#1e1f22" if dark else "w")

    # ---------------------------------------------------------------------------------------- preset
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
        for key, widget in (("concurrency", self.concurrency), ("max_concurrency", self.max_concurrency),
                            ("requests", self.requests), ("duration", self.duration), ("rate", self.rate)):  # fmt: skip
            self.workload_form.setRowVisible(widget, shape in SHAPE_FIELDS[key])

    # --------------------------------------------------------------------------------------- dataset
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
            self.file_label.setText(tr("bench.page.error.dataset", error=tr("bench.page.error.dataset_empty")))
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
        self.hist_bars.setOpts(x=xs, height=np.array([b["count"] for b in bins], dtype=float), width=widths * 0.9)
        self.hist_plot.setTitle(tr("bench.page.hist_title"))
        self.hist.show()
        return True
