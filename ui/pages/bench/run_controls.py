"""Start and Stop, and why a run could not start (a field-level message under the buttons)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from advisor.i18n import tr
from ui.pages.bench.styles import ERROR_STYLE


class RunControls(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.start_button = QPushButton()
        self.stop_button = QPushButton()
        self.stop_button.setEnabled(False)
        self.run_error = QLabel()
        self.run_error.setWordWrap(True)
        self.run_error.setStyleSheet(ERROR_STYLE)
        self.run_error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        layout.addWidget(self.run_error)

    def retranslate(self) -> None:
        self.start_button.setText(tr("bench.page.start"))
        self.stop_button.setText(tr("bench.page.stop"))

    def set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)

    def show_error(self, text: str) -> None:
        self.run_error.setText(text)
        self.run_error.show()

    def clear_error(self) -> None:
        self.run_error.hide()
