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

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.history import SHAPES, STATUSES, RunFilter, RunHistory, RunSummary
from advisor.bench.quality.memo import quality_memo_lines
from advisor.i18n import current_language, tr
from ui.widgets.history_compare import CompareTab
from ui.widgets.history_scope import ScopeCombo
from ui.widgets.history_table import COL, RunsTable  # noqa: F401 - COL: the column map tests read
from ui.widgets.page_header import page_header


def _list_runs(_token: Any, db_path: str | None) -> list[RunSummary]:
    with RunHistory(db_path, read_only=True) as history:  # listing writes nothing (dead runs shown interrupted)
        return history.list()


def _adopt_runs(_token: Any, db_path: str | None, project_id: str, since_wall: float) -> list[str]:
    with RunHistory(db_path) as history:
        return history.adopt_runs(project_id, since_wall=since_wall)


def _compare(_token: Any, db_path: str | None, run_ids: list[str]) -> dict[str, Any]:
    with RunHistory(db_path, read_only=True) as history:
        return history.compare(run_ids)


def _stored_quality(db_path: str | Path | None, run_id: str) -> list[dict[str, Any]]:
    """Scored A/Bs stored with this run; none when the database cannot be read (the run itself is shown)."""
    try:
        with RunHistory(db_path, read_only=True) as history:
            return history.quality([run_id])
    except Exception:  # the note is an extra: a database problem is said by the run view, not twice here
        return []


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

        self.scope = ScopeCombo()
        self.scope.picked.connect(self.apply_filter)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.apply_filter)
        self.status_filter = QComboBox()
        self.shape_filter = QComboBox()
        for combo in (self.status_filter, self.shape_filter):
            combo.currentIndexChanged.connect(self.apply_filter)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        self.import_button = QPushButton()
        self.import_button.clicked.connect(self.import_dialog)
        bar = QHBoxLayout()
        bar.addWidget(self.scope, 1)
        bar.addWidget(self.search, 3)
        bar.addWidget(self.status_filter, 1)
        bar.addWidget(self.shape_filter, 1)
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.import_button)

        self.table = RunsTable()
        self.table.cellDoubleClicked.connect(lambda row, _col: self.open_run(self.table.run_id_at(row) or ""))
        self.table.ticked.connect(self._on_ticked)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.count = QLabel()
        self.open_button = QPushButton()
        self.open_button.clicked.connect(lambda: self.current() and self.open_run(self.current().run_id))
        self.compare_button = QPushButton()
        self.compare_button.clicked.connect(self.compare_checked)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export_dialog)
        self.delete_button = QPushButton()
        self.delete_button.clicked.connect(self.delete_dialog)
        actions = QHBoxLayout()
        actions.addWidget(self.count, 1)
        for b in (self.open_button, self.export_button, self.delete_button, self.compare_button):
            actions.addWidget(b)
        self.status_reason = QLabel()
        self.status_reason.setWordWrap(True)
        runs_tab = QWidget()
        runs_layout = QVBoxLayout(runs_tab)
        runs_layout.addLayout(bar)
        runs_layout.addWidget(self.table, 1)
        runs_layout.addWidget(self.status_reason)
        runs_layout.addLayout(actions)

        from ui.widgets.bench_result import ResultView

        self.result_view = ResultView(runner, db_path=self.db_path)
        self.result_hint = QLabel()
        # the scored quantization A/B this run was one side of (stored with both load runs), in words
        self.quality_note = QLabel()
        self.quality_note.setWordWrap(True)
        self.quality_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.quality_note.hide()
        self._quality_rows: list[dict[str, Any]] = []
        result_tab = QWidget()
        result_layout = QVBoxLayout(result_tab)
        result_layout.addWidget(self.result_hint)
        result_layout.addWidget(self.quality_note)
        result_layout.addWidget(self.result_view, 1)

        self.compare_tab = CompareTab()
        self.compare_tab.export_requested.connect(self.export_comparison_dialog)
        self.compare_plot, self.differences = self.compare_tab.plot, self.compare_tab.differences
        self.export_compare_button = self.compare_tab.export_button

        self.tabs = QTabWidget()
        self.tabs.addTab(runs_tab, "")
        self.tabs.addTab(result_tab, "")
        self.tabs.addTab(self.compare_tab, "")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addWidget(self.tabs, 1)
        self._loaded_once = False
        self.retranslate()

    # -- page protocol -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(tr("history.page.title"))
        self.intro.setText(tr("history.page.intro"))
        self.search.setPlaceholderText(tr("history.page.search"))
        for combo, first, values in ((self.status_filter, "history.page.any_status", STATUSES),
                                     (self.shape_filter, "history.page.any_shape", SHAPES)):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(tr(first), "")
            for v in values:
                combo.addItem(tr(f"history.status.{v}") if combo is self.status_filter else tr(f"history.shape.{v}"), v)
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
        for i, key in enumerate(("history.page.tab_runs", "history.page.tab_result", "history.page.tab_compare")):
            self.tabs.setTabText(i, tr(key))
        self.result_hint.setText("" if self.result_view.result else tr("history.page.no_result"))
        self._show_quality_note()
        self.result_view.retranslate()
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
        from PySide6.QtGui import QPalette

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
        project = self.project_id if self.current_scope() == "project" and self.project_id else ""
        return RunFilter(text=self.search.text().strip(), status=self.status_filter.currentData() or "",
                         shape=self.shape_filter.currentData() or "", project=project or "")

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
        self.table.fill(self.shown_runs, self.checked, self.project_id)
        if not self.runs:
            self.count.setText(tr("history.page.empty"))
        else:
            self.count.setText(tr("history.page.count", shown=len(self.shown_runs), total=len(self.runs)))
        self._update_buttons()

    def _on_ticked(self, run_id: str, ticked: bool) -> None:
        if ticked:
            self.checked.add(run_id)
        else:
            self.checked.discard(run_id)
        self._update_buttons()

    def _update_buttons(self) -> None:
        has = self.current() is not None
        for b in (self.open_button, self.export_button, self.delete_button):
            b.setEnabled(has)
        self.compare_button.setEnabled(2 <= len(self.checked) <= 4)
        self.compare_button.setToolTip(tr("history.page.select_compare", count=len(self.checked)))
        cur = self.current()
        self.status_reason.setText(tr("history.page.reason", reason=cur.status_reason) if cur else "")

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
        ok = self.result_view.show_result(run_id)
        self.result_hint.setText("" if ok else tr("history.page.no_result"))
        self._quality_rows = _stored_quality(self.db_path, run_id) if ok else []
        self._show_quality_note()
        self.tabs.setCurrentIndex(1)
        if ok:
            self.opened.emit(run_id)
        return ok

    def _show_quality_note(self) -> None:
        lines = quality_memo_lines(self._quality_rows, current_language())
        self.quality_note.setText("\n".join(f"{tr('quality.md.title')}: {line}" for line in lines))
        self.quality_note.setVisible(bool(lines))

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
