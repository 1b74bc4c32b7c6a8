"""Light/dark theme: the Fusion style with a palette, so it looks the same on every desktop."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


def is_dark(choice: str) -> bool:
    if choice == "dark":
        return True
    if choice == "light":
        return False
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() == Qt.ColorScheme.Dark


def _dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor(30, 31, 34), QColor(43, 45, 48), QColor(223, 225, 229)
    for role, color in (
        (QPalette.ColorRole.Window, window),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.AlternateBase, window),
        (QPalette.ColorRole.ToolTipBase, QColor(60, 63, 65)),
        (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, window),
        (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.BrightText, QColor(255, 85, 85)),
        (QPalette.ColorRole.Highlight, QColor(53, 116, 240)),
        (QPalette.ColorRole.HighlightedText, QColor(255, 255, 255)),
        (QPalette.ColorRole.Link, QColor(88, 157, 246)),
        (QPalette.ColorRole.PlaceholderText, QColor(140, 140, 140)),
    ):
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 120, 120))
    return p


def apply_theme(app: QApplication, choice: str) -> bool:
    """Apply 'system' | 'light' | 'dark'; returns True when the result is dark."""
    app.setStyle("Fusion")
    dark = is_dark(choice)
    app.setPalette(_dark_palette() if dark else app.style().standardPalette())
    return dark
