"""The network line in a hosted-API lead's monthly figure (s28-memo28, issue 25; blind review 17, q21).

Under an API lead the team's own service still runs on a host in the plan's region and streams the answers to its
users over the plan's network line: the API replaces the GPUs, not the line. q21's page 1 led with "about ¥30–69 a
month" for a Hong Kong front end whose three-network line alone costs ¥1,257–3,493 a month (the cost row's own
figure), against "¥10,407–14,809 for this plan", a figure without that line too. Where the plan's line has a price
(``LineCost.monthly``, the one page 1's cost row adds), the lead now says it beside both figures: the API's month
plus the line, and this plan's month plus the same line. The comparison, the break-even and the lead's choice are
unchanged: the same line is on both sides.

s35-apicost (blind review 26, q12, q13, q21, q22, q36): the host's own server is priced too (``front_host37``: a
2–4 vCPU VM's list price in the region; none for the mainland, where it stays a quote), and the lead's price bullet
opens on the path's whole month, API + host + line, each part named after it ("put the full total first").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import front_host37, gpus_alone40
from advisor.plan.line_cost import WITH_HOST, stand_in_param
from advisor.plan.money_text import symbol_range
from advisor.plan.result import LineCost, StartWith


def with_line(start: StartWith | None, line: LineCost | None, region: str, costs: Any = None) -> StartWith | None:
    """``start`` with its lead's month made the path's whole month: the API's tokens, the host that runs the
    service in front of it (``front_host37``) and the priced line, each named, their total first (s35-apicost,
    blind review 26, q12: "put the full total first"); unchanged where the lead is not a live service's API lead,
    or neither the host nor the line has a price. With ``costs`` (the plan's, for the monthly budget), the total is
    judged against the budget there, so page 1's budget check is not only the self-hosted plan's (review 21, q21)."""
    if start is None or start.form != "hosted_api" or not start.key.startswith(LIVE_LEADS):
        return start
    currency = str(getattr(costs, "currency", None) or (line.currency if line is not None else "USD"))
    priced = line is not None and line.monthly is not None and line.line != "any" and line.monthly.high > 0 \
        and line.currency == currency
    # a mainland + overseas plan's line is its mainland node's (``line_cost``): said of that host, priced there
    where = "mainland" if region == "mainland_plus_overseas" else region
    host = front_host37.price(where, currency)
    month = start.params.get("month37")
    if not (priced or host is not None) or not isinstance(month, list):
        return start
    params: dict[str, Any] = dict(start.params)
    place = {"tr": f"plan.region.{where}"}
    parts: list[dict[str, Any]] = []
    lo, hi = round(month[0]), round(month[1])  # the figures as printed (whole units): the reader's sum agrees
    host_money = line_money = ""
    if host is not None:
        host_money = symbol_range(host.low, host.high, currency)
        parts.append({"tr": host_part(host), "host": host_money, "region": place, "grade": host.source.grade})
        lo, hi = lo + round(host.low), hi + round(host.high)
    if priced:
        assert line is not None and line.monthly is not None
        line_money = symbol_range(line.monthly.low, line.monthly.high, currency)
        parts.append({"tr": f"apicost37_lead.part.{'line' if host is not None else 'line_host'}", "cost": line_money,
                      "line": {"tr": f"plan.line.{line.line}"}, "region": place,
                      "stand_in": stand_in_param(line, paren=True) or _after_move(costs, line, currency)})
        lo, hi = lo + round(line.monthly.low), hi + round(line.monthly.high)
        params["plan"] = {"tr": "memo28.lead.plan_line", "plan": gpus_alone40.bare(params.get("plan", ""))}
        if host is not None and line.line in WITH_HOST:  # one provider's quote, the two prices its stand-ins
            parts = [_together(host, line, place, currency, costs, (round(month[0]), round(month[1])))]
    # what the path needs but has no price (q13's line, the mainland's host): the total is before it, said so,
    # and judged against no budget (unknown stays unknown)
    no_line = line is not None and line.line != "any" and not priced
    whole: dict[str, Any] = {"tr": "apicost37_lead.whole.no_line"} if no_line else \
        {"tr": "apicost37_lead.whole.no_host"} if host is None else \
        {"tr": "apicost37_lead.whole.all", "verdict": _verdict(hi, lo, costs, currency)}
    joined = parts[0] if len(parts) == 1 else {"tr": "apicost37_lead.parts.both", "host": parts[0], "line": parts[1]}
    params["cost37"] = {"total": symbol_range(lo, hi, currency), "parts": joined, "whole": whole, "lo": lo, "hi": hi,
                        "host": host_money, "line": line_money, "region": place, "no_line": no_line,
                        "grade": host.source.grade if host is not None else "",
                        "vendor": host.vendor if host is not None else ""}
    return start.model_copy(update={"params": params})


def host_part(host: front_host37.HostPrice) -> str:
    """The key that says the host's month with the list it is read from: AWS's, or (the mainland, s42-api, blind
    review 35, q36) Alibaba Cloud's as a third-party guide reads it."""
    return "apicost37_lead.part.host" if host.vendor == "aws" else f"api44.lead.part.host.{host.vendor}"


def _together(host: front_host37.HostPrice, line: LineCost, place: dict[str, Any], currency: str,
              costs: Any, tokens: tuple[int, int] | None = None) -> dict[str, Any]:
    """The host and its premium line as one price (s37-hostline, blind review 28, q12/q13): such a line is sold with
    the provider's own hosts (``WITH_HOST``), so the host is quoted with it; the AWS VM's list price and the carrier
    table's rates are said as what stands in until that quote comes. A line priced at another region's rates
    (Singapore at Hong Kong's) says a quote there may be dearer, to get before promising users a latency over it
    (review 28, q13: "get a real quote before promising mainland sellers a 38–60 ms path")."""
    assert line.monthly is not None
    stand_in: dict[str, Any] | str = ""
    if line.stand_in_from:
        stand_in = {"tr": "hostline39_lead.stand_in", "from": {"tr": f"plan.region.{line.stand_in_from}"},
                    "region": {"tr": f"plan.region.{line.stand_in_for}"}}
    return {"tr": "hostline39_lead.part.together", "region": place, "line": {"tr": f"plan.line.{line.line}"},
            "both": symbol_range(round(host.low) + round(line.monthly.low), round(host.high) + round(line.monthly.high),
                                 currency),
            "host": symbol_range(host.low, host.high, currency), "grade": host.source.grade,
            "cost": symbol_range(line.monthly.low, line.monthly.high, currency),
            "from": {"tr": f"plan.region.{line.stand_in_from}"} if line.stand_in_from else place,
            "stand_in": stand_in, "after": _then_path(_inside(_after_move(costs, line, currency)), costs, tokens,
                                                      currency)}


def _then_path(after: dict[str, Any] | str, costs: Any, tokens: tuple[int, int] | None,
               currency: str) -> dict[str, Any] | str:
    """The move's line said with the API path's month after it: the tokens and the mainland's line, the mainland host
    apart as a quote (``front_host37`` has no mainland row) (rv43, blind review 34, q21: "the cost after migration is
    given only for self-hosting")."""
    then = getattr(getattr(costs, "phased", None), "then_line_monthly", None)
    if not isinstance(after, dict) or then is None or tokens is None:
        return after
    total = symbol_range(tokens[0] + round(then.low), tokens[1] + round(then.high), currency)
    return {"tr": "rv43.lead.then_path", "move": after, "total": total,
            "split44": _split(costs.phased, tokens, (round(then.low), round(then.high)), currency)}


def _split(phased: Any, tokens: tuple[int, int], then: tuple[int, int], currency: str) -> dict[str, Any]:
    """What the price bullet needs to say the API path's month until the move and after it apart, with its first
    year's total (cst44, blind review 35, q21: "split it into 'until the move' and 'after the move' lines"; "give a
    12-month total for the recommended API path, as the memo does for the self-hosted fallback"). The months until the
    move are the plan's own (``PhasedCost``: whole months billed offshore); the until-move month is added by the
    bullet (``lead_bullets``), which knows the host and line parts; here the after-move month (tokens + line)."""
    return {"then": symbol_range(tokens[0] + then[0], tokens[1] + then[1], currency), "then_lo": then[0] + tokens[0], "then_hi": then[1] + tokens[1],
            "first_lo": phased.first_months_low, "first_hi": phased.first_months_high, "months": phased.months,
            "move_low": phased.move_day_low, "move_high": phased.move_day_high,
            "line": {"tr": f"plan.line.{phased.then_line}"}, "line_cost": symbol_range(*then, currency)}


def _inside(after: dict[str, Any] | str) -> dict[str, Any] | str:
    """The move to the mainland's line said inside the stand-ins' bracket ("…; then BGP multi-line, …"), not as a
    second bracket after it (q21)."""
    return {**after, "tr": "hostline39_lead.after_move"} if isinstance(after, dict) else after


def _after_move(costs: Any, line: LineCost, currency: str) -> dict[str, Any] | str:
    """" (BGP multi-line, ¥92–¥320, after the move to the mainland)": a plan launched offshore and moved to the
    mainland once the ICP filing is issued (``PhasedCost``) moves the API path's host too (its data-path bullet),
    and its line drops to the mainland's (blind review 27, q21: "the ¥1,257–¥3,493 three-network line should be
    shown dropping to BGP after the move"); "" where there is no such move or the mainland line has no price."""
    phased = getattr(costs, "phased", None)
    then = getattr(phased, "then_line_monthly", None)
    if phased is None or then is None or not phased.then_line or phased.then_line == line.line \
            or phased.first_line != line.line:
        return ""
    return {"tr": "lines38_line.after_move", "line": {"tr": f"plan.line.{phased.then_line}"},
            "cost": symbol_range(then.low, then.high, currency)}


def _verdict(hi: int, lo: int, costs: Any, currency: str) -> dict[str, Any] | str:
    """", within your ¥40,000 budget" for the path's whole month where a monthly budget is known (never "within"
    where the range's top is over it)."""
    budget = getattr(costs, "budget_monthly", None)
    if budget is None or getattr(costs, "currency", None) != currency:
        return ""
    verdict = "within" if hi <= budget else "over_top" if lo <= budget else "over"
    sym = "¥" if currency == "CNY" else "$"
    return {"tr": "apicost37_lead.verdict", "verdict": {"tr": f"headline33.lead.budget.{verdict}", "budget": f"{sym}{budget:,.0f}"}}


# the live service's API leads (a batch job's lead has no users to stream to, and a kept plan's reason no API month)
LIVE_LEADS = ("plan.apilead21.", "plan.apisg23.", "apinext32.lead.")  # the last: s32-apinext32

__all__ = ["LIVE_LEADS", "with_line"]
