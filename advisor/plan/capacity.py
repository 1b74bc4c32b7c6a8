"""The concurrency one replica takes within the target, as the plan claims it and caps the engine at
(``--max-num-seqs``): the sizing screen's c_max, never above the highest level that meets the target on the plan's
own predicted curve. One definition, read by the engine, the hybrid split and the binding constraint."""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx


def claimed_capacity(c: Ctx, ch: sizing.Candidate) -> int:
    """Concurrency per replica the plan claims (and caps the engine at): the screen's c_max, never above the
    highest level that meets the target in the plan's own predicted curve (the analytic screen can sit above the
    level where the predicted TPOT/TTFT p99 breaks the target)."""
    if c.is_batch:
        return ch.c_max
    levels, _ = sizing.curve(c, ch, ch.per_replica, ch.checked)
    return max(1, min(ch.c_max, _highest_level_within_slo(c, levels) or ch.per_replica))


def _highest_level_within_slo(c: Ctx, levels: Any) -> int | None:
    """The highest predicted concurrency whose TTFT and TPOT p99 both meet the target, below the first that
    misses (a level past a miss is not claimed); None when even the lowest misses."""
    best = None
    for lv in sorted(levels, key=lambda x: x.concurrency or 0):
        ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
        ok = (c.ttft_slo_ms is None or (ttft is not None and ttft <= c.ttft_slo_ms)) and (
            c.tpot_slo_ms is None or (tpot is not None and tpot <= c.tpot_slo_ms))
        if not ok:
            break
        best = lv.concurrency
    return best
