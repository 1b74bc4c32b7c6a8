"""Work-around for a reference-count bug of PySide6 6.12.0 on Python < 3.12.

In that combination every PySide6 call that returns ``None`` (any void C++ method: ``setText``,
``setValue``, ``processEvents``, a Python override of ``paintEvent`` …) and the booleans returned by
``SignalInstance.emit``/``disconnect`` hand back ``None``/``True``/``False`` *without taking a
reference*. Python 3.12+ made those objects immortal, so the bug is invisible there; on 3.11 each call
steals one reference and after a few thousand calls — seconds of slider dragging — the interpreter aborts
with "Fatal Python error: none_dealloc: deallocating None" (or ``bool_dealloc``).

We *measure* the leak at import (a fixed PySide6 gets no change) and, when present, do what Python 3.12
does: give ``None``, ``True`` and ``False`` a reference count so large that no realistic number of stolen
references can bring it to zero. These three objects are statically allocated and never freed, so an
extra count has no other effect. The real fix is a PySide6 without the bug (see the lead's pin in
pyproject.toml) or Python 3.12+.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject

IMMORTAL_REFCOUNT = 1 << 60  # what 3.12 calls immortal is of the same order (2**32 on 64-bit, saturating)

APPLIED: list[str] = []


def _void_call_leaks(rounds: int = 64) -> bool:
    obj = QObject()
    before = sys.getrefcount(None)
    for _ in range(rounds):
        obj.setObjectName("probe")  # a void C++ method: returns None
    lost = before - sys.getrefcount(None)
    return lost >= rounds // 2


def _make_immortal(obj: object) -> None:
    # ob_refcnt is the first field of every object in CPython's (non-debug) object header.
    refcnt = ctypes.c_ssize_t.from_address(id(obj))
    if refcnt.value < IMMORTAL_REFCOUNT:
        refcnt.value += IMMORTAL_REFCOUNT


def install() -> None:
    if APPLIED or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    if not _void_call_leaks():
        return
    for name, obj in (("None", None), ("True", True), ("False", False)):
        _make_immortal(obj)
        APPLIED.append(name)


install()
