"""The highest concurrency one replica takes within the target, found on the plan's own predictor.

The plan's curve samples a replica at 1, ¼, ½, 1 and 2 × its planned load; a claim read off those levels alone is
as coarse as they are (q33: 4 per replica claimed on 2 × RTX 4090 D because the next level sampled was 8, where the
predicted TPOT p99 breaks the target, though 7 meets it; q11: a TP2 replica claimed 4 where 7 meets it, so TP2
looked like 26 GPUs and lost to TP4). ``refine`` bisects between the highest level shown to meet the target and the
first shown to miss it, and returns the highest level it finds within the target: the plan adds it to the curve the
memo shows (``capacity.plan_curve``), so the claim rests on a level the reader sees, and a plan sizes its
replicas, and compares tensor-parallel sizes, on what a replica really takes.

Every level is one predictor run, cached (``sizing.simulate_at``): a re-plan (an offered fix, a what-if) pays
nothing for it.
"""

from __future__ import annotations

import math

from advisor.domain.sim import LevelPrediction
from advisor.plan import sizing
from advisor.plan.context import Ctx


def meets(c: Ctx, lv: LevelPrediction) -> bool:
    """The level's predicted TTFT and TPOT p99 both meet the target."""
    ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    return (c.ttft_slo_ms is None or (ttft is not None and ttft <= c.ttft_slo_ms)) and (
        c.tpot_slo_ms is None or (tpot is not None and tpot <= c.tpot_slo_ms))


def refine(c: Ctx, ch: sizing.Candidate, levels: list[LevelPrediction], need: int | None = None) -> int | None:
    """The highest concurrency between the last level of ``levels`` (sorted, as shown) that meets the target and the
    first that misses it (the screen's c_max + 1 when none misses) at which one replica still meets it, by bisection
    on the predictor; None when the first level already misses or none lies between them. Capped at the screen's
    c_max (every claim is) and at ``need``, the load per replica the plan's sizing asks for (a claim above it
    changes nothing the plan decides, and levels far above the load are the predictor's slowest): no search when a
    level shown already meets ``need``."""
    ordered = sorted((lv for lv in levels if lv.concurrency), key=lambda lv: lv.concurrency or 0)
    lo = hi = None
    for lv in ordered:
        if not meets(c, lv):
            hi = int(lv.concurrency or 0)
            break
        lo = int(lv.concurrency or 0)
    if lo is None:
        return None
    # no level shown misses: up to the screen's c_max (the curve's top level, 2 × the load, says nothing about what
    # lies above it, and a plan whose load is spread over a spare claimed only that: q10 grew a server for it)
    if need is not None and lo >= need:
        return None
    cap = int(ch.c_max) + 1 if need is None else min(int(ch.c_max), need) + 1
    hi = int(min(hi if hi is not None else math.inf, max(lo + 1, cap)))
    best = None
    if need is not None and lo < need < hi:  # the load the sizing asks for first: usually it is met, and that is all
        if meets(c, sizing.levels_at(c, ch, [need])[0]):
            return need
        hi = need
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(c, sizing.levels_at(c, ch, [mid])[0]):
            lo = best = mid
        else:
            hi = mid
    return best


__all__ = ["meets", "refine"]
