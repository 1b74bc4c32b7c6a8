"""Entry point of the desktop app: ``inference-advisor`` (gui-scripts) and ``advisor gui``."""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Sequence

from PySide6.QtCore import QLibraryInfo, QLocale, QTimer, QTranslator
from PySide6.QtWidgets import QApplication, QLabel

from advisor import i18n
from advisor.i18n import tr
from advisor.logs import quiet_http_loggers
from advisor.settings import LoadedSettings, load_settings
from ui.fonts import install_cjk_fallback
from ui.main_window import MainWindow
from ui.theme import apply_theme
from ui.widgets.wheel_guard import install_wheel_guard

_log = logging.getLogger(__name__)


def prepare_app(app: QApplication, language: str | None = None) -> tuple[LoadedSettings, str | None]:
    """Settings → language → theme → fonts: what every window of the app is shown in. Returns the settings loaded
    and the CJK font family installed (None when there is none). The tests that build one page alone use it too."""
    loaded = load_settings()
    i18n.set_language(language or loaded.settings.effective_language())
    apply_theme(app, loaded.settings.theme)
    install_qt_translations(app, i18n.current_language())
    install_wheel_guard(app)
    cjk = install_cjk_fallback(app)
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True)
    return loaded, cjk


def create_window(app: QApplication, language: str | None = None) -> MainWindow:
    """Settings → language → theme → fonts → the main window (not shown). Used by main() and the tests."""
    loaded, cjk = prepare_app(app, language)
    settings = loaded.settings
    window = MainWindow(settings, cjk_font=cjk)
    window.language_changed.connect(lambda lang: install_qt_translations(app, lang))
    if loaded.problem:
        window.statusBar().showMessage(loaded.problem, 15000)
    if cjk is None:
        window.statusBar().showMessage(tr("ui.font.missing_cjk_short"), 20000)
        _warn_missing_cjk(window)
    return window


# -- Qt's own texts (file dialogs, OK/Cancel, context menus) --------------------------------------------
_QT_CATALOGS = ("qtbase",)
_translators: list[QTranslator] = []


def qt_translations_dir() -> str:
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def install_qt_translations(app: QApplication, lang: str) -> list[str]:
    """Load Qt's own translations (``qtbase_zh_CN.qm``, shipped with PySide6-Essentials) for ``lang``,
    replacing those of the previous language; English needs none. Returns the catalogs loaded."""
    for old in _translators:
        app.removeTranslator(old)
    _translators.clear()
    if lang == "en":
        return []
    loaded = []
    folder = qt_translations_dir()
    for catalog in _QT_CATALOGS:
        translator = QTranslator(app)
        if translator.load(QLocale(lang), catalog, "_", folder):
            app.installTranslator(translator)
            _translators.append(translator)
            loaded.append(catalog)
        else:
            _log.warning("Qt's own %s translation for %s was not found in %s", catalog, lang, folder)
    return loaded


def _warn_missing_cjk(window: MainWindow) -> None:
    """No modal: a permanent, bilingual note in the status bar (and the About box says it too).
    Bilingual on purpose: without a CJK font the Chinese half would be boxes, the English half still reads."""
    note = QLabel(translate_both("ui.font.missing_cjk_short").replace("\n", " · "))
    note.setObjectName("missingCjkFont")
    note.setToolTip(translate_both("ui.font.missing_cjk"))
    note.setStyleSheet("color: #c0392b;")
    window.statusBar().addPermanentWidget(note)
    window.missing_font_note = note


def translate_both(key: str) -> str:
    return f"{i18n.translate('en', key)}\n{i18n.translate('zh_CN', key)}"


def configure_logging() -> None:
    """Our INFO lines in the terminal, without httpx's line per /metrics poll (see advisor.logs)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    quiet_http_loggers()


def main(argv: Sequence[str] | None = None) -> int:
    configure_logging()
    args = list(sys.argv[1:] if argv is None else argv)
    language = None
    if "--lang" in args:
        at = args.index("--lang")
        language = args[at + 1] if at + 1 < len(args) else None
        del args[at : at + 2]
    app = QApplication.instance() or QApplication([sys.argv[0], *args])
    app.setApplicationName("inference-advisor")
    app.setOrganizationName("inference-advisor")
    window = create_window(app, language)
    window.show()
    app.aboutToQuit.connect(window.shutdown)
    # Ctrl+C in the terminal that ran `make run` closes the window like the Quit menu does. Python only
    # sees the signal when it runs, so a light timer gives it a turn four times a second.
    signal.signal(signal.SIGINT, lambda *_args: window.close())
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(250)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
