"""Bursty and hybrid loads (s15-burst): the steady load, the bursts' share of the hours and the month's volume,
each from the answers with its basis stated, so the memo can say where a number came from.

- **Steady load** (the warm pool, an owned base): with requests a day given, Little's law — concurrency ≈
  requests per second × the time one request is in the system (the TTFT target + the average answer at the TPOT
  target, the longest the plan lets a request take); 5,000 requests a day at 32 s each is about 2 in flight, not
  the peak ÷ 6. Without them, the peak ÷ the load's assumed peak-to-average factor (``context.PEAK_FACTOR``).
- **Burst share of the hours**: from the answers' burst schedule (bursts a year × days each ÷ 365); without one,
  the assumed share (``context.SCALED_HOURS``), said as an assumption and asked (``advisor.plan.unknowns``).
- **Volume a month** (hosted-API cost, cost per million tokens): from requests a day when given (a bursty range:
  the low figure on ordinary days, the high one on burst days); otherwise the peak's token rate × the share of
  the time it is reached on average (the assumed or measured utilisation; on a fleet that carries today's load,
  today's load most of the time and the peak during the bursts). A staff tool's month is its people's requests
  below that figure, with a high end (``advisor.plan.people_volume``, s18-volume); a public service's is the peak ÷
  its peak-to-average ratio, with that figure as its high end (``advisor.plan.public_volume``, s18-publicvol).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import peak_stream, people_volume, public_volume, volume_peak
from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.volume_range import PEAK_RATE, duty_basis

DAYS_PER_MONTH = 30.4
SECONDS_PER_DAY = 86400


def request_seconds(c: Ctx) -> float:
    """Seconds one request is in the system at most: the TTFT target + the average answer at the TPOT target."""
    return (c.ttft_slo_ms or 2000.0) / 1000 + c.output_avg * (c.tpot_slo_ms or 100.0) / 1000


@dataclass(frozen=True)
class Steady:
    """The steady load's concurrency and how it was found (``basis``: "little" | "factor")."""

    concurrency: int
    basis: str
    per_day: int | None = None  # "little": the quiet day's requests
    seconds: float | None = None  # "little": one request's time in the system

    def words(self) -> dict[str, Any]:
        """The basis as a phrase of the memo (``{"tr": …}``)."""
        if self.basis == "little":
            return {"tr": "plan.burst15.steady.little", "rpd": f"{self.per_day:,}", "s": f"{self.seconds:.0f}",
                    "n": self.concurrency}
        return {"tr": "plan.burst15.steady.factor", "n": self.concurrency}


def steady(c: Ctx) -> Steady:
    """The steady (quiet-day) load in concurrent requests, at least one."""
    if c.requests_per_day and not c.is_batch:
        s = request_seconds(c)
        n = max(1, math.ceil(c.requests_per_day[0] / SECONDS_PER_DAY * s - 1e-9))
        return Steady(n, "little", c.requests_per_day[0], s)
    return Steady(max(1, math.ceil(c.peak / PEAK_FACTOR[c.load])), "factor")


def steady_concurrency(c: Ctx) -> int:
    return steady(c).concurrency


def scheduled(c: Ctx) -> bool:
    """The bursts' dates are known ahead (trade fairs, sales): capacity goes up by calendar."""
    s = c.answers.burst_schedule
    return bool(c.load == "bursty" and s is not None and s.known_in_advance)


def burst_days_a_year(c: Ctx) -> float | None:
    s = c.answers.burst_schedule
    if s is None or s.per_year is None or s.days_each is None:
        return None
    return min(365.0, s.per_year * s.days_each)


def _fleet_multiple(c: Ctx) -> float | None:
    """On a fleet that carries this service today: the peak as a multiple of today's load (else None)."""
    fl = c.answers.current_fleet
    if fl is None or not fl.load_is_this_service or not c.utilisation_measured:
        return None
    return float(fl.peak_multiple or PEAK_FACTOR[c.load])  # as fleet.peak_multiple (fleet imports this module)


def peak_rate(c: Ctx, cand: Any) -> float:
    """Output tokens/s streamed at the peak: every user at the plan's per-user speed, never more than the setup's
    prediction streams at that load (advisor.plan.peak_stream; the figure the line's bandwidth finding quotes,
    ``line_cost``), not the replicas' capacity (a fleet sized on its measured load has more of it than the peak
    uses)."""
    return peak_stream.peak_rate(c, cand)


