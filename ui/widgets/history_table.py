"""The History page's list of runs: one row a run, a tick to compare it, the open project's runs marked, the
status coloured with its reason as a tooltip. Each row's tick cell holds its run id, so the selection and the
ticks follow the run, not the row index, when rows come and go."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from advisor.bench.history import RunSummary, project_name
from advisor.i18n import tr

COLUMNS = ("compare", "date", "project", "status", "model", "target", "gpu", "shape", "knee", "requests", "label")
COL = {name: i for i, name in enumerate(COLUMNS)}
THIS_PROJECT_MARK = "●"
STATUS_COLORS = {"failed": "#E45756", "degraded": "#F58518", "incomplete": "#F58518", "interrupted": "#9D755D",
                 "stopped": "#888888", "running": "#4C78A8"}


def project_cell(run: RunSummary, open_project: str | None) -> str:
    """'● name' for the open project's runs, the other project's name, '–' for none."""
    if not run.project_id:
        return "–"
    name = project_name(run.project_id)
    return f"{THIS_PROJECT_MARK} {name}" if run.project_id == open_project else name


class RunsTable(QTableWidget):
    ticked = Signal(str, bool)  # run id, ticked (the user's click, never a refill)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.setAlternatingRowColors(True)
        self._filling = False
        self.itemChanged.connect(self._on_item_changed)

    def fill(self, runs: list[RunSummary], checked: set[str], open_project: str | None) -> None:
        self._filling = True
        try:
            self.setRowCount(len(runs))
            for row, r in enumerate(runs):
                tick = QTableWidgetItem()
                tick.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                tick.setCheckState(Qt.CheckState.Checked if r.run_id in checked else Qt.CheckState.Unchecked)
                tick.setData(Qt.ItemDataRole.UserRole, r.run_id)
                self.setItem(row, 0, tick)
                for col, item in enumerate(self._cells(r, open_project), start=1):
                    self.setItem(row, col, item)
            header = self.horizontalHeader()
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            header.setStretchLastSection(True)
        finally:
            self._filling = False

    @staticmethod
    def _cells(r: RunSummary, open_project: str | None) -> list[QTableWidgetItem]:
        target = (tr("history.page.simulated") + " · " if r.simulated else "") + r.url
        texts = [r.created, project_cell(r, open_project), tr(f"history.status.{r.status}"), r.model, target,
                 r.gpu or "–", tr(f"history.shape.{r.shape}") if r.shape else "–",
                 "–" if r.knee_concurrency is None else str(r.knee_concurrency),
                 f"{r.requests_ok} / {r.requests_failed}", r.label]
        items = []
        for col, text in enumerate(texts, start=1):
            item = QTableWidgetItem(text)
            if col == COL["project"] and r.project_id:
                mine = r.project_id == open_project
                item.setToolTip(tr("history.page.project_tip_this" if mine else "history.page.project_tip",
                                   path=r.project_id.removeprefix("file:")))
                if mine:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
            if col == COL["status"]:
                item.setToolTip(r.status_reason)
                color = STATUS_COLORS.get(r.status)
                if color:
                    item.setForeground(QBrush(QColor(color)))
            if col == COL["knee"] and r.knee_message:
                item.setToolTip(r.knee_message)
            items.append(item)
        return items

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != 0:
            return
        self.ticked.emit(item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked)

    def run_id_at(self, row: int) -> str | None:
        item = self.item(row, 0)
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def selected_run_id(self) -> str | None:
        """The run in the selected row, read from the row itself (its tick cell holds the run id)."""
        rows = self.selectionModel().selectedRows() if self.selectionModel() else []
        return self.run_id_at(rows[0].row()) if rows else None

    def select_run(self, run_id: str) -> bool:
        for row in range(self.rowCount()):
            if self.run_id_at(row) == run_id:
                self.selectRow(row)
                return True
        return False

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels(["✓"] + [tr(f"history.col.{c}") for c in COLUMNS[1:]])
