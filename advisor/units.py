"""Numbers with units, formatted one way for the UI and the CLI (Qt-free, language-neutral).

Unit symbols (GiB, ms, tok/s) read the same in Chinese and English, so nothing here is translated;
sentences around the numbers come from ``advisor.i18n.tr``. Bytes are binary units (GiB = 2**30)
because that is what ``nvidia-smi`` and the inference engines print.
"""

from __future__ import annotations

import math
from typing import TypeGuard

KiB = 1024
MiB = 1024**2
GiB = 1024**3
TiB = 1024**4


def _finite(value: float | int | None) -> TypeGuard[float | int]:
    return value is not None and isinstance(value, int | float) and math.isfinite(value)


def format_bytes(value: float | int | None, digits: int = 1) -> str:
    """``15_032_385_536`` → ``"14.0 GiB"``; picks KiB/MiB/GiB/TiB so the number stays readable."""
    if not _finite(value):
        return "—"
    sign = "-" if value < 0 else ""
    n = abs(float(value))
    for unit, size in (("TiB", TiB), ("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= size:
            return f"{sign}{n / size:,.{digits}f} {unit}"
    return f"{sign}{n:,.0f} B"


def format_gib(value: float | int | None, digits: int = 1) -> str:
    """Always in GiB (for columns that must compare at a glance)."""
    if not _finite(value):
        return "—"
    return f"{value / GiB:,.{digits}f} GiB"


def format_count(value: float | int | None) -> str:
    """Integers with thousands separators: ``12345`` → ``"12,345"``."""
    if not _finite(value):
        return "—"
    return f"{round(value):,}"


def format_tokens(value: float | int | None) -> str:
    """``32768`` → ``"32,768 tokens"``."""
    if not _finite(value):
        return "—"
    return f"{round(value):,} tokens"


def format_context(value: float | int | None) -> str:
    """Context lengths the way model cards write them: ``32768`` → ``"32k"``, ``131072`` → ``"128k"``, ``1000`` → ``"1,000"``."""
    if not _finite(value):
        return "—"
    n = round(value)
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024}k"
    return f"{n:,}"


def format_ms(value: float | int | None) -> str:
    """Milliseconds with sensible precision: ``0.42`` → ``"0.42 ms"``, ``87.3`` → ``"87 ms"``, ``12345`` → ``"12.3 s"``."""
    if not _finite(value):
        return "—"
    v = float(value)
    if abs(v) >= 10_000:
        return f"{v / 1000:,.1f} s"
    if abs(v) >= 10:
        return f"{v:,.0f} ms"
    if abs(v) >= 1:
        return f"{v:.1f} ms"
    return f"{v:.2f} ms"


def format_tokens_per_s(value: float | int | None) -> str:
    """``45.67`` → ``"45.7 tok/s"``; ``1234.5`` → ``"1,234 tok/s"``."""
    if not _finite(value):
        return "—"
    v = float(value)
    if abs(v) >= 100:
        return f"{v:,.0f} tok/s"
    return f"{v:.1f} tok/s"


def format_params(value: float | int | None) -> str:
    """Parameter counts as model cards write them: ``7_615_616_512`` → ``"7.62 B"``."""
    if not _finite(value):
        return "—"
    v = float(value)
    if v >= 1e12:
        return f"{v / 1e12:.2f} T"
    if v >= 1e9:
        return f"{v / 1e9:.2f} B"
    if v >= 1e6:
        return f"{v / 1e6:.1f} M"
    return f"{v:,.0f}"


def format_bandwidth(value: float | int | None) -> str:
    """Bytes per second in decimal units as datasheets print them: ``3.35e12`` → ``"3.35 TB/s"``."""
    if not _finite(value):
        return "—"
    v = float(value)
    if v >= 1e12:
        return f"{v / 1e12:.2f} TB/s"
    return f"{v / 1e9:,.0f} GB/s"


def format_tflops(value: float | int | None) -> str:
    if not _finite(value):
        return "—"
    return f"{float(value):,.0f} TFLOP/s"


def format_percent(fraction: float | int | None, digits: int = 0) -> str:
    """``0.9`` → ``"90%"``."""
    if not _finite(fraction):
        return "—"
    return f"{float(fraction) * 100:.{digits}f}%"


_CURRENCY_SYMBOLS = {"CNY": "¥", "RMB": "¥", "USD": "$"}
# (from this size on, divide by, suffix), largest first. Chinese counts in 万 (10^4) and 亿 (10^8): "¥20万",
# never "¥200k", which a Chinese reader has to convert in their head. English starts at 10k so that four-digit
# figures stay whole ("9,999"), as they do in Chinese.
_COMPACT_UNITS = {
    "zh_CN": ((1e8, 1e8, "亿"), (1e4, 1e4, "万")),
    "en": ((1e9, 1e9, "B"), (1e6, 1e6, "M"), (1e4, 1e3, "k")),
}


def _three_figures(scaled: float) -> str:
    """``1.5`` → ``"1.5"``, ``12.34`` → ``"12.3"``, ``1234.5`` → ``"1,235"``: three significant figures, whole digits
    never dropped, no trailing zeros."""
    digits = 0 if scaled >= 100 else 1 if scaled >= 10 else 2
    text = f"{scaled:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if digits else text


def format_compact(value: float | int | None, lang: str, *, currency: str | None = None) -> str:
    """A number short enough for a chart's tick, legend or hover, written the way the language counts.

    Chinese: ``15_000`` → ``"1.5万"``, ``1e8`` → ``"1亿"``; English: ``15_000`` → ``"15k"``, ``2.5e6`` → ``"2.5M"``.
    Below 10,000 both write the whole number (``"9,999"``); small values keep three significant figures
    (``"12.5"``). ``currency`` (``"CNY"``, ``"USD"``) puts its symbol first: ``"¥20万"``, ``"-$1.5k"``; an unknown
    code follows the number. Missing or non-finite values are ``"—"``.
    """
    if not _finite(value):
        return "—"
    v = float(value)
    units = _COMPACT_UNITS["zh_CN" if lang.startswith("zh") else "en"]
    a = abs(v)
    natural = next((i for i, (start, _, _) in enumerate(units) if a >= start), len(units))
    if natural == len(units):  # below every unit: the whole number, unless it rounds up into the first unit
        text = f"{a:,.0f}" if a >= 100 else f"{a:.3g}"
        if round(a) >= units[-1][0]:
            natural = len(units) - 1
    if natural < len(units):
        _, div, suffix = units[natural]
        shown = _three_figures(a / div)
        if natural > 0 and float(shown.replace(",", "")) * div >= units[natural - 1][0]:  # 9,999.5万 → 1亿
            _, div, suffix = units[natural - 1]
            shown = _three_figures(a / div)
        text = shown + suffix
    sign = "-" if v < 0 and text != "0" else ""  # -0.0 is "0"
    if currency is None:
        return sign + text
    symbol = _CURRENCY_SYMBOLS.get(currency.upper())
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {currency}"
