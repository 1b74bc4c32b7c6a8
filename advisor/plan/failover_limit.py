"""A failover at the limit: the replicas left with a whole server down carry the peak, but fewer of them than the
plan sizes to carry it with its headroom, so each runs at or near the most it takes (the serve command's
--max-num-seqs) with nothing to spare. Blind review 22, q08: "'3 个副本承载峰值，余量 60%' but elsewhere '峰值所需 2
个' and 'server down leaves 2 of 4, 100 % of peak'. With max-num-seqs 16, two replicas only just hold 30 with no
headroom, so the failure case is at the limit (TPOT ~79 ms), not comfortably met." The sentences that say what a
server down leaves name the limit and its predicted latency, against the one count that carries the peak."""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import capacity_probe, sizing
from advisor.plan.capacity import claimed_capacity, serving_replicas


def at_limit(c: Any, ch: Any, left: int) -> dict[str, Any] | None:
    """{"left", "serving", "share", "cap", "ttft", "tpot", "ttft_slo", "tpot_slo"} where ``left`` replicas carry the
    whole peak within the target and the cap, but are fewer than the replicas sized to carry it with the headroom
    (``serving_replicas``); None otherwise (they are as many, or they fall short: said as short elsewhere)."""
    serving = serving_replicas(ch)
    if left < 1 or left >= serving or not c.peak:
        return None
    share = math.ceil(c.peak / left - 1e-9)
    cap = claimed_capacity(c, ch)
    lv = sizing.levels_at(c, ch, [share])[0]
    if share > cap or not capacity_probe.meets(c, lv) or lv.tpot_ms.p99 is None or lv.ttft_ms.p99 is None:
        return None
    return {"left": left, "serving": serving, "share": share, "cap": cap, "peak": int(c.peak),
            "ttft": round(float(lv.ttft_ms.p99)), "tpot": round(float(lv.tpot_ms.p99), 1),
            "ttft_slo": float(c.ttft_slo_ms or 0), "tpot_slo": float(c.tpot_slo_ms or 0)}


__all__ = ["at_limit"]
