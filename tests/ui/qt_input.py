"""Real input events for UI tests, sent as the mouse would send them (test_shell_fixes, test_small_traps)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget


def wheel(widget: QWidget, steps: int = -3) -> None:
    """A wheel turn of ``steps`` notches (negative: towards the user) over the middle of ``widget``."""
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(
        pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    QApplication.sendEvent(widget, event)
