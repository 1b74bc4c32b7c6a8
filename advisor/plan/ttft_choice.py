"""A first-token target the plan relaxed is the team's choice, said as one (ninth blind review, q08: "the memo
silently relaxes its own default TTFT target from 4,000 to 6,000 ms to fit the fleet, then says 5,000 ms would need
more cards — the user should be asked rather than overridden").

``reachable.reachable_ttft`` plans on the lowest target the allowed GPUs (the fleet's free ones first) reach when
the assumed default is out of reach; a target the user gave is never relaxed. Once the plan is sized, this module
adds the plan's own figures to that assumption — the first token of one request alone on the planned setup (the
curve's first level: no target below it is met, whatever the load) and at the peak (the sizing card's) — and turns
the latency question into one that changes the decision, so the memo asks it on page 1 instead of in the appendix.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.reachable import CHOICE_KEY, FIELD
from advisor.plan.ttft_free_cards import KEY as FREE_KEY

QUESTION = "latency_slo"
CHANGES = ["feasible", "hardware"]  # the default target is out of reach: another answer decides feasibility


def restate(assumptions: list[Any], questions: list[Any], capacity: Any, curve: Any) -> tuple[list[Any], list[Any]]:
    """(assumptions, questions) with the relaxed target's figures filled in and its question made decision-
    changing; unchanged where no target was relaxed."""
    # the target relaxed to the free cards' step is the team's choice too (s34-fleet36, ``ttft_free_cards``)
    found = next((a for a in assumptions if a.field == FIELD and a.key in (CHOICE_KEY, FREE_KEY)), None)
    if found is None:
        return assumptions, questions
    params = dict(found.params)
    one = next((p for p in getattr(curve, "points", []) if p.concurrency == 1 and p.ttft_p99_ms is not None), None)
    if one is not None:
        params["floor"] = {"tr": "plan.owned20.assume.ttft_floor", "best": float(one.ttft_p99_ms)}
    if getattr(capacity, "ttft_p99_ms", None) is not None:
        params["peak"] = {"tr": "plan.owned20.assume.ttft_peak", "ttft": float(capacity.ttft_p99_ms)}
    restated = found.model_copy(update={"params": params})
    out_a = [restated if a is found else a for a in assumptions]
    out_q = []
    for q in questions:
        if q.field == QUESTION:  # keyed to the first latency assumption (the TPOT one may come first)
            q = q.model_copy(update={"changes": list(CHANGES), "assumption_key": found.key, "assumed": found.value,
                                     "assumption_params": params,
                                     "alternatives": [{"ttft_p99_ms": params.get("default")}]})  # fmt: skip
        out_q.append(q)
    return out_a, out_q


__all__ = ["restate"]
