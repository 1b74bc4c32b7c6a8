"""Page 1's "owning pays off against that rent …" clause, from the computation the cost table's "Owning pays off" row
uses (issue 25, blind review 11b, q03: page 1 said "pays off after about 19 months" while the table said "not within
36 months at the tokens row's volume (about 2 % busy)").

Both read the one utilisation the cost table states (s23-util23: the tokens row's share of the capacity is no longer
a second basis for the payback): page 1 gives the table's mid-range months.
"""

from __future__ import annotations

from typing import Any


def _mid_months(costs: Any) -> float | None:
    """The break-even months at mid-range prices where the table prints them (the middle of the two ends when no
    mid-range figure was kept)."""
    be = costs.break_even_months
    if be is None:
        return None
    if be.mid is not None:
        return be.mid
    if be.low is not None and be.high is not None:
        return (be.low + be.high) / 2
    return None


def clause(costs: Any) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase for the payback beside page 1's rent, or "" where the table has no payback to say: the
    table's mid-range figure as the table prints it, to a tenth of a month (round 13, q02: page 1's "about 12" beside
    the table's "11.5" read as two paybacks; one figure, one rounding)."""
    mid = _mid_months(costs)
    return {"tr": "plan.inputs17.capex.pays_off", "months": f"{round(mid, 1):g}"} if mid is not None else ""


def months_said(costs: Any) -> float | None:
    """The months page 1 states (``clause``'s figure), None where it states none: what the table's row must agree
    with (tests/core/test_owncost22.py)."""
    got = clause(costs)
    return float(got["months"]) if isinstance(got, dict) else None


__all__ = ["clause", "months_said"]
