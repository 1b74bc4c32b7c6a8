"""Page 1's "owning pays off against that rent …" clause, from the computation the cost table's "Owning pays off" row
uses (issue 25, blind review 11b, q03: page 1 said "pays off after about 19 months" while the table said "not within
36 months at the tokens row's volume (about 2 % busy)").

The table reads the payback at the memo's own volume first (``volume_busy.owning_at_volume``: the busy share the
tokens row gives against the break-even utilisation over the horizon) and the months at the assumed utilisation only
as "if it were N % busy". Page 1 used the months at the assumed share alone. Here page 1 says what the table says
first: where the volume contradicts the assumed share, the verdict at the volume (no months, which were worked out at
the assumed share); elsewhere the mid-range months, the table's own figure.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import volume_busy


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
    """A ``{"tr": …}`` phrase for the payback beside page 1's rent, or "" where the table has no payback to say."""
    verdict, busy = volume_busy.owning_at_volume(costs), volume_busy.contradicting_share(costs)
    if verdict is not None and busy is not None:
        share = volume_busy.share_phrase(busy)
        return {"tr": f"owncost22.capex.volume.{verdict}", "busy": share, "horizon": costs.horizon_months,
                "util": f"{costs.utilisation * 100:.0f}"}
    mid = _mid_months(costs)
    return {"tr": "plan.inputs17.capex.pays_off", "months": round(mid)} if mid is not None else ""


def months_said(costs: Any) -> int | None:
    """The months page 1 states (``clause``'s figure), None where it states none: what the table's row must agree
    with (tests/core/test_owncost22.py)."""
    got = clause(costs)
    return got.get("months") if isinstance(got, dict) else None


__all__ = ["clause", "months_said"]
