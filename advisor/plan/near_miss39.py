"""A setup that misses the TTFT target by less than the predictor's error, priced (blind review 28, q40).

q40 (a 72B at a ¥5,000 budget): the 4-bit row said "no cheaper than the plan as asked" with no figure, though its
TP2 setup missed the 2,000 ms target only at 2,176 ms, and "more budget" priced TP4 because TP2 missed at 2,183 ms
(9 %), both inside the predictor's median error at one request. The rule: where the nearest setup misses the TTFT
target even for one request, the target relaxed to that miss (rounded up to 100 ms) is re-planned on the same
cost path as every fix (``cost_range``), and its cost is said with the relaxation in per cent; where the miss is
within the predictor's median TTFT error at one request (``advisor.sizing.accuracy``: held-out public runs), the
memo says to measure that setup first. Nothing where the relaxed setup is no cheaper."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

STEP_MS = 100  # the relaxed target, the miss rounded up to this
TRIES = 4  # and up by as many steps where the planned load needs it (a miss at one request of 2,176 ms: to 2,500)


def median_error() -> float | None:
    """The predictor's median TTFT error at one request (0.14: 14 %), or None where none is on record."""
    from advisor.sizing.accuracy import predictor_accuracy

    acc = predictor_accuracy()
    at = acc.at_load("concurrency_1") if acc is not None else None
    return float(at.ttft.median) if at is not None else None


def priced(c: Any, cost_range, missed_ms: float, *, below: float | None = None,
           gpu_ids: list[str] | None = None, tp: int | None = None) -> dict[str, Any] | None:
    """{"relaxed", "pct", "miss", "err", "within", "low", "high", "tp", "gpu"} for the target relaxed to
    ``missed_ms`` (on ``gpu_ids`` where given, and only where the setup found runs ``tp`` a replica where given),
    or None where there is no target, no miss, no price, or it costs no less than ``below``."""
    target = c.ttft_slo_ms
    if not target or missed_ms <= target:
        return None
    relaxed = int(math.ceil(missed_ms / STEP_MS) * STEP_MS)
    cand = low = high = None
    for _ in range(TRIES):  # the P99 at the planned load sits a little above the one-request figure: step up
        ctx2 = dataclasses.replace(c, ttft_slo_ms=float(relaxed), gpu_constraint=gpu_ids or c.gpu_constraint)
        cand, low, high = cost_range(ctx2)
        if cand is not None and low is not None and (below is None or low < below) and tp in (None, cand.tp):
            break
        relaxed += STEP_MS
    if cand is None or low is None or high is None or (tp is not None and cand.tp != tp):
        return None
    if below is not None and low >= below:
        return None
    err = median_error()
    miss = (missed_ms / target - 1) * 100
    return {"relaxed": f"{relaxed:,}", "pct": f"{math.ceil((relaxed / target - 1) * 100):.0f}",
            "miss": f"{max(1, round(miss)):.0f}", "err": f"{err * 100:.0f}" if err is not None else "",
            "within": err is not None and miss <= err * 100, "err_frac": err, "low": round(low), "high": round(high),
            "tp": cand.tp, "gpu": cand.gpu.name}


def fewer_tp_miss(c: Any, near: list[Any], chosen: Any) -> Any | None:
    """The setup on ``chosen``'s GPU and weights that misses the TTFT target even for one request with fewer cards a
    replica than the plan runs (q40's TP2 beside the plan's TP4): ``chosen`` itself where it misses (the engine's
    nearest setup, which the layout search then gives more cards), else the screened one with the next fewer cards;
    None otherwise."""
    if chosen is None or not c.ttft_slo_ms:
        return None
    if chosen.best_ttft_ms > c.ttft_slo_ms:  # the plan's nearest setup is that one (the layout search adds cards)
        return chosen
    fewer = [k for k in near if k.gpu.id == chosen.gpu.id and k.weights == chosen.weights and k.tp < chosen.tp]
    k = max(fewer, key=lambda x: x.tp, default=None)
    return k if k is not None and k.best_ttft_ms > c.ttft_slo_ms else None


__all__ = ["fewer_tp_miss", "median_error", "priced"]
