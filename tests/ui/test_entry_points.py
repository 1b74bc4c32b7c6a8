"""The app imports and starts from a fresh interpreter, as `inference-advisor` and `advisor gui` do.

The in-process tests import the core first, which hides import-order problems (shiboken's import hook
vs pydantic's lazy modules); these run in clean subprocesses.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = {"QT_QPA_PLATFORM": "offscreen", "ADVISOR_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)


def test_ui_app_imports_in_a_fresh_interpreter(tmp_path):
    out = _run("import ui.app; import ui.pages.sizing; import ui.sizing_tasks; print('ok')", tmp_path)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-3000:]


def test_advisor_gui_path_imports_after_the_cli(tmp_path):
    code = (
        "import importlib\n"
        "from advisor.cli import build_parser\n"
        "build_parser()\n"
        "importlib.import_module('ui.app')\n"
        "import advisor.sim.costs, advisor.sim.predict\n"
        "print('ok')\n"
    )
    out = _run(code, tmp_path)
    assert out.returncode == 0 and "ok" in out.stdout, out.stderr[-3000:]


def test_main_opens_the_window_and_exits_cleanly(tmp_path):
    code = (
        "import sys\n"
        "import ui.app\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "shown = ui.app.MainWindow.show\n"
        "def show_then_quit(self):\n"
        "    shown(self)\n"
        "    QTimer.singleShot(1500, QApplication.quit)\n"
        "ui.app.MainWindow.show = show_then_quit\n"
        "sys.exit(ui.app.main(['--lang', 'zh_CN']))\n"
    )
    out = _run(code, tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr and "Fatal" not in out.stderr
