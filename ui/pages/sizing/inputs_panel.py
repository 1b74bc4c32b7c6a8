"""The Sizing page's inputs column: the intro, the model, precision, workload and hardware groups, speculative
decoding, the advanced engine settings and the line that says what is wrong with the inputs, in one scrolling column."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from advisor.domain.model import ModelSpec
from advisor.i18n import tr
from ui.pages.sizing.hardware_panel import HardwarePanel
from ui.pages.sizing.model_panel import ModelPanel
from ui.pages.sizing.speculative_panel import SpeculativePanel
from ui.pages.sizing.workload_panel import WorkloadPanel
from ui.sizing_inputs import SizingInputs
from ui.widgets.sizing_overview import ERROR_STYLE


class InputsPanel(QScrollArea):
    def __init__(self, inputs: SizingInputs, find_model: Callable[[str], ModelSpec | None],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        column = QWidget()
        col = QVBoxLayout(column)
        col.setSpacing(10)
        self.intro = QLabel()
        self.intro.setObjectName("intro")
        self.intro.setWordWrap(True)
        self.model = ModelPanel()
        self.workload = WorkloadPanel()
        self.hardware = HardwarePanel(inputs)
        self.speculative = SpeculativePanel(find_model)
        self.input_error = QLabel()
        self.input_error.setObjectName("inputError")
        self.input_error.setWordWrap(True)
        self.input_error.setStyleSheet(ERROR_STYLE)
        self.input_error.hide()
        for w in (self.intro, self.model, self.workload.precision_box, self.workload.workload_box,
                  self.hardware.hardware_box, self.speculative, self.hardware.advanced_toggle, self.hardware.advanced_box,
                  self.input_error):  # fmt: skip
            col.addWidget(w)
        col.addStretch(1)
        self.setWidgetResizable(True)
        self.setWidget(column)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMinimumWidth(340)

    def retranslate(self) -> None:
        self.intro.setText(tr("ui.sizing.intro"))
        self.model.retranslate()
        self.workload.retranslate()
        self.hardware.retranslate()
        self.speculative.retranslate()

    def show_problem(self, text: str | None) -> None:
        """What is wrong with the inputs, in words (None: nothing)."""
        self.input_error.setText(text or "")
        self.input_error.setVisible(bool(text))
