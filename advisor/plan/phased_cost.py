"""Launch offshore, then move to the mainland (issue 25, q21): the plan's two phases costed as the plan tells them.

A mainland service whose ICP filing cannot finish by the deadline launches on a Hong Kong node and moves to a
mainland node once the filing number is issued (the timeline's ``mainland_move`` step). Its cost table used to bill
the Hong Kong node for the whole horizon and never priced the mainland one. Here:

- **Months before the move**: the move step's days (filing + setup) in whole months billed, rounded up (a node is
  rented by the month; 43–75 days bill 2–3 months).
- **Each phase a month**: the same setup (GPU, layout, replicas) at the plan's recommended price, the first phase
  in the launch region, the second from the mainland's own rows; an unpriced part stays unknown, never 0.
- **Lines**: each phase's line at its own price where one is sourced; the first year's "in all" includes both where
  both are priced (as page 1's total does), and otherwise says it is the GPU rent alone and names the lines it leaves
  out (s24-prices24, round 13: q21's row said "in all" of the rent alone).
- **The first year** (or a shorter horizon): the launch node for the months before the move, then the mainland
  node; the low end pairs the cheap ends with whichever month count is cheaper, the high end the dear ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan.money_text import money_range
from advisor.plan.regions import MAINLAND_REGIONS
from advisor.plan.result import MoneyRange, PhasedCost, Timeline, render

DAYS_PER_MONTH = 30.4
YEAR = 12


def _conv(out: Any) -> tuple[float, float] | None:
    """The recommended cloud price a month in the answers' currency (``CostOutcome.cloud_usd`` × ``conv``)."""
    lo, hi = out.cloud_usd
    if lo is None or hi is None:
        return None
    return lo * out.conv, hi * out.conv


def _mr(lo: float, hi: float) -> MoneyRange:
    return MoneyRange(low=round(lo, 2), high=round(hi, 2))


def phases(region: str, region_reason: str, form: str, out: Any, timeline: Timeline, horizon: int,
           mainland_cost: Callable[[], tuple[Any, Any]], lines: tuple[str, str], line_monthly: Callable[[str], Any],
           first_gpu: str = "") -> tuple[PhasedCost, list[Any]] | None:
    """The two phases and the mainland price rows used (for the price table), or None where the plan does not move
    (no ``mainland_move`` step: already on the mainland, or offshore for another reason) or is not rented.
    ``mainland_cost``: (cost outcome, setup) of the mainland node, (None, None) where none is priced; ``lines``:
    (launch line, mainland line); ``line_monthly``: a line's cost outcome (``LineCost`` or None); ``first_gpu``: the
    launch node's part (a mainland node on another part says which)."""
    if region_reason != "icp_deadline" or region in MAINLAND_REGIONS or form != "cloud":
        return None
    move = next((i for i in timeline.items if i.id == "mainland_move"), None)
    first = _conv(out) if out is not None else None
    if move is None or first is None or move.days_low is None or move.days_high is None:
        return None  # a move of unknown length: no months to bill, never 0
    year = max(1, min(YEAR, horizon))
    m_lo = min(year, max(1, math.ceil(move.days_low / DAYS_PER_MONTH)))
    m_hi = min(year, max(m_lo, math.ceil(move.days_high / DAYS_PER_MONTH)))
    main, cand = mainland_cost()
    then = _conv(main) if main is not None else None
    first_line, then_line = (line_monthly(x) for x in lines)
    total = None
    if then is not None:
        ends = [(first[0] * m + then[0] * (year - m), first[1] * m + then[1] * (year - m)) for m in (m_lo, m_hi)]
        total = _mr(min(e[0] for e in ends), max(e[1] for e in ends))
    with_lines = _with_lines(first, then, year, (m_lo, m_hi), getattr(first_line, "monthly", None),
                             getattr(then_line, "monthly", None)) if then is not None else None
    rows = [r for r in main.costs.prices if r.kind == "on_demand" and r.region == "mainland"] if main else []
    other = then is not None and cand is not None and bool(first_gpu) and cand.gpu.id != first_gpu
    return PhasedCost(
        first_region=region, first_months_low=m_lo, first_months_high=m_hi, first_monthly=_mr(*first),
        move_day_low=move.days_low, move_day_high=move.days_high,
        then_monthly=_mr(*then) if then is not None else None, first_line=lines[0], then_line=lines[1],
        first_line_monthly=getattr(first_line, "monthly", None), then_line_monthly=getattr(then_line, "monthly", None),
        months=year, total=total, then_stand_in=bool(rows) and all(r.grade == "U" and not r.user_quote for r in rows),
        then_gpu=cand.gpu.id if other else None, then_gpu_name=cand.gpu.name if other else None,
        then_gpus=cand.total_gpus if other else None, total_with_lines=with_lines,
    ), rows


