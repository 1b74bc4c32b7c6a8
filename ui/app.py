"""Entry point of the desktop app: ``inference-advisor`` (gui-scripts) and ``advisor gui``."""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from advisor import i18n
from advisor.i18n import tr
from advisor.settings import load_settings
from ui.fonts import install_cjk_fallback
from ui.main_window import MainWindow
from ui.theme import apply_theme

_log = logging.getLogger(__name__)


def create_window(app: QApplication, language: str | None = None) -> MainWindow:
    """Settings → language → theme → fonts → the main window (not shown). Used by main() and the tests."""
    loaded = load_settings()
    settings = loaded.settings
    i18n.set_language(language or settings.effective_language())
    apply_theme(app, settings.theme)
    cjk = install_cjk_fallback(app)
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True)
    window = MainWindow(settings, cjk_font=cjk)
    if loaded.problem:
        window.statusBar().showMessage(loaded.problem, 15000)
    if cjk is None:
        window.statusBar().showMessage(tr("ui.font.missing_cjk_short"), 20000)
    return window


def _warn_missing_cjk(window: MainWindow) -> None:
    # Bilingual on purpose: without a CJK font the Chinese half would be boxes, the English half still reads.
    QMessageBox.warning(
        window,
        translate_both("ui.font.missing_cjk_title"),
        translate_both("ui.font.missing_cjk"),
    )


def translate_both(key: str) -> str:
    return f"{i18n.translate('en', key)}\n{i18n.translate('zh_CN', key)}"


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
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
    if window.cjk_font is None:
        QTimer.singleShot(0, lambda: _warn_missing_cjk(window))
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
