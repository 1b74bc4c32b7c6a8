"""A tool's month of tokens from the people who use it, when no requests a day are given (issue 25, s18-volume;
s19-volume19).

Without requests a day, the volume was the peak's token rate kept up for the assumed utilisation's share of every
hour (``advisor.plan.volume_range``): six lawyers at six concurrent requests for 40 % of all hours is 2.2 billion
input tokens a month, and blind reviewers read that, and the hosted-API price on it, as "wildly high" (q01, q02,
q03, q08). People send requests: the month is the people × the requests each sends a working day × the working
days × the tokens of a request.

- **Who**: a staff tool, or business customers' staff at an interactive tool (``staff_usage.counted_by_people``:
  q10's eight people at once at a consultancy's document assistant were a public service busy around the clock,
  18.6 billion input tokens a month).
- **People**: the answers' ``users`` where given; else the peak ÷ the share of the people using it at once
  (``staff_usage.ACTIVE_AT_ONCE``, 15–25 %, cited there), a range said as an assumption. Until session 19 the people
  were the peak itself, so q38's "15 concurrent" was 15 people and its hosted API $1–6 a month (reviewers:
  "nonsense").
- **Requests a person sends a working day**: office staff 10–40 (20 costed), an assumption; a contact centre's
  agents (``usage_kind``) one a contact, 29–104 (56 costed) from handle-time and occupancy benchmarks
  (``staff_usage``). The answers' requests a day replace both.
- **A chat's history**: each turn re-sends the earlier ones; the plan does not model turns apart, so the tokens
  of a request are the prompt as sent, history included, and the tokens row says so (s19-volume19).
- **Ends**: the fewest people at the low rate, the most at the high one; each held to the **ceiling**, the
  peak-duty figure (the plan cannot serve more than its peak for that share of the hours).
- **Two readings of the peak** (s19-volume19b): with no head count, "50 concurrent" may be people using it at once
  (the people above) or requests in flight (the glossary's concurrency: at ~10 s a request and one request a
  person every minute or three, the people behind it are several times more). Unknown stays unknown: the range's
  high end is the in-flight reading where it is higher — the peak's token rate ÷ the load's peak-to-average ratio
  over the working hours (``in_flight``) — and the memo's assumption says so and asks for the people. Without it,
  q24's hosted API read as a tenth of the plan's cost on one reading of the peak (5.5 billion input tokens a month
  until session 19, 165 million after it). The answers' ``users`` keep the narrow, people-based range.

Not for a public service or an API (their users are not counted by the peak), a batch, requests a day given, or the
service's own measured utilisation (then the duty is measured, not assumed). A fleet's utilisation by other work is
not this service's (``Ctx.duty_measured``, s20-fleet20): q04's 40 analysts at once read as 3.8 billion input tokens
a month, about 790 requests an analyst a day, from the fleet's 30 % other work; they are counted from people now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.money_text import about, round_money
from advisor.plan.staff_usage import (
    ACTIVE_AT_ONCE,
    REQUESTS_PER_PERSON,
    WORKING_DAYS,
    counted_by_people,
    day_words,
    days_a_month,
    days_text,
    days_unit,
    people_from_peak,
    requests_per_person,
)
from advisor.plan.volume_low_end import FLOOR
from advisor.plan.volume_range import HOURS_PER_MONTH, OFFICE_HOURS


def applies(c: Ctx) -> bool:
    """A tool people use whose month is estimated, not counted or measured."""
    return (not c.is_batch and not c.requests_per_day and counted_by_people(c.audience, c.reach, c.use_case)
            and not c.duty_measured)


BASIS_KEY = "plan.volume19.basis"  # the tokens row's phrase where the month is this estimate


@dataclass(frozen=True)
class PeopleVolume:
    """Output tokens a month at each end of the per-person assumption (each capped by the peak-duty ceiling)."""

    people: int
    low: float
    expected: float
    high: float
    basis: dict[str, Any]


def people_range(c: Ctx) -> tuple[int, int, int]:
    """(fewest, middle, most) people the month is counted for: the answers' users, else the peak ÷ the share of
    them using it at once (never the peak itself: 15 requests at once are not 15 people, q38)."""
    if c.answers.users:
        return c.answers.users, c.answers.users, c.answers.users
    return people_from_peak(c.peak)


def people(c: Ctx) -> int:
    """The people the month is costed for (the middle of ``people_range``)."""
    return people_range(c)[1]


def rates(c: Ctx) -> tuple[int, int, int]:
    """(low, expected, high) requests a person sends a working day for the answers' kind of use."""
    return requests_per_person(c.answers.usage_kind)


