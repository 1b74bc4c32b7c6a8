"""Which line a node's users reach it on (moved out of ``advisor.plan.engine`` by s22-uplift22c so that the cost
model, below the engine, can tell a premium line that carries the users' traffic from per-GB cloud egress)."""

from __future__ import annotations

from advisor.plan.context import Ctx


def decide_line(c: Ctx, region: str, form: str) -> str:
    if form == "hosted_api" or c.is_batch:
        return "any"
    if region in ("mainland", "mainland_plus_overseas"):
        return "any" if c.internal_only else "bgp"
    if c.mainland_share > 0:
        return "cn2_gia" if c.carriers == "telecom" else "three_network"
    return "any"


__all__ = ["decide_line"]
