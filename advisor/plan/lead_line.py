"""The network line in a hosted-API lead's monthly figure (s28-memo28, issue 25; blind review 17, q21).

Under an API lead the team's own service still runs on a host in the plan's region and streams the answers to its
users over the plan's network line: the API replaces the GPUs, not the line. q21's page 1 led with "about ¥30–69 a
month" for a Hong Kong front end whose three-network line alone costs ¥1,257–3,493 a month (the cost row's own
figure), against "¥10,407–14,809 for this plan", a figure without that line too. Where the plan's line has a price
(``LineCost.monthly``, the one page 1's cost row adds), the lead now says it beside both figures: the API's month
plus the line, and this plan's month plus the same line. The host's own server has no price here (no CPU-server row
in the price list): said so, never counted as a zero. The comparison, the break-even and the lead's choice are
unchanged: the same line is on both sides.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import LineCost, StartWith


def with_line(start: StartWith | None, line: LineCost | None, region: str, costs: Any = None) -> StartWith | None:
    """``start`` with its lead's figures naming the priced line its service needs; unchanged where the lead is not a
    live service's API lead, or the line is not priced (or is "any line", which costs nothing apart). With
    ``costs`` (the plan's, for the API's month and the monthly budget), the API's month with the line is judged
    against the budget there, so page 1's budget check is not only the self-hosted plan's (blind review 21, q21)."""
    if start is None or start.form != "hosted_api" or not start.key.startswith(LIVE_LEADS):
        return start
    if line is None or line.monthly is None or line.line == "any" or line.monthly.high <= 0:
        return start
    params: dict[str, Any] = dict(start.params)
    params["top"] = {"tr": "memo28.lead.top_line", "top": params.get("top", ""),
                     "cost": _lead_money(line.monthly.low, line.monthly.high, line.currency), "line": {"tr": f"plan.line.{line.line}"},
                     # a mainland + overseas plan's line is its mainland node's (``line_cost``): said of that host
                     "region": {"tr": f"plan.region.{'mainland' if region == 'mainland_plus_overseas' else region}"}}
    params["plan"] = {"tr": "memo28.lead.plan_line", "plan": params.get("plan", "")}
    params["top"] = _with_budget(params["top"], str(params.get("hosted", "")), line, costs)
    return start.model_copy(update={"params": params})


def _with_budget(top: dict[str, Any], said: str, line: LineCost, costs: Any) -> dict[str, Any]:
    """The lead's API-plus-line figure with its own budget check, where a monthly budget and the API's month are
    known: "… in all, within your ¥40,000 budget" (never "within" where the range's top is over it). Only where the
    lead's API figure (``said``) is the cost's own month: a lead priced on another model's list (``apinext32``)
    prints that model's month, and a total of the other would not add up to what the reader sees."""
    hosted = getattr(costs, "hosted_api_monthly", None)
    budget = getattr(costs, "budget_monthly", None)
    if hosted is None or budget is None or line.monthly is None or getattr(costs, "currency", None) != line.currency:
        return top
    if _lead_money(hosted.low, hosted.high, line.currency) != said:
        return top
    # the sum of the two figures as printed (whole units), so the reader's own addition agrees
    lo, hi = round(hosted.low) + round(line.monthly.low), round(hosted.high) + round(line.monthly.high)
    verdict = "within" if hi <= budget else "over_top" if lo <= budget else "over"
    sym = "¥" if line.currency == "CNY" else "$"
    return {**top, "tr": "headline33.lead.top_line_budget", "total": _lead_money(lo, hi, line.currency),
            "verdict": {"tr": f"headline33.lead.budget.{verdict}", "budget": f"{sym}{budget:,.0f}"}}


def _lead_money(lo: float, hi: float, currency: str) -> str:
    """As the lead prints its own figures (``rule_base._range``): "¥1,257–¥3,493", one figure where both ends agree."""
    sym = "¥" if currency == "CNY" else "$"
    a, b = f"{sym}{lo:,.0f}", f"{sym}{hi:,.0f}"
    return a if a == b else f"{a}–{b}"


# the live service's API leads (a batch job's lead has no users to stream to, and a kept plan's reason no API month)
LIVE_LEADS = ("plan.apilead21.", "plan.apisg23.", "apinext32.lead.")  # the last: s32-apinext32

__all__ = ["LIVE_LEADS", "with_line"]
