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
import re
from typing import Any

from advisor.plan import people_volume
from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.money_text import about, round_money
from advisor.plan.result import render
from advisor.plan.staff_usage import WORKING_DAYS, day_words, days_text
from advisor.plan.volume_low_end import FLOOR
from advisor.plan.volume_range import BUSY_DAY_SHARE, HOURS_PER_MONTH, OFFICE_HOURS

PEAK_HOURS_A_DAY = 1  # the busiest hour alone, each working day: the least a daily peak of that size implies
# a peak is a momentary count, not an hour's mean: requests arriving at random (Poisson), the count in flight in an
# hour averaging L reaches about L + Z·√L at its top (Z = 2: about one moment in 40 above it), so a peak of N means
# an hour averaging L with L + Z·√L = N (a peak of 50: about 38; of 10: about 5; of 1: about 0.2)
Z = 2.0
SHORT = 0.5  # the month's volume under this share of that least is "far below" it
# an estimate under this share of the floor is raised to it: the memos that used to say "the costs use the smaller
# figure" (``SHORT``). One nearer the floor is left as it is for now: it is within the 2-3x spread of the head-count
# or peak-ratio assumption that made it (q01's 6,600,000 beside 9,600,000), and raising every staff tool's month
# is a re-reading of people_volume's per-person rates (issue 25, left to a later session)
NEAR = SHORT
DAILY = frozenset({"diurnal", "stable"})  # loads that meet their peak every day


def hour_mean(peak: float) -> float:
    """The mean requests in flight through an hour whose momentary top is ``peak`` (``Z`` above)."""
    root = (-Z + math.sqrt(Z * Z + 4 * peak)) / 2
    return root * root


def run_days(c: Ctx) -> tuple[float, str]:
    """(days a month the service meets its busiest hour, the phrase's key): every day for one the answers say runs
    around the clock (a steady load) or serves the public, the working days for a day/night tool people use at work
    (staff or business customers) (s28-volume28, review 18: q08 "stable around the clock" costed on "a working day ×
    22 days", q09 a public voice agent's peak counted on working days only)."""
    if (c.load == "stable" and not c.office_steady) or (c.audience == "public" and not c.internal_only):
        return HOURS_PER_MONTH / 24, "volume28.days.every"
    return float(WORKING_DAYS), "volume28.days.working"


def hours_a_day(c: Ctx) -> int:
    """Hours each running day at the busiest hour's load, at the least: a steady load's every hour (the answers say
    it is the same around the clock), else the busiest hour alone (PEAK_HOURS_A_DAY)."""
    if c.office_steady:  # staff's steady load: every office hour of a working day (``Ctx.office_steady``)
        return round(OFFICE_HOURS / WORKING_DAYS)
    return 24 if c.load == "stable" else PEAK_HOURS_A_DAY


def hourly_output(c: Ctx, peak_tok_s: float) -> float | None:
    """Output tokens in one busy hour: the busiest hour's mean in flight (``hour_mean``; a steady load's hours no
    more than the plan's own average, the peak ÷ its ratio) at the peak's per-request rate (``peak_tok_s`` ÷ the
    peak); None for a job, a bursty load or no known rate."""
    if c.is_batch or c.load not in DAILY or peak_tok_s <= 0 or c.peak <= 0:
        return None
    return busy_hour_mean(c) * peak_tok_s / c.peak * 3600


def busy_hour_mean(c: Ctx) -> float:
    """The requests in flight the busiest hour averages (``hour_mean``), a steady load's no more than the plan's own
    average (the peak ÷ its ratio). The figure the floor's sentence prints: q08 said "about 21" (the hour's mean)
    beside a month costed on 20 (the steady load's average), s29-lead29."""
    mean = hour_mean(c.peak)
    return min(mean, c.peak / PEAK_FACTOR["stable"]) if c.load == "stable" else mean


def implied_output(c: Ctx, peak_tok_s: float) -> float | None:
    """Output tokens a month the peak implies at the least: one busy hour's output (``hourly_output``) for the
    hours a day (``hours_a_day``) and the days a month (``run_days``) the answers say the service runs; None for a
    job, a bursty load or no known rate."""
    hourly = hourly_output(c, peak_tok_s)
    if hourly is None:
        return None
    return hourly * hours_a_day(c) * run_days(c)[0]


