"""A horizon too short for any purchase to pay back (issue 25, blind review 16, q27: a six-month pilot got a hosted
API for "nobody runs servers", and the horizon, which by itself rules out buying, was never said).

The test needs no running costs: even the cheapest purchase costs more than the dearest rent of the same GPUs over
the whole horizon, so a purchase could not pay back within it whatever power, colocation or staff cost. Where the
purchase was not priced, nothing is said (unknown stays unknown).
"""

from __future__ import annotations

from typing import Any

NO_PAYBACK = "api43.no_payback"


def figures(costs: Any, months: int) -> tuple[float, float] | None:
    """(cheapest purchase, dearest rent over ``months``) where the first exceeds the second; None otherwise or where
    either is unknown."""
    capex = getattr(costs, "bare_metal_capex", None)
    rent = getattr(costs, "cloud_monthly", None)
    if capex is None or rent is None or capex.low is None or rent.high is None or months <= 0:
        return None
    over = rent.high * months
    return (capex.low, over) if capex.low > over else None


def phrase(costs: Any, months: int, money: Any) -> dict[str, Any] | str:
    """A ``{"tr": …}`` sentence opening a deciding reason whose title says no purchase pays back in the horizon (the
    figures: "Buying the GPUs costs at least …, more than 6 months of renting them (… at most)"), or "" where the
    horizon is long enough for a purchase to pay back in the best case. ``money`` formats an amount."""
    got = figures(costs, months)
    if got is None:
        return ""
    # the purchase said without its figure: no table of a hosted-API memo prints the purchase it is summed from
    # (api43, blind review 34, q27 zh: "¥187,000 cannot be derived from the price table"); kept for --json
    return {"tr": NO_PAYBACK, "months": months, "capex": money(got[0]), "rent": money(got[1])}


def lead(found: Any, costs: Any, months: int, money: Any) -> Any:
    """``found`` (a deciding cost reason) with its detail opened by the horizon's figures where the horizon is too
    short for any purchase to pay back; ``found`` unchanged elsewhere. Its own parameters stay as they were. (The
    rent reasons say "over N months owning does not pay back" already; the hosted API's said nothing of it.)"""
    said = phrase(costs, months, money)
    if not said:
        return found
    rest = {"tr": found.detail_key, **found.params}
    return found.model_copy(update={"detail_key": "horizon26.detail",
                                    "params": {**found.params, "horizon_lead": said, "horizon_rest": rest}})


__all__ = ["NO_PAYBACK", "figures", "lead", "phrase"]
