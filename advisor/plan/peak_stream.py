"""Output tokens/s the peak's users draw, never more than the planned setup streams at that load (issue 25,
s20-costtoken20).

Ninth blind review, q14: the sizing table said the setup serves 818 tokens/s while the 30 users at the peak draw
842 tokens/s: a setup below its own demand. The 842 was the cautious figure, every user receiving tokens at the
steady decode speed all the time (the p99 TPOT ÷ its p99 factor); but a request in flight also spends time in
prefill and waiting for its first token, and the plan's own prediction at that load (the level at the planned load
per replica, already simulated when the setup was checked) streams less. Where it does, the users draw what the
prediction streams: the peak × that level's output tokens/s ÷ its concurrency, which with every replica at the
planned load is exactly the setup's stated throughput. The line's bandwidth and the month's volume both read this
one figure (``burst.peak_rate``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.sizing import P99_TPOT


def steady_rate(c: Ctx, cand: Any) -> float | None:
    """Every user at the steady per-user speed (the cautious figure); None where the setup has no TPOT."""
    tpot_ms = getattr(cand, "tpot_p99_ms", None)
    if not tpot_ms or tpot_ms <= 0:
        return None
    return c.peak * 1000.0 / max(tpot_ms / P99_TPOT, 1e-3)


def simulated_rate(c: Ctx, cand: Any) -> float | None:
    """The peak × the output tokens/s a request gets at the planned load per replica on the plan's predicted curve
    (a level the check already simulated); None where that level is not simulated (a setup only screened)."""
    per = int(getattr(cand, "per_replica", 0) or 0)
    lv = (getattr(cand, "checked", None) or {}).get(per) if per > 0 else None
    if lv is None or not lv.output_tokens_per_s:
        return None
    return c.peak * float(lv.output_tokens_per_s) / per


def peak_rate(c: Ctx, cand: Any) -> float:
    """Output tokens/s streamed at the peak: the cautious figure, or the prediction at the planned load where that
    streams less (see the module's note); a setup with no TPOT: its replicas' capacity."""
    steady = steady_rate(c, cand)
    if steady is None:
        return float(getattr(cand, "tokens_per_s_replica", 0.0) * getattr(cand, "replicas", 0))
    sim = simulated_rate(c, cand)
    return steady if sim is None else min(steady, sim)


def simulated_below(c: Ctx, cand: Any) -> bool:
    """The prediction at the planned load streams less than the cautious figure (the memo says which it used)."""
    steady, sim = steady_rate(c, cand), simulated_rate(c, cand)
    return steady is not None and sim is not None and sim < steady


__all__ = ["peak_rate", "simulated_below", "simulated_rate", "steady_rate"]