def busy_span(c: Ctx) -> tuple[float, float, str]:
    """(hours a month, hours a busy day, the phrase's key) the load pattern is busy: an internal tool's office hours on working days,
    a public day/night service's busy half of every day (``volume_range``: the hours the volume's low end already
    assumes), a steady load around the clock."""
    if c.load == "stable" and not c.office_steady:
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
    per_hour = hourly_output(c, peak_tok_s)
    full = float(((getattr(costs, "per_million_basis", None) or {}).get("full_output_tokens")) or 0)
    if per_hour is None or full <= 0:
        return None
    hours, a_day, key = busy_span(c)
    return {"share": round(min(1.0, per_hour * hours / full), 4), "hours_a_day": round(a_day), "span": key}


def check(c: Ctx, peak_tok_s: float, costs: Any) -> dict[str, Any] | None:
    """The disagreement, for ``Costs.volume_peak``: the month's output tokens (``used``), the least the peak
    implies (``implied``), the peak, its rate, whether the volume was answered, and the use the busy hours at the
    busiest hour's load would give (``upper``, ``busy_upper``); None where the month is not far below it (or either
    figure is unknown)."""
    implied = implied_output(c, peak_tok_s)
    # an estimate raised to the floor (``floor``) is still the estimate the peak contradicts: the rent reason reads
    # the busy hours at the peak for it as before (s28-volume28); the memo says the floor instead (``sentence``)
    raised = (getattr(costs, "volume_basis", None) or {}).get(FLOOR)
    used = float(raised["estimate"] if raised else costs.output_tokens_per_month or 0)
    if raised and raised.get("nodes") and implied is not None:  # a two-node plan's floor was read on the whole plan
        # before the split, at its setup's per-request rate (``burst.plan_floor``; q34 87M against 73M at the
        # mainland node's): the raise stands
        implied = max(implied, float(raised["implied"]))
    if implied is None or used <= 0 or used >= SHORT * implied:
        return None
    cap = None if raised else users_cap(c)  # the people's most, said where it holds the month (s30-floor30, q17)
    return {"used": used, "implied": implied, "peak": c.peak, "mean": round(busy_hour_mean(c)),
            "rate": round(peak_tok_s, 1), "cap": cap if cap is not None and cap["output"] < implied else None,
            "answered": c.requests_per_day is not None, "hours": hours_a_day(c), "days": run_days(c)[0],
            "upper": busy_upper(c, peak_tok_s, costs), "when": when(c)}


WORKING_WHEN = ("volume28.when.working", "vol42.when.office")  # the floor's keys counting working days


def when(c: Ctx) -> str:
    """The phrase's key for the hours ``implied_output`` counts: around the clock, every day, or working days."""
    if hours_a_day(c) == 24:
        return "volume28.when.always"
    if c.office_steady:  # a staff tool's steady load, through its office hours (``Ctx.office_steady``)
        return "vol42.when.office"
    return "volume28.when." + ("every" if run_days(c)[1].endswith("every") else "working")


def users_cap(c: Ctx) -> dict[str, Any] | None:
    """The most output tokens a month the people the answers count can send (s30-floor30, review 19: q08's ~150 staff
    costed on 860M output tokens a month, q17's 20 people on 16M, about 70 requests a person in the busiest hour):
    the most people (``people_volume.people_range``) each at the office range's high rate every working day
    (``staff_usage.REQUESTS_PER_PERSON``, 40; a contact centre's agents 104). A busiest-hour floor above it asks
    each person for more requests in that one hour than a heavy user sends in a whole day, so no reading of the
    peak makes the month larger; it is the tokens row's own printed high end, so a floored month stays inside the
    range that row states (q33: 150M input above its 26.4M-105.6M). None where the month is not counted by people
    (a public service, an API, requests a day answered), or where the people are not answered (s34-volume36, blind
    review 25, q24: "250 people" read from its own peak of 50 as 15-25 % of them, then "these people cannot send
    that many" held the month under what that peak means; a head count assumed from the peak cannot cap the peak it
    was read from: the stated peak wins, and the assumption beside it asks for the head count)."""
    if not people_volume.applies(c) or not c.answers.users:
        return None
    most = people_volume.people_range(c)[2]
    per = people_volume.rates(c)[2]
    return {"people": most, "per": per, "days": float(days_text(c.load)) if "." in days_text(c.load) else int(days_text(c.load)),
            "day": day_words(c.load), "tokens": c.prompt_avg + c.output_avg,
            "out": c.output_avg, "output": people_volume.output_tokens(c, per, most)}


