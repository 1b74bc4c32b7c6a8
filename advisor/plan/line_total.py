"""The premium line in the monthly total (issue 25, s20-costtoken20).

Ninth blind review, q43: a Hong Kong node on a three-network (CN2 GIA + 9929 + CMIN2) line printed $1.75k-3.65k a
month on page 1 while the line, "often the dominant cost" of such a node, was left out, said only in a finding
further down. A line with a sourced price (BGP multi-line: a cloud's fixed-bandwidth list) is now added to page 1's
figure as a total with the line, its source and grade beside it; a line with none (CN2 GIA, three-network: no dated
public per-Mbps price, advisor.plan.line_cost) stays unknown, never a zero, and page 1 says plainly that the total
excludes it and that the quote must name it. The GPU figure (``recommended_monthly``) is unchanged: the budget check,
the break-even and the hosted-API comparison stand on the setup as before; ``Costs.monthly_with_line`` carries the
total with the line.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.money_text import money_range
from advisor.plan.node_shapes import OWNED_FORMS
from advisor.plan.result import LineCost, MoneyRange, render


def in_total(form: str, costs: Any) -> bool:
    """Page 1 shows the monthly figure the line is added to (a rented setup; an owned form states its own rows)."""
    return form not in (*OWNED_FORMS, "hosted_api") and costs.recommended_monthly is not None and not costs.per_job


def apply(costs: Any, line: LineCost | None, form: str) -> None:
    """``costs.monthly_with_line``: the recommended monthly cost + the line's, where the line is priced and shown
    in the total; ``costs.line_excluded``: a premium line with no sourced price (the total leaves it out)."""
    costs.monthly_with_line, costs.line_excluded = None, False
    if line is None or not in_total(form, costs):
        return
    if line.monthly is None:
        costs.line_excluded = True
        return
    m = costs.recommended_monthly
    costs.monthly_with_line = MoneyRange(low=round(m.low + line.monthly.low, 2), high=round(m.high + line.monthly.high, 2))


def key_clause(result: Any, lang: str) -> str:
    """Page 1's cost row, after the setup's figure: the total with the line (its price, source, grade), or that
    the total leaves out an unpriced line; "" without a premium line."""
    c, line = result.costs, result.line_cost
    if line is None:
        return ""
    name = {"tr": f"plan.line.{line.line}"}
    if c.monthly_with_line is not None and line.monthly is not None:
        src = line.source
        return render(lang, "costtoken20.key.with_line", {
            "line": name, "line_cost": money_range(line.monthly, c.currency), "mbps": f"{line.mbps:,.0f}",
            "date": src.date if src else "", "grade": src.grade if src else "U",
            "total": money_range(c.monthly_with_line, c.currency)})
    if c.line_excluded:
        return render(lang, "costtoken20.key.line_excluded", {"line": name, "mbps": f"{line.mbps:,.0f}"})
    return ""


__all__ = ["apply", "in_total", "key_clause"]
