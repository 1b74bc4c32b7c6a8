"""The month's volume against the volume its own peak implies (issue 25, blind review 16, q24/q09).

q24: "250 people × 20 requests a day" (44,000,000 output tokens a month) beside 50 requests in flight at a daily
peak, which streams ~1,950 tokens/s; q09: 80 simultaneous calls beside "400,000 people × 36 requests a year".
Reviewers could not trust costs built on the smaller reading. The least the peak implies: its requests in flight
for one hour a working day alone (a load with a daily cycle meets its peak every day; a bursty one does not, and a
job has no peak), at the output rate the plan streams at the peak (``burst.peak_rate``, the figure the line's
bandwidth reads). Where the month's volume is under half of that, the cost section says which figure the costs use,
why, what a token would cost at the other reading, and asks for the count that settles it. Which volume decides is
unchanged: the figures stay on the tokens row's basis (answered, or the plan's stated estimate).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.money_text import about, round_money
from advisor.plan.result import render
from advisor.plan.staff_usage import WORKING_DAYS
from advisor.plan.token_cost_split import volume_split
from advisor.plan.volume_range import BUSY_DAY_SHARE, HOURS_PER_MONTH, OFFICE_HOURS

PEAK_HOURS_A_DAY = 1  # the busiest hour alone, each working day: the least a daily peak of that size implies
# a peak is a momentary count, not an hour's mean: requests arriving at random (Poisson), the count in flight in an
# hour averaging L reaches about L + Z·√L at its top (Z = 2: about one moment in 40 above it), so a peak of N means
# an hour averaging L with L + Z·√L = N (a peak of 50: about 38; of 10: about 5; of 1: about 0.2)
Z = 2.0
SHORT = 0.5  # the month's volume under this share of that least is "far below" it
DAILY = frozenset({"diurnal", "stable"})  # loads that meet their peak every day


def hour_mean(peak: float) -> float:
    """The mean requests in flight through an hour whose momentary top is ``peak`` (``Z`` above)."""
    root = (-Z + math.sqrt(Z * Z + 4 * peak)) / 2
    return root * root


def implied_output(c: Ctx, peak_tok_s: float) -> float | None:
    """Output tokens a month the peak implies at the least: the busiest hour's mean in flight (``hour_mean``) at
    the peak's per-request rate (``peak_tok_s`` ÷ the peak), for PEAK_HOURS_A_DAY each working day; None for a job,
    a bursty load or no known rate."""
    if c.is_batch or c.load not in DAILY or peak_tok_s <= 0 or c.peak <= 0:
        return None
    return hour_mean(c.peak) * peak_tok_s / c.peak * 3600 * PEAK_HOURS_A_DAY * WORKING_DAYS


def busy_span(c: Ctx) -> tuple[float, float, str]:
    """(hours a month, hours a busy day, the phrase's key) the load pattern is busy: an internal tool's office hours on working days,
    a public day/night service's busy half of every day (``volume_range``: the hours the volume's low end already
    assumes), a steady load around the clock."""
    if c.load == "stable":
        return HOURS_PER_MONTH, 24.0, "peakuse27.span.always"
    if c.internal_only:
        return float(OFFICE_HOURS), OFFICE_HOURS / WORKING_DAYS, "peakuse27.span.office"
    return BUSY_DAY_SHARE * HOURS_PER_MONTH, BUSY_DAY_SHARE * 24, "peakuse27.span.every_day"


def busy_upper(c: Ctx, peak_tok_s: float, costs: Any) -> dict[str, Any] | None:
    """The upper reading of the GPUs' use the load pattern allows (blind review 17, q24: the rent reason stood on the
    head count's 1-5 % beside a peak that implies more): the busiest hour's mean in flight at the peak's rate kept up
    through every busy hour of the month (``busy_span``), over what the setup serves fully busy (the share the GPU-use
    row prints is of the same ``per_million_basis.full_output_tokens``). An upper reading: the busy hours are not all
    the busiest one. None where the peak implies nothing or the capacity is unknown."""
    implied = implied_output(c, peak_tok_s)
    full = float(((getattr(costs, "per_million_basis", None) or {}).get("full_output_tokens")) or 0)
    if implied is None or full <= 0:
        return None
    hours, a_day, key = busy_span(c)
    per_hour = implied / (PEAK_HOURS_A_DAY * WORKING_DAYS)
    return {"share": round(min(1.0, per_hour * hours / full), 4), "hours_a_day": round(a_day), "span": key}


def check(c: Ctx, peak_tok_s: float, costs: Any) -> dict[str, Any] | None:
    """The disagreement, for ``Costs.volume_peak``: the month's output tokens (``used``), the least the peak
    implies (``implied``), the peak, its rate, whether the volume was answered, and the use the busy hours at the
    busiest hour's load would give (``upper``, ``busy_upper``); None where the month is not far below it (or either
    figure is unknown)."""
    implied = implied_output(c, peak_tok_s)
    used = float(costs.output_tokens_per_month or 0)
    if implied is None or used <= 0 or used >= SHORT * implied:
        return None
    return {"used": used, "implied": implied, "peak": c.peak, "mean": round(hour_mean(c.peak)),
            "rate": round(peak_tok_s, 1),
            "answered": c.requests_per_day is not None, "hours": PEAK_HOURS_A_DAY, "days": WORKING_DAYS,
            "upper": busy_upper(c, peak_tok_s, costs)}


def _money(lo: float, hi: float, cur: str) -> str:
    a, b = round_money(lo), round_money(hi)
    return f"{a} {cur}" if a == b else f"{a}–{b} {cur}"


def sentence(costs: Any, hosted_form: bool, lang: str, beside: bool = False) -> str:
    """The cost section's sentence on the disagreement ("" where there is none): the figure the costs use and
    why, the least the peak implies, the cost at that reading (a token's output on GPUs of one's own, which the
    same GPUs make cheaper; the month of a hosted API, which bills by the token), and the ask. ``beside``: the cost
    table prints a per-million row at the costs' own volume, which this figure names apart from."""
    vp = getattr(costs, "volume_peak", None)
    if not vp:
        return ""
    used, implied = float(vp["used"]), float(vp["implied"])
    scale = implied / used
    cur = costs.currency
    other: dict[str, Any] = {"tr": "volpeak26.other.none"}  # each "other" ends on the ask that settles it
    if hosted_form and costs.hosted_api_monthly is not None:
        m = costs.hosted_api_monthly
        other = {"tr": "volpeak26.other.hosted", "cost": _money(m.low * scale, m.high * scale, cur)}
    elif (split := volume_split(costs)) is not None:
        o_lo, o_hi = split[1]
        # s28-memo28 (review 17, q24): two output figures per million on two volumes in adjacent rows: each says its
        # volume (this one the busiest hour's, the next row's the costs' month)
        other = {"tr": "memo28.volpeak.per_million_beside" if beside else "volpeak26.other.per_million",
                 "cost": _money(o_lo / scale, o_hi / scale, cur), "used": round_money(used)}
    return render(lang, "volpeak26.sentence", {
        "used": round_money(used), "implied": about(implied), "peak": vp["peak"], "mean": vp["mean"],
        "why": {"tr": "volpeak26.why." + ("answered" if vp["answered"] else "assumed")}, "other": other})


__all__ = ["DAILY", "PEAK_HOURS_A_DAY", "SHORT", "Z", "busy_span", "busy_upper", "check", "hour_mean", "implied_output",
           "sentence"]
