"""The History page: every stored benchmark run, filter and search, open one in the result view, delete, export,
import, and compare 2–4 runs overlaid with a table of differences.

"This project / All runs": runs started from the app while a saved project is open are stored with its id
(``advisor.bench.history.project_key``); the window tells the page which project is open (``set_project``) on
File → Open / New / Save / Save As. The default scope is the project when it has runs, else all runs, until the
user picks one; the Project column marks the open project's runs in either scope.

All figures come from ``advisor.bench.history`` (the same as ``advisor history --json``); reading the database
runs off the GUI thread through the app's TaskRunner. Filtering the loaded list is local (no query per key).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFileDialog, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from advisor.bench.history import RunFilter, RunHistory, RunSummary
from advisor.i18n import tr
from ui.pages.history.result_panel import ResultPanel
from ui.pages.history.runs_panel import RunsPanel
from ui.widgets.history_compare import CompareTab
from ui.widgets.page_header import page_header

# the panels' widgets, read on the page under their old names (tests, the window)
_RUNS_WIDGETS = ("scope", "search", "status_filter", "shape_filter", "refresh_button", "import_button", "table",
                 "count", "open_button", "compare_button", "export_button", "delete_button", "status_reason")
_RESULT_WIDGETS = ("result_view", "result_hint", "quality_note")


def _list_runs(_token: Any, db_path: str | None) -> list[RunSummary]:
    with RunHistory(db_path, read_only=True) as history:  # listing writes nothing (dead runs shown interrupted)
        return history.list()


def _adopt_runs(_token: Any, db_path: str | None, project_id: str, since_wall: float) -> list[str]:
    with RunHistory(db_path) as history:
        return history.adopt_runs(project_id, since_wall=since_wall)


def _compare(_token: Any, db_path: str | None, run_ids: list[str]) -> dict[str, Any]:
    with RunHistory(db_path, read_only=True) as history:
        return history.compare(run_ids)


class HistoryPage(QWidget):
    listed = Signal(int)  # runs loaded (tests wait on it)
    compared = Signal()
    opened = Signal(str)  # run id shown in the result view
    adopted = Signal(list)  # run ids an unsaved project took in at its first save
    message = Signal(str)

    def __init__(self, runner: Any, parent: QWidget | None = None, *, db_path: str | Path | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.db_path = str(db_path) if db_path else None
        self.runs: list[RunSummary] = []
        self.shown_runs: list[RunSummary] = []
        self.checked: set[str] = set()
        self.project_id: str | None = None  # the open saved project (None: unsaved or none)

        self.title, self.intro = page_header()

        self.runs_panel = RunsPanel()
        self.result_panel = ResultPanel(runner, self.db_path)
        for panel, names in ((self.runs_panel, _RUNS_WIDGETS), (self.result_panel, _RESULT_WIDGETS)):
            for name in names:
                setattr(self, name, getattr(panel, name))
        self.scope.picked.connect(self.apply_filter)
        self.search.textChanged.connect(self.apply_filter)
        for combo in (self.status_filter, self.shape_filter):
            combo.currentIndexChanged.connect(self.apply_filter)
        self.refresh_button.clicked.connect(self.refresh)
        self.import_button.clicked.connect(self.import_dialog)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.open_run(self.table.run_id_at(row) or ""))
        self.table.ticked.connect(self._on_ticked)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.open_button.clicked.connect(lambda: self.current() and self.open_run(self.current().run_id))
        self.compare_button.clicked.connect(self.compare_checked)
        self.export_button.clicked.connect(self.export_dialog)
        self.delete_button.clicked.connect(self.delete_dialog)

        self.compare_tab = CompareTab()
        self.compare_tab.export_requested.connect(self.export_comparison_dialog)
        self.compare_plot, self.differences = self.compare_tab.plot, self.compare_tab.differences
        self.export_compare_button = self.compare_tab.export_button

        self.tabs = QTabWidget()
        self.tabs.addTab(self.runs_panel, "")
        self.tabs.addTab(self.result_panel, "")
        self.tabs.addTab(self.compare_tab, "")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addWidget(self.tabs, 1)
        self.retranslate()

    # -- page protocol -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(tr("history.page.title"))
        self.intro.setText(tr("history.page.intro"))
        self.runs_panel.retranslate()
        for i, key in enumerate(("history.page.tab_runs", "history.page.tab_result", "history.page.tab_compare")):
            self.tabs.setTabText(i, tr(key))
        self.result_panel.retranslate()
        self.compare_tab.retranslate()
        self.apply_filter()
        if self.runs:
            self.refresh()  # status reasons and knee messages are worded by the core in the current language

    def stop(self) -> None:
        pass  # reads are short tasks owned by the TaskRunner, which the window shuts down

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()
        QTimer.singleShot(0, self.refresh)  # new runs may have been made on another page or in a terminal

    def apply_theme(self) -> None:
        """Plot backgrounds follow the window's palette (light or dark)."""
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        self.result_view.set_theme(dark)
        self.compare_tab.set_theme(dark)

    # -- loading -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        self.count.setText(tr("history.page.loading"))
        self.runner.submit(_list_runs, self.db_path, on_result=self._on_runs, on_error=self._on_error,
                           key="history-list")

    def _on_runs(self, runs: list[RunSummary]) -> None:
        self.runs = runs
        known = {r.run_id for r in runs}
        self.checked &= known
        if self.scope.automatic:
            self.scope.choose_default(self.project_run_count())
        self.apply_filter()
        self.listed.emit(len(runs))

    def _on_error(self, exc: BaseException) -> None:
        self.show_error(tr("history.page.error_title"), str(exc))

    # -- the open project ------------------------------------------------------------------------------
    def set_project(self, project_id: str | None) -> None:
        """The window's open project changed (Open, New, Save As): mark its runs and choose the default scope."""
        if (project_id or None) == self.project_id:
            return  # saved again under the same name: the user's scope stays
        self.project_id = project_id or None
        self.scope.set_project(self.project_id)
        self.scope.choose_default(self.project_run_count())
        self.apply_filter()

    def adopt_runs(self, project_id: str, since_wall: float) -> None:
        """An unsaved project was saved for the first time: the runs this app made since ``since_wall`` (with no
        project) join it, then the list is read again. Off the GUI thread (a running benchmark may hold the
        database's write lock for a moment)."""
        self.runner.submit(_adopt_runs, self.db_path, project_id, since_wall, on_result=self._on_adopted,
                           on_error=self._on_error, key="history-adopt")

    def _on_adopted(self, run_ids: list[str]) -> None:
        if run_ids:
            self.message.emit(tr("history.page.runs_adopted", count=len(run_ids)))
        self.adopted.emit(run_ids)
        self.refresh()

    def project_run_count(self) -> int:
        return sum(1 for r in self.runs if self.project_id and r.project_id == self.project_id)

    def current_scope(self) -> str:
        return self.scope.current()

    def current_filter(self) -> RunFilter:
        return self.runs_panel.run_filter(self.project_id)

    def apply_filter(self, *_args: Any) -> None:
        selected = self._selected_run_id()  # the selection follows the run, not the row, when rows come and go
        flt = self.current_filter()
        self.shown_runs = [r for r in self.runs if flt.matches(r)]
        self._fill_table()
        self.table.clearSelection()
        if selected is not None:
            self.select(selected)
        self._update_buttons()

    def _fill_table(self) -> None:
        self.runs_panel.show_runs(self.shown_runs, len(self.runs), self.checked, self.project_id)
        self._update_buttons()

    def _on_ticked(self, run_id: str, ticked: bool) -> None:
        if ticked:
            self.checked.add(run_id)
        else:
            self.checked.discard(run_id)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.runs_panel.update_buttons(self.current(), len(self.checked))

    def _selected_run_id(self) -> str | None:
        return self.table.selected_run_id()

    def current(self) -> RunSummary | None:
        """The run Open/Export/Delete act on: the selected row's run, else the one ticked run."""
        run_id = self._selected_run_id()
        if run_id is None and len(self.checked) == 1:
            run_id = next(iter(self.checked))
        return next((r for r in self.runs if r.run_id == run_id), None) if run_id else None

    def select(self, run_id: str) -> bool:
        return self.table.select_run(run_id)

    def set_checked(self, run_ids: list[str]) -> None:
        self.checked = set(run_ids)
        self._fill_table()

    # -- actions -------------------------------------------------------------------------------------
    def open_run(self, run_id: str) -> bool:
        ok = self.result_panel.show_run(run_id)
        self.tabs.setCurrentIndex(1)
        if ok:
            self.opened.emit(run_id)
        return ok

    def compare_checked(self) -> None:
        ids = [r.run_id for r in self.runs if r.run_id in self.checked]  # newest first, as listed
        ids.reverse()  # the oldest is the baseline the others are measured against
        self.compare_tab.loading()
        self.runner.submit(_compare, self.db_path, ids, on_result=self._on_compared, on_error=self._on_error,
                           key="history-compare")

    def _on_compared(self, comparison: dict[str, Any]) -> None:
        self.compare_tab.show_comparison(comparison)
        self.tabs.setCurrentIndex(2)
        self.compared.emit()

    def export_dialog(self) -> None:
        cur = self.current()
        if cur is None:
            return
        path = self.ask_save_path(f"{cur.run_id}.json")
        if not path:
            return
        try:
            with RunHistory(self.db_path) as history:
                history.export_to(cur.run_id, path)
        except (OSError, ValueError) as exc:
            self.show_error(tr("history.page.error_title"), str(exc))
            return
        self.message.emit(tr("history.page.exported", run_id=cur.run_id, path=path))

    def export_comparison_dialog(self) -> None:
        """The comparison shown as Markdown or CSV (by the suffix chosen)."""
        if self.compare_tab.comparison is None:
            return
        path = self.ask_save_path("comparison.md")
        if not path:
            return
        try:
            self.compare_tab.export_to(path)
        except (OSError, ValueError) as exc:
            self.show_error(tr("history.page.error_title"), str(exc))
            return
        self.message.emit(tr("history.page.compare_exported", path=path))

    def delete_dialog(self) -> None:
        cur = self.current()
        if cur is None:
            return
        if not self.confirm(tr("history.page.confirm_delete", run_id=cur.run_id, model=cur.model, date=cur.created)):
            return
        try:
            with RunHistory(self.db_path) as history:
                history.delete(cur.run_id)
        except (OSError, ValueError) as exc:
            self.show_error(tr("history.page.error_title"), str(exc))
            return
        self.checked.discard(cur.run_id)
        self.message.emit(tr("history.page.deleted", run_id=cur.run_id))
        self.refresh()

    def import_dialog(self) -> None:
        path = self.ask_open_path()
        if not path:
            return
        try:
            with RunHistory(self.db_path) as history:
                if path.endswith((".sqlite3", ".sqlite", ".db")):  # a whole database copied from a GPU server
                    ids = history.import_database(path)
                else:
                    ids = [history.import_json(Path(path).read_text(encoding="utf-8"), source=Path(path).name)]
        except (OSError, ValueError) as exc:
            self.show_error(tr("history.page.error_title"), str(exc))
            return
        self.message.emit(tr("history.page.imported", run_id=", ".join(ids) or "–"))
        self.refresh()

    # -- seams for tests -----------------------------------------------------------------------------
    def ask_save_path(self, suggested: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self, tr("history.page.export"), str(Path.home() / suggested),
                                              tr("history.page.export_filter"))
        return path

    def ask_open_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, tr("history.page.import"), str(Path.home()),
                                              tr("history.page.import_filter"))
        return path

    def confirm(self, text: str) -> bool:
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
        return QMessageBox.question(self, tr("history.page.error_title"), text, buttons) == QMessageBox.StandardButton.Yes

    def show_error(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)
