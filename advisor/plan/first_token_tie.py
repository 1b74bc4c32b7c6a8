"""On as many GPUs at the same cost, a lower precision the answers accept is kept for the first token where the
higher one's does not keep to a tight target the answers set (issue 25, blind review round 10).

The layout search keeps the better precision on a tie (``layout_search._precision``). Round 10 read that as wrong
where the target is tight: q43 (mainland users on a Hong Kong node, 150 ms to the first token) kept BF16 at a
predicted P99 TTFT of 127 ms, 172 ms with the 45 ms round trip and 185 ms with one replica down, where FP8 on the
same L40S gives 94 ms; q09 (an EU voice agent, 300 ms) kept BF16 at 209 ms where FP8 gives 166 ms. Session 20's
tie-break by first-token speed under any target below a second (reverted) changed every such tie; this one acts
only where the higher precision's first token is at risk, as an engineer would read the figures:

- **breaks**: its predicted P99 TTFT, at the peak or with one replica down (``failover_budget``), plus the slowest
  round trip the plan adds for the region (``round_trip_ms``), is over the target;
- **near**: it meets the target on the prediction, but the predictor's typical TTFT error at that load (the
  held-out median, ``advisor.sizing.accuracy``: 45 % at 2–16 requests, 54 % at 17 and up) would take it past;

and the lower precision's figures, with the same round trip, meet the target and are faster. Both meet it with that
room: the better precision is kept, as before. The memo says why with both figures (``first_token_reason.why``), and the plan's
quality check against the higher precision stays a step before launch (``sizing.quantized``).
"""

from __future__ import annotations

from typing import Literal

from advisor.plan import sizing
from advisor.plan.capacity import one_down_load
from advisor.plan.context import Ctx
from advisor.plan.data import facts
from advisor.plan.failover_budget import failover_ttft
from advisor.plan.first_token_reason import FirstTokenTie
from advisor.plan.latency_place import ttft_target_given
from advisor.plan.sizing import Candidate
from advisor.sizing.accuracy import load_of, predictor_accuracy
from advisor.sizing.quant import get_format


def round_trip_ms(c: Ctx, region: str) -> int:
    """The slowest round trip on file between the users and the node, which every first token pays: mainland users
    on a node whose round trip from the mainland is on file (facts ``rtt_ms``, the same figure
    ``region.latency_budget`` counts); 0 where none is (users on the node's own continent)."""
    rtt = facts()["rtt_ms"].get(region)
    return int(rtt["high"]) if rtt is not None and c.has_mainland_users else 0


def _figures(c: Ctx, k: Candidate) -> tuple[float, float | None] | None:
    """(P99 TTFT at the peak's load per replica, with one replica down or None), predicted; None without a figure."""
    p99 = sizing.levels_at(c, k, [k.per_replica])[0].ttft_ms.p99
    if p99 is None:
        return None
    down = failover_ttft(c, k)
    return float(p99), (down[1] if down is not None and down[0] != k.per_replica else None)


def _error(load: int) -> float:
    """The predictor's held-out median TTFT error at ``load`` requests a replica (its overall figure where none is
    filed at that load; 0 where no accuracy file is on record)."""
    acc = predictor_accuracy()
    if acc is None:
        return 0.0
    at = acc.at_load(load_of(load))
    return float((at or acc).ttft.median)


def decide(c: Ctx, lower: Candidate, higher: Candidate, rtt: int) -> FirstTokenTie | None:
    """The tie on as many GPUs decided for ``lower`` (fewer bits) by the first token, or None where the better
    precision keeps it (no tight target the answers set, both with room, or the lower one no faster)."""
    slo = ttft_target_given(c)
    if slo is None or get_format(lower.weights).bits >= get_format(higher.weights).bits:
        return None
    hi, lo = _figures(c, higher), _figures(c, lower)
    if hi is None or lo is None:
        return None
    hi_worst = max(x for x in hi if x is not None)
    lo_worst = max(x for x in lo if x is not None)
    if lo_worst + rtt > slo or lo_worst >= hi_worst:
        return None
    verdict: Literal["breaks", "near"]
    error = None
    if hi_worst + rtt > slo:
        verdict = "breaks"
    else:
        load = (one_down_load(c, higher) or higher.per_replica) if hi[1] is not None and hi[1] >= hi[0] \
            else higher.per_replica
        error = _error(load)
        if hi_worst * (1 + error) + rtt <= slo:
            return None
        verdict = "near"
    return FirstTokenTie(verdict=verdict, slo_ms=float(slo), rtt_ms=rtt, higher=higher.weights, lower=lower.weights,
                         tp=lower.tp, higher_ttft_ms=round(hi[0], 1), lower_ttft_ms=round(lo[0], 1),
                         higher_down_ms=None if hi[1] is None else round(hi[1], 1),
                         lower_down_ms=None if lo[1] is None else round(lo[1], 1),
                         error=None if error is None else round(error, 4))


def holds(t: FirstTokenTie | None, chosen: Candidate | None) -> FirstTokenTie | None:
    """The tie where the plan still runs the setup it was decided for (not bought or re-laid on another one)."""
    if t is None or chosen is None or (chosen.weights, chosen.tp) != (t.lower, t.tp):
        return None
    return t


__all__ = ["FirstTokenTie", "decide", "holds", "round_trip_ms"]