@dataclass(frozen=True)
class Volume:
    """Output tokens a month and how they were counted (``basis`` as a memo phrase)."""

    output_tokens: float
    basis: dict[str, Any]
    output_high: float | None = None  # an assumed volume's high end (s18-volume); None: no higher figure


def per_burst_day(c: Ctx, low: int, high: int) -> dict[str, Any]:
    """With the burst days assumed (s18-publicvol, q36: "the assumed 35 % … inflates the monthly cost; get the real
    event count and days"): the month with no burst day and what each burst day adds, both from the answers'
    requests a day, so the reader's own count of burst days replaces the assumed share."""
    base_in, base_out = people_volume.in_out(c, low * c.output_avg * DAYS_PER_MONTH)
    day_in, day_out = people_volume.in_out(c, (high - low) * c.output_avg)
    return {"tr": "plan.publicvol18.per_burst_day", "base_in": base_in, "base_out": base_out, "day_in": day_in,
            "day_out": day_out}


def share_words(c: Ctx) -> dict[str, Any]:
    """The bursts' share as the memo says it: given, an assumed share of the hours, or (dates known, no count) the
    assumed event days a month with their range (s19-cost19)."""
    if c.burst_share_range is not None:
        lo, hi = c.burst_share_range
        return {"tr": "cost19.share.days", "pct": round(c.burst_share * 100), "low": f"{lo * DAYS_PER_MONTH:.0f}",
                "high": f"{hi * DAYS_PER_MONTH:.0f}"}
    return {"tr": "plan.burst15.share.given" if c.burst_share_given else "plan.burst15.share.assumed",
            "pct": round(c.burst_share * 100)}


def share_range(c: Ctx) -> tuple[float, float]:
    """(low, high) share of the hours the bursts' extra GPUs are billed: the assumed range, else the share twice."""
    return c.burst_share_range if c.burst_share_range is not None else (c.burst_share, c.burst_share)


def volume(c: Ctx, peak_tok_s: float) -> Volume:
    """Output tokens a month: from requests a day when given, else the peak's rate × its average share, never below
    what the busiest hour makes over the hours the service runs (``volume_peak.floor``, s28-volume28)."""
    v = _estimated(c, peak_tok_s)
    raised = None if c.is_batch else _floor(c, peak_tok_s, v.output_tokens)
    if raised is None:
        return v
    implied = float(raised["implied"])
    # a high end the floor's own two figures do not tell apart from it is the floor (q08: a steady load's in-flight
    # reading, 863M, is the same load around the clock as its 860M floor; s29-lead29)
    # a month raised to the people's cap is their range's high end: no reading of the peak goes above what they send
    # (s30-floor30, review 19: q08's 860M in-flight reading kept the power at 58-100 % for ~150 staff)
    above = v.output_high is not None and volume_peak.two_figures(v.output_high) > implied and not raised.get("cap")
    high = v.output_high if above else None
    # the estimate's own phrase stays (what it assumed and its range); the floor's sentence follows it in the memo
    # the estimate's high end kept in the record: a two-node plan says its whole month from the nodes' estimates
    return Volume(implied, {**v.basis, volume_peak.FLOOR: {**raised, "estimate_high": v.output_high}}, high)


def plan_floor(c: Ctx, cand: Any) -> dict[str, Any] | None:
    """The whole plan's busiest-hour floor (``volume_peak.floor``) on its setup ``cand``, decided before a two-node
    plan splits its peak (s29-volume29); None where its estimate needs none."""
    if c.is_batch:
        return None
    rate = peak_rate(c, cand)
    return volume_peak.floor(c, rate, _estimated(c, rate).output_tokens)


def _floor(c: Ctx, peak_tok_s: float, output: float) -> dict[str, Any] | None:
    """``volume_peak.floor`` for ``c``; for one node of a two-node plan, the whole plan's floor (``c.plan_floor``,
    decided before the split) with the node raised in proportion (s29-volume29): the busiest hour's mean grows
    slower than the peak (``volume_peak.hour_mean``) and the nodes' per-request rates differ, so each node floored
    on its own share raised one node and not the other (q34: the L40S node's 16M to 39M, the L20 node's 24M kept),
    and their floors summed to none of the plan's. The node keeps its estimate × (the plan's floor ÷ its estimate):
    the nodes' months sum to the plan's floor as their estimates sum to the plan's."""
    whole = c.plan_floor
    if whole is None:  # a plan of one node
        return volume_peak.floor(c, peak_tok_s, output)
    if not whole or output <= 0:  # a node of a plan whose estimate needs no floor ({}: decided, none)
        return None
    share = output / float(whole["estimate"])  # the node's part of the plan's estimate
    return {**whole, "implied": float(whole["implied"]) * share, "estimate": output}