def output_tokens(c: Ctx, requests_per_person: float, persons: int | None = None) -> float:
    """Output tokens a month: people (``persons``, else the costed count) × requests each a day they use it × those
    days a month (``staff_usage.days_a_month``: every day for a steady load, else the working days) × the average
    answer."""
    return (persons or people(c)) * requests_per_person * days_a_month(c.load) * c.output_avg


def in_out(c: Ctx, out: float) -> tuple[str, str]:
    """(input, output) tokens a month as the memo prints them: input at the answers' prompt:output ratio."""
    return round_money(c.input_for(out)), round_money(out)


def in_flight(c: Ctx, peak_tok_s: float) -> float | None:
    """Output tokens a month where the peak is requests in flight, not people (s19-volume19b): the peak's token
    rate (``peak_tok_s``) ÷ the load's peak-to-average ratio, kept up through the hours it runs
    (``in_flight_hours``); None where the people are answered (no other reading) or no rate is known (a fix priced
    before any plan is sized)."""
    if c.answers.users or peak_tok_s <= 0:
        return None
    return peak_tok_s * 3600 * in_flight_hours(c) / PEAK_FACTOR[c.load]


def in_flight_hours(c: Ctx) -> float:
    """Hours a month the in-flight reading keeps its average up: a load the answers say is steady around the clock
    every hour of the month, as the busiest-hour floor counts it (``volume_peak.run_days``/``hours_a_day``), else the
    working hours. On the working hours alone q08's steady 30 in flight read as 260M output tokens a month, below
    the 860M its floor costs for the same load around the clock, in the same tokens row (s29-lead29)."""
    return HOURS_PER_MONTH if c.load == "stable" and not c.office_steady else float(OFFICE_HOURS)


def estimate(c: Ctx, ceiling: float, flight: float | None = None) -> PeopleVolume | None:
    """The per-person month below ``ceiling`` (the peak-duty output tokens), or None where it does not apply or
    says nothing below the ceiling (the duty figure then stands, with its own phrase). The low end is the fewest
    people at the low rate, the high end the most at the high rate, or the in-flight reading (``flight``, output
    tokens a month: ``in_flight``) where that is higher."""
    if not applies(c):
        return None
    few, n, most = people_range(c)
    lo_r, mid_r, hi_r = rates(c)
    low, expected, top = (min(output_tokens(c, r, p), ceiling) for r, p in ((lo_r, few), (mid_r, n), (hi_r, most)))
    if expected >= ceiling:
        return None
    flown = min(flight, ceiling) if flight is not None and flight > top and not c.answers.users else None
    high = top if flown is None else flown
    low_in, low_out = in_out(c, low)
    high_in, high_out = in_out(c, top)
    if c.answers.users:
        who: dict[str, Any] = {"tr": "plan.volume18.who.users", "people": n}
    else:
        shares = "–".join(f"{s * 100:.0f}" for s in (ACTIVE_AT_ONCE[0], ACTIVE_AT_ONCE[-1]))
        who = {"tr": "plan.volume19.who.peak", "people": f"{n:,}", "few": f"{few:,}", "most": f"{most:,}",
               "peak": c.peak, "shares": shares}
    contact = c.answers.usage_kind == "contact_centre"
    basis = {"tr": BASIS_KEY, "who": who, "people": n, "per": mid_r, "days": days_text(c.load), "day": day_words(c.load),
             "days_unit": {"tr": days_unit(c.load)["tr"].replace(".days_unit.", ".basis_unit.")},
             "how": {"tr": "plan.volume19.how.contact_centre"} if contact else "",
             "tokens": f"{c.prompt_avg + c.output_avg:,}", "low_per": lo_r, "high_per": hi_r,
             "low_in": low_in, "low_out": low_out, "high_in": high_in, "high_out": high_out,
             "flight": _flight_words(c, flown), "cap": {"tr": "plan.volume18.capped"} if high >= ceiling else ""}
    # the tokens row's one month and its range, ends named by what sets them (s36-rowtrim, blind review 27: q01's
    # "as 6 requests in flight, 420,000,000 / 70,000,000" read as a third volume after the per-person range); the
    # head count's own range and shares are the assumptions list's, so the row names the people it multiplies alone
    basis["short_who"] = who if c.answers.users else about_people(who)
    basis["range"] = {"tr": "rowtrim38.range", "low_in": low_in, "low_out": low_out, "low_per": lo_r,
                      "high": _high_words(c, flown, hi_r, high_in, high_out)}
    return PeopleVolume(n, low, expected, high, basis)


