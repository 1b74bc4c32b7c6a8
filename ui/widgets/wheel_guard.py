"""The mouse wheel scrolls the panel, not the field it happens to pass over.

Qt gives spin boxes, combo boxes and sliders the wheel (and focus with it) whenever the pointer is over
them, so scrolling a long form changes the values it passes ("GPUs" went from 1 to 16). With the guard:

- those fields take focus by click or Tab only (``StrongFocus`` instead of ``WheelFocus``), so the wheel
  never focuses them on its own;
- a wheel event over such a field that does not have focus goes to the nearest scroll area around it
  (the panel scrolls as if the field were not there); with no scroll area around, the event is dropped;
- a spin box or slider that has focus (the user clicked into it) still takes the wheel, as people expect;
- a closed drop-down never takes the wheel, focused or not (as on macOS): right after a pick it still has
  focus, and one notch while scrolling on silently changed the answer (the wizard's Sector, Paid). Its open
  list scrolls as usual (that is a separate view), and the keyboard still steps through it.

One application-wide event filter covers every page, dialog and the wizard, including widgets created
later (they are adjusted when Qt polishes them, before they are first shown):
``install_wheel_guard(app)``; idempotent.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

_GUARDED = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def is_guarded(widget: QObject) -> bool:
    """A field whose value the wheel would change (scroll bars are what the wheel is for: not guarded)."""
    return isinstance(widget, _GUARDED) and not isinstance(widget, QScrollBar)


def _field_of(widget: QWidget) -> QWidget | None:
    """The guarded field a wheel event over ``widget`` is meant for (a spin box's inner line edit → the box)."""
    w: QWidget | None = widget
    for _ in range(3):
        if w is None:
            return None
        if is_guarded(w):
            return w
        if isinstance(w, QAbstractScrollArea):  # a list or a popup: its own wheel, leave it alone
            return None
        w = w.parentWidget()
    return None


def _scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    w = widget.parentWidget()
    while w is not None:
        if isinstance(w, QAbstractScrollArea):
            return w
        w = w.parentWidget()
    return None


def calm_focus_policy(widget: QWidget) -> None:
    """Focus by click or Tab, never by the wheel."""
    if is_guarded(widget) and widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


class WheelGuard(QObject):
    """Application event filter; see the module docstring."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.redirected = 0  # wheel events handed to a scroll area (tests read it)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # Every event of the application passes here (~47,000 while the main window is built), so the common case
        # is decided by isinstance alone: ``event.type()`` makes a Python enum each call, two thirds of this
        # filter's time. A Polish event is a plain QEvent and only matters to a guarded field; a Wheel event is
        # always a QWheelEvent.
        if not isinstance(event, QWheelEvent):
            if isinstance(watched, _GUARDED) and type(event) is QEvent and event.type() == QEvent.Type.Polish:
                calm_focus_policy(watched)  # type: ignore[arg-type]  # a guarded field is a QWidget
            return False
        if not isinstance(watched, QWidget):
            return False
        field = _field_of(watched)
        if field is None or (field.hasFocus() and not isinstance(field, QComboBox)):
            return False
        if watched is not field:
            return False  # handled once, when the event reaches the field itself
        area = _scroll_area_around(field)
        if area is not None:
            bar = area.verticalScrollBar()
            if not bar.isVisible() and area.horizontalScrollBar().isVisible():
                bar = area.horizontalScrollBar()
            QApplication.sendEvent(bar, event.clone())
            self.redirected += 1
        event.accept()
        return True


_installed: dict[int, WheelGuard] = {}


def install_wheel_guard(app: QApplication | None = None) -> WheelGuard:
    """Install the guard on the application once; widgets that already exist are adjusted now."""
    app = app or QApplication.instance()
    if app is None:
        raise RuntimeError("install_wheel_guard needs a QApplication")
    guard = _installed.get(id(app))
    if guard is None:
        guard = WheelGuard(app)
        app.installEventFilter(guard)
        _installed[id(app)] = guard
    for top in app.allWidgets():
        calm_focus_policy(top)
    return guard
