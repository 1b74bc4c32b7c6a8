"""Small helpers shared by the wizard and the shell: plain dialog titles, field error labels."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLabel

ERROR_STYLE = "color: #d9534f;"
_CJK_MNEMONIC = re.compile(r"\s*\(&[^&)]\)")  # "另存为(&A)…" → "另存为…"


def strip_mnemonic(text: str) -> str:
    """A menu text without its keyboard mnemonic, for window and dialog titles ("&About X" → "About X",
    "另存为(&A)…" → "另存为…"); a literal "&&" stays one "&"."""
    text = _CJK_MNEMONIC.sub("", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def dialog_title(text: str) -> str:
    """A menu text as a window title: no mnemonic and no trailing ellipsis ("Save &As…" → "Save As")."""
    return strip_mnemonic(text).rstrip().removesuffix("…").removesuffix("...").rstrip()


def error_label(object_name: str = "") -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(ERROR_STYLE)
    if object_name:
        label.setObjectName(object_name)
    label.hide()
    return label
