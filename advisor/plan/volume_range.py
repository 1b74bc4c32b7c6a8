"""The month's token volume when no request count is given: an assumption with a range, not a fact (issue 25,
s16-capacity).

Without requests a day, the volume is the peak's token rate kept up for the assumed utilisation's share of all hours
(40 % for a day/night load). For people using a tool that is an upper end: six lawyers at six concurrent requests
for 40 % of every hour of the month is 2.2 billion input tokens (q01), a voice agent 106 billion (q09), and blind
reviewers read both as inflated facts. The phrase now says it is an assumption, gives the lower figure the plan's
own load shape allows (the average load is a third of the peak, ``context.PEAK_FACTOR``, kept up only in office
hours for an internal tool or half the day for a public one), says what moves with it, and asks for requests a day.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.money_text import about, round_money

HOURS_PER_MONTH = 730.0
OFFICE_HOURS = 22 * 10  # working days a month × office hours a day: an internal tool's busy hours
BUSY_DAY_SHARE = 0.5  # a public day/night service: the busy half of each day
# the peak's output tokens/s a tokens row quotes, as a number beside its printed "rate": the memo's speed row says the
# same figure for what it is (s20-fleet20, q04: "the peak's 721 tokens/s" beside "945 tokens/s all replicas")
PEAK_RATE = "peak_tok_s"


def low_duty(c: Ctx) -> tuple[float, str] | None:
    """(share of all hours at the peak's rate, the phrase's key) for the low end of a day/night load's volume;
    None where the assumption has no lower figure of its own (a steady or bursty load, a measured utilisation)."""
    if c.load != "diurnal" or c.duty_measured:
        return None
    average = 1 / PEAK_FACTOR["diurnal"]  # the plan's own average load, as a share of the peak
    if c.internal_only:
        return OFFICE_HOURS / HOURS_PER_MONTH * average, "plan.capacity16.volume.office"
    return BUSY_DAY_SHARE * average, "plan.capacity16.volume.busy_day"


def duty_basis(c: Ctx, peak_tok_s: float, duty: float) -> dict[str, Any]:
    """The phrase for a volume of ``peak_tok_s`` × ``duty`` of all hours: the assumption and, where the load has one,
    the lower figure (input / output tokens a month) with how it is found."""
    base: dict[str, Any] = {"duty": round(duty * 100), "rate": f"{peak_tok_s:,.0f}", PEAK_RATE: round(peak_tok_s, 1)}
    low = low_duty(c)
    if c.duty_measured:  # the service's own measured duty, not an assumption (s20-fleet20: q26 read "assumed")
        return {"tr": MEASURED, **base}
    if low is None or low[0] >= duty:
        return {"tr": "plan.burst15.volume.duty", **base}
    share, how = low
    out = peak_tok_s * 3600 * HOURS_PER_MONTH * share
    inp = c.input_for(out)
    return {"tr": "plan.capacity16.volume.duty_range", **base, "low_duty": round(share * 100),
            "how": {"tr": how}, "low_in": about(inp), "low_out": about(out)}


MEASURED = "fleet20.volume.duty_measured"
DERIVED = "derived39"  # a basis whose costed month is derived from the peak though its phrase is another's


def derived(basis: dict[str, Any] | None) -> bool:
    """The month is the peak's token rate kept up for an assumed share of the hours: an estimate, whose tokens the
    memo prints as estimates print (two figures, ``about``), not to the token (wave 2, q11: "÷ an assumed
    4,139,281,554 / 1,103,808,414 tokens" read as a count); a measured duty's month stays whole."""
    if basis is not None and basis.get(DERIVED):  # a people count's month held to its peak's reading (s37-usage39)
        return True
    return basis is not None and PEAK_RATE in basis and basis.get("tr") != MEASURED


def volume_text(basis: dict[str, Any] | None, v: float) -> str:
    """A month's tokens as the memo prints them: ``about`` where the month is derived (``derived``), else whole
    units (a count the answers give, or a product of stated per-person figures)."""
    return about(v) if derived(basis) else round_money(v)


__all__ = ["DERIVED", "MEASURED", "PEAK_RATE", "derived", "duty_basis", "low_duty", "volume_text"]