def _with_lines(first: tuple[float, float], then: tuple[float, float], year: int, months: tuple[int, int],
                first_line: MoneyRange | None, then_line: MoneyRange | None) -> MoneyRange | None:
    """The first year with each phase's line for its own months, the ends paired as ``total`` pairs them; None where
    either line has no price (the total then says the lines are apart)."""
    if first_line is None or then_line is None:
        return None
    ends = [((first[0] + first_line.low) * m + (then[0] + then_line.low) * (year - m),
             (first[1] + first_line.high) * m + (then[1] + then_line.high) * (year - m)) for m in months]
    return _mr(min(e[0] for e in ends), max(e[1] for e in ends))


def cumulative(p: PhasedCost, month: int) -> tuple[float, float] | None:
    """Rent paid by the end of ``month`` (low, high): the launch node until the move, the mainland node after it,
    each end at whichever month count makes it lowest or highest; None where the mainland node is unpriced."""
    if p.then_monthly is None:
        return None
    ends = [(p.first_monthly.low * min(month, m) + p.then_monthly.low * max(0, month - m),
             p.first_monthly.high * min(month, m) + p.then_monthly.high * max(0, month - m))
            for m in (p.first_months_low, p.first_months_high)]
    return min(e[0] for e in ends), max(e[1] for e in ends)


def rebase_series(p: PhasedCost, series: list[Any]) -> None:
    """The cumulative cost chart's renting line along the two phases (it drew the launch node for every month)."""
    for point in series:
        got = cumulative(p, point.month)
        if got is not None:
            point.cloud_low, point.cloud_high = round(got[0], 0), round(got[1], 0)


def _months(p: PhasedCost) -> str:
    lo, hi = p.first_months_low, p.first_months_high
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def _days(p: PhasedCost) -> str:
    """The move's day from today, the figure the months are billed from and the timeline's move step shows (s28-memo28,
    review 17, q21: "first 1–2 months" read against a timeline summed to ~75 days)."""
    lo, hi = p.move_day_low, p.move_day_high
    if lo is None or hi is None:
        return "—"
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def key_text(p: PhasedCost, currency: str, lang: str) -> str:
    """Page 1's cost row, after the launch region's figure: the month after the move and the first year, labelled."""
    region = {"tr": f"plan.region.{p.first_region}"}
    if p.then_monthly is None or p.total is None:  # never a 0: the month after the move is unknown, said so
        return render(lang, "phases19.key.unpriced", {"region": region, "months": _months(p), "days": _days(p)})
    params = {"region": region, "months": _months(p), "days": _days(p), "then": money_range(p.then_monthly, currency),
              "n": p.months,
              "total": money_range(p.total, currency)}
    if p.total_with_lines is not None:  # page 1's month is given with the line: so is the year (round 13, q21)
        return render(lang, "phases23.key.with_lines", {**params, "total": money_range(p.total_with_lines, currency)})
    return render(lang, "phases23.key.lines_apart", params)


def _line(line: str, monthly: MoneyRange | None, currency: str) -> dict[str, Any]:
    if monthly is None:
        return {"tr": "phases19.line.unpriced", "line": {"tr": f"plan.line.{line}"}}
    return {"tr": "phases19.line.priced", "line": {"tr": f"plan.line.{line}"}, "cost": money_range(monthly, currency)}


def cost_row(p: PhasedCost, currency: str, lang: str) -> tuple[str, str]:
    """The cost table's row: each phase with its months and monthly figure, the steady month, the total, the lines."""
    params: dict[str, Any] = {
        "region": {"tr": f"plan.region.{p.first_region}"}, "months": _months(p), "days": _days(p),
        "first": money_range(p.first_monthly, currency), "n": p.months,
        "first_line": _line(p.first_line, p.first_line_monthly, currency),
        "then_line": _line(p.then_line, p.then_line_monthly, currency),
        "stand_in": {"tr": "phases19.stand_in"} if p.then_stand_in else "",
        "setup": {"tr": "phases19.setup.same"} if p.then_gpu is None else {
            "tr": "phases19.setup.other", "n": p.then_gpus or 0, "gpu": p.then_gpu_name or p.then_gpu},
    }
    if p.then_monthly is None or p.total is None:
        return render(lang, "phases19.row.label", {}), render(lang, "phases19.row.unpriced", params)
    # the year's "in all" includes both nodes' lines where both are priced, as page 1's does (round 13, q21: the row's
    # "12 months in all" was the GPU rent alone beside page 1's total with the lines); else it says it is rent only
    with_lines = p.total_with_lines is not None
    params.update(then=money_range(p.then_monthly, currency),
                  total=money_range(p.total_with_lines if with_lines else p.total, currency))
    key = "prices24.phases.row.with_lines" if with_lines else "prices24.phases.row.lines_apart"
    return render(lang, "phases19.row.label", {}), render(lang, key, params)


__all__ = ["cost_row", "cumulative", "key_text", "phases", "rebase_series"]
