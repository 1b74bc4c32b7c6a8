"""A public service's month of tokens from its peak when no requests a day are given (issue 25, s18-publicvol).

Without requests a day the month was the peak's token rate kept up for the assumed GPU utilisation's share of all
hours: 40 % for a day/night load. Physically that is an average load of 0.4 × the peak, a peak-to-average ratio of
2.5 — flatter than the 3 the plan itself assumes for the same load when it sizes the quiet hours
(``context.PEAK_FACTOR``), so the month was costed at its own high end. Blind reviewers read the result as
inflated (q09: "the 86B-token/month figure is not credible"; q22/q23).

- **Middle (costed)**: the day's average load is the peak ÷ the load's peak-to-average ratio (``PEAK_FACTOR``: 3 for
  a day/night load, 6 for a bursty one, 1.5 for a steady one), the same ratio the steady load and the warm replicas
  use. No public figure for interactive LLM traffic is on file; a monitoring vendor gives 1.6–1.7 for a user base
  spread over time zones (robustperception.io, "Do you know your peak to mean ratio", grade C), and a service in one
  region has a deeper night, so a higher ratio. It stays an assumption, said where the volume is used.
- **Range**: the high end is the former figure (the peak for the assumed utilisation's share of the hours), which
  the hosted-API comparison also weighs (``hosted_weigh.high_end_factor``); the low end, for a day/night load, the
  busy half of the day only (``volume_range.low_duty``).
- **Requests a day implied**: the middle ÷ the average answer, said with it. q09's 86 billion input tokens came
  mostly from the concurrency, not the duty: 80 requests in flight with 60-token answers are about 68 requests a
  second at the peak, about 2 million a day at a peak:average of 3, some 1,800 a year for each of its 400,000
  callers. Where the answers count people (its users, else the people a year whose personal data it handles), the
  month is theirs and this reading its high end (``public_people``, s20-fleet20: q14's follow-up bot read as 590
  requests a patient a year).

Not for a staff tool (``people_volume``), a batch, requests a day given, or the service's own measured utilisation
(a fleet's utilisation by other work is not one: ``Ctx.duty_measured``, s20-fleet20).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import public_people
from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.money_text import about  # (shared with people_volume's in-flight reading, s19-volume19b)
from advisor.plan.people_volume import in_out
from advisor.plan.volume_range import DERIVED, HOURS_PER_MONTH, PEAK_RATE, low_duty

DAYS_PER_MONTH = HOURS_PER_MONTH / 24


def applies(c: Ctx) -> bool:
    """A service for people outside the team whose month is estimated from its peak, not counted or measured."""
    return not c.is_batch and not c.requests_per_day and not c.internal_only and not c.duty_measured


@dataclass(frozen=True)
class PublicVolume:
    """Output tokens a month: the middle costed, the ends of the assumption, and the phrase that says so."""

    low: float
    expected: float
    high: float
    basis: dict[str, Any]


def average_share(c: Ctx) -> float:
    """The day's average load as a share of the peak: 1 ÷ the load's peak-to-average ratio."""
    return 1 / PEAK_FACTOR[c.load]


def estimate(c: Ctx, peak_tok_s: float) -> PublicVolume | None:
    """The month at the peak's average share, between the busy-half-day figure and the assumed-utilisation one;
    None where it does not apply, no rate is known, or the ratio says nothing below the utilisation figure."""
    if not applies(c) or peak_tok_s <= 0:
        return None
    share, high_share = average_share(c), c.volume_utilisation
    if share >= high_share:
        return None
    month = peak_tok_s * 3600 * HOURS_PER_MONTH
    counted = _from_people(c, month * share)  # the people the answers count, the peak's reading its high end
    if counted is not None:
        return counted
    low_end = low_duty(c)
    low_share = low_end[0] if low_end is not None and low_end[0] < share else share
    low, expected, high = month * low_share, month * share, month * high_share
    # derived from the peak's rate: said as an estimate prints (two figures), as ``volume_range.volume_text`` says
    # the month itself (wave 2, q11: to the token it read as a count)
    high_in, high_out = about(c.input_for(high)), about(high)
    per_day = expected / max(c.output_avg, 1) / DAYS_PER_MONTH
    basis: dict[str, Any] = {
        "tr": "plan.publicvol18.basis", "rate": f"{peak_tok_s:,.0f}", PEAK_RATE: round(peak_tok_s, 1),
        "factor": f"{PEAK_FACTOR[c.load]:g}",
        "profile": {"tr": f"plan.publicvol18.profile.{c.load}"},
        "rpd": about(per_day),
        "high_in": high_in, "high_out": high_out, "duty": round(high_share * 100), "low": ""}
    if low_share < share:
        low_in, low_out = about(c.input_for(low)), about(low)
        basis["low"] = {"tr": "plan.publicvol18.low", "low_in": low_in, "low_out": low_out,
                        "low_duty": round(low_share * 100)}
    return PublicVolume(low, expected, high, basis)


def _from_people(c: Ctx, peak_month: float) -> PublicVolume | None:
    """The month from the people the answers count (``public_people``), each figure held to the peak's reading
    (``peak_month``, output tokens: the peak ÷ its ratio all day), which is the high end; None where no people are
    counted. The peak's reading said with the requests a person a year it implies, so the reader sees both."""
    n = public_people.people(c)
    if n is None:
        return None
    kind = public_people.daily_kind(c)  # a public app used most days: counted a day, not a year (s37-usage39)
    lo_r, mid_r, hi_r = public_people.requests_a_year(kind)
    at_rate = public_people.output_tokens(c, n, mid_r)
    low, expected = min(public_people.output_tokens(c, n, lo_r), peak_month), min(at_rate, peak_month)
    low_in, low_out = in_out(c, low) if kind is None else (about(c.input_for(low)), about(low))
    # the peak's reading is derived, said as an estimate prints (two figures), as the in-flight clause says it: to
    # the token (q09's 88,863,998,542 / 4,443,199,927) it read as a count beside the floor's 440,000,000 (s29-lead29)
    high_in, high_out = about(c.input_for(peak_month)), about(peak_month)
    per_year_at_peak = peak_month / max(c.output_avg, 1) * public_people.MONTHS_A_YEAR / n
    common: dict[str, Any] = {
        "who": public_people.who(c, n), "low_in": low_in, "low_out": low_out, "high_in": high_in,
        "high_out": high_out, "peak": c.peak, "factor": f"{PEAK_FACTOR[c.load]:g}",
        "profile": {"tr": f"plan.publicvol18.profile.{c.load}"}}
    rpd = about(expected / max(c.output_avg, 1) / DAYS_PER_MONTH)
    if kind is not None:
        # said a day, as the reader counts a daily app's use; where the rate passes what the peak carries, the
        # peak's reading is costed and said so: the peak, or how many use it a day, is worth checking
        capped: dict[str, Any] | str = ""
        peak_day = public_people.per_day_text(per_year_at_peak / public_people.DAYS_A_YEAR)
        shape = {k: common[k] for k in ("low_in", "low_out", "high_in", "high_out", "peak", "factor", "profile")}
        ends: dict[str, Any] = {"tr": "tokens41.public.ends", **shape, "peak_day": peak_day}
        if at_rate > peak_month:
            # s39-tokens41 (blind review 31, q05: "'more than the peak carries: costed at the peak's reading' is
            # confusing"; zh: "its headline figure is also given as the upper bound; state one planning figure"):
            # said once, plainly, as the figure planned on; the range's other end is its low end alone
            capped = {"tr": "tokens41.public.capped", **shape, "peak_rpd": rpd, "peak_day": peak_day}
            ends = {"tr": "tokens41.public.low", "low_in": low_in, "low_out": low_out}
            rpd = about(at_rate / max(c.output_avg, 1) / DAYS_PER_MONTH)
            common[DERIVED] = True  # the month costed is the peak's reading: printed as an estimate, not to the token
        basis = {"tr": DAILY_BASIS, **common, **public_people.daily_params(kind), "rpd": rpd, "capped": capped,
                 "ends": ends, "per": public_people.per_day_text(mid_r / public_people.DAYS_A_YEAR),
                 "peak_day": peak_day}
        return PublicVolume(low, expected, peak_month, basis)
    convs, turns = public_people.CONVERSATIONS_A_YEAR[1], public_people.REQUESTS_A_CONVERSATION[1]
    basis = {
        "tr": PEOPLE_BASIS, **common, "per": round(mid_r), "conv": convs, "turns": turns,
        "low_per": round(lo_r), "high_per": round(hi_r), "rpd": rpd, "peak_per": about(per_year_at_peak)}
    return PublicVolume(low, expected, peak_month, basis)


