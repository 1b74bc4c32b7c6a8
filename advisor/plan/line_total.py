"""The premium line in the monthly total (issue 25, s20-costtoken20).

Ninth blind review, q43: a Hong Kong node on a three-network (CN2 GIA + 9929 + CMIN2) line printed $1.75k-3.65k a
month on page 1 while the line, "often the dominant cost" of such a node, was left out, said only in a finding
further down. A line with a sourced price (BGP multi-line: a cloud's fixed-bandwidth list) is now added to page 1's
figure as a total with the line, its source and grade beside it; a line with none (CN2 GIA, three-network: no dated
public per-Mbps price, advisor.plan.line_cost) stays unknown, never a zero, and page 1 says plainly that the total
excludes it and that the quote must name it. The GPU figure (``recommended_monthly``) is unchanged: the break-even
and the hosted-API comparison stand on the setup as before; ``Costs.monthly_with_line`` carries the total with the
line.

s22-premium22 (re-check 11b: q12, q13, q21, q43 left the line unpriced and out of the total): the premium lines are
priced by region (advisor.plan.line_cost), and the budget is judged on the total with a priced line (``judge``), not
on the GPUs alone; where the line has no price, the budget row says the line is not counted and could push it over
(``budget_clause``), never a silent zero.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burstbill37
from advisor.plan.cost import judge_budget
from advisor.plan.data import gpu_choice_facts
from advisor.plan.line_cost import colo_rate, line_name, stand_in_clause
from advisor.plan.money_text import money_range, round_money
from advisor.plan.node_shapes import OWNED_FORMS
from advisor.plan.result import LineCost, MoneyRange, render

# s22-rentbasis22b (issue 25): which forms pay for a premium line in their monthly figure. A rented setup does (the
# cloud's bandwidth bought apart), and so do servers colocated in a data centre, bought or the team's own (bare metal;
# rent first then buy: the cloud's line, then the data centre's): the data centre bills the BGP or CN2 bandwidth per
# Mbps as a cloud does, so q26's and q31's colocated H20 servers left out a line page 1 named. An office box or a
# hybrid's owned base on the premises (never in colocation: ``in_total``) sits on its own connection, a contract the
# plan neither sees nor prices (and a line to the office, where one is chosen, is the carrier's quote): said left out, never counted as a zero.
ON_PREMISES_LINE = ("on_premises", "hybrid")
assert set(ON_PREMISES_LINE) <= set(OWNED_FORMS)


def in_total(form: str, costs: Any) -> bool:
    """Page 1 shows the monthly figure the line is added to: a form that pays for the line (rented, or colocated in a
    data centre), not an office box on the premises' own connection nor a hosted API. A hybrid whose owned base
    stands in colocation pays the data centre's line as bare metal does (s23-burst23, blind review 12b, q39: "the
    24 Mbps line is left out of the total" beside "Owned servers stand: in a colocation data centre")."""
    if form == "hybrid" and colocated_hybrid(costs):
        return costs.recommended_monthly is not None and not costs.per_job
    return form not in (*ON_PREMISES_LINE, "hosted_api") and costs.recommended_monthly is not None and not costs.per_job


def colocated_hybrid(costs: Any) -> bool:
    """The hybrid's owned base stands in a colocation data centre (``OwnedFormCost.site``), which bills the line."""
    hyb = getattr(costs, "hybrid", None)
    return hyb is not None and hyb.site == "colocation"


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


def judge(costs: Any, line: LineCost | None, form: str, budget: float | None) -> tuple[bool, float, bool] | None:
    """``apply``, then (within, needed, straddles) of the total with a priced line against ``budget``, written into
    ``costs``; None where the line is not in the total (none, unpriced, or a form that states its own rows) or there
    is no budget: the setup's own judgement stands."""
    apply(costs, line, form)
    if budget is None or costs.monthly_with_line is None:
        return None
    return judge_budget(costs, budget, costs.monthly_with_line)


def judged_total(costs: Any) -> MoneyRange | None:
    """The monthly figure the budget was judged on: the total with a priced line, else the setup's own."""
    return costs.monthly_with_line if costs.monthly_with_line is not None else costs.recommended_monthly