def floor(c: Ctx, peak_tok_s: float, output: float) -> dict[str, Any] | None:
    """Where an estimated month (``output``, output tokens) is below what the busiest hour implies for the hours the
    service runs: the floor the month is raised to and the figures that multiply out to it (s28-volume28, review 18:
    q09 costed 72M output tokens beside a busiest hour that alone makes 320M, q17 4.4M beside 16M); None where the
    estimate reaches it or the peak implies nothing. A month the answers count (requests a day) is never raised: the
    two answers disagree, and the cost section says so (``check``). The floor is never above what the people can
    send (``users_cap``, s30-floor30): there the month is raised to that cap, said as the people × a heavy user's
    day, and the peak's larger reading is said beside it."""
    implied = implied_output(c, peak_tok_s)
    if implied is None or c.requests_per_day:
        return None
    cap = users_cap(c)
    capped = cap is not None and cap["output"] < implied
    target = float(cap["output"]) if cap is not None and capped else implied
    if output >= NEAR * target and not customers_guessed(c):
        return None
    line = _peak_line(c, peak_tok_s)
    # two significant figures, as the sentence that used to flag it said it ("about 320,000,000"): an estimate
    # printed to the token read as a count (q09's 444,319,993); the peak's line multiplied out from its own rounded
    # figures, so a reader's product is the figure the costs use (review 19: q17 "the row disagrees with its basis")
    peak_month = two_figures(line["mean"] * line["per_hour"] * line["hours"] * line["days"] * c.output_avg)
    raised = float(cap["output"]) if cap is not None and capped else peak_month
    return {"implied": raised, "estimate": output, "estimate_in": c.input_for(output), "peak": c.peak,
            "mean": line["mean"], "when": when(c), "line": line,
            "peak_implied": two_figures(implied) if capped else peak_month,
            "cap": cap if capped else None}


def customers_guessed(c: Ctx) -> bool:
    """Business customers' tool with no head count (s39-tokens41, blind review 31, q42: "'about 200 people ... per
    field notes on staff systems' is wrong for a customer-facing business API; redo it from the customers' request
    volume"): the people behind the peak were read with staff systems' share at once (``staff_usage.ACTIVE_AT_ONCE``),
    which says nothing of customers, so the month is the peak's own reading (its busiest hour, ``floor``), above or
    below that guess, as where the guess was far below it (q12, q21, q24)."""
    return (c.audience == "business" and not c.internal_only and not c.answers.users
            and people_volume.applies(c))


def _peak_line(c: Ctx, peak_tok_s: float) -> dict[str, Any]:
    """The busiest hour's month as figures a reader multiplies out: requests in flight through the hour × requests
    an hour each holds (3,600 s ÷ a request's seconds at the peak's per-request rate) × hours a day × days."""
    per_hour = 3600 * peak_tok_s / c.peak / max(c.output_avg, 1)
    mean = busy_hour_mean(c)  # a small peak's mean to a tenth (a peak of 1: about 0.2, not 0)
    return {"mean": round(mean) if mean >= 3 else round(mean, 1), "per_hour": max(1, round(per_hour)), "hours": hours_a_day(c),
            "days": round(run_days(c)[0]), "tokens": c.prompt_avg + c.output_avg,
            # a staff tool the answers say is steady around the clock: counted so, and asked (s38-usage)
            "staff_clock": c.office_steady}


def two_figures(x: float) -> float:
    """``x`` to the two significant figures ``floor`` says its month in."""
    return float(round(x, 1 - int(math.floor(math.log10(x))))) if x > 0 else x


def people_capped(costs: Any) -> bool:
    """The month was raised to what the people can send (``users_cap``), not to the busiest hour's floor."""
    return bool(((getattr(costs, "volume_basis", None) or {}).get(FLOOR) or {}).get("cap"))


