"""Page 1's cost beside the event GPUs held in a capacity reservation (blind review 34, q23).

q23 (Tokyo L40S, 2 warm + 4 for events): "the headline cost 4,321–5,757 USD assumes the 4 burst L40S start on demand
in Tokyo whenever needed. The memo's own finding then says on-demand capacity can run out and a reservation held all
month costs 11,165–13,766 USD. The page-1 cost should show the realistic burst plan (reserved per event day) next to
the optimistic one." The rule: where the reservation finding prices holding the event GPUs (``burstbill37``), page
1's cost row says, after the month with the event replicas on demand, what each event day held adds and the month
held throughout; "" otherwise.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render

FINDING = "scaling.burst_reservation"


def clause(result: Any, lang: str) -> str:
    """"; that month assumes the 4 event GPUs start on demand, and stock can run out: held in a capacity
    reservation, each event day held costs 281–329 USD (held all month: 11,165–13,766 USD)"; "" without the priced
    reservation."""
    f = next((x for x in result.findings if x.id == FINDING), None)
    p = f.params if f is not None else {}
    if not p.get("rs_day") or not p.get("rs_month") or not p.get("gpus"):
        return ""
    if p.get("rs_every"):  # both whole-month figures, each named by how it is billed (review 36, q23)
        return render(lang, "num44.event_reserve", {"gpus": p["gpus"], "day": p["rs_day"], "month": p["rs_month"],
                                                    "every": p["rs_every"], "all": p["rs_all"]})
    return render(lang, "fo43_cost.event_reserve", {"gpus": p["gpus"], "day": p["rs_day"], "month": p["rs_month"]})


__all__ = ["FINDING", "clause"]
