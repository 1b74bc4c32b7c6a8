"""The API's month on page 1 where the token volume is the busiest hour's floor (s39-tokens41, issue 25).

Blind review 31 (q12: "'¥291 a month (a floor: the busiest hour of each day alone)' is an odd basis; price it on a
stated requests-a-day figure"; q21: "a weak basis for a budget line: lead with the high end"; q24: "state the range
up to $1,198 first"): the price bullet said the floor's month and named it "a floor", its high end an aside. Now the
API's price is the range from the floor to the volume's high end (the same ``hosted_weigh.high_end_factor`` the
"at most" aside used), and the basis of each end is said in plain words: the floor as requests a day (the busiest
hour's requests in progress × the requests an hour each holds × its hours, ``volume_peak.floor``'s own line, so the
reader's product is the tokens row's), the high end as the peak held through the busy hours (the tokens row's "up to").
"""

from __future__ import annotations

from typing import Any

from advisor.plan.volume_low_end import FLOOR


def requests_a_day(line: dict[str, Any]) -> int:
    """Requests a running day the floor counts: the busiest hour's mean in progress × the requests an hour each holds
    × the hours a day at that load (the tokens row's own rounded figures)."""
    return round(float(line["mean"]) * int(line["per_hour"]) * int(line["hours"]))


def floor_clause(costs: Any, low: Any, high: str, mid: str = "") -> dict[str, Any] | str:
    """The bracket after the API's price: the floor's requests a day and hours, and the high end's basis where the
    volume has one (``high``, the API's month there, "" where none); "" where the month is not the floor's."""
    raised = (getattr(costs, "volume_basis", None) or {}).get(FLOOR) or {}
    line = raised.get("line")
    if not line or raised.get("cap"):
        return ""
    day = "working" if raised.get("when") in ("volume28.when.working", "vol42.when.office") else "every"
    span = {"tr": "tokens41_lead.span.hours", "hours": line["hours"]} if int(line["hours"]) > 1 else \
        {"tr": "tokens41_lead.span.hour"}
    basis = {"tr": "tokens41_lead.basis", "rpd": f"{requests_a_day(line):,}", "day": {"tr": f"tokens41_lead.day.{day}"},
             "span": span}
    if not high:
        return {"tr": "tokens41_lead.floor", "basis": basis}
    if mid:  # the day/night rule's central reading between them (``volume_peak.central``, s40-volume)
        return {"tr": "vol42.lead.range", "low": low, "basis": basis, "mid": mid, "high": high,
                "peak": raised.get("peak")}
    return {"tr": "tokens41_lead.range", "low": low, "basis": basis, "high": high, "peak": raised.get("peak")}


def with_amount(figure: Any, amount: str) -> Any:
    """``figure`` (the API's printed price: a bare amount, or one with whose list it is, ``hosted_prices.figure``)
    with its amount replaced."""
    return {**figure, "amount": amount} if isinstance(figure, dict) else amount


__all__ = ["floor_clause", "requests_a_day", "with_amount"]
