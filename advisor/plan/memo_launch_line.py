"""The recommendation's first line names the earliest launch where a filing or licence, not the engineering, sets it
(issue #25, blind review 23, q16: "'Earliest launch 91–125 days' should sit in the first line a boss reads, because
the registration, not the engineering, sets the date").

Only where the plan is feasible and a timed blocking step other than the set-up (the timeline's ``gate``) sets a
launch at least ``LONG_WAIT_DAYS`` away: a week of set-up is no news for the first line. The key table's row keeps
its own wording (what it waits for, the shorter path); this line is the date and what sets it.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import FULL_FILING_LABEL, render

LONG_WAIT_DAYS = 30  # a launch at least a month away, set by a filing or licence: said in the first line
PURCHASE = ("procurement", "procurement_office")  # a purchase's lead time is the plan's own step, not a gate on it


def clause(result: Any, lang: str) -> str:
    """" Earliest launch in 91–125 days, set by the generative-AI registration." after the recommendation, or ""."""
    tl = result.timeline
    g = tl.gate
    if not result.feasible or g is None or g.id in PURCHASE or tl.launch_days_low < LONG_WAIT_DAYS:
        return ""
    if g.shorter_low is not None:  # the days counted are the full filing's (``Timeline.gate_text``)
        g = g.model_copy(update={"label_key": FULL_FILING_LABEL, "label_params": {}})
    low, high = tl.launch_days_low, tl.launch_days_high
    days = f"{low}" if low == high else f"{low}–{high}"
    return render(lang, "steps34.rec.launch", {"days": days, "step": g.label_in(lang, clause=True)})


__all__ = ["LONG_WAIT_DAYS", "clause"]