def budget_clause(result: Any, lang: str) -> str:
    """After the budget row's verdict: that the priced line is counted in it, or that an unpriced one is not and
    could push the total over (further over where it already is); "" without a premium line in the total."""
    c, line = result.costs, result.line_cost
    if line is None or c.within_budget is None:
        return ""
    if c.monthly_with_line is not None and line.monthly is not None:  # the cost row names the line and its price
        return render(lang, "premium22.budget.line_counted", {})
    if c.line_excluded:
        over = c.within_budget is False or c.budget_straddles
        if over or c.budget_monthly is None or c.recommended_monthly is None:
            return render(lang, "premium22.budget.line_unpriced_over", {"mbps": f"{line.mbps:,.0f}"})
        # within: what the budget leaves for the line above the setup's high end, so the reader sees how far off
        room = round_money(c.budget_monthly - c.recommended_monthly.high)
        return render(lang, "premium22.budget.line_unpriced", {"mbps": f"{line.mbps:,.0f}", "room": f"{room} {c.currency}"})
    return ""


def key_clause(result: Any, lang: str, total: MoneyRange | None = None) -> str:
    """Page 1's cost row, after the setup's figure: the total with the line (its price, source, grade), or that
    the total leaves out an unpriced line; "" without a premium line. ``total``: the row's own total with the line
    where it is not the cost table's (a hybrid whose bursts' overflow goes to a hosted API, ``burst_bill``)."""
    c, line = result.costs, result.line_cost
    if line is None:
        return ""
    name = {"tr": f"plan.line.{line.line}"}
    if c.monthly_with_line is not None and line.monthly is not None:
        src = line.source
        return render(lang, "costtoken20.key.with_line", {
            "line": line_name(line.line, form_of(result)), "line_cost": money_range(line.monthly, c.currency), "mbps": f"{line.mbps:,.0f}",
            "date": src.date if src else "", "grade": (src.grade if src else "U") + stand_in_clause(line, lang),
            "total": money_range(total or c.monthly_with_line, c.currency)}) + commitment_clause(result, lang) \
            + burstbill37.line_clause(result, lang)
    if c.line_excluded:
        return render(lang, "costtoken20.key.line_excluded", {"line": name, "mbps": f"{line.mbps:,.0f}"})
    if form_of(result) in ON_PREMISES_LINE and not (form_of(result) == "hybrid" and colocated_hybrid(c)):
        # the premises' own connection: not the plan's to price (see above)
        return render(lang, "rentbasis22b.key.line_premises", {"line": name, "mbps": f"{line.mbps:,.0f}"})
    return ""


def commitment_clause(result: Any, lang: str) -> str:
    """After a colocated rack's BGP line in the total: the IDC's minimum commitment is not in it, with its source's
    package (100 Mbps a year) as the size it may take (blind review 27, q31: "IDCs sell BGP with minimum
    commitments"; no source states one, so it is said and not billed); "" elsewhere, and where the team's own
    servers already stand in their data centre (``current_fleet``): their bandwidth contract is signed already."""
    line, form = result.line_cost, form_of(result)
    row = gpu_choice_facts()["line_bandwidth"]["prices"].get(f"{line.line}_colo")
    if not colo_rate(line.line, form) or not row or "package_mbps" not in row or line.per_mbps_month is None \
            or (result.answers or {}).get("current_fleet"):
        return ""
    conv = line.per_mbps_month.high / float(row["high"])  # the row's currency to the answer's, as the line's rate
    low, high = float(row["package_year_low"]) / 12 * conv, float(row["package_year_high"]) / 12 * conv
    cost = money_range(MoneyRange(low=low, high=high), line.currency)
    if line.mbps < float(row["package_mbps"]):  # blind review 34 (q26): the low end is that package's bulk rate
        return render(lang, "pb43.lines38_line.commitment_small", {"package": f"{row['package_mbps']:,}",
                                                                   "mbps": f"{line.mbps:,.0f}", "cost": cost})
    return render(lang, "lines38_line.commitment", {"mbps": f"{row['package_mbps']:,}", "cost": cost})


def form_of(result: Any) -> str:
    """The result's deployment form ("" where it has none)."""
    return str(getattr(result, "deployment_form", "") or "")


__all__ = ["ON_PREMISES_LINE", "apply", "budget_clause", "colocated_hybrid", "form_of", "in_total", "judge", "judged_total", "key_clause",
           "commitment_clause"]
