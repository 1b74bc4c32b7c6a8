"""What a bursty plan keeps on and what its bursts carry, below both ``burst_rules`` and ``burst_bill_rules`` (the
latter's API-led month is read by ``hosted_weigh``, which ``burst_rules`` imports: no import cycle).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burst, burst_all_month
from advisor.plan.rule_base import Facts


def fleet_base(f: Facts, ch: Any) -> tuple[int, float] | None:
    """(replicas on the team's fleet, peak ÷ today's load) when the fleet carries this service's load today and
    the plan owns its base (s14-fleetload), else None."""
    from advisor.plan import fleet as fleetmod
    from advisor.plan import gpu_choice as gc

    c = f.ctx
    fl = gc.fleet(c, ch.gpu.id)
    if fl is None or not fleetmod.this_service(c, fl[0]) or f.form not in ("hybrid", "bare_metal", "on_premises"):
        return None
    return max(1, min(ch.replicas, fl[1] // ch.tp)), fleetmod.peak_multiple(c)


def kept_on(f: Facts, ch: Any, per: int) -> int:
    """The replicas that run between bursts: the steady load's and the spare (``burst.warm_replicas``), or all of
    them where the cloud bills every GPU all month (``burst_all_month``: a part sold only through its sales)."""
    return ch.replicas if burst_all_month.of_facts(f) else burst.warm_replicas(f.ctx, ch, per)


def burst_tokens(f: Facts) -> float:
    """Output tokens a month above the steady load, during the bursts (averaged over the year's months)."""
    c, ch = f.ctx, f.chosen
    if c.requests_per_day and c.requests_per_day[1] > c.requests_per_day[0]:
        low, high = c.requests_per_day
        return (high - low) * c.burst_share * burst.DAYS_PER_MONTH * c.output_avg
    base = fleet_base(f, ch)
    steady_share = 1 / base[1] if base is not None else burst.steady_concurrency(c) / max(1, c.peak)
    return burst.peak_rate(c, ch) * max(0.0, 1 - steady_share) * c.burst_share * 3600 * 730.0


__all__ = ["burst_tokens", "fleet_base", "kept_on"]
