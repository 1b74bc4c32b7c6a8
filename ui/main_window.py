"""The main window: one page per job, File/Settings/Help menus, the GPU state in the status bar."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor import __version__, i18n
from advisor.i18n import tr
from advisor.settings import Settings, save_settings
from ui.app_state import AppState
from ui.gpu_status import GpuState, query_gpu_state
from ui.widgets.welcome_banner import WelcomeBanner
from ui.widgets.wizard_common import dialog_title
from ui.window_state import qsettings
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

PROJECT_SUFFIX = ".advisor.json"


class _BrokenPage(QLabel):
    """Stands in for the sizing page when it could not start: says why, and refuses project I/O politely."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setWordWrap(True)
        self.setMargin(32)
        self._text = text

    def retranslate(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def apply_theme(self) -> None:
        pass

    def set_defaults(self, *_args, **_kwargs) -> None:
        pass

    def to_project(self):
        from advisor.project import ProjectFileError

        raise ProjectFileError(self._text)

    def apply_project(self, _project) -> None:
        self.to_project()


class MainWindow(QMainWindow):
    language_changed = Signal(str)
    project_loaded = Signal(str)  # path
    project_saved = Signal(str)  # path

    def __init__(self, settings: Settings, cjk_font: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.cjk_font = cjk_font
        self.runner = TaskRunner(self)
        self.state = AppState(self)  # what the pages share (the project's file, the Sizing page's inputs)
        self._untitled_since: float | None = time.time()  # an unsaved project's runs join it at its first save
        self._modified = False
        self._gpu_state: GpuState | None = None

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.welcome = WelcomeBanner()
        self.welcome.open_page.connect(lambda name: self.tabs.setCurrentWidget(getattr(self, name)))
        self.welcome.dismissed.connect(self._dismiss_welcome)
        self.welcome.setVisible(settings.show_welcome)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.welcome)
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.sizing_page = self._make_sizing_page()
        self.benchmark_page = self._make_benchmark_page()
        self.wizard_page = self._make_wizard_page()
        from ui.pages.ab import AbPage
        from ui.pages.history import HistoryPage

        self.history_page = HistoryPage(self.runner)
        self.history_page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.ab_page = AbPage(self.runner, sizing_inputs=self.state.sizing_inputs)
        self.ab_page.inputs_changed.connect(self._mark_modified)
        self.pages: list[tuple[QWidget, str]] = [
            (self.sizing_page, "ui.page.sizing"),
            (self.benchmark_page, "ui.page.benchmark"),
            (self.wizard_page, "ui.page.wizard"),
            (self.history_page, "ui.page.history"),
            (self.ab_page, "history.page.tab_ab"),
        ]
        for page, _key in self.pages:
            self.tabs.addTab(page, "")

        self.gpu_label = QLabel()
        self.gpu_label.setObjectName("gpuState")
        self.statusBar().addPermanentWidget(self.gpu_label)
        self._build_actions()
        self._build_menus()
        self.retranslate()
        self._restore_geometry()
        self.refresh_gpu_state()

    @property
    def project_path(self) -> Path | None:
        """The open project's file (None while unsaved); kept in the shared state the pages read."""
        return self.state.project_path

    @project_path.setter
    def project_path(self, path: Path | None) -> None:
        self.state.project_path = path

    # -- construction --------------------------------------------------------------------------------
    def _make_benchmark_page(self) -> QWidget:
        from ui.pages.benchmark import BenchmarkPage

        page = BenchmarkPage(self.runner, sizing_inputs=self.state.sizing_inputs)  # the Sizing page's choice, shared
        page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        return page

    def show_benchmark(self, **kwargs) -> None:
        """Switch to the Benchmark tab, filled for this setup (``BenchmarkPage.preconfigure``'s arguments)."""
        self.benchmark_page.preconfigure(**kwargs)
        self.tabs.setCurrentWidget(self.benchmark_page)

    def _make_sizing_page(self) -> QWidget:
        from ui.pages.sizing import SizingPage

        try:
            page = SizingPage(self.runner, self.settings.sizing_defaults)
        except Exception as exc:  # a broken installation (catalog files): say so instead of a traceback
            _log.exception("sizing page could not start")
            return _BrokenPage(tr("ui.error.sizing_unavailable", error=str(exc)))
        page.inputs_changed.connect(self._mark_modified)
        page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.state.sizing_inputs = page.inputs  # the wizard (and others) read the Sizing page's choice here
        if page.startup_problem:
            QTimer.singleShot(0, lambda: self.statusBar().showMessage(page.startup_problem, 20000))
        return page

    def _make_wizard_page(self) -> QWidget:
        from ui.pages.wizard import WizardPage

        page = WizardPage(self.runner, state=self.state)
        page.answers_changed.connect(self._mark_modified)
        page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        page.benchmark_requested.connect(lambda request: self.show_benchmark(**request))
        page.error_raised.connect(lambda title, text: self.show_error(title, text))
        return page

    def _action(self, shortcut: QKeySequence.StandardKey | str | None, slot) -> QAction:
        action = QAction(self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        self.act_new = self._action(QKeySequence.StandardKey.New, self.new_project)
        self.act_open = self._action(QKeySequence.StandardKey.Open, self.open_project_dialog)
        self.act_save = self._action(QKeySequence.StandardKey.Save, self.save_project)
        self.act_save_as = self._action(QKeySequence.StandardKey.SaveAs, self.save_project_as)
        self.act_quit = self._action(QKeySequence.StandardKey.Quit, self.close)
        self.act_export_memo = self._action(None, self.export_memo)
        self.act_settings = self._action(QKeySequence.StandardKey.Preferences, self.open_settings_dialog)
        self.act_about = self._action(None, self.show_about)
        self.lang_group = QActionGroup(self)
        self.lang_actions: dict[str, QAction] = {}
        for code, label in i18n.LANGUAGES.items():
            act = QAction(label, self, checkable=True)
            act.triggered.connect(lambda _checked=False, c=code: self.set_language(c))
            self.lang_group.addAction(act)
            self.lang_actions[code] = act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        for act in (self.act_new, self.act_open):
            self.menu_file.addAction(act)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_recent.aboutToShow.connect(self._fill_recent_menu)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_save)
        self.menu_file.addAction(self.act_save_as)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_export_memo)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_settings = bar.addMenu("")
        self.menu_language = self.menu_settings.addMenu("")
        for act in self.lang_actions.values():
            self.menu_language.addAction(act)
        self.menu_settings.addAction(self.act_settings)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_about)
        self._fill_recent_menu()

    # -- language ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.welcome.retranslate()
        self.menu_file.setTitle(tr("ui.menu.file"))
        self.menu_recent.setTitle(tr("ui.menu.recent"))
        self.menu_settings.setTitle(tr("ui.menu.settings"))
        self.menu_language.setTitle(tr("ui.menu.language"))
        self.menu_help.setTitle(tr("ui.menu.help"))
        self.act_new.setText(tr("ui.action.new"))
        self.act_open.setText(tr("ui.action.open"))
        self.act_save.setText(tr("ui.action.save"))
        self.act_save_as.setText(tr("ui.action.save_as"))
        self.act_quit.setText(tr("ui.action.quit"))
        self.act_export_memo.setText(tr("wizard.action.export_memo"))
        self.act_settings.setText(tr("ui.action.preferences"))
        self.act_about.setText(tr("ui.action.about"))
        current = i18n.current_language()
        for code, act in self.lang_actions.items():
            act.setChecked(code == current)
        for index, (page, key) in enumerate(self.pages):
            self.tabs.setTabText(index, tr(key))
            retranslate = getattr(page, "retranslate", None)
            if retranslate:
                retranslate()
        self._show_gpu_state()
        self._update_title()
        self._fill_recent_menu()

    def set_language(self, lang: str) -> None:
        """Switch every visible text now, and remember the choice."""
        i18n.set_language(lang)
        self.settings = self.settings.model_copy(update={"language": i18n.current_language()})
        self._save_settings()
        self.retranslate()
        self.language_changed.emit(i18n.current_language())

    # -- settings ------------------------------------------------------------------------------------
    def _dismiss_welcome(self) -> None:
        self.settings = self.settings.model_copy(update={"show_welcome": False})
        self._save_settings()

    def _save_settings(self) -> None:
        try:
            save_settings(self.settings)
        except OSError as exc:
            self.statusBar().showMessage(tr("ui.error.settings_not_saved", error=str(exc)), 10000)

    def open_settings_dialog(self) -> None:
        from ui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        if self.exec_dialog(dialog):
            self.apply_settings(dialog.result_settings())

    def exec_dialog(self, dialog) -> bool:
        """Seam for tests: they replace this to answer dialogs without a modal loop."""
        return bool(dialog.exec())

    def apply_settings(self, new: Settings) -> None:
        old = self.settings
        self.settings = new
        self._save_settings()
        if new.theme != old.theme:
            from ui.theme import apply_theme

            apply_theme(QApplication.instance(), new.theme)
            self.sizing_page.apply_theme()
            refresh = getattr(self.benchmark_page, "apply_theme", None)
            if refresh:
                refresh()
            self.wizard_page.apply_theme()
        if new.sizing_defaults != old.sizing_defaults:
            self.sizing_page.set_defaults(new.sizing_defaults)
        lang = new.effective_language()
        if lang != i18n.current_language():
            i18n.set_language(lang)
            self.retranslate()
            self.language_changed.emit(lang)

    # -- GPU state -----------------------------------------------------------------------------------
    def refresh_gpu_state(self) -> None:
        self.gpu_label.setText(tr("ui.gpu.checking"))
        self.runner.submit(query_gpu_state, on_result=self._on_gpu_state, on_error=self._on_gpu_error, key="gpu-state")

    def _on_gpu_state(self, state: GpuState) -> None:
        self._gpu_state = state
        self._show_gpu_state()

    def _on_gpu_error(self, exc: BaseException) -> None:
        self._gpu_state = GpuState("driver_error", detail=str(exc))
        self._show_gpu_state()

    def _show_gpu_state(self) -> None:
        if self._gpu_state is None:
            self.gpu_label.setText(tr("ui.gpu.checking"))
            return
        self.gpu_label.setText(self._gpu_state.text())
        self.gpu_label.setToolTip(self._gpu_state.tooltip())

    # -- projects ------------------------------------------------------------------------------------
    def _mark_modified(self, *_args) -> None:
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
        name = self.project_path.name if self.project_path else tr("ui.project.untitled")
        self.setWindowTitle(f"{'*' if self._modified else ''}{name} — {tr('app.name')}")

    def new_project(self) -> None:
        if not self.maybe_save_changes():
            return
        self.sizing_page.set_defaults(self.settings.sizing_defaults)
        self.wizard_page.restart()
        from advisor.domain.project import AbSection, Project

        self.ab_page.apply_project(Project(ab=AbSection()))  # a new project's A/B starts empty, following Sizing
        self.project_path = None
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
        if self.project_path:
            return self.project_path.parent
        if self.settings.recent_projects:
            return Path(self.settings.recent_projects[0]).parent
        return Path.home()

    def open_project_dialog(self) -> None:
        if not self.maybe_save_changes():
            return
        path = self.ask_open_path()
        if path:
            self.open_project(path)

    def open_project(self, path: str | Path) -> bool:
        from advisor.project import ProjectFileError, load_project

        path = Path(path)
        try:
            project = load_project(path)
            self.sizing_page.apply_project(project)
            self.wizard_page.apply_project(project)
            if hasattr(self.benchmark_page, "apply_project"):
                self.benchmark_page.apply_project(project)
            self.ab_page.apply_project(project)
        except ProjectFileError as exc:
            self.show_error(tr("ui.error.open_title"), str(exc))
            return False
        self.project_path = path
        self._untitled_since = None
        self._modified = False
        self._remember_recent(path)
        self._update_title()
        self._project_changed()
        self.statusBar().showMessage(tr("ui.project.opened", path=str(path)), 5000)
        self.project_loaded.emit(str(path))
        return True

    def save_project(self) -> bool:
        if self.project_path is None:
            return self.save_project_as()
        return self._write_project(self.project_path)

    def save_project_as(self) -> bool:
        path = self.ask_save_path()
        if not path:
            return False
        return self._write_project(Path(path))

    def _write_project(self, path: Path) -> bool:
        from advisor.project import ProjectFileError, save_project

        try:
            project = self.sizing_page.to_project()
            project = project.model_copy(update={"plan": self.wizard_page.plan_section()})
            if hasattr(self.benchmark_page, "benchmark_section"):
                project = project.model_copy(update={"benchmark": self.benchmark_page.benchmark_section()})
            project = project.model_copy(update={"ab": self.ab_page.ab_section()})
            save_project(project, path)
        except (OSError, ProjectFileError) as exc:
            self.show_error(tr("ui.error.save_title"), tr("ui.error.save_failed", path=str(path), error=str(exc)))
            return False
        first_save_since = self._untitled_since if self.project_path is None else None
        self.project_path = path
        self._untitled_since = None
        self._modified = False
        self._remember_recent(path)
        self._update_title()
        self.statusBar().showMessage(tr("ui.project.saved", path=str(path)), 5000)
        self._project_changed(adopt_since=first_save_since)
        self.project_saved.emit(str(path))
        return True

    def _project_changed(self, adopt_since: float | None = None) -> None:
        """Runs started from now on are stored with the open saved project (with none while it is unsaved), and
        History's "This project" follows. ``adopt_since``: a first save; this app's runs since then join it."""
        from advisor.bench.history import project_key

        key = project_key(self.project_path) if self.project_path else None
        for page in (self.benchmark_page, self.ab_page):
            page.project_id = key
        self.history_page.set_project(key)
        if key and adopt_since is not None:
            self.history_page.adopt_runs(key, adopt_since)

    def _remember_recent(self, path: Path) -> None:
        self.settings = self.settings.with_recent(path)
        self._save_settings()
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        if not hasattr(self, "menu_recent"):
            return
        self.menu_recent.clear()
        if not self.settings.recent_projects:
            empty = self.menu_recent.addAction(tr("ui.menu.recent_empty"))
            empty.setEnabled(False)
            return
        for item in self.settings.recent_projects:
            act = self.menu_recent.addAction(item)
            act.triggered.connect(lambda _checked=False, p=item: self._open_recent(p))

    def _open_recent(self, path: str) -> None:
        if self.maybe_save_changes():
            self.open_project(path)

    def maybe_save_changes(self) -> bool:
        """True when it is fine to discard the current inputs (saved, unchanged, or the user said so)."""
        if not self._modified:
            return True
        answer = self.ask_unsaved_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save_project()
        return answer == QMessageBox.StandardButton.Discard

    def ask_unsaved_changes(self) -> QMessageBox.StandardButton:
        """Seam for tests."""
        buttons = (
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel
        )
        return QMessageBox.question(self, tr("app.name"), tr("ui.project.unsaved"), buttons)

    def export_memo(self) -> None:
        """File → Export memo…: the wizard's recommendation as Markdown or PDF (the wizard asks the rest)."""
        self.tabs.setCurrentWidget(self.wizard_page)
        self.wizard_page.export_memo()

    # -- about ---------------------------------------------------------------------------------------
    def about_text(self) -> str:
        font = self.cjk_font or tr("ui.about.no_cjk_font")
        return tr("ui.about.text", version=__version__, tagline=tr("app.tagline"), font=font)

    def show_about(self) -> None:
        QMessageBox.about(self, dialog_title(tr("ui.action.about")), self.about_text())

    # -- geometry and shutdown -----------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        store = qsettings()
        geometry = store.value("main_window/geometry")
        if isinstance(geometry, QByteArray | bytes) and self.restoreGeometry(QByteArray(geometry)):
            return
        self.resize(1280, 820)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.maybe_save_changes():
            event.ignore()
            return
        store = qsettings()
        store.setValue("main_window/geometry", self.saveGeometry())
        store.sync()
        self.shutdown()
        event.accept()

    def shutdown(self) -> None:
        """Stop timers and background work before the window goes away (no 'QThread destroyed')."""
        for page, _key in self.pages:  # each page cancels its own work and stops what it started
            stop = getattr(page, "stop", None)
            if stop:
                stop()
        self.runner.shutdown()

