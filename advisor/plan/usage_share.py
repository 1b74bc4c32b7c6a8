"""The one usage figure every cost of a setup is at (issue 25, blind review 15: q01, q11, q24 and most memos).

The memos estimated the month's tokens at about 1-2 % of the setup's capacity, then priced the power, the payback and
the cost per million tokens at the load pattern's assumed 40 % busy (70 % for a steady load), and q11's month of
tokens was itself read from that 40 %, so its per-token cost was circular. Now the share comes from the plan's own
month of tokens (``burst.volume``: the user's count where answered, else the plan's estimate with its range) over
what the setup serves fully busy (the simulated output tokens/s the memo prints for each replica at its planned
load, every replica around the clock: ``rate_per_replica``), or the service's
measured duty where the user gave one. The power is that share busy plus the idle draw the rest of the hours, a range
from the estimate's low to its high end; the per-million figure divides the month's cost by those tokens, with the
figure at full use beside it as the floor. The payback of a purchase against a flat rent does not depend on it
(``cost.against_rent``): the rent is billed by the hour whether the GPUs are busy or not.

The decisions read the same figure (s26-usage26): whether owning is worth weighing at all (``fleet.OWN_MIN_UTILISATION``,
rule 15) is asked of the printed range's high end (``printed_high``), not of the load pattern's assumed share.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import burst
from advisor.plan.context import SCALED_HOURS, Ctx
from advisor.plan.sizing import P99_TPOT
from advisor.plan.volume_range import OFFICE_HOURS

HOURS_PER_MONTH = 730.0  # cost.HOURS_PER_MONTH (cost imports this module)


def planned_level(cand: Any) -> Any:
    """The predicted level at ``cand``'s planned load per replica (``cand.checked``: already simulated when the
    setup was checked), or None where the setup was only screened."""
    per = int(getattr(cand, "per_replica", 0) or 0)
    lv = (getattr(cand, "checked", None) or {}).get(per) if per > 0 else None
    return lv if lv is not None and (lv.output_tokens_per_s or 0) > 0 else None


def rate_per_replica(cand: Any) -> float:
    """Output tokens/s one replica serves at its planned load: what the share is a share of.

    Issue 25 (session 30): the share divided the month's tokens by the screen's analytic rate (every request
    decoding at the steady TPOT, no prefill, no wait, at the screen's load per replica: q08's 30 before replicas
    were added for the headroom, where the plan serves 10), while the memo prints the simulated rate at the planned load
    (sizing table, "What decides the size", the latency table): q08's 491 against 189.5 tokens/s a replica, so its
    "2 % of capacity used" was 6 % by the figures printed beside it. The simulated level at the planned load is the
    one read, not the analytic rate and not the highest level within the target (the serve command's cap): the plan
    serves at that level (its peak ÷ its replicas), the capacity above it is the headroom the plan holds back, and
    the rate it prints is that level's, so the printed rate × replicas × the hours is the share's denominator. For a
    steady load the peak is the load itself, so that level is also the one it runs at. The analytic rate only
    where no level was simulated (a setup only screened)."""
    lv = planned_level(cand)
    if lv is not None:
        return float(lv.output_tokens_per_s)
    # a part laid out without a sizing (a purchase ranked by its price alone) has no throughput: 0, unknown
    return float(getattr(cand, "tokens_per_s_replica", 0) or 0)


def full_tokens(cand: Any) -> float:
    """Output tokens a month ``cand`` serves with every replica at its planned load around the clock
    (``rate_per_replica`` × replicas × the month's hours)."""
    return rate_per_replica(cand) * int(getattr(cand, "replicas", 0) or 0) * 3600 * HOURS_PER_MONTH


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


def streams(cand: Any) -> float:
    """Requests a replica carries at once at its planned load (what its output tokens/s is the sum of): the simulated
    level's concurrency where ``rate_per_replica`` reads it (Little's law at that level: its tokens/s over one
    request's, prefill and waits included), else the analytic tokens/s over one stream's steady rate (sizing:
    ``per × 1000 / (tpot / P99_TPOT)``); 1 where that is not known."""
    if planned_level(cand) is not None:
        return float(max(1, int(getattr(cand, "per_replica", 1) or 1)))
    tpot = float(getattr(cand, "tpot_p99_ms", 0) or 0)
    rate = float(getattr(cand, "tokens_per_s_replica", 0) or 0)
    if tpot <= 0 or rate <= 0:
        return 1.0
    return max(1.0, rate / (1000 * P99_TPOT / tpot))


def draw_share(c: Ctx, cand: Any, share: tuple[float, float] | None) -> tuple[float, float] | None:
    """(low, high) share of the hours the GPUs draw their busy power, from ``share`` (``of`` or ``carried``): the
    month's tokens fill a share of the setup's capacity, which is how full its batches are, not how many hours its
    replicas run (s26-usage26: the power's high end was low). Low: every batch full (the hours are the share);
    high: the requests arriving at random, a replica busy whenever one is in flight. The high end's tokens keep
    ``L = share × streams`` requests in flight on a replica on average (Little's law: its tokens/s over one
    stream's rate), and with random (Poisson) arrivals the share of the hours it has at least one is 1 − e^(−L)
    whatever the lengths (the M/G/∞ queue's idle probability e^(−L)); never above L, each request alone. Those
    hours are costed at the node's rated full draw (``node_power_per_tdp``), itself an upper bound: an 8 × H100
    HGX node measured at most about 8.4 kW against its rated 10.2 kW, GPUs near full use (Latif et al., "Single-Node
    Power Demand During AI Training", IEEE Access 13, 2025). A measured duty is the hours already (nvidia-smi's
    utilisation: the share of time a kernel runs)."""
    if share is None or c.duty_measured:
        return share
    in_flight = share[1] * streams(cand)
    # a load busy by day and quiet at night has its requests in the day's hours (``day_hours``), not spread over the
    # clock: in flight at most those hours (review 23, q18: "average draw 65–100 % of full load around the clock"
    # beside "busy by day, quiet at night" and 30–36 % capacity use)
    day = day_hours(c)
    return share[0], max(share[0], min(1.0, day * -math.expm1(-in_flight / day)))


def day_hours(c: Ctx) -> float:
    """The share of the hours a load's requests arrive in: a daily peak's scaled hours (``SCALED_HOURS``, 55 %: busy
    by day, quiet at night), the whole clock for every other load (a steady load; a bursty one's base between its
    bursts)."""
    if c.office_steady:  # staff's steady load arrives in the office hours alone (``Ctx.office_steady``)
        return OFFICE_HOURS / HOURS_PER_MONTH
    return SCALED_HOURS["diurnal"] if c.load == "diurnal" else 1.0


def printed(costs: Any, c: Ctx) -> tuple[float, float]:
    """(low, high) usage the cost table's GPU-use row prints (``Costs.utilisation`` to ``Costs.usage_high``): the one
    figure the decisions read too (s26-usage26: the own-vs-rent gate and the API weighing read the load pattern's
    assumed share while the row beside them printed the month's tokens' share; q01 "owning wants 50 % busy" on a
    box the memo said was 1-8 % busy). The load pattern's share only where nothing was costed."""
    if costs is None:
        return c.volume_utilisation, c.volume_utilisation
    low = float(costs.utilisation)
    return low, max(low, float(costs.usage_high or low))


def printed_high(costs: Any, c: Ctx) -> float:
    """The high end of ``printed``: a decision that needs a busy setup (owning pays only above ~50 %, rule 15) is
    taken where any end of the printed range reaches it, never against every figure printed beside it."""
    return printed(costs, c)[1]


def printed_pct(costs: Any, c: Ctx) -> str:
    """``printed`` in whole percent as the GPU-use row says it ("24–29", "1–8", "80"; never "0" for a share the
    month's tokens keep under half a percent): what a finding that states the usage beside its decision prints."""
    low, high = printed(costs, c)
    lo = max(1, round(low * 100)) if low > 0 else 0
    hi = max(lo, round(min(high, 1.0) * 100))
    return f"{lo}" if hi == lo else f"{lo}–{hi}"


__all__ = ["HOURS_PER_MONTH", "carried", "day_hours", "draw_share", "full_tokens", "of", "planned_level", "printed", "printed_high",
           "printed_pct", "rate_per_replica", "streams"]
