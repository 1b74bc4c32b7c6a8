"""The wizard's workload panel: the figures the plan sizes for, each with its source, and a confirm step.

The figures and their sources are computed in ``advisor.plan.workload`` (Qt-free); this panel shows them, offers
the Sizing page and the real-server benchmark runs as sources to take over (never a simulated run, never another
page's placeholders), and asks the user to confirm figures that were taken over rather than typed.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from advisor.i18n import tr


class WorkloadPanel(QFrame):
    """Shows ``workload_figures``; ``use_source`` is emitted with the chosen ``WorkloadSource``."""

    use_source = Signal(object)
    confirmed_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workloadPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.sources: list[Any] = []
        self.figures: list[Any] = []
        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setStyleSheet("color: palette(mid);")
        self.rows = QLabel()
        self.rows.setObjectName("workloadRows")
        self.rows.setWordWrap(True)
        self.rows.setTextFormat(Qt.TextFormat.RichText)
        self.take_label = QLabel()
        self.chooser = QComboBox()
        self.chooser.setObjectName("workloadSource")
        self.chooser.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.chooser.setMinimumContentsLength(30)
        self.use = QPushButton()
        self.use.setObjectName("workloadUse")
        self.use.clicked.connect(self._use)
        self.no_runs = QLabel()
        self.no_runs.setWordWrap(True)
        self.no_runs.setStyleSheet("color: palette(mid);")
        self.confirm = QCheckBox()
        self.confirm.setObjectName("workloadConfirm")
        self.confirm.toggled.connect(self.confirmed_changed.emit)
        take = QHBoxLayout()
        take.addWidget(self.take_label)
        take.addWidget(self.chooser, 1)
        take.addWidget(self.use)
        col = QVBoxLayout(self)
        col.addWidget(self.title)
        col.addWidget(self.intro)
        col.addWidget(self.rows)
        col.addLayout(take)
        col.addWidget(self.no_runs)
        col.addWidget(self.confirm)
        self.confirm.hide()
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(tr("wizard.workload.title"))
        self.intro.setText(tr("wizard.workload.intro"))
        self.take_label.setText(tr("wizard.workload.take_from"))
        self.use.setText(tr("wizard.workload.use"))
        self.no_runs.setText(tr("wizard.workload.no_runs"))
        self.confirm.setText(tr("wizard.workload.confirm"))
        self.set_sources(self.sources)
        self.set_figures(self.figures)

    def set_sources(self, sources: list[Any]) -> None:
        """The sources offered (``WorkloadSource``: the Sizing page, real-server runs)."""
        self.sources = list(sources)
        lang = i18n.current_language()
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItem(tr("wizard.workload.pick"), None)
        for i, source in enumerate(self.sources):
            self.chooser.addItem(source.choice_in(lang), i)
        self.chooser.blockSignals(False)
        self.no_runs.setVisible(not any(s.kind == "run" for s in self.sources))
        self.use.setEnabled(bool(self.sources))

    def set_figures(self, figures: list[Any]) -> None:
        self.figures = list(figures)
        lang = i18n.current_language()
        lines = [tr("wizard.workload.row", label=html.escape(f.label_in(lang)), value=html.escape(f.value_in(lang)),
                    source=html.escape(f.source_in(lang))) for f in self.figures]  # fmt: skip
        self.rows.setText("<br>".join(lines))

    def needs_confirm(self, needed: bool) -> None:
        """Show the confirm box while taken-over figures stand unconfirmed (and untick it when they change)."""
        self.confirm.setVisible(needed)

    def reset_confirm(self) -> None:
        self.confirm.blockSignals(True)
        self.confirm.setChecked(False)
        self.confirm.blockSignals(False)

    @property
    def confirmed(self) -> bool:
        return self.confirm.isChecked()

    def choose(self, index: int) -> None:
        """Pick source ``index`` (of ``sources``) in the chooser (for tests and keyboard users alike)."""
        self.chooser.setCurrentIndex(self.chooser.findData(index))

    def _use(self) -> None:
        index = self.chooser.currentData()
        if index is None or not 0 <= index < len(self.sources):
            return
        self.use_source.emit(self.sources[index])
