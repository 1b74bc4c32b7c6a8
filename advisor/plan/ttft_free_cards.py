"""An assumed first-token target that only busy cards of the team's fleet meet is relaxed to the lowest step the
free cards meet (s34-fleet36, blind review 25).

q04: no TTFT target was given; the assumed 6,000 ms ruled out TP2 on the H20s (7,876 ms for one request) and the
plan took all 16, moving 5 busy cards' work onto the L20s, while TP2 at about 9 s carried the peak on 10 of the 11
free cards with a spare. The reviewers: "Until the analysts give a real target, I would make the default a layout
inside the 11 free cards and keep the all-16 plan as the upgrade"; "the default should be the plan that evicts
nobody until the real target is confirmed". A target nobody gave is no reason to displace other teams' work: the
plan is sized on the lowest 500 ms step at which a setup sits on the free cards alone (spares included), said as an
assumption for the team to accept or change, with the layout the assumed target needs as the upgrade and its
condition (the other work moved off with its owners' sign-off). ``reachable`` handles a default no GPU meets; this
one a default met only on busy cards. A target the team gave is never relaxed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.plan.reachable import FIELD, FREE_KEY, MAX_STEPS, STEP_MS, ttft_assumed
from advisor.plan.result import Assumption

KEY = FREE_KEY


def relax(c: Ctx, busy_setup: sizing.Candidate | None, free_count: int,
          on_free: Callable[[Ctx], bool]) -> Ctx | None:
    """``c`` with the assumed TTFT target raised to the lowest step (up to ``MAX_STEPS`` above it) at which the
    plan's setup sits on the fleet's free cards alone (``on_free(ctx)``), where ``busy_setup``, the setup the assumed
    target chose, takes busy ones; None otherwise."""
    if busy_setup is None or not ttft_assumed(c) or c.ttft_slo_ms is None:
        return None
    steps = [float(c.ttft_slo_ms + STEP_MS * (i + 1)) for i in range(MAX_STEPS)]
    target = next((t for t in steps if on_free(dataclasses.replace(c, ttft_slo_ms=t))), None)
    if target is None:
        return None
    lay = busy_setup.layout
    gpus = lay.total_gpus if lay is not None else busy_setup.tp * busy_setup.replicas
    replicas = lay.replicas if lay is not None else busy_setup.replicas
    before = next((a for a in c.assumptions if a.field == FIELD), None)
    params: dict[str, Any] = {"value": round(target), "default": round(c.ttft_slo_ms), "p95": c.prompt_p95,
                              "peak": "", "floor": "", "n": gpus, "gpu": busy_setup.gpu.name, "tp": busy_setup.tp,
                              "replicas": replicas, "free": free_count}
    out = [a for a in c.assumptions if a.field != FIELD]
    out.append(Assumption(field=FIELD, value=target, key=KEY, params=params))
    return dataclasses.replace(c, ttft_slo_ms=target, ttft_assumed_before=before, assumptions=out)


__all__ = ["KEY", "relax"]
