"""The History page's Runs tab: scope, search and filters above the table of stored runs, the count, why the
selected run ended as it did, and the buttons that act on it (the page connects them)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from advisor.bench.history import SHAPES, STATUSES, RunFilter, RunSummary
from advisor.i18n import tr
from ui.widgets.history_scope import ScopeCombo
from ui.widgets.history_table import RunsTable


class RunsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scope = ScopeCombo()
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.status_filter = QComboBox()
        self.shape_filter = QComboBox()
        self.refresh_button = QPushButton()
        self.import_button = QPushButton()
        bar = QHBoxLayout()
        bar.addWidget(self.scope, 1)
        bar.addWidget(self.search, 3)
        bar.addWidget(self.status_filter, 1)
        bar.addWidget(self.shape_filter, 1)
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.import_button)

        self.table = RunsTable()
        self.count = QLabel()
        self.open_button = QPushButton()
        self.compare_button = QPushButton()
        self.export_button = QPushButton()
        self.delete_button = QPushButton()
        actions = QHBoxLayout()
        actions.addWidget(self.count, 1)
        for b in (self.open_button, self.export_button, self.delete_button, self.compare_button):
            actions.addWidget(b)
        self.status_reason = QLabel()
        self.status_reason.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status_reason)
        layout.addLayout(actions)

    def retranslate(self) -> None:
        self.search.setPlaceholderText(tr("history.page.search"))
        for combo, first, values, prefix in ((self.status_filter, "history.page.any_status", STATUSES, "status"),
                                             (self.shape_filter, "history.page.any_shape", SHAPES, "shape")):
            current = combo.currentData()
            combo.blockSignals(True)  # a language switch is not the user filtering
            combo.clear()
            combo.addItem(tr(first), "")
            for v in values:
                combo.addItem(tr(f"history.{prefix}.{v}"), v)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)
        self.scope.retranslate()
        self.refresh_button.setText(tr("history.page.refresh"))
        self.import_button.setText(tr("history.page.import"))
        self.open_button.setText(tr("history.page.open"))
        self.compare_button.setText(tr("history.page.compare"))
        self.export_button.setText(tr("history.page.export"))
        self.delete_button.setText(tr("history.page.delete"))
        self.table.retranslate()

    def run_filter(self, project_id: str | None) -> RunFilter:
        """The search and filters as set; the open project's runs only when the scope is "This project"."""
        project = project_id if self.scope.current() == "project" and project_id else ""
        return RunFilter(text=self.search.text().strip(), status=self.status_filter.currentData() or "",
                         shape=self.shape_filter.currentData() or "", project=project)

    def show_runs(self, shown: list[RunSummary], total: int, checked: set[str], project_id: str | None) -> None:
        self.table.fill(shown, checked, project_id)
        if not total:
            self.count.setText(tr("history.page.empty"))
        else:
            self.count.setText(tr("history.page.count", shown=len(shown), total=total))

    def update_buttons(self, current: RunSummary | None, checked: int) -> None:
        """Open/Export/Delete act on one run; Compare wants 2–4 ticked."""
        for b in (self.open_button, self.export_button, self.delete_button):
            b.setEnabled(current is not None)
        self.compare_button.setEnabled(2 <= checked <= 4)
        self.compare_button.setToolTip(tr("history.page.select_compare", count=checked))
        self.status_reason.setText(tr("history.page.reason", reason=current.status_reason) if current else "")
