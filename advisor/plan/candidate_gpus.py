"""The GPUs a plan may use in a region (moved out of ``engine`` so the hybrid's costing can weigh the rented burst GPU
among the same parts, ``advisor.plan.burst_gpu``, without importing the engine)."""

from __future__ import annotations

from advisor.plan import batch_policy
from advisor.plan.context import Ctx
from advisor.plan.data import facts, gpus_by_id


def candidate_gpus(c: Ctx, region: str) -> list[str]:
    """GPUs the plan may use: the user's constraint, else what the region offers. Consumer cards only for internal
    tools and batch jobs (rule 12); low-confidence accelerators only when asked for (rule 13)."""
    avail = facts()["gpu_availability"]
    if c.gpu_constraint:
        if region in ("mainland", "mainland_plus_overseas"):
            return list(c.gpu_constraint)
        # China-market parts (H800, A800, H20, L20, 4090D) are not sold or rented outside the mainland: an offshore
        # node never gets one, even when the answers allow it; the ids left out are said (plan.assume.china_market)
        china = set(avail["china_market_only"]["gpus"])
        kept = [g for g in c.gpu_constraint if g not in china]
        if kept:
            return kept
    ids_offshore = [g for g in avail["default_candidates"] if g not in set(avail["china_market_only"]["gpus"])]
    # a mainland_plus_overseas plan is sized on the mainland node; the overseas node mirrors it
    ids = avail["mainland"]["gpus"] if region in ("mainland", "mainland_plus_overseas") else ids_offshore
    out = []
    table = gpus_by_id()
    for gid in ids:
        g = table[gid]
        if g.confidence == "low" and g.vendor.lower() != "nvidia":
            continue
        if g.market == "consumer" and not (c.audience == "internal" or c.is_batch):
            continue
        if g.market == "consumer" and c.is_batch and not batch_policy.consumer_cards_allowed(c):
            continue  # sensitive data (a bank's loan files) stays off marketplace consumer cards
        out.append(gid)
    return out


__all__ = ["candidate_gpus"]
