"""Light/dark theme: the Fusion style with a palette, so it looks the same on every desktop."""

from __future__ import annotations

import gc

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QLabel, QProxyStyle, QStyle, QStyleOption, QWidget


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


INDICATOR_OUTLINE_DARK = QColor(150, 153, 158)


class FusionWithVisibleIndicators(QProxyStyle):
    """Fusion, with check box and radio button outlines that show on the dark palette: Fusion draws them in the
    window colour darkened, which on dark grey is dark grey (History's tick boxes and the A/B page's check box
    were near-invisible, contrast ~1.1:1). On a light palette it draws exactly as Fusion."""

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,  # noqa: N802
                      widget: QWidget | None = None) -> None:  # fmt: skip
        super().drawPrimitive(element, option, painter, widget)
        outline = element in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                              QStyle.PrimitiveElement.PE_IndicatorRadioButton)  # fmt: skip
        if not outline or option.palette.window().color().lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.translate(0.5, 0.5)  # Fusion's own geometry for the box, so the line sits on its edge
        painter.setPen(QPen(INDICATOR_OUTLINE_DARK))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = option.rect.adjusted(0, 0, -1, -1)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect.adjusted(1, 1, -1, -1))
        else:
            painter.drawRect(rect)
        painter.restore()


def apply_theme(app: QApplication, choice: str) -> bool:
    """Apply 'system' | 'light' | 'dark'; returns True when the result is dark.

    The style is set once: setting Fusion again when switching themes re-polishes every widget with a
    fresh style object, and the scroll areas' panels then kept stale, wider size hints (the left panel of
    the Sizing page grew a horizontal scroll bar and cut its combo boxes in the dark theme). A theme switch
    only changes the palette; the layouts are asked to recompute their sizes afterwards all the same.
    """
    if not isinstance(app.style(), FusionWithVisibleIndicators):
        app.setStyle(FusionWithVisibleIndicators())
    dark = is_dark(choice)
    palette = _dark_palette() if dark else app.style().standardPalette()
    # setPalette walks every widget and runs Python changeEvent overrides on the way; a garbage collection there
    # could delete a window that was only kept by a reference cycle while Qt is still walking it (a segfault in
    # setPalette, seen in the test suite). Collect first, and not during the walk.
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        app.setPalette(palette)
    finally:
        if was_enabled:
            gc.enable()
    for widget in app.topLevelWidgets():
        _refresh_colours(widget)
        _refresh_layouts(widget)
    return dark


def _refresh_colours(widget: QWidget) -> None:
    """What a palette change alone leaves in the old theme's colours, after a live switch: a widget with its own
    style sheet keeps the text colour resolved when it was polished (the Benchmark page's title stayed near-black
    on dark), and a rich-text label keeps the link colour its text was laid out with (the wizard's breadcrumbs
    stayed dark blue on dark grey). Setting each again resolves them against the new palette."""
    for child in (widget, *widget.findChildren(QWidget)):
        sheet = child.styleSheet()
        if sheet:
            child.setStyleSheet(sheet)
        if isinstance(child, QLabel) and "<a " in child.text():
            text = child.text()
            child.clear()  # QLabel.setText ignores the same text: clear first so it is laid out again
            child.setText(text)


def _refresh_layouts(widget: QWidget) -> None:
    for child in (widget, *widget.findChildren(QWidget)):
        layout = child.layout()
        if layout is not None:
            layout.invalidate()
        child.updateGeometry()
