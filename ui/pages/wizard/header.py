"""The wizard's header: its title, the names of the steps (the ones already reached are links), a progress bar
and "Step n of N: title"."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from advisor.i18n import tr


class StepHeader(QWidget):
    """Emits ``step_clicked`` with the index of a step name the user clicked."""

    step_clicked = Signal(int)

    def __init__(self, steps: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps = steps  # the index of the result screen (after the questions and the review)
        self.title = QLabel()
        self.title.setObjectName("wizardTitle")
        self.title.setStyleSheet("font-size: 15pt; font-weight: 600;")
        self.progress = QProgressBar()
        self.progress.setObjectName("wizardProgress")
        self.progress.setRange(0, steps)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.step_label = QLabel()
        self.step_label.setObjectName("stepLabel")
        self.step_names = QLabel()
        self.step_names.setObjectName("stepNames")
        self.step_names.setWordWrap(True)
        self.step_names.setTextFormat(Qt.TextFormat.RichText)
        self.step_names.linkActivated.connect(lambda link: self.step_clicked.emit(int(link)))
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.title)
        col.addWidget(self.step_names)
        col.addWidget(self.progress)
        col.addWidget(self.step_label)

    def show_step(self, index: int, titles: list[str], has_result: bool) -> None:
        """``titles``: every step's name, the result screen's last. Steps before ``index`` are links (and every
        question step once there is a result)."""
        self.title.setText(tr("wizard.title"))
        self.progress.setValue(min(index, self.steps))
        if index < self.steps:
            self.step_label.setText(tr("wizard.progress", n=index + 1, total=self.steps, title=titles[index]))
        else:
            self.step_label.setText(titles[index])
        names = []
        for i, name in enumerate(titles):
            if i == index:
                names.append(f"<b>{name}</b>")
            elif i < self.steps and (i < index or has_result):
                names.append(f'<a href="{i}">{name}</a>')
            else:
                names.append(f"<span style='color:gray'>{name}</span>")
        self.step_names.setText(" › ".join(names))
