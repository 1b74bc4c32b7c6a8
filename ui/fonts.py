"""Find a font that has Chinese glyphs, so zh_CN text never renders as boxes.

The check asks the font database which families *cover Simplified Chinese* (fontconfig's language
coverage), not whether a family's name looks Chinese: family names are localised by fontconfig (in a
Chinese locale "WenQuanYi Micro Hei" may be listed as "文泉驿微米黑", "Source Han Sans SC" as "思源黑体"),
and a locale that is set but not generated (``LC_ALL=zh_CN.UTF-8`` without ``locale-gen``) changes what
the names look like, while the glyphs are there all the same. Names only rank the candidates.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

# Preferred first: Simplified-Chinese variants, then any CJK family.
_PREFERRED = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "思源黑体",
    "WenQuanYi Micro Hei",
    "文泉驿微米黑",
    "WenQuanYi Zen Hei",
    "文泉驿正黑",
    "Microsoft YaHei",
    "微软雅黑",
    "PingFang SC",
    "苹方-简",
    "Noto Sans SC",
)
_MARKERS = (
    "CJK",
    "WenQuanYi",
    "Source Han",
    "YaHei",
    "PingFang",
    "Noto Sans SC",
    "文泉驿",
    "思源",
    "黑体",
    "雅黑",
)
_SERIF_OR_MONO = ("serif", "mono", "宋", "明")


def _plain_sans(name: str) -> bool:
    low = name.lower()
    return not any(mark in low for mark in _SERIF_OR_MONO)


def _rank(families: list[str], require_marker: bool) -> str | None:
    for name in _PREFERRED:
        if name in families:
            return name
    marked = [n for n in families if any(m.lower() in n.lower() for m in _MARKERS)]
    pool = marked if (require_marker or marked) else families
    for name in pool:
        if _plain_sans(name):
            return name
    return pool[0] if pool else None


def chinese_families() -> list[str]:
    """Installed families that cover Simplified Chinese, as the font database reports them."""
    return list(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def find_cjk_family(families: list[str] | None = None) -> str | None:
    """The best installed family that covers Simplified Chinese, or None.

    With ``families`` given (tests), only names are judged; otherwise the font database's coverage
    decides, and names (English or localised) only rank the candidates.
    """
    if families is not None:
        return _rank(list(families), require_marker=True)
    covering = chinese_families()
    if covering:
        return _rank(covering, require_marker=False)
    # A font database that reports no coverage at all (some minimal platforms): fall back to names.
    return _rank(list(QFontDatabase.families()), require_marker=True)


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
