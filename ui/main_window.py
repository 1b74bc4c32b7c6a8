"""The main window: one page per job, File/Settings/Help menus, the GPU state in the status bar.

Its parts live beside it: the actions and menus (``ui.main_window_menus``), the project file
(``ui.main_window_project``), the language, theme and other settings (``ui.main_window_settings``)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor import __version__
from advisor.i18n import tr
from advisor.settings import Settings
from ui.app_state import AppState
from ui.gpu_status import GpuState, query_gpu_state
from ui.main_window_menus import MenusMixin
from ui.main_window_pages import PAGE_TABS, PagesMixin
from ui.main_window_project import ProjectFileMixin
from ui.main_window_settings import SettingsMixin
from ui.widgets.welcome_banner import WelcomeBanner
from ui.widgets.wizard_common import dialog_title
from ui.window_state import qsettings
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)


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


class MainWindow(PagesMixin, MenusMixin, ProjectFileMixin, SettingsMixin, QMainWindow):
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
        self._add_page_tabs()  # the other pages are built when first needed (ui.main_window_pages)
        self.page("sizing_page")  # the tab shown at start-up

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

    def _make_history_page(self) -> QWidget:
        from ui.pages.history import HistoryPage

        page = HistoryPage(self.runner)
        page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        return page

    def _make_ab_page(self) -> QWidget:
        from ui.pages.ab import AbPage

        page = AbPage(self.runner, sizing_inputs=self.state.sizing_inputs)
        page.inputs_changed.connect(self._mark_modified)
        return page

    def _make_wizard_page(self) -> QWidget:
        from ui.pages.wizard import WizardPage

        page = WizardPage(self.runner, state=self.state)
        page.answers_changed.connect(self._mark_modified)
        page.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        page.benchmark_requested.connect(lambda request: self.show_benchmark(**request))
        page.error_raised.connect(lambda title, text: self.show_error(title, text))
        return page

    # -- language ------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.welcome.retranslate()
        self._retranslate_menus()
        for index, (_name, key) in enumerate(PAGE_TABS):
            self.tabs.setTabText(index, tr(key))
        for page in self.built_pages():  # a page built later is made in the language of then
            retranslate = getattr(page, "retranslate", None)
            if retranslate:
                retranslate()
        self._show_gpu_state()
        self._update_title()
        self._fill_recent_menu()

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
        for page in self.built_pages():  # each page cancels its own work and stops what it started
            stop = getattr(page, "stop", None)
            if stop:
                stop()
        self.runner.shutdown()

