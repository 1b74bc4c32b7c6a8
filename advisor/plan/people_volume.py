"""An internal tool's month of tokens from the people who use it, when no requests a day are given (issue 25,
s18-volume).

Without requests a day, the volume was the peak's token rate kept up for the assumed utilisation's share of every
hour (``advisor.plan.volume_range``): six lawyers at six concurrent requests for 40 % of all hours is 2.2 billion
input tokens a month, and blind reviewers read that, and the hosted-API price on it, as "wildly high" (q01, q02,
q03, q08). People send requests: a staff tool's month is the people × the requests each sends a working day ×
the working days × the tokens of a request.

- **People**: the answers' ``users`` (the staff who use it) where given; else everyone at the peak is a person
  using the tool, so the peak concurrency is the fewest people who use it, and the memo says "more if more use it".
- **Requests a person sends a working day**: no public figure for a staff tool is on file, so it is an assumption,
  said as one with its range (``staff_usage.REQUESTS_PER_PERSON``: 10 low, 20 expected, 40 high), and the answers' requests a
  day replace it.
- **Ceiling**: the peak-duty figure stays the physical upper end (the plan cannot serve more than its peak for
  that share of the hours); the per-person figure is used where it is below it, each end capped by it.

Not for public services (their users are not counted by the peak), a batch, requests a day given, or a measured
utilisation (then the duty is measured, not assumed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.money_text import round_money
from advisor.plan.staff_usage import REQUESTS_PER_PERSON, WORKING_DAYS


def applies(c: Ctx) -> bool:
    """A staff tool whose month is estimated, not counted or measured."""
    return not c.is_batch and not c.requests_per_day and c.internal_only and not c.utilisation_measured


@dataclass(frozen=True)
class PeopleVolume:
    """Output tokens a month at each end of the per-person assumption (each capped by the peak-duty ceiling)."""

    people: int
    low: float
    expected: float
    high: float
    basis: dict[str, Any]


def people(c: Ctx) -> int:
    """The people the month is counted for: the answers' users, else the people at the peak (the fewest there are)."""
    return c.answers.users or c.peak


def output_tokens(c: Ctx, requests_per_person: float) -> float:
    """Output tokens a month: people × requests each a working day × working days × the average answer."""
    return people(c) * requests_per_person * WORKING_DAYS * c.output_avg


def in_out(c: Ctx, out: float) -> tuple[str, str]:
    """(input, output) tokens a month as the memo prints them: input at the answers' prompt:output ratio."""
    return round_money(c.input_for(out)), round_money(out)


def estimate(c: Ctx, ceiling: float) -> PeopleVolume | None:
    """The per-person month below ``ceiling`` (the peak-duty output tokens), or None where it does not apply or
    says nothing below the ceiling (the duty figure then stands, with its own phrase)."""
    if not applies(c):
        return None
    low, expected, high = (min(output_tokens(c, r), ceiling) for r in REQUESTS_PER_PERSON)
    if expected >= ceiling:
        return None
    low_in, low_out = in_out(c, low)
    high_in, high_out = in_out(c, high)
    lo_r, mid_r, hi_r = REQUESTS_PER_PERSON
    n = people(c)
    who = {"tr": "plan.volume18.who.users" if c.answers.users else "plan.volume18.who.peak", "people": n}
    basis = {"tr": "plan.volume18.basis", "who": who, "people": n, "per": mid_r, "days": WORKING_DAYS,
             "tokens": f"{c.prompt_avg + c.output_avg:,}", "low_per": lo_r, "high_per": hi_r,
             "low_in": low_in, "low_out": low_out, "high_in": high_in, "high_out": high_out,
             "cap": {"tr": "plan.volume18.capped"} if high >= ceiling else ""}
    return PeopleVolume(n, low, expected, high, basis)


def per_million_note(volume_basis: dict[str, Any] | None) -> dict[str, Any] | None:
    """The per-person assumption said beside the cost per million tokens it divides by (s18-apiweigh): the GPUs cost
    the same however much they are used, so that cost moves inversely with the requests each person sends, and a
    call centre's agents (many conversations a day) send far more than the office figure (q41: 1,181–3,586 CNY a
    million output tokens at 20 requests an agent). The answers carry no use case that tells them apart, so the
    reader is given the figure to correct; None where the month is not this assumption."""
    if not volume_basis or volume_basis.get("tr") != "plan.volume18.basis":
        return None
    return {"tr": "memo.apiweigh18.per_million_assumed", "per": volume_basis["per"]}


__all__ = ["REQUESTS_PER_PERSON", "WORKING_DAYS", "PeopleVolume", "applies", "estimate", "in_out", "output_tokens", "people",
           "per_million_note"]
