"""PySide6 calls must not be able to free None/True/False (PySide6 6.12.0 on Python 3.11 steals references;
ui.qt_compat makes the three immortal as Python 3.12 does)."""

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Signal

import ui  # noqa: F401 - installs the fix

CODE = """
import ui
from PySide6.QtCore import QObject, Signal
class Sender(QObject):
    value = Signal(int)
o = Sender()
got = []
o.value.connect(got.append)
for i in range(50000):  # unfixed, 6.12.0 on 3.11 aborts after ~5000 void calls
    o.setObjectName("x")
    o.value.emit(i)
    o.blockSignals(False)
print("survived", len(got))
"""


def test_many_void_calls_and_emits_do_not_abort_the_interpreter():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert "survived 50000" in out.stdout


def test_signals_still_work():
    class Sender(QObject):
        value = Signal(object)

    s = Sender()
    got = []
    s.value.connect(got.append)
    s.value.emit(None)
    s.value.emit(True)
    assert got == [None, True]
    assert s.value.disconnect(got.append) in (True, False, None)