def _estimated(c: Ctx, peak_tok_s: float) -> Volume:
    """The month as estimated from the answers (requests a day, people, the peak's share), before any floor."""
    if c.is_batch:
        return Volume(float((c.total_requests or 0) * c.output_avg), {"tr": "plan.burst15.volume.batch"})
    share = c.burst_share
    words = share_words(c)
    basis: dict[str, Any]
    if c.requests_per_day:
        low, high = c.requests_per_day
        if c.load == "bursty" and low != high:
            per_day = low * (1 - share) + high * share
            basis = {"tr": "plan.burst15.volume.rpd_bursty", "low": f"{low:,}", "high": f"{high:,}",
                     "share": words, "each": "" if c.burst_share_given else per_burst_day(c, low, high)}
        else:
            per_day = (low + high) / 2
            basis = {"tr": "plan.burst15.volume.rpd", "rpd": f"{round(per_day):,}"}
        return Volume(per_day * c.output_avg * DAYS_PER_MONTH, basis)
    multiple = _fleet_multiple(c)
    if multiple is not None and c.load in ("bursty", "diurnal"):
        duty = (1 - share) / multiple + share
        basis = {"tr": "plan.burst15.volume.fleet", "multiple": f"{multiple:g}", "share": words,
                 "duty": round(duty * 100), "rate": f"{peak_tok_s:,.0f}", PEAK_RATE: round(peak_tok_s, 1)}
    elif steady_measured(c):
        # a steady load's month is its peak ÷ the pattern's peak-to-average around the clock, not the measured GPU
        # utilisation: nvidia-smi counts the time a kernel runs, not the share of time at the peak (s34-volume36,
        # blind review 25, q31: "multiplies the peak by '75 % measured utilisation'. That mixes GPU kernel-busy time
        # with load"); the measured figure keeps its own job, how busy the GPUs are (GPU use, power, break-even)
        duty = 1 / PEAK_FACTOR["stable"]
        basis = {"tr": STEADY_KEY, "duty": round(duty * 100), "rate": f"{peak_tok_s:,.0f}",
                 "ratio": f"{PEAK_FACTOR['stable']:g}", "measured": round(c.utilisation * 100),
                 PEAK_RATE: round(peak_tok_s, 1)}
    else:
        duty = c.volume_utilisation  # the measured duty only where it is this service's (s20-fleet20)
        basis = duty_basis(c, peak_tok_s, duty)  # an assumption with its lower figure (s16-capacity)
    ceiling = peak_tok_s * 3600 * 730.0 * duty
    # a staff tool: its people's requests, below the ceiling (s18-volume); no rate given (a fix priced before any
    # plan is sized) is no ceiling, not a zero one
    # with no head count, its high end the peak read as requests in flight (s19-volume19b)
    people = people_volume.estimate(c, ceiling if peak_tok_s > 0 else math.inf, people_volume.in_flight(c, peak_tok_s))
    if people is not None:
        return Volume(people.expected, people.basis, people.high)
    if multiple is None:  # a public service: the peak ÷ its peak-to-average ratio, the duty figure its high end
        public = public_volume.estimate(c, peak_tok_s)  # (s18-publicvol)
        if public is not None:
            return Volume(public.expected, public.basis, public.high)
    return Volume(ceiling, basis)


STEADY_KEY = "volume36.volume.steady"  # the tokens row's phrase of ``steady_measured``'s month


def steady_measured(c: Ctx) -> bool:
    """A steady service that measured its own GPU utilisation and gave no requests a day: its month is read from
    the peak and the steady load's ratio (``_estimated``), never from the utilisation."""
    return c.duty_measured and c.load == "stable" and not c.requests_per_day


def warm_replicas(c: Ctx, cand: Any, per: int) -> int:
    """Replicas a bursty plan keeps running between bursts: the steady load's (at ``per`` each, at least one)
    plus the N+1 spare where the plan keeps one, never more than the peak's. The cost bills these for every hour
    and the rest for the bursts' share; the memo's scaling finding names the same count."""
    lay = getattr(cand, "layout", None)
    spare = cand.replicas - int(lay.load_replicas) if lay is not None else 0
    return max(1, min(cand.replicas, math.ceil(steady_concurrency(c) / max(1, per)) + max(0, spare)))


__all__ = ["Steady", "Volume", "burst_days_a_year", "peak_rate", "per_burst_day", "request_seconds", "scheduled",
           "share_range", "share_words", "steady", "steady_concurrency", "volume", "warm_replicas"]
