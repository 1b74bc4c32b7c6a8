"""The main window's project file: new, open, save (as), the unsaved-changes question, the title's "*", recent
files, and which project the pages store their runs with."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QMessageBox

from advisor.i18n import tr
from advisor.project import PROJECT_SUFFIX
from ui.widgets.wizard_common import dialog_title


class ProjectFileMixin:
    """Part of :class:`ui.main_window.MainWindow`: the open project's file and whether it has unsaved changes. The
    dialogs go through seams (``ask_open_path``, ``ask_save_path``, ``ask_unsaved_changes``, ``show_error``) that
    tests replace."""

    _modified: bool
    _untitled_since: float | None  # an unsaved project's runs join it at its first save

    def _mark_modified(self, *_args: Any) -> None:
        if not self._modified:
            self._modified = True
            self._update_title()

    @property
    def modified(self) -> bool:
        return self._modified

    def set_modified(self, value: bool) -> None:
        self._modified = value
        self._update_title()

    def _update_title(self) -> None:
        w: Any = self
        name = w.project_path.name if w.project_path else tr("ui.project.untitled")
        w.setWindowTitle(f"{'*' if self._modified else ''}{name} — {tr('app.name')}")

    def new_project(self) -> None:
        w: Any = self
        if not self.maybe_save_changes():
            return
        w.sizing_page.set_defaults(w.settings.sizing_defaults)
        from advisor.domain.project import AbSection, Project

        if (wizard := w.built_page("wizard_page")) is not None:  # a page not built yet starts new when it is
            wizard.restart()
        if (ab := w.built_page("ab_page")) is not None:
            ab.apply_project(Project(ab=AbSection()))  # a new project's A/B starts empty, following Sizing
        w.project_path = None
        self._untitled_since = time.time()
        self._modified = False
        self._update_title()
        self._project_changed()

    def ask_open_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(
            self, dialog_title(tr("ui.action.open")), str(self._last_dir()), tr("ui.project.filter")
        )
        return path

    def ask_save_path(self) -> str:
        suggested = str(self._last_dir() / f"{tr('ui.project.default_name')}{PROJECT_SUFFIX}")
        path, _ = QFileDialog.getSaveFileName(self, dialog_title(tr("ui.action.save_as")), suggested, tr("ui.project.filter"))
        if path and not path.endswith(PROJECT_SUFFIX):
            path = path.removesuffix(".json") + PROJECT_SUFFIX
        return path

    def show_error(self, title: str, text: str) -> None:
        """Seam for tests; every user-facing error goes through here (never a traceback)."""
        QMessageBox.warning(self, title, text)

    def _last_dir(self) -> Path:
        w: Any = self
        if w.project_path:
            return Path(w.project_path.parent)
        if w.settings.recent_projects:
            return Path(w.settings.recent_projects[0]).parent
        return Path.home()

    def open_project_dialog(self) -> None:
        if not self.maybe_save_changes():
            return
        path = self.ask_open_path()
        if path:
            self.open_project(path)

    def open_project(self, path: str | Path) -> bool:
        from advisor.project import ProjectFileError, load_project

        w: Any = self
        path = Path(path)
        try:
            project = load_project(path)
            w.sizing_page.apply_project(project)
            w.wizard_page.apply_project(project)
            w.benchmark_page.apply_project(project)
            w.ab_page.apply_project(project)
        except ProjectFileError as exc:
            self.show_error(tr("ui.error.open_title"), str(exc))
            return False
        w.project_path = path
        self._untitled_since = None
        self._modified = False
        self._remember_recent(path)
        self._update_title()
        self._project_changed()
        w.statusBar().showMessage(tr("ui.project.opened", path=str(path)), 5000)
        w.project_loaded.emit(str(path))
        return True

    def save_project(self) -> bool:
        w: Any = self
        if w.project_path is None:
            return self.save_project_as()
        return self._write_project(w.project_path)

    def save_project_as(self) -> bool:
        path = self.ask_save_path()
        if not path:
            return False
        return self._write_project(Path(path))

    def _write_project(self, path: Path) -> bool:
        from advisor.project import ProjectFileError, save_project

        w: Any = self
        try:
            project = w.sizing_page.to_project()
            project = project.model_copy(update={"plan": w.wizard_page.plan_section()})
            project = project.model_copy(update={"benchmark": w.benchmark_page.benchmark_section()})
            project = project.model_copy(update={"ab": w.ab_page.ab_section()})
            save_project(project, path)
        except (OSError, ProjectFileError) as exc:
            self.show_error(tr("ui.error.save_title"), tr("ui.error.save_failed", path=str(path), error=str(exc)))
            return False
        first_save_since = self._untitled_since if w.project_path is None else None
        w.project_path = path
        self._untitled_since = None
        self._modified = False
        self._remember_recent(path)
        self._update_title()
        w.statusBar().showMessage(tr("ui.project.saved", path=str(path)), 5000)
        self._project_changed(adopt_since=first_save_since)
        w.project_saved.emit(str(path))
        return True

    def _project_changed(self, adopt_since: float | None = None) -> None:
        """Runs started from now on are stored with the open saved project (with none while it is unsaved), and
        History's "This project" follows. ``adopt_since``: a first save; this app's runs since then join it."""
        from advisor.bench.history import project_key

        w: Any = self
        key = project_key(w.project_path) if w.project_path else None
        for page in (w.built_page("benchmark_page"), w.built_page("ab_page")):
            if page is not None:  # a page built later takes the key then (ui.main_window_pages)
                page.project_id = key
        if (history := w.built_page("history_page")) is not None:
            history.set_project(key)
        if key and adopt_since is not None:  # the runs join the project in the store, History shown or not
            w.history_page.adopt_runs(key, adopt_since)

    def _remember_recent(self, path: Path) -> None:
        w: Any = self
        w.settings = w.settings.with_recent(path)
        w._save_settings()
        w._fill_recent_menu()

    def maybe_save_changes(self) -> bool:
        """True when it is fine to discard the current inputs (saved, unchanged, or the user said so)."""
        if not self._modified:
            return True
        answer = self.ask_unsaved_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save_project()
        return bool(answer == QMessageBox.StandardButton.Discard)

    def ask_unsaved_changes(self) -> QMessageBox.StandardButton:
        """Seam for tests."""
        buttons = (
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel
        )
        return QMessageBox.question(self, tr("app.name"), tr("ui.project.unsaved"), buttons)