def floor_sentence(costs: Any, lang: str, hosted_form: bool = False) -> str:
    """Where the month was raised to its busiest hour's floor (``floor``): the cost table's one tokens row (""
    where it was not raised). The input / output the costs use first, the line that multiplies out to them (the
    peak's busiest hour, or the people's most where that caps it), then the estimate from the answers in a clause
    saying why it is not used, the cost at it (a hosted API's month) and the ask; the peak's reading beside a
    capped figure. One row, one figure the costs rest on (onebasis36, blind review 25, q34: "'Costed on 290,000,000
    / 87,000,000' beside an estimate of 132M/39.6M. Pick one."; q09: "one volume basis should be picked"): until
    then the tokens row printed the estimate and a "Costed month" row under it the figure used, two totals."""
    raised = (getattr(costs, "volume_basis", None) or {}).get(FLOOR)
    if not raised or not raised.get("line"):
        return ""
    implied, estimate = float(raised["implied"]), float(raised["estimate"])
    # the range's high end kept (the GPU-use row's upper share and a hosted API's "at most" read it): said once as
    # the high end of the month used, not as another month (onebasis36)
    high = float(getattr(costs, "output_tokens_per_month_high", None) or 0)
    ratio = (costs.input_tokens_per_month or 0) / implied if implied else 0.0
    common = {"used": f"{round_money(costs.input_tokens_per_month or 0)} / {round_money(implied)}",
              "peak": raised["peak"], "estimate": f"{round_money(float(raised.get('estimate_in') or 0))} / "
              f"{round_money(estimate)}", "est": _estimate_clause(costs.volume_basis),
              "other": _other(costs, hosted_form, estimate / implied, estimate)}
    # s36-rowtrim (blind review 27, q21: "stated three ways ('140,000,000 / 41,000,000', '660,000,000',
    # '66,000,000'); pick one"; q30/q34: "one figure and a range"): the row is the month used and its high end, in
    # one sentence; the estimate from the answers is the assumptions list's (it says the people and their requests)
    common["high"] = {"tr": "rowtrim38.peak.high", "peak": raised["peak"], "in": about(high * ratio),
                      "out": about(high)} if high * SHORT > implied else ""  # q08's 860M beside 850M: the same reading, not said
    mid = central(costs)
    if common["high"] and mid is not None:  # the floor, the central reading and the high end (s40-volume)
        common["high"] = {**common["high"], "tr": "vol42.peak.high_mid", "min": about(mid * ratio), "mout": about(mid)}
    cap = raised.get("cap")
    if cap:
        return _spaced(render(lang, "rowtrim38.capped", {
            **common, "people": f"{cap['people']:,}", "per": cap["per"], "days": cap["days"],
            "day": cap.get("day") or {"tr": "fleetword33.day.working"},
            "tokens": f"{cap['tokens']:,}", "implied": about(float(raised["peak_implied"])),
            "when": {"tr": raised["when"]}}))
    line = raised["line"]
    # s33-tokens33 (review 21, q09/q24/q34: "64 in flight × 3,804 requests an hour each" could not be followed): the
    # figure the costs use and why first, then the product in plain words: which hours it counts (the busiest hour
    # of each day alone, or a steady load's every hour), a request's seconds beside the requests an hour each, and
    # "working days" only where the days are working days (q08 zh: workdays beside a load "stable around the clock")
    return _spaced(render(lang, "rowtrim38.peak", {
        **common, "mean": line["mean"], "per_hour": f"{line['per_hour']:,}", "secs": _seconds(line["per_hour"]),
        "span": _span(line),
        # the answer ("stable around the clock") said beside the office-hours reading and asked, never overridden
        # silently (s36-rowtrim, blind review 27, q08 en: "follow the answer or ask")
        "ask": _clock_ask(costs, implied) if line.get("staff_clock") else "",
        "days": {"tr": "tokens33.days." + ("working" if raised.get("when") in WORKING_WHEN else "every"),
                 "days": line["days"]},
        "tokens": f"{line['tokens']:,}"}))


MID_OVER_FLOOR = 1.2  # a central reading within a fifth of the floor is the same figure: not said


