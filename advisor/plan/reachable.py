"""An assumed TTFT target the allowed GPUs cannot reach is not a reason to call the plan infeasible.

With no TTFT target given the plan assumes one (2 s p99 for interactive use, ``context.resolve``). That default
is written for chat-length prompts; the first token of a 12,000-token report excerpt takes longer on any GPU, and
on a prefill-weak part (H20, rule 10) or a domestic accelerator much longer. A team that never asked for 2 s then
got "infeasible" for hardware it already owns. An engineer plans on the lowest TTFT the allowed GPUs reach and
says so: the target becomes the smallest 500 ms step the screen meets (at most ``MAX_STEPS`` steps above the best
near miss), stated as an assumption in the headline with the default it replaces and the prompt length that
decided it. A TTFT the user gave is never relaxed (the fixes offer that, as a change they choose).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.plan.result import Assumption

STEP_MS = 500
MAX_STEPS = 8
FIELD = "latency_slo.ttft_p99_ms"


def ttft_assumed(c: Ctx) -> bool:
    slo = c.answers.latency_slo
    return c.ttft_slo_ms is not None and not c.is_batch and (slo is None or slo.ttft_p99_ms is None)


def reachable_ttft(c: Ctx, near: list[sizing.Candidate], meets: Callable[[Ctx], bool],
                   on_fleet: Callable[[Ctx], bool] | None = None,
                   setup_at: Callable[[Ctx], sizing.Candidate | None] | None = None) -> Ctx | None:
    """``c`` with the assumed TTFT target raised to the lowest step the screen meets (``meets(ctx) -> bool``), the
    assumption restated; None when the target was given, a setup meets it already, or no step within reach does.
    ``on_fleet(ctx) -> bool``: a setup meets it on the free GPUs of the team's fleet; the lowest such step within
    reach is preferred to a lower one that needs GPUs bought (the target was never the team's). ``setup_at(ctx)``:
    the screen's first setup at a target, named where the lower target needs more GPUs than the fleet has free.

    The relaxed target is never silent (ninth blind review, q08: "relaxes its own default TTFT target from 4,000 to
    6,000 ms to fit the fleet, then says 5,000 ms would need more cards"): it is restated as a choice the team
    makes (``ttft_choice``), asked in the decision's open questions."""
    if not ttft_assumed(c) or not near:
        return None
    best = min(k.best_ttft_ms for k in near)
    if c.tpot_slo_ms is not None and min(k.best_tpot_ms for k in near) > c.tpot_slo_ms:
        return None  # the per-token target misses too: relaxing the first token changes nothing
    start = max(c.ttft_slo_ms + STEP_MS, math.ceil(best / STEP_MS) * STEP_MS)  # type: ignore[operator]
    steps = [float(start + STEP_MS * i) for i in range(MAX_STEPS)]
    lowest = next((t for t in steps if meets(dataclasses.replace(c, ttft_slo_ms=t))), None)
    if lowest is None:
        return None
    target, fleet_step = lowest, False
    if on_fleet is not None:
        fleet_step_at = next((t for t in steps if t >= lowest and on_fleet(dataclasses.replace(c, ttft_slo_ms=t))),
                             None)  # fmt: skip
        if fleet_step_at is not None:
            target, fleet_step = fleet_step_at, fleet_step_at > lowest
    setup = None
    if fleet_step and setup_at is not None:
        setup = setup_at(dataclasses.replace(c, ttft_slo_ms=lowest))
    before = next((a for a in c.assumptions if a.field == FIELD), None)
    return dataclasses.replace(c, ttft_slo_ms=target, ttft_assumed_before=before,
                               assumptions=_restated(c, target, lowest if fleet_step else None, setup))


def _restated(c: Ctx, target: float, lowest: float | None, setup: sizing.Candidate | None = None) -> list[Assumption]:
    """The assumptions with the TTFT one replaced: the default, why it was out of reach, the target planned on as
    the team's choice (``ttft_choice`` adds the plan's own figures once it is sized), and, when the team's free GPUs
    decided it, the lower target and the setup it would need."""
    default = c.ttft_slo_ms
    out = [a for a in c.assumptions if a.field != FIELD]
    params: dict[str, Any] = {"value": round(target), "default": round(default or 0), "p95": c.prompt_p95,
                              "floor": "", "peak": ""}  # fmt: skip
    params["fleet"] = "" if lowest is None else _lower(c, lowest, setup)
    out.append(Assumption(field=FIELD, value=target, key=CHOICE_KEY, params=params))
    return out


def _lower(c: Ctx, lowest: float, setup: sizing.Candidate | None) -> dict[str, Any]:
    """The lower target the screen meets only with more GPUs than the fleet has free, and the setup it names."""
    from advisor.plan import fleet, gpu_choice

    found = gpu_choice.fleet(c, setup.gpu.id) if setup is not None else None
    if setup is None or found is None:
        return {"tr": "plan.assume.ttft_reachable_fleet", "lowest": round(lowest)}
    return {"tr": "plan.owned20.assume.ttft_lower", "lowest": round(lowest), "n": setup.tp * setup.replicas,
            "gpu": setup.gpu.name, "replicas": setup.replicas, "tp": setup.tp,
            "free": fleet.free_gpus(found[1], c.utilisation)}  # fmt: skip


CHOICE_KEY = "plan.owned20.assume.ttft_choice"
FREE_KEY = "fleet36.assume.ttft_free"  # ``ttft_free_cards.KEY``, named here as that module imports this one


def simulated_step(c: Ctx, p99_at_peak: float | None) -> Ctx | None:
    """``c`` with a relaxed target lowered to the lowest step the planned setup meets on the predictor, the one the
    memo's latency table and sizing card use (s20-consist20, q08: the screen's 5,752 ms best first token on TP4 set
    6,000 ms while the simulator put one request at 5,150 ms and the peak at 5,258 ms: 5,500 ms is met on the same
    cards). None where no target was relaxed, the figure is unknown, or no lower step is met. A lower step the screen
    said needs more GPUs stays named only while it is still below the new target."""
    # not the free cards' step (``ttft_free_cards``): that one is the lowest at which the plan's own choice sits on
    # the free cards; stepped down to its predicted peak it would rank another layout first (s34-fleet36, q04)
    found = next((a for a in c.assumptions if a.field == FIELD and a.key == CHOICE_KEY), None)
    if found is None or p99_at_peak is None or c.ttft_slo_ms is None:
        return None
    default = float(found.params.get("default") or 0)
    if p99_at_peak <= default and c.ttft_assumed_before is not None:
        # the screen's estimate missed the default, the predictor the memo quotes meets it at the peak: nothing to
        # relax (s23, issue #25: the relax search and the plan read one predictor; a 910B plan read "no layout
        # reaches 6,000 ms: one request alone waits 5,910 ms", its peak predicted at 5,999 ms)
        return dataclasses.replace(c, ttft_slo_ms=default, ttft_assumed_before=None, assumptions=[
            c.ttft_assumed_before if a is found else a for a in c.assumptions])
    step = float(max(default + STEP_MS, math.ceil(p99_at_peak / STEP_MS) * STEP_MS))
    if step >= c.ttft_slo_ms:
        return None
    # a lower step the screen said needs more GPUs is not named once the target is stepped on the predictor: its
    # setup is the screen's analytic figure, not the predictor's (eleventh blind review, q08: "64 × 910B (8 replicas
    # of 8) for 5 s" beside the predictor's 5,150 ms for one request alone on TP4 was read as implausible); the
    # warning on page 1 says what would lower the first token instead (advisor.plan.ttft_relaxed)
    params = dict(found.params, value=round(step), fleet="")
    restated = found.model_copy(update={"value": step, "params": params})
    return dataclasses.replace(c, ttft_slo_ms=step,
                               assumptions=[restated if a is found else a for a in c.assumptions])


__all__ = ["CHOICE_KEY", "FIELD", "reachable_ttft", "simulated_step", "ttft_assumed"]
