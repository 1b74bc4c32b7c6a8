"""Latency percentiles made non-decreasing in concurrency across the levels of one predicted curve.

In a closed loop more concurrent requests never make the first token come sooner, nor each token come faster: every
engine step only grows with the batch. A level whose TTFT or TPOT percentile lies below a lower level's is the noise
of a short simulated sample (at low concurrency a level measures 8-20 requests, so its p99 is their maximum and
swings with whichever requests happened to overlap a long prefill: q11 printed TPOT p99 53.9 ms at 5 per replica,
42.4 ms at 6). It is raised to the lower level's value: a running maximum, never lowered, so a claim read off the
curve is never better than a lower level's sample.

One function for every reader: the plan's levels (``advisor.plan.sizing.levels_at``: the memo table, the chart, the
claimed capacity and ``--max-num-seqs``) and the Sizing page's curve (``advisor.sizing_curve``).
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.domain.sim import LevelPrediction, Percentiles

# the percentiles a level's latency rows print or a claim tests; the mean stays the sample's own
_RAISED = ("p50", "p90", "p95", "p99")
_SERIES = ("ttft_ms", "tpot_ms")


def _raise(p: Percentiles, floor: dict[str, float]) -> Percentiles | None:
    """``p`` with each percentile raised to ``floor`` (None when nothing changes); updates ``floor``."""
    update: dict[str, float] = {}
    for name in _RAISED:
        v = getattr(p, name)
        if v is None:
            continue
        if v < floor.get(name, 0.0):
            update[name] = floor[name]
        else:
            floor[name] = v
    return p.model_copy(update=update) if update else None


def monotone_latency(points: Sequence[LevelPrediction]) -> list[LevelPrediction]:
    """``points`` (sorted by concurrency) with TTFT and TPOT p50/p90/p95/p99 made non-decreasing (a running maximum).
    Levels that need no raising are returned as they are (the same objects)."""
    floors: dict[str, dict[str, float]] = {s: {} for s in _SERIES}
    out: list[LevelPrediction] = []
    for lv in points:
        update = {s: raised for s in _SERIES if (raised := _raise(getattr(lv, s), floors[s])) is not None}
        out.append(lv.model_copy(update=update) if update else lv)
    return out


__all__ = ["monotone_latency"]
