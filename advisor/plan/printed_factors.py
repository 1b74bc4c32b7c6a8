"""Factors printed so that their product is the total printed beside them (issue 25, blind reviews 21 and 22).

q05/q16: "2 GPUs × 730 h × 14.6 CNY/GPU·h × 0.61 × 1.05 gives ¥13,653, not the ¥13,681 printed": the price was
14.63 and printed at three significant figures, so a reader redoing the product missed the total by 0.2 %. Each end
of a product (the low factors, the high factors) is printed at three significant figures, and the factor whose
rounding moves the product most gains a digit until the printed factors reproduce the exact product within ``TOL``.
"""

from __future__ import annotations

import math

# how far the product of the printed factors may stray from the product of the exact ones: 0.05 %, under the last
# printed digit of a five-figure total's third figure (13,681 ± 7), where a reader's check reads "agrees"
TOL = 5e-4
FIRST_DIGITS = 3  # the precision prices and factors are printed with elsewhere in the memo
MAX_DIGITS = 6


def sig(v: float, digits: int) -> str:
    """``v`` at ``digits`` significant figures, thousands separated, trailing zeros dropped (14.630 → 14.63)."""
    if v == 0:
        return "0"
    before = math.floor(math.log10(abs(v))) + 1
    decimals = max(0, digits - before)
    s = f"{round(v, decimals):,.{decimals}f}"
    return s.rstrip("0").rstrip(".") if "." in s else s


def _digits(values: list[float], start: list[int] | None = None) -> list[int]:
    """The significant figures each value is printed with: the fewest (from ``FIRST_DIGITS``, or ``start``) whose
    product agrees with the exact product within ``TOL``."""
    digits = list(start) if start is not None else [FIRST_DIGITS] * len(values)
    for _ in range(len(values) * (MAX_DIGITS - FIRST_DIGITS)):
        errors = [float(sig(v, d).replace(",", "")) / v - 1 if v else 0.0 for v, d in zip(values, digits, strict=True)]
        if abs(math.prod(1 + e for e in errors) - 1) <= TOL:
            break
        open_ = [i for i, d in enumerate(digits) if d < MAX_DIGITS]
        if not open_:
            break
        worst = max(open_, key=lambda i: abs(errors[i]))
        digits[worst] += 1
    return digits


def fit(*ranges: tuple[float, float]) -> list[str]:
    """Each (low, high) factor of a product as printed text ("14.63", "1.05–1.15"), the low ends fitted together and
    the high ends together, so that both ends of the printed product agree with the exact ones."""
    lows, highs = [r[0] for r in ranges], [r[1] for r in ranges]
    dl, dh = _digits(lows), _digits(highs)
    for _ in range(len(ranges)):
        # one price at both ends: one figure, at the finer end's precision ("14.63", not "14.63–14.6"), and the other
        # factors of each end fitted again around it (q29: the high end's "126" h had offset "14.6")
        same = [max(a, b) if lo == hi else None for lo, hi, a, b in zip(lows, highs, dl, dh, strict=True)]
        dl = _digits(lows, [m or a for m, a in zip(same, dl, strict=True)])
        dh = _digits(highs, [m or b for m, b in zip(same, dh, strict=True)])
        if all(lo != hi or a == b for lo, hi, a, b in zip(lows, highs, dl, dh, strict=True)):
            break
    out = []
    for lo, hi, a, b in zip(lows, highs, dl, dh, strict=True):
        if lo == hi:
            a = b = max(a, b)
        ta, tb = sig(lo, a), sig(hi, b)
        out.append(ta if ta == tb else f"{ta}–{tb}")
    return out


__all__ = ["fit", "sig"]
