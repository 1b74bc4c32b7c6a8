"""The latency budget at failover: the first token with one replica down plus the slowest round trip, against the
TTFT target (issue 25, s20-costtoken20).

Ninth blind review, q43: a Hong Kong node for mainland users had a 150 ms TTFT target; with one replica down the
other takes all 30 requests, its P99 TTFT 101 ms, and the slowest premium-line round trip is 45 ms: 146 ms of 150,
with no room for a reconnect's handshake. The memo said the planned load's 94 ms "fits". A budget within 5 % of
the target (or over it) is a risk, said with its figures; the load with the spare down is the plan's own level
(``capacity.one_down_load``, simulated when the claim was checked).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.plan.capacity import one_down_load

MARGIN = 0.05  # a budget within 5 % of the target leaves no room for a reconnect or a slower route


def failover_ttft(c: Any, ch: Any) -> tuple[int, float] | None:
    """(requests per replica with the spare down, their P99 TTFT ms) on the plan's predicted curve; None without
    a spare or a prediction."""
    if ch is None or not getattr(ch, "checked", None):
        return None
    n = one_down_load(c, ch)
    if not n:
        return None
    lv = sizing.levels_at(c, ch, [n])[0]
    return (n, float(lv.ttft_ms.p99)) if lv.ttft_ms.p99 is not None else None


def tight_clause(c: Any, ch: Any, slo: float, rtt_high: int, planned_ttft: float | None) -> dict[str, Any] | None:
    """The risk said with its figures where the worst round trip + the first token (planned load, or one replica
    down where that is slower) comes within ``MARGIN`` of ``slo`` or over it; None where there is room."""
    down = failover_ttft(c, ch)
    cases = []
    if planned_ttft is not None:
        cases.append(("planned", 0, planned_ttft))
    if down is not None:
        cases.append(("failover", down[0], down[1]))
    if not cases:
        return None
    kind, load, ttft = max(cases, key=lambda x: x[2])
    total = ttft + rtt_high
    if total < (1 - MARGIN) * slo:
        return None
    return {"tr": f"costtoken20.latency.tight_{kind}", "load": load, "ttft": round(ttft), "rtt": rtt_high,
            "total": round(total), "slo": round(slo), "pct": round(100 * total / slo)}


__all__ = ["MARGIN", "failover_ttft", "tight_clause"]
