"""The History page's Compare tab: 2–4 runs overlaid (``ComparePlot``), the table of differences, and an export of
the comparison as Markdown or CSV (the button asks the page for a path, so the page's file dialog is the one
seam tests replace)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from advisor.i18n import tr
from ui.widgets.compare_plot import ComparePlot, DifferencesTable


class CompareTab(QWidget):
    export_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: dict[str, Any] | None = None
        self.plot = ComparePlot()
        self.differences = DifferencesTable()
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addWidget(self.hint)
        table_layout.addWidget(self.differences, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.plot)
        splitter.addWidget(table_box)
        splitter.setSizes([520, 300])
        self.export_button = QPushButton()
        self.export_button.setEnabled(False)  # until a comparison is shown
        self.export_button.clicked.connect(self.export_requested)
        layout = QVBoxLayout(self)
        layout.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(splitter, 1)

    def loading(self) -> None:
        self.hint.setText(tr("history.page.loading"))

    def show_comparison(self, comparison: dict[str, Any]) -> None:
        self.comparison = comparison
        self.export_button.setEnabled(True)
        self.plot.show_comparison(comparison)
        self.differences.show_comparison(comparison)
        self.hint.setText(tr("history.plot.differences"))

    def export_to(self, path: str) -> None:
        """Write the comparison shown as Markdown or CSV (by the suffix); OSError/ValueError say why not."""
        from advisor.bench.compare_export import write_comparison

        if self.comparison is not None:
            write_comparison(self.comparison, path)

    def set_theme(self, dark: bool) -> None:
        self.plot.set_theme(dark)

    def retranslate(self) -> None:
        self.export_button.setText(tr("history.page.export_compare"))
        self.plot.retranslate()
        self.differences.retranslate()
