"""What the screenshot tools share: a display, a fresh isolated home per (language, theme), the real main window.

Every tool re-runs itself under ``xvfb-run`` when there is no display (``rerun_under_xvfb``), then runs one child
process per (language, theme) with its settings, data and history in a temporary ``ADVISOR_HOME``
(``run_isolated``), so fonts, translations and the first-run state are exactly a user's. The child opens the real
main window with ``open_window`` and saves widgets with ``save_png``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCREEN = "1400x900x24"


def rerun_under_xvfb() -> int | None:
    """None when a display (or Qt's offscreen platform) is there; else this script's exit code under xvfb-run."""
    if os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        return None
    if not shutil.which("xvfb-run"):
        print("no display and no xvfb-run: install xvfb or set QT_QPA_PLATFORM=offscreen", file=sys.stderr)
        return 2
    return subprocess.call(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable, *sys.argv])


def run_isolated(args: Sequence[str], lang: str, theme: str = "light", *, timeout: float | None = None,
                 prepare: Callable[[Path], Any] | None = None) -> int:  # fmt: skip
    """Run ``python args…`` with a new ADVISOR_HOME whose settings choose ``lang`` and ``theme`` and whose first-run
    hints are dismissed (screenshots need the room); ``prepare(home)`` may put data there first."""
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        if prepare is not None:
            prepare(home)
        settings = home / "config" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"schema_version": 2, "language": lang, "theme": theme, "show_welcome": False}),
                            encoding="utf-8")  # fmt: skip
        env = dict(os.environ, ADVISOR_HOME=str(home), LANG="en_US.UTF-8" if lang == "en" else f"{lang}.UTF-8")
        return subprocess.run([sys.executable, *args], env=env, timeout=timeout).returncode


def open_window(lang: str, *, theme: str | None = None, size: tuple[int, int] = (1360, 860)) -> tuple[Any, Any]:
    """The QApplication and the app's real main window, shown, in ``lang`` (and ``theme`` when given)."""
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication  # noqa: TID251 - a UI tool

    from ui.app import create_window  # noqa: TID251
    from ui.theme import apply_theme  # noqa: TID251

    app = QApplication([sys.argv[0]])
    window = create_window(app, lang)
    if theme is not None:
        apply_theme(app, theme)
    window.resize(*size)
    window.move(20, 20)
    window.show()
    return app, window


def save_png(app: Any, widget: Any, path: Path, *, settle: int = 10) -> None:
    """Let pending paints happen, then grab ``widget`` into ``path`` and say where it went."""
    for _ in range(settle):
        app.processEvents()
    pixmap = widget.grab()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not pixmap.save(str(path)):
        print(f"could not write {path}", file=sys.stderr)
    print(f"{path} ({pixmap.width()}×{pixmap.height()})")
