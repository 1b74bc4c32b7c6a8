"""Money as the memo prints it: whole units from 100 up, three significant figures below, a low–high range in one
currency. Shared by the memo and its owning-form rows."""

from __future__ import annotations

from math import floor, log10
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the plan's result module formats its own numbers with ``number_text``
    from advisor.plan.result import MoneyRange


def money_range(r: MoneyRange | None, currency: str) -> str:
    """'1,200–1,500 CNY', one figure when both ends round alike, '—' when unknown."""
    if r is None:
        return "—"
    lo, hi = round_money(r.low), round_money(r.high)
    return f"{lo} {currency}" if lo == hi else f"{lo}–{hi} {currency}"


def symbol_range(lo: float, hi: float, currency: str) -> str:
    """Whole units after the currency's sign, as page 1's leads print them: "¥1,257–¥3,493", one figure where both
    ends agree."""
    sym = "¥" if currency == "CNY" else "$"
    a, b = f"{sym}{lo:,.0f}", f"{sym}{hi:,.0f}"
    return a if a == b else f"{a}–{b}"


def round_money(v: float) -> str:
    """Whole units from 100 up (as the engine's own texts print them), three significant figures below."""
    if v == 0:
        return "0"
    digits = max(0, 2 - int(floor(log10(abs(v)))))
    rounded = round(v, digits)
    return f"{rounded:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{rounded:,.0f}"


def about(v: float) -> str:
    """A derived count as an estimate prints it: two significant figures, with separators (1,972,345 → 2,000,000;
    4.47 → 4.5)."""
    return f"{float(f'{v:.2g}'):,.0f}" if abs(v) >= 10 else f"{v:.2g}"


def number_text(v: float | int | None, digits: int = 0) -> str:
    """A number as the memo prints it: integers with separators, whole units from 10 up (100 up with ``digits``),
    three significant figures below, '—' when unknown. The memo's tables and ``advisor plan``'s text share it."""
    if v is None:
        return "—"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if abs(v) >= 100 or digits == 0 and abs(v) >= 10:
        return f"{v:,.0f}"
    return f"{v:,.{max(digits, 1)}f}".rstrip("0").rstrip(".") if digits else f"{v:.3g}"