def central(costs: Any) -> float | None:
    """Output tokens a month at the day/night rule the other estimates use, where the month is the busiest hour's
    floor alone: the high end (the peak held through the busy hours) ÷ the daily peak's ratio (``PEAK_FACTOR``, the
    day's average a third of its peak, as ``volume_range`` reads a daily peak's month) (s40-volume, issue 25, blind
    review 32, q21/q22/q24 zh: "只计每天最忙的一小时 is an odd basis … use the same peak÷3 rule as the other memos";
    q24: "probably understates a SaaS with daytime load"). The costs keep the floor; this is said beside it, so no
    decision rests on the floor alone. None where the month is not that floor, or the central reading is no more."""
    raised = (getattr(costs, "volume_basis", None) or {}).get(FLOOR) or {}
    line = raised.get("line")
    if not line or raised.get("cap") or int(line.get("hours") or 0) != PEAK_HOURS_A_DAY:
        return None
    high = float(getattr(costs, "output_tokens_per_month_high", None) or 0)
    mid = high / PEAK_FACTOR["diurnal"]
    return mid if mid >= MID_OVER_FLOOR * float(raised["implied"]) else None


def _span(line: dict[str, Any]) -> dict[str, Any]:
    """Which hours the busiest hour's month counts: a staff tool's steady load through its office hours
    (``Ctx.office_steady``), a steady load's every hour, or the busiest hour alone."""
    if line.get("staff_clock"):
        return {"tr": "vol42.span.office", "hours": line["hours"]}
    return {"tr": "rowtrim38.span.hours", "hours": line["hours"]} if line["hours"] > 1 else {"tr": "rowtrim38.span.hour"}


def _clock_ask(costs: Any, output: float) -> dict[str, Any]:
    """A staff tool the answers say is steady around the clock: counted over the office hours as its base case, the
    answer said and its month the upper end, and asked (s40-volume, blind review 32, q08: "show the office-hours
    figure as the base case"; review 29 had asked that the answer be said and asked, not changed silently)."""
    share = HOURS_PER_MONTH / OFFICE_HOURS
    return {"tr": "vol42.ask.clock", "in": about(float(costs.input_tokens_per_month or 0) * share),
            "out": about(output * share)}


def _estimate_clause(basis: dict[str, Any]) -> dict[str, Any] | str:
    """The estimate's own basis in a few words (the people × the requests each sends), "" for any other basis: the
    assumptions list says it in full with its range, so the one tokens row names only what it multiplies (the
    range's ends and the in-flight reading are readings of the same answers, not the figure the costs use)."""
    if basis.get("tr") == people_volume.BASIS_KEY:
        who = basis.get("who") or {}
        short = who if isinstance(who, dict) and who.get("tr") == "plan.volume18.who.users" else \
            people_volume.about_people(who) if isinstance(who, dict) and who.get("shares") else \
            {"tr": "onebasis36.who.about", "people": f"{int(basis.get('people') or 0):,}"}
        return {"tr": "onebasis36.est.people", "who": short, "per": basis.get("per"),
                "day": basis.get("day") or {"tr": "fleetword33.day.working"}}
    if basis.get("tr") == "fleet20.public.basis":
        return {"tr": "onebasis36.est.public", "who": basis.get("who"), "per": basis.get("per")}
    if basis.get("tr") == "usage39.public.basis":  # a daily app: its share active a day × their requests (s37-usage39)
        return {"tr": "usage39.est.daily", "who": basis.get("who"), "share": basis.get("share"),
                "per_day": basis.get("per_day")}
    return ""


def _seconds(per_hour: int) -> str:
    """A request's seconds at ``per_hour`` requests an hour each, to two figures ("0.95", "12")."""
    secs = 3600 / max(per_hour, 1)
    return f"{secs:.2g}" if secs < 10 else f"{secs:,.0f}"


def _spaced(text: str) -> str:
    """``text`` with the gap an empty ``{other}`` leaves closed."""
    return re.sub(r" {2,}", " ", text).strip()


