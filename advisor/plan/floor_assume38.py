"""The volume assumption's one clause where the costs do not use it (s36-rowtrim, issue 25, blind review 27).

The tokens row states one month, the one the costs use, and its range (q21: "the token volume is stated three ways
… pick one and footnote the others"; q30, q34). Where that month was read from the peak (``volume_peak.floor``)
the estimate from the people or the public's requests is no longer printed in the row; the assumptions list still
states it ("the month's tokens assume each of the 400,000 people …"), so that item says, without a figure, that
the costs read the month from the peak instead: one footnote, not a second volume.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.volume_low_end import FLOOR

# the requests-a-day assumptions that state a month counted by people (staff or the public)
ESTIMATE_KEYS = frozenset({"plan.volume19.assume.users", "plan.volume19.assume.people", "fleet20.public.assume",
                          "usage39.public.assume"})


def clause(costs: Any, key: str, lang: str) -> str:
    """" The costs read the month from your peak instead …" after an estimate's assumption the costs raised to its
    busiest hour's floor (or to the most its people send); "" for any other assumption or month."""
    raised = ((getattr(costs, "volume_basis", None) or {}) if costs is not None else {}).get(FLOOR)
    if key not in ESTIMATE_KEYS or not raised or not raised.get("line"):
        return ""
    return translate(lang, "rowtrim38.assume.cap" if raised.get("cap") else "rowtrim38.assume.floor")


__all__ = ["ESTIMATE_KEYS", "clause"]
