"""N+1 held by the units a production plan's headroom rounds up to (issue #25, q10).

A production service (``gpu_choice.redundancy_reason``) is sized for the peak with the policy's headroom, then a
spare unit is added. Where whole 8-GPU servers round the headroom's replicas up so far that one server down still
leaves the peak carried within the target (q10: 3 replicas of TP4 need 2 servers, which hold 4; one down leaves 2,
the peak's 8), that spare server buys nothing more; the engine drops it (``engine._spare_held``)
and says N+1 is held this way, instead of dropping the headroom and the spare together (0 % and no spare: a setup no
engineer signs for business customers)."""

from __future__ import annotations

from typing import Any

from advisor.plan import gpu_choice

NOTE = "spare_in_units"


def units(ch: Any) -> int | None:
    """The servers/VMs that hold the spare among them, from the engine's note; None without it."""
    found = next((n for n in getattr(ch, "notes", []) if n.startswith(NOTE + ":")), None)
    return int(found.split(":")[1]) if found else None


def finding_params(f: Any, ch: Any, lay: Any, unit: str) -> dict[str, Any]:
    """The ``sizing.redundancy`` finding's parameters for this variant: what one unit down leaves."""
    per_unit = max(1, lay.unit_gpus // max(1, ch.tp))
    left = max(0, ch.replicas - per_unit)
    c_max = f.claimed_c_max or ch.c_max
    return {"why": {"tr": f"plan.redundancy.why.{gpu_choice.redundancy_reason(f.ctx) or 'public'}"},
            "all": {"tr": f"plan.burst15.all.{unit}", "n": lay.units}, "one": {"tr": f"plan.burst15.one.{unit}"},
            "replicas": ch.replicas, "left_r": {"tr": "plan.burst15.all.replica", "n": left},
            "left": left * c_max,  # the requests carried with one unit down, as the other variants' ``left``
            "peak": f.sized_ctx.peak, "total": lay.total_gpus, "gpu": ch.gpu.name}


__all__ = ["NOTE", "finding_params", "units"]
