"""The latency table's flat runs, said for what they are (issue 25, seventh blind review, s18-agree).

Each level of the predicted curve times a sample of requests (at most ``sizing.MAX_MEASURED``), so its P99 is the
slowest one or two of them, and the curve is made non-decreasing in concurrency (``advisor.sim.monotone``: a
running maximum over every level simulated, those the table does not show included). A P99 that one slow sample
set at a lower level is then carried into every column after it: q23 read "the P99 TTFT row stays flat at 214 ms
from 22 to 44 concurrent, which looks like a simulator artifact" (214 ms was one sample at 12 concurrent; 22 to 44
measured 115–165 ms), q34 "jumps oddly from 840 to 1,301 ms". The table stays as the plan sized on it (the carried
figure is the cautious one); the sentence below it says how to read such a run.
"""

from __future__ import annotations

from collections.abc import Callable

from advisor.plan.result import PlanResult
from advisor.plan.sizing import MAX_MEASURED


def _flat(values: list[float | None]) -> bool:
    """Two neighbouring columns with the same P99 to the 0.1 ms the table shows: a carried figure (two simulated
    levels never land on the same tenth of a millisecond)."""
    shown = [None if v is None else round(v, 1) for v in values]
    return any(a is not None and a == b for a, b in zip(shown, shown[1:], strict=False))


def carried_sentence(result: PlanResult, t: Callable[..., str]) -> str:
    """How to read a flat P99 run in the latency table; "" when the table has none."""
    curve = result.latency_curve
    if curve is None or len(curve.points) < 2:
        return ""
    pts = curve.points
    ttft = _flat([p.ttft_p99_ms for p in pts])
    if not (ttft or _flat([p.tpot_p99_ms for p in pts])):
        return ""
    # s21-replica21 (round 10: q07 "998 ms for concurrency 25 to 80 reads as a modelling artefact", q20 559 ms): a
    # repeated first-token P99 is said with what sets it (memo_curve_reading)
    return t("replica21.latency.carried_ttft" if ttft else "agree18.latency.carried", count=MAX_MEASURED)


__all__ = ["carried_sentence"]
