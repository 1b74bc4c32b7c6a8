"""The hosted-API fix said with its dearest month on the estimated volume's high end, against the budget
(s25-apikept25, issue 25, blind review 15).

q40: "Use a hosted API for this model instead: about 622–982 CNY a month" was the lead fix of a plan over its ¥5,000
budget, while the memo's own finding put the same API at up to ¥11,054 a month on the estimated volume's high end
(the peak read as requests in flight): over the budget, and the fix did not say so. Where the volume is the plan's
estimate with a higher end (``hosted_weigh.high_end_factor``), the fix now says that month, and where a monthly
budget is given, whether it is still within it or straddles it (within at the volume costed, over at the high end:
the real request count decides).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.hosted_weigh import high_end_factor

KEY = "plan.apikept25.fix"


def top_clause(low: float, high: float, factor: float, budget: float | None, currency: str) -> dict[str, Any] | str:
    """The clause after the fix's range: its dearest month at the volume's high end (``high`` × ``factor``), with
    the budget where one is given; "" where the volume has no higher end (``factor`` 1)."""
    if factor <= 1:
        return ""
    top = round(high * factor)
    if budget is None:
        return {"tr": f"{KEY}.top", "top": top, "currency": currency}
    if top <= budget:
        kind = "within"
    elif low <= budget:
        kind = "straddles"
    else:
        kind = "over"
    return {"tr": f"{KEY}.top.{kind}", "top": top, "currency": currency, "budget": round(budget)}


def say_high_end(result: Any, budget: float | None) -> None:
    """The hosted-API fix of ``result`` (an infeasible plan's) with its high end against the budget, in place."""
    costs = result.costs
    if costs is None:
        return
    factor = high_end_factor(costs)
    for fix in result.fixes:
        if fix.id != "hosted_api" or fix.key != "plan.fix.hosted_api" or fix.monthly_cost is None:
            continue
        top = top_clause(fix.monthly_cost.low, fix.monthly_cost.high, factor, budget, str(fix.params.get("currency")))
        if top:
            fix.key, fix.params = f"{KEY}.hosted_api", {**fix.params, "top": top}


__all__ = ["KEY", "say_high_end", "top_clause"]
