"""The heading of a page and its one-paragraph "what this does" for newcomers (History, Quantization A/B)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel


def page_header() -> tuple[QLabel, QLabel]:
    """(title, intro): a bold title 1.3× the body font, and a word-wrapped intro. Texts are set by the page's
    ``retranslate``."""
    title = QLabel()
    title.setObjectName("pageTitle")
    font = title.font()
    font.setPointSizeF(font.pointSizeF() * 1.3)
    font.setBold(True)
    title.setFont(font)
    intro = QLabel()
    intro.setWordWrap(True)
    return title, intro
