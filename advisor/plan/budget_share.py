"""How much of a cost range a budget covers, said as that share (issue 25, round 13, q02: "Renting costs 1,008–3,347
CNY a month, within the monthly budget at the low end only", where the ¥3,000 budget covers 85 % of the range; q39's
"the budget covers only the low end" of ¥38–98k against ¥80k, 70 % of it).

A budget inside a range used to be said as covering "the low end" whatever share of the range lies below it. Under
half the range, that reads right; from half upward the words say the budget covers the range except its top, with
the share, so a reader sees whether the quotes must come in low or merely not at the top.
"""

from __future__ import annotations

MOST = 0.5  # from this share of the range below the budget, "all but the top"; under it, "the low end only"


def share(low: float, high: float, budget: float) -> float:
    """The share (0–1) of the range low…high at or below ``budget``: 1 where the whole range is, 0 where none is."""
    if budget >= high:
        return 1.0
    if budget < low:
        return 0.0
    return (budget - low) / (high - low) if high > low else 1.0


def part(low: float, high: float, budget: float) -> str:
    """``within`` (the whole range), ``most`` (the budget lies inside, over at least half the range), ``low_end``
    (inside, under half) or ``over`` (above the whole range)."""
    s = share(low, high, budget)
    return "within" if s >= 1.0 else "over" if s <= 0.0 and budget < low else "most" if s >= MOST else "low_end"


def percent(low: float, high: float, budget: float) -> int:
    """The share in whole percent, rounded down (a budget covering 85.9 % never reads "86 %")."""
    return int(share(low, high, budget) * 100)


__all__ = ["MOST", "part", "percent", "share"]
