"""Result panels that say when they no longer match the inputs: greyed, with a line saying why and what to do.

A figure computed for inputs the user has since changed must not look current (#26 item 9: "/metrics available:
yes" after the server stopped, an estimate kept on screen while the new inputs were invalid, a benchmark result
beside a changed target). Pages call ``set_stale(text)`` when the inputs change and ``set_stale(None)`` when the
panel shows a result for the current inputs again.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QGraphicsOpacityEffect, QLabel, QVBoxLayout, QWidget

STALE_OPACITY = 0.45


def stale_note() -> QLabel:
    note = QLabel()
    note.setObjectName("staleNote")
    note.setWordWrap(True)
    # an amber rule and bold text in the palette's own colour: readable on light and dark
    note.setStyleSheet("QLabel { border-left: 3px solid #E0A100; padding: 2px 6px; font-weight: 600; }")
    note.hide()
    return note


class StaleMark:
    """Greys ``targets`` and shows ``note`` (placed by the caller) while stale."""

    def __init__(self, targets: Sequence[QWidget], note: QLabel | None = None) -> None:
        self.targets = list(targets)
        self.note = note or stale_note()

    @property
    def stale(self) -> bool:
        return not self.note.isHidden()

    def set_stale(self, text: str | None) -> None:
        if text:
            self.note.setText(text)
            self.note.show()
            for target in self.targets:
                effect = QGraphicsOpacityEffect(target)
                effect.setOpacity(STALE_OPACITY)
                target.setGraphicsEffect(effect)
        else:
            self.note.hide()
            for target in self.targets:
                target.setGraphicsEffect(None)  # type: ignore[arg-type]


class StalePanel(QWidget):
    """``content`` with the note above it."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.content = content
        self.mark = StaleMark([content])
        self.note = self.mark.note
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.note)
        layout.addWidget(content, 1)

    @property
    def stale(self) -> bool:
        return self.mark.stale

    def set_stale(self, text: str | None) -> None:
        self.mark.set_stale(text)
