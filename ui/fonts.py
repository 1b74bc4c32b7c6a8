"""Find a font that has Chinese glyphs, so zh_CN text never renders as boxes."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

# Preferred first: Simplified-Chinese variants, then any CJK family.
_PREFERRED = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "Noto Sans SC",
)
_MARKERS = ("CJK", "WenQuanYi", "Source Han", "YaHei", "PingFang", "Noto Sans SC")


def find_cjk_family(families: list[str] | None = None) -> str | None:
    """The best installed family that covers Simplified Chinese, or None."""
    families = list(QFontDatabase.families()) if families is None else families
    for name in _PREFERRED:
        if name in families:
            return name
    for name in families:
        if any(marker.lower() in name.lower() for marker in _MARKERS) and "serif" not in name.lower():
            return name
    for name in families:
        if any(marker.lower() in name.lower() for marker in _MARKERS):
            return name
    return None


def install_cjk_fallback(app: QApplication) -> str | None:
    """Put a CJK family right after the default UI family; returns it (None when none is installed)."""
    cjk = find_cjk_family()
    if cjk is None:
        return None
    font = QFont(app.font())
    base = font.family()
    font.setFamilies([base, cjk] if base and base != cjk else [cjk])
    app.setFont(font)
    return cjk