def _other(costs: Any, hosted_form: bool, scale: float, volume: float, key: str = "floor30.other") -> dict[str, Any] | str:
    """The cost at the other end of the range (``volume`` output tokens, ``scale`` × the costs' month): a hosted
    API's month, which bills by the token, else a token's output on the plan's own GPUs, which cost the same however
    much they make; "" where neither is priced."""
    cur = costs.currency
    if hosted_form and costs.hosted_api_monthly is not None:
        m = costs.hosted_api_monthly
        return {"tr": f"{key}.hosted", "volume": round_money(volume),
                "cost": _money(m.low * scale, m.high * scale, cur)}
    # no per-million figure at the other reading (s31-permillion31, review 20: q12/q24 "875–1,246 per million at the
    # estimate" beside the cost table's 433–617 on the floor): the GPUs cost the same month either way, and the cost
    # table's one per-million row, labelled with the month it divides, is the figure to read
    return ""


def _money(lo: float, hi: float, cur: str) -> str:
    a, b = round_money(lo), round_money(hi)
    return f"{a} {cur}" if a == b else f"{a}–{b} {cur}"


def sentence(costs: Any, hosted_form: bool, lang: str) -> str:
    """The cost section's sentence on the disagreement ("" where there is none): the figure the costs use and
    why, the least the peak implies, the cost at that reading (a token's output on GPUs of one's own, which the
    same GPUs make cheaper; the month of a hosted API, which bills by the token), and the ask. An estimate
    raised to the busiest hour's floor (``floor``) says that instead: the costs already use the larger figure."""
    vp = getattr(costs, "volume_peak", None)
    if not vp or (getattr(costs, "volume_basis", None) or {}).get(FLOOR):  # raised: ``floor_sentence`` says it
        return ""
    used, implied = float(vp["used"]), float(vp["implied"])
    if vp.get("cap"):  # the peak's reading is more than the people send: said, and the cost at their most
        return _held(costs, vp, hosted_form, lang)
    scale = implied / used
    cur = costs.currency
    other: dict[str, Any] = {"tr": "volpeak26.other.none"}  # each "other" ends on the ask that settles it
    if hosted_form and costs.hosted_api_monthly is not None:
        m = costs.hosted_api_monthly
        other = {"tr": "volpeak26.other.hosted", "cost": _money(m.low * scale, m.high * scale, cur)}
    # a per-million figure at the peak's reading is not said (s31-permillion31): the cost table's one per-million row
    # names the month it divides; the GPUs cost the same at either reading
    return render(lang, "volume28.sentence", {
        "used": round_money(used), "implied": about(implied), "peak": vp["peak"], "mean": vp["mean"],
        "when": {"tr": vp.get("when") or "volume28.when.working"},
        "why": {"tr": "volpeak26.why." + ("answered" if vp["answered"] else "assumed")}, "other": other})


def _held(costs: Any, vp: dict[str, Any], hosted_form: bool, lang: str) -> str:
    """The month kept at its estimate though its peak implies twice as much or more, as the people cannot send that
    (``users_cap``, s30-floor30, q17: 20 people cannot send the 16M their peak of 20 at once makes, about 70
    requests a person in the busiest hour): both readings, the people's most, the cost at it, and the ask."""
    cap, used = vp["cap"], float(vp["used"])
    # one short sentence (s36-rowtrim, blind review 27, q02: "'Your peak of 4 at once would mean more, 6,300,000
    # output tokens…' is too long for a 15-person agency"): the tokens row's range already ends at the people's most
    return _spaced(render(lang, "rowtrim38.held", {
        "used": round_money(used), "peak": vp["peak"], "mean": vp["mean"], "when": {"tr": vp.get("when") or "volume28.when.working"},
        "implied": about(float(vp["implied"])), "people": f"{cap['people']:,}", "per": cap["per"],
        "days": cap["days"], "day": cap.get("day") or {"tr": "fleetword33.day.working"},
        "cap": round_money(float(cap["output"])), "out": f"{cap['out']:,}",
        "other": _other(costs, hosted_form, float(cap["output"]) / used, float(cap["output"]),
                        "floor30.other_cap")}))


__all__ = ["DAILY", "central", "FLOOR", "PEAK_HOURS_A_DAY", "SHORT", "Z", "busy_hour_mean", "busy_span", "customers_guessed", "busy_upper", "check", "floor", "floor_sentence",
           "hour_mean", "hourly_output", "hours_a_day", "implied_output", "run_days", "sentence", "two_figures",
           "users_cap", "when", "people_capped"]
