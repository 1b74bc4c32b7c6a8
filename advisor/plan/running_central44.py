"""An owned box's running month said as one central figure with its range beside it (cst44, blind review 35).

An office workstation's power was "66.2–467 CNY a month" (q01): the product of ranges on its draw, the cooling
overhead, the share of the day it is busy and the tariff, 7 × from end to end, "too wide to mean much to a boss; give
one central figure". The central figure is the ends' geometric mean, the month with each multiplied factor at the
middle of its range (the figure a product of ranges centres on), at two significant figures; said only where the
range spans 3 × or more (a narrower one reads well as it is).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan.result import MoneyRange

WIDE = 3.0  # high ÷ low from which the range alone is too wide to plan on


def central(r: MoneyRange | None) -> float | None:
    """The range's central month (geometric mean, two significant figures); None where the range is narrow or empty."""
    if r is None or r.low <= 0 or r.high < WIDE * r.low:
        return None
    mid = math.sqrt(r.low * r.high)
    digits = max(0, 1 - int(math.floor(math.log10(mid))))
    return round(mid, digits) if digits else float(round(mid, 1 - int(math.floor(math.log10(mid)))))


def phrase(r: MoneyRange | None, money: Callable[[MoneyRange], str]) -> dict[str, Any] | str:
    """"¥180 (range ¥66–¥467)" as a ``{"tr": …}`` phrase where the range is wide, else the range as ``money`` says it."""
    mid = central(r)
    if r is None or mid is None:
        return money(r) if r is not None else "—"
    return {"tr": "cst44.running.central", "mid": money(MoneyRange(low=mid, high=mid)), "range": money(r)}


__all__ = ["central", "phrase"]