def about_people(who: dict[str, Any]) -> dict[str, Any]:
    """The head count the tokens row multiplies, with the reading it comes from where it was derived from the peak
    (blind review 35, q04: "the tokens estimate assumes '200 people' although the situation names about 40
    analysts; state that assumption plainly"): "about 200 people (your 40 at once taken as 15–25 % of them …)"."""
    if who.get("tr") == "plan.volume19.who.peak" and who.get("shares"):
        return {"tr": "hyb44.who.about_peak", "people": who["people"], "peak": who["peak"], "shares": who["shares"]}
    return {"tr": "onebasis36.who.about", "people": who.get("people", "")}


def _high_words(c: Ctx, flown: float | None, per: Any, high_in: str, high_out: str) -> dict[str, Any]:
    """The range's high end in the tokens row: the in-flight reading where that sets it, else the high rate's."""
    if flown is None:
        return {"tr": "rowtrim38.high.per", "per": per, "in": high_in, "out": high_out}
    return {"tr": "rowtrim38.high.flight", "peak": c.peak, "in": about(c.input_for(flown)), "out": about(flown)}


def _flight_words(c: Ctx, out: float | None) -> dict[str, Any] | str:
    """The in-flight reading as the tokens row's closing clause, "" where it is not the high end."""
    if out is None:
        return ""
    return {"tr": "plan.volume19b.flight", "peak": c.peak, "in": about(c.input_for(out)), "out": about(out)}


def rebase(costs: Any, c: Ctx) -> None:
    """``costs`` (two nodes' sum, each node counting the people behind its share of the peak) said for the whole
    plan: the phrase of the whole peak's people, not the first node's (as ``public_volume.rebase``); the in-flight
    reading, where a node's high end is that reading, is the nodes' high ends summed."""
    basis = costs.volume_basis or {}
    if basis.get("tr") != BASIS_KEY:
        return
    whole = estimate(c, float("inf"), costs.output_tokens_per_month_high if basis.get("flight") else None)
    if whole is not None:
        costs.volume_basis, costs.output_tokens_per_month_high = whole.basis, round(whole.high)


def per_million_note(volume_basis: dict[str, Any] | None) -> dict[str, Any] | None:
    """The per-person assumption said beside the cost per million tokens it divides by (s18-apiweigh): the GPUs cost
    the same however much they are used, so that cost moves inversely with the requests each person sends, and a
    call centre's agents (many conversations a day) send far more than the office figure (q41: 1,181–3,586 CNY a
    million output tokens at 20 requests an agent). The answers' ``usage_kind`` tells them apart (s19-volume19);
    the note names the rate used and how to correct it; None where the month is not this assumption."""
    if not volume_basis or volume_basis.get("tr") != BASIS_KEY:
        return None
    if volume_basis.get(FLOOR):  # raised to the busiest hour's floor: more requests a person would not move it
        return None
    return {"tr": "memo.volume19.per_million_assumed", "per": volume_basis["per"],
            "day": volume_basis.get("day") or {"tr": "fleetword33.day.working"}}


__all__ = ["BASIS_KEY", "REQUESTS_PER_PERSON", "WORKING_DAYS", "PeopleVolume", "applies", "estimate", "in_flight",
           "in_flight_hours",
           "in_out",
           "output_tokens", "people", "people_range", "per_million_note", "rates", "rebase"]
