"""What the replicas left with a whole server down carry, said in requests of the peak (issue 25, blind review 23).

The memo used to say a server down "leaves 2 of 4 replicas, 67 % of the 3 the peak needs without headroom" (q04),
and "100 % of the 2 the peak needs" beside "3 replicas carry the peak, 60 % headroom" (q08): a second count of the
replicas the peak needs, and a share of replicas that is not a share of the load (2 replicas of 16 seats each hold
32 of q04's 40 requests, 80 %, not 67 %). Reviewers read both as contradictions. The server loss is said once, in
the one unit the peak is given in: the requests the replicas left carry within the target and the serve command's
cap (``fleet_next_replica.carried_by``), against the peak's."""

from __future__ import annotations

from typing import Any

from advisor.plan.fleet_next_replica import carried_by


def carry_words(c: Any, ch: Any, left: int) -> dict[str, Any]:
    """``{"tr": ...}`` for what ``left`` replicas of ``ch`` carry of the peak of ``c``: all of it, or the requests
    they hold at once of the peak's (the rest wait for a seat)."""
    peak = int(c.peak or 0)
    carried = carried_by(c, ch, left)
    if carried >= peak:
        return {"tr": "numbers2_34.carry.all", "peak": peak, "left": left}
    return {"tr": "numbers2_34.carry.part", "carried": carried, "peak": peak, "left": left}


__all__ = ["carry_words"]