PEOPLE_BASIS = "fleet20.public.basis"  # the tokens row's phrase where the month is counted from people
DAILY_BASIS = "usage39.public.basis"  # the same, counted a day for an app used most days (s37-usage39)
PEOPLE_BASES = frozenset({PEOPLE_BASIS, DAILY_BASIS})


def for_total(c: Ctx, output_tokens: float) -> PublicVolume | None:
    """The estimate whose middle is ``output_tokens``: a plan on two nodes (mainland + overseas) sums the nodes'
    months, each its share of the peak at the same ratio, so the whole plan's phrase is the summed peak rate's
    (the first node's phrase beside the summed figure read "up to" a number below the one costed, q05/q34)."""
    if output_tokens <= 0:
        return None
    return estimate(c, output_tokens / (3600 * HOURS_PER_MONTH * average_share(c)))


def rebase(costs: Any, c: Ctx) -> None:
    """``costs`` (two nodes' sum) said for the whole plan where its month is this estimate's."""
    basis = costs.volume_basis or {}
    if basis.get("tr") in PEOPLE_BASES:  # each node counted its share of the people: the whole count said, the
        # nodes' high ends (each its peak's reading) summed as the whole peak's (s20-fleet20)
        high = float(costs.output_tokens_per_month_high or costs.output_tokens_per_month or 0)
        counted = _from_people(c, high) if high > 0 else None
        if counted is not None:
            costs.volume_basis = counted.basis
        return
    whole = for_total(c, float(costs.output_tokens_per_month or 0)) if basis.get("tr") == "plan.publicvol18.basis" \
        else None
    if whole is not None:
        costs.volume_basis, costs.output_tokens_per_month_high = whole.basis, round(whole.high)


__all__ = ["DAILY_BASIS", "PEOPLE_BASES", "PEOPLE_BASIS", "PublicVolume", "about", "applies", "average_share", "estimate", "for_total", "rebase"]
