"""The rack a fleet already pays for, kept out of what running the service on it costs (s21-costbasis21, issue 25).

Round 10, q18 (32 owned H100 in colocation, 14 of them used): the running cost counted the colocation of the 14
cards as if this service added it, "overstating the marginal cost" while the servers stand racked for the fleet's
other work anyway. Where the fleet carries other work (not this service's own load, which the team could move to
the cloud and stop paying racks for) and stands in colocation, the colocation of the fleet's GPUs the plan runs is
said as already paid and left out of the running cost; the cards' power, which this service adds, stays in, and so
does the colocation of any GPUs bought for it.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.plan.forms import Owned
from advisor.plan.result import MoneyRange


def without_paid_colo(running: Owned, fleet_gpus: int, other_work: bool, conv: float, ops: str) -> Owned:
    """``running`` (USD ranges, ``cost`` in the answers' money) less the colocation of its ``fleet_gpus`` racked
    fleet GPUs where ``other_work`` keeps them racked; unchanged in the team's own server room or where nothing of
    the fleet runs."""
    o = running.cost
    if running.office or not other_work or fleet_gpus <= 0 or o.colo_monthly is None or o.gpus_owned <= 0:
        return running
    share = min(1.0, fleet_gpus / o.gpus_owned)
    paid = (o.colo_monthly.low * share, o.colo_monthly.high * share)  # answers' money
    paid_usd = (paid[0] / conv, paid[1] / conv)
    base = (running.running_base[0] - paid_usd[0], running.running_base[1] - paid_usd[1])
    left = (o.colo_monthly.low - paid[0], o.colo_monthly.high - paid[1])
    out = replace(running, running_base=base)
    run = out.running(ops)
    cost = o.model_copy(update={
        "colo_monthly": _mr(left) if left[1] > 0.005 else None,
        "colo_already_paid": _mr(paid),
        "running_monthly": _mr((run[0] * conv, run[1] * conv)),
    })
    return replace(out, cost=cost)


def _mr(r: tuple[float, float]) -> MoneyRange:
    return MoneyRange(low=round(r[0], 2), high=round(r[1], 2))


__all__ = ["without_paid_colo"]
