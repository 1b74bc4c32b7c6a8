"""Page 1's "owning pays off against that rent …" clause, from the computation the cost table's "Owning pays off" row
uses (issue 25, blind review 11b, q03: page 1 said "pays off after about 19 months" while the table said "not within
36 months at the tokens row's volume (about 2 % busy)").

Both read the one utilisation the cost table states (s23-util23: the tokens row's share of the capacity is no longer
a second basis for the payback): page 1 gives the table's mid-range months.
"""

from __future__ import annotations

from typing import Any


def clause(costs: Any) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase for the payback beside page 1's rent, or "" where the table has no payback to say: the
    table's mid-range figure as the table prints it, to a tenth of a month (round 13, q02: page 1's "about 12" beside
    the table's "11.5" read as two paybacks; one figure, one rounding). Where the table keeps no mid-range figure
    because both ends pay back within the horizon, page 1 says the table's two ends (s29-prices29, q03 at the sourced
    L20 rent: "after about 19.4 months at mid-range prices", the middle of the ends, beside the table's "13.6–25.3"
    read as a payback the table does not hold)."""
    be = costs.break_even_months
    if be is None:
        return ""
    if be.mid is not None:
        return {"tr": "plan.inputs17.capex.pays_off", "months": f"{round(be.mid, 1):g}"}
    if be.low is not None and be.high is not None:
        return {"tr": "prices29.capex.pays_off_range", "low": be.low, "high": be.high}
    return ""


def months_said(costs: Any) -> float | None:
    """The mid-range months page 1 states (``clause``'s figure), None where it states none or the table's two ends:
    what the table's row must agree with (tests/core/test_owncost22.py)."""
    got = clause(costs)
    return float(got["months"]) if isinstance(got, dict) and "months" in got else None


__all__ = ["clause", "months_said"]
