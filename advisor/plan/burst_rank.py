"""The share of a rented setup's hourly cost its month bills on a bursty load, for the GPU ranking (s31-burst32).

The ranking (``gpu_choice.rank_key``) compared the hourly cost of every GPU of a setup. On a bursty load the cost
bills no such thing: the replicas that run between bursts every hour (the steady load's and the N+1 spare, in whole
units on sale) and the rest for the bursts' share of the hours, or the always-on floor at the monthly/reserved price
with the bursts on demand (``cost.compute``, ``reserved_floor``), whichever costs less. A part the cloud sells only
through its sales (``warm_floor``: the H20) runs every GPU all month at the monthly price. Ranking on the hourly
cost picked 3 × H20 at 39.82 CNY/h over 6 × A10 at 58.44 (q36), and then billed the H20s all month: 11,759–34,308
CNY a month where the A10s, started for the event days only, cost 11,073–18,720. Where the setups ranked together
are billed in both ways (``mixed``), the ranking compares each setup's hourly cost × this share: what its month
bills, at the same rules the cost row uses.

Other loads keep the hourly cost (a steady load bills every GPU every hour; a daily peak's scaled hours with a
sales-only part beside hourly ones are left for a later change: weighed as here, q07/q19/q42 turn from 3 × H20 to
4 × L20 on a 3 % margin, the H20's month at the top of its placeholder range against the L20's scaled month, a
change of choice many tests pin; s32-salesonly33 left it to the lead).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burst, warm_floor
from advisor.plan.context import Ctx
from advisor.plan.data import factor_range
from advisor.plan.instance_on_request import listed_on_request


def mixed(c: Ctx, cands: list[Any]) -> bool:
    """The setups ranked together are billed in different ways on this load: a bursty load (not a batch job) with
    both a part the cloud sells only through its sales (every GPU all month) and one it rents by the hour. Only then
    does the ranking weigh the billed share (``billed_share``): between parts rented by the hour alike the hourly
    cost keeps ranking them (their floors in whole units differ too; weighing those is left for a later change, as
    it reorders the options named beside q23's L40S with no change of GPU)."""
    if c.load != "bursty" or c.is_batch:
        return False
    kinds = {listed_on_request(str(k.gpu.id)) for k in cands}
    return kinds == {True, False}


def billed_share(c: Ctx, cand: Any) -> float:
    """The month's bill ÷ every GPU of ``cand`` all month on demand, under its cheaper basis (on demand scaled to the
    bursts, every GPU at the monthly price, or the floor at the monthly price and the bursts on demand); 1.0 for a
    load that is not bursty, a batch job, or a setup laid out to buy."""
    lay = getattr(cand, "layout", None)
    if c.load != "bursty" or c.is_batch or lay is None or lay.owned or cand.total_gpus <= 0:
        return 1.0
    floor = floor_gpus(c, cand)
    total = cand.total_gpus
    billed = floor + (total - floor) * c.burst_share
    m_lo, m_hi = factor_range("monthly_factor")
    monthly = (m_lo + m_hi) / 2
    return min(billed, monthly * total, floor * monthly + (billed - floor)) / total


def floor_gpus(c: Ctx, cand: Any) -> int:
    """The GPUs ``cand`` keeps on all month on a bursty load (``warm_floor``: the steady load's replicas and the spare
    in whole units on sale; every GPU of a part sold only through the cloud's sales)."""
    # the screen's concurrency per replica, not the predicted curve's (``capacity.claimed_capacity``, one simulation
    # per setup): the steady load between bursts is small beside it, so both give the same replicas kept on
    return warm_floor.warm(cand, burst.warm_replicas(c, cand, max(1, cand.c_max)), spare_counted=True).gpus


def passed_over(c: Ctx, chosen: Any, after: list[Any], conv: float) -> dict[str, Any] | None:
    """The setup a sales-only part would have given, cheaper by the hour, passed over for ``chosen`` that bursts
    (``GpuChoice.all_month``): each one's hourly cost and what its month bills on average an hour, in the answers'
    currency; None where no such setup was ranked after ``chosen``."""
    if not mixed(c, [chosen, *after]) or listed_on_request(str(chosen.gpu.id)):
        return None
    mine = chosen.price_mid * chosen.total_gpus
    k = next((k for k in after if listed_on_request(str(k.gpu.id)) and k.price_mid * k.total_gpus < mine), None)
    if k is None:
        return None
    theirs = k.price_mid * k.total_gpus
    if theirs * billed_share(c, k) < mine * billed_share(c, chosen):
        return None  # its month bills less at its middle price: its placeholder set it aside, not its month
    return {"gpu": str(k.gpu.id), "gpu_name": k.gpu.name, "gpus": k.total_gpus, "chosen_gpus": chosen.total_gpus,
            "floor": floor_gpus(c, chosen), "per_hour": round(theirs * conv, 2), "chosen_per_hour": round(mine * conv, 2),
            "billed": round(theirs * billed_share(c, k) * conv, 2),
            "chosen_billed": round(mine * billed_share(c, chosen) * conv, 2)}


__all__ = ["billed_share", "floor_gpus", "mixed", "passed_over"]
