"""The simulated target: which model, GPU, weight format, GPU count and time scale the embedded server models,
its start/stop button and what state it is in (``SimController`` runs the process)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor import catalog
from advisor.i18n import tr
from advisor.sizing import WEIGHT_FORMATS
from ui.pages.bench.sim_controller import SimController
from ui.pages.bench.styles import ERROR_STYLE, OK_STYLE, SIM_BADGE

FIELD_KEYS = ("model", "gpu", "weights", "gpus", "speed")


def select_data(box: QComboBox, data: Any) -> bool:
    """Select the item whose data is ``data``; False (and nothing changed) when there is none."""
    i = box.findData(data)
    if i >= 0:
        box.setCurrentIndex(i)
    return i >= 0


class SimPanel(QWidget):
    def __init__(self, controller: SimController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
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
        self.sim_button = QPushButton()
        self.sim_button.clicked.connect(self.toggle)
        self.sim_status = QLabel()
        self.sim_status.setWordWrap(True)
        self.sim_form = QFormLayout()
        self.sim_labels = [QLabel() for _ in FIELD_KEYS]
        for lab, w in zip(self.sim_labels, self.setup_widgets(), strict=True):
            self.sim_form.addRow(lab, w)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.sim_badge)
        head.addStretch(1)
        head.addWidget(self.sim_from_sizing)
        layout.addLayout(head)
        layout.addLayout(self.sim_form)
        row = QHBoxLayout()
        row.addWidget(self.sim_button)
        row.addWidget(self.sim_status, 1)
        layout.addLayout(row)
        controller.state_changed.connect(self.show_state)

    def setup_widgets(self) -> tuple[QWidget, ...]:
        return self.sim_model, self.sim_gpu, self.sim_weights, self.sim_gpus, self.sim_speed

    def fill_pickers(self) -> None:
        self.sim_model.clear()
        for m in catalog.load_models():
            self.sim_model.addItem(f"{m.id}", m.id)
        self.sim_gpu.clear()
        try:
            gpus = list(catalog.load_gpus())
        except catalog.CatalogError:  # a damaged user GPU file: the Sizing page says why; the built-in ones stay
            gpus = list(catalog._builtin_gpus())
        for g in gpus:
            self.sim_gpu.addItem(f"{g.id} · {g.name}", g.id)
        self.sim_weights.clear()
        self.sim_weights.addItem(tr("bench.page.weights_checkpoint"), None)
        for w in WEIGHT_FORMATS:
            self.sim_weights.addItem(w, w)

    def use_sizing_fields(self, fields: dict[str, Any] | None) -> None:
        """The Sizing page's model/GPU/format/GPU count become the simulated server's setup."""
        if not fields:
            return
        select_data(self.sim_model, fields["model"].id)
        select_data(self.sim_gpu, fields["gpu"].id)
        select_data(self.sim_weights, fields.get("weights"))
        self.sim_gpus.setValue(int(fields.get("gpus") or 1))

    def spec(self) -> Any:
        from advisor.sim.launcher import SimLaunchSpec

        return SimLaunchSpec(model=self.sim_model.currentData(), gpu=self.sim_gpu.currentData(),
                             weights=self.sim_weights.currentData(), gpus=self.sim_gpus.value(),
                             time_scale=self.sim_speed.value(), port=0)  # fmt: skip

    def toggle(self) -> None:
        if self.controller.active:
            self.controller.stop()
        else:
            self.controller.start(self.spec())

    def retranslate(self) -> None:
        for lab, key in zip(self.sim_labels, FIELD_KEYS, strict=True):
            lab.setText(tr(f"bench.page.sim.{key}"))
        self.sim_speed.setToolTip(tr("bench.page.sim.speed_tip"))
        self.sim_from_sizing.setText(tr("bench.page.sim.from_sizing"))
        self.sim_weights.setItemText(0, tr("bench.page.weights_checkpoint"))
        self.show_state()

    def show_state(self, *_args: Any) -> None:
        state = self.controller.state
        running = state in ("running", "starting")
        self.sim_button.setText(tr("bench.page.sim.stop") if running else tr("bench.page.sim.start"))
        for w in self.setup_widgets():
            w.setEnabled(not running)
        if state == "running":
            self.sim_status.setText(tr("bench.page.sim.running", url=self.controller.url or ""))
            self.sim_status.setStyleSheet(OK_STYLE)
        elif state == "starting":
            self.sim_status.setText(tr("bench.page.sim.starting"))
            self.sim_status.setStyleSheet("")
        elif state == "error":
            self.sim_status.setText(tr("bench.page.sim.error", error=self.controller.error))
            self.sim_status.setStyleSheet(ERROR_STYLE)
        else:
            self.sim_status.setText(tr("bench.page.sim.stopped"))
            self.sim_status.setStyleSheet("")
