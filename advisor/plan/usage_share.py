"""The one usage figure every cost of a setup is at (issue 25, blind review 15: q01, q11, q24 and most memos).

The memos estimated the month's tokens at about 1-2 % of the setup's capacity, then priced the power, the payback and
the cost per million tokens at the load pattern's assumed 40 % busy (70 % for a steady load), and q11's month of
tokens was itself read from that 40 %, so its per-token cost was circular. Now the share comes from the plan's own
month of tokens (``burst.volume``: the user's count where answered, else the plan's estimate with its range) over
what the setup serves fully busy (the sizing's output tokens/s of every replica around the clock), or the service's
measured duty where the user gave one. The power is that share busy plus the idle draw the rest of the hours, a range
from the estimate's low to its high end; the per-million figure divides the month's cost by those tokens, with the
figure at full use beside it as the floor. The payback of a purchase against a flat rent does not depend on it
(``cost.against_rent``): the rent is billed by the hour whether the GPUs are busy or not.

The load pattern's share still decides whether owning is worth weighing at all (``fleet.OWN_MIN_UTILISATION``): it
says how many hours a day the service is wanted, which the month's tokens do not.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burst
from advisor.plan.context import Ctx

HOURS_PER_MONTH = 730.0  # cost.HOURS_PER_MONTH (cost imports this module)


def full_tokens(cand: Any) -> float:
    """Output tokens a month ``cand`` serves with every replica at its planned load around the clock."""
    # a part laid out without a sizing (a purchase ranked by its price alone) has no throughput: 0, unknown
    return float(getattr(cand, "tokens_per_s_replica", 0) or 0) * int(getattr(cand, "replicas", 0) or 0) * 3600 * \
        HOURS_PER_MONTH


def of(c: Ctx, cand: Any) -> tuple[float, float] | None:
    """(expected, high) share of ``cand``'s capacity the month's tokens fill (the high end of an estimated volume's
    range, else the same share twice); the measured duty twice where the user gave one; None for a batch job or
    where neither the tokens nor the capacity are known (the caller then keeps the load pattern's share, said as
    an assumption)."""
    if c.is_batch:
        return None
    if c.duty_measured:
        return c.utilisation, c.utilisation
    full = full_tokens(cand)
    if full <= 0:
        return None
    vol = burst.volume(c, burst.peak_rate(c, cand))
    if vol.output_tokens <= 0:
        return None
    low = min(1.0, vol.output_tokens / full)
    high = min(1.0, (vol.output_high or vol.output_tokens) / full)
    return low, max(low, high)


def carried(c: Ctx, cand: Any, gpus: int) -> tuple[float, float] | None:
    """The share ``gpus`` of ``cand``'s GPUs are busy carrying the month's tokens (a hybrid's owned base, which
    carries the steady load while the rented part takes the peaks): ``of`` over their part of the capacity."""
    share = of(c, cand)
    total = int(getattr(cand, "total_gpus", 0) or 0)
    if share is None or c.duty_measured or gpus <= 0 or total <= 0:
        return share
    return min(1.0, share[0] * total / gpus), min(1.0, share[1] * total / gpus)


__all__ = ["HOURS_PER_MONTH", "carried", "full_tokens", "of"]
