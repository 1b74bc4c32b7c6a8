"""The hybrid split on the plan's own predicted curve: how many replicas the owned base needs.

The base carries the steady load — from requests a day by Little's law when given, else the peak ÷ the load
pattern's peak-to-average factor (``advisor.plan.burst.steady``, one definition the memo quotes too) — at
the concurrency one replica takes within the target on the plan's predicted curve (the level the memo claims and
the engine is capped at, ``capacity.claimed_capacity``); the rented burst carries the peak minus what the base
carries. It used to be the peak's replicas ÷ the factor, which rounds a replica's capacity away: a replica that
takes 40 users within the target carries a steady 50 on two, whatever the peak's replica count.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from advisor.plan.burst import steady_concurrency
from advisor.plan.capacity import claimed_capacity
from advisor.plan.context import Ctx

if TYPE_CHECKING:
    from advisor.plan.sizing import Candidate


def replica_capacity(c: Ctx, cand: Candidate) -> int:
    """Concurrency one replica takes within the target, from the plan's predicted curve."""
    # the engine's claim, one definition
    return max(1, claimed_capacity(c, cand))


def base_replicas(c: Ctx, cand: Candidate) -> int:
    """Replicas the owned base needs for the steady load; at least one, and at most all but one of the replicas
    the peak needs (the burst keeps one, else there is nothing to rent)."""
    lay = getattr(cand, "layout", None)
    peak_replicas = int(lay.load_replicas) if lay is not None else cand.replicas
    need = math.ceil(steady_concurrency(c) / replica_capacity(c, cand))
    return max(1, min(max(1, peak_replicas - 1), need))


__all__ = ["base_replicas", "replica_capacity", "steady_concurrency"]
