"""The conftest guard really fails a test that leaves a QThread running (checked in a child pytest run)."""

import shutil
import subprocess
import sys
from pathlib import Path

LEAKY_TEST = '''
import time
from PySide6.QtCore import QThread

class Sleeper(QThread):
    def run(self):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not self.isInterruptionRequested():
            time.sleep(0.01)

_keep = []

def test_leaks_a_thread(qtbot):
    t = Sleeper()
    _keep.append(t)
    t.start()

def test_clean(qtbot):
    t = Sleeper()
    t.start()
    t.requestInterruption()
    t.wait(3000)
'''


def test_guard_fails_a_leaking_test(tmp_path):
    folder = tmp_path / "tests" / "ui"
    folder.mkdir(parents=True)
    shutil.copy(Path(__file__).with_name("conftest.py"), folder / "conftest.py")
    (folder / "test_leak.py").write_text(LEAKY_TEST, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "qt_api=pyside6", str(folder)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    text = out.stdout + out.stderr
    assert "left 1 QThread(s) running" in text, text[-3000:]
    # the leaking test fails at teardown (an error), the clean one passes
    assert "1 error" in text or "1 failed" in text, text[-3000:]
    assert "ERROR tests/ui/test_leak.py::test_leaks_a_thread" in text or "FAILED tests/ui/test_leak.py::test_leaks_a_thread" in text
    assert "test_clean" not in text.split("short test summary info")[-1]
