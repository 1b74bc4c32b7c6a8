"""One replica more on the team's own cards where the plan's replicas cannot ride out a failure (``spare_policy``,
rule 5; round 14 of the blind review).

The plan lays its replicas on the fleet's *free* cards: the count × (1 − the measured utilisation), rounded down
(``fleet.free_gpus``). That measurement is a fleet average, not a list of busy cards: 20 % of 16 Ascend 910B is
about three cards' worth of other work, which may sit on three cards or be spread thin over all of them. So where
the replicas the free estimate holds leave the peak short with one down, and the fleet's remaining cards hold one
more replica that would carry it, the plan recommends that replica and names the condition (the other work moved
off those cards) instead of leaving it unsaid (q08: "the memo should add a 4th replica on the remaining 4 cards,
or state plainly that the peak is not covered on a failure") or offering it as an option (q33: "the obvious plan
is 4 replicas, 2 per box, on the idle cards; the memo floats this only as an option").

Not for a fleet whose load is this service's own (all of it serves already) nor a batch.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import capacity_probe, sizing
from advisor.plan.capacity import claimed_capacity
from advisor.plan.fleet_spread import server_left


def cards_text(n: float) -> str:
    """A share of the fleet in cards, to one decimal (``0.8``, ``3.2``, ``3``): the measured load as cards' worth."""
    return f"{n:.1f}".rstrip("0").rstrip(".")


def carried_by(c: Any, ch: Any, serving: int) -> int:
    """Requests of the peak that ``serving`` replicas of ``ch`` carry together within the target and within the
    most one replica takes (``claimed_capacity``, the serve command's --max-num-seqs): the whole peak where each
    one's share is within both, else the cap × the replicas (the rest wait for a seat)."""
    if serving < 1 or not c.peak:
        return 0
    share = math.ceil(c.peak / serving - 1e-9)
    cap = claimed_capacity(c, ch)
    if share <= cap and capacity_probe.meets(c, sizing.levels_at(c, ch, [share])[0]):
        return int(c.peak)
    return min(int(c.peak), cap * serving)


def one_more(c: Any, ch: Any, fleet_count: int) -> dict[str, Any] | None:
    """{"next": replicas with one more, "cards": its cards, "total": the cards then taken, "count": the fleet,
    "left": replicas with one down then, "carried": what they carry, "peak", "busy": the measured utilisation in %,
    "busy_cards": that share of the fleet in cards} where the plan's replicas with one down keep less than the peak,
    the fleet has the cards for one more and with it one replica down leaves the peak carried; None otherwise."""
    lay = getattr(ch, "layout", None)
    if lay is None or c.is_batch or not c.peak or lay.replicas < 1:
        return None
    replicas, tp = lay.replicas, lay.tp
    replica_short = carried_by(c, ch, replicas - 1) < c.peak
    # a whole server down too (session 28, q08: once the claim reached the load with one replica down, 3 × TP4 on
    # 8 + 4 cards rode out a replica but a server down still left 1 of 3, and the 4th replica the reviewers asked
    # for, 2 + 2 on the two servers, was no longer recommended)
    now = server_left(replicas, tp, fleet_count)
    server_short = now is not None and carried_by(c, ch, now) < c.peak
    if (replicas + 1) * tp > fleet_count or not (replica_short or server_short):
        return None
    if carried_by(c, ch, replicas) < c.peak:
        return None  # one more would not ride it out either: the sizing says what the fleet lacks
    after = server_left(replicas + 1, tp, fleet_count)
    if not replica_short and (now is None or after is None or carried_by(c, ch, after) <= carried_by(c, ch, now)):
        return None  # a server down would leave no more carried with it
    busy = c.utilisation or 0.0
    return {"next": replicas + 1, "cards": tp, "total": (replicas + 1) * tp, "count": fleet_count,
            "left": replicas, "peak": int(c.peak), "busy": round(100 * busy),
            "busy_cards": cards_text(fleet_count * busy), "carried": carried_by(c, ch, replicas),
            "server_only": not replica_short, "left_now": now, "replicas_now": replicas}


def replica_n1(c: Any, ch: Any) -> bool:
    """Whether the plan rides out one replica failing: an N+1 spare, or replicas sized with headroom whose others
    still carry the peak within the target (s36-fleet38, review 27, q08 zh: the placement said "没有备用副本" where
    the layout section said the other 2 of 3 carry the peak with one down; N+1 is said at replica level)."""
    lay = getattr(ch, "layout", None)
    if lay is None:
        return False
    if lay.spare_units > 0:
        return True
    return bool(not c.is_batch and c.peak and lay.replicas >= 2 and carried_by(c, ch, lay.replicas - 1) >= c.peak)


__all__ = ["cards_text", "carried_by", "one_more", "replica_n1"]
