"""On a busy fleet, the check that the free GPUs lie as the plan's replicas need comes before any start command
(issue #25, blind review 23, q18: "the feasibility rests on the placement caveat buried in section 7: 'check … that
the servers they go on have 4 + 4 + 4 + 2 GPUs free'. That check belongs in next step 1, before any start command").

The placement finding (``placement_rules``: ``sizenums22.placement.check_free``) states the check where the fleet's
measured utilisation leaves a share of its cards idle but not which ones; this module lifts it into the next steps,
before the first step that starts a replica, with the same figures (per-server counts, the GPUs the plan takes).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.fleet_signoff import SIGNOFF_TITLE
from advisor.plan.result import Finding, NextStep

STEP_ID = "check_free_gpus"
CHECK_KEY = "sizenums22.placement.check_free"
_STARTS = ("serve", "ramp", "soak", "quant_ab", "batch_throughput")  # the steps that run something on the GPUs


def _check(params: Any) -> dict[str, Any] | None:
    """The check-free phrase in a placement finding's params (nested ``{"tr": …}`` phrases)."""
    if isinstance(params, dict):
        if params.get("tr") == CHECK_KEY:
            return params
        for v in params.values():
            got = _check(v)
            if got is not None:
                return got
    return None


def first(steps: list[NextStep], findings: list[Finding]) -> list[NextStep]:
    """``steps`` with "check that the servers have 4 + 4 + 4 + 2 GPUs free" before the first step that starts a
    replica, where the placement finding asks for that check; unchanged otherwise."""
    f = next((x for x in findings if x.id == "sizing.placement"), None)
    check = _check(f.params) if f is not None else None
    # a spare that takes busy cards once their owners sign off (``fleet_signoff``, q04) is that sign-off's step:
    # "check 8 + 8 free" beside "the last 4 cards once their other work moves off" would read as two plans
    if check is None or any(x.title_key == SIGNOFF_TITLE for x in findings):
        return steps
    step = NextStep(id=STEP_ID, key="steps34.next.check_free", params={
        k: check[k] for k in ("busy", "per_server", "need", "tp")})
    rest = [s for s in steps if s.id != STEP_ID]
    at = next((i for i, s in enumerate(rest) if s.id in _STARTS), len(rest))
    return rest[:at] + [step] + rest[at:]


__all__ = ["STEP_ID", "first"]
