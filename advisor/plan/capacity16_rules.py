"""Capacity rules of the fifth blind review (s16-capacity), registered into ``rule_base.RULES`` on import (``rules``
imports this module at its end); metadata and sources in ``resources/plan/gpu_choice.json``.

- ``sizing.single_point``: the service runs on one server or cloud VM with no spare: said plainly, with what a second
  one costs; recommended where the budget covers it (q03: a clinical tool on one 4-card server, q41: a call centre
  on one A10, q35: one 8 × H20 node "although the budget easily covers a second").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import (
    budget_fit43,
    budget_share,
    line_total,
    spare_card,
    spare_over_budget,
    spare_paid_once42,
    spare_smaller42,
)
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _money, _range, finding, rule


def _amount(r: tuple[float, float], f: Facts) -> str:
    lo, hi = r
    return _money(lo, f) if round(lo) == round(hi) else _range(lo, hi, f)


def upgrade(f: Facts) -> dict[str, Any] | None:
    """A rented plan that left its N+1 spare server out for the budget (``spare_over_budget``): the two servers'
    month at the same (monthly) prices and their share within the budget, as the named upgrade; None otherwise."""
    s, ch, budget = f.second_unit, f.chosen, f.ctx.budget_amount
    if s is None or ch is None or budget is None or f.cost is None or spare_over_budget.figures(ch) is None:
        return None
    own = line_total.judged_total(f.cost.costs)  # with the priced line, as the budget finding's range
    if own is None:
        return None
    lo, hi = own.low + s.monthly[0], own.high + s.monthly[1]
    # the one server led, said plainly beside the upgrade (s32-headline33, blind review 21, q10): its own month, and
    # "over the budget at the top" wherever the range's top crosses it (never "within budget" then)
    over = own.high > budget
    # blind review 34 (q10): the quote each fits the budget at, not a share of its range (budget_fit43)
    fit = budget_fit43.quote_at(f.cost.costs, own.low, own.high, budget) if over else None
    fit_two = budget_fit43.quote_at(f.cost.costs, lo, hi, budget)
    one_budget = {"tr": budget_fit43.key("headline33.one_budget." + ("over_top" if over else "within"), fit),
                  "budget": _money(budget, f), "pct": budget_share.percent(own.low, own.high, budget),
                  **({"fit": fit} if fit else {})}
    return {"two": _range(lo, hi, f), "budget": _money(budget, f), "pct": budget_share.percent(lo, hi, budget),
            **({"fit_two": fit_two} if fit_two else {}),
            "gpus": 2 * int(ch.total_gpus), "gpu": ch.gpu.name, "one_total": _range(own.low, own.high, f),
            "one_budget": one_budget}


@rule("sizing.single_point", "sizing")
def single_point(f: Facts) -> Finding | None:
    """One server/VM and no N+1 spare (an internal tool; a paid, public or business service gets N+1 from
    ``sizing.redundancy``): one failure stops the service. The second unit's cost, and a recommendation to add it
    when every budget given covers it."""
    s = f.second_unit
    ch = f.chosen
    if s is None or ch is None:
        return None
    capex = {"tr": "plan.capacity16.single_point.capex", "capex": _amount(s.capex, f)} if s.capex else ""
    # which budget decides, said (a purchase judged on the monthly budget is spread over the horizon; two servers
    # that straddle a one-off budget fit only at the low end of the quotes)
    budget = _money(s.capex_budget if s.basis == "capex" else s.budget or 0, f)
    # not in the plan: the team's call, so the downtime it accepts is asked for in writing (``spare_policy``: a
    # single unit stays only where no one accepts that risk unawares; round 13, q35/q38)
    if s.covered is None:
        verdict: dict = {"tr": "plan.redund24.sp.no_budget"}
    elif s.covered:
        verdict = {"tr": f"plan.redund24.sp.covered_{s.basis}", "budget": budget, "months": f.ctx.duration_months}
    elif s.straddles and s.capex is not None:
        verdict = {"tr": "plan.redund24.sp.straddles", "budget": budget,
                   "two": _range(2 * s.capex[0], 2 * s.capex[1], f)}
    elif s.capex is None and (up := upgrade(f)) is not None:  # the spare the budget does not carry: the upgrade
        verdict = {"tr": budget_fit43.key("q10lead32.sp.upgrade", up.get("fit_two")), **up}
    else:  # over the budget: a spare card costed against it, or the vendor's advance replacement (q17, review 20b)
        verdict = spare_card.shelf_verdict(s, lambda v: _money(v, f), lambda lo, hi: _range(lo, hi, f))
        if verdict.get("months", 0) is None:
            verdict["months"] = f.ctx.duration_months
        if verdict.get("tr") == "campus32.sp.card_over":  # beside the smaller box page 1 names (review 32, q17)
            verdict["small"] = spare_smaller42.clause(s, ch, lambda lo, hi: _range(lo, hi, f))
    if s.added:  # recommended, so in the plan: the hardware and cost rows count it (s17-prices, q41)
        lay = ch.layout
        # why it is in the plan (``spare_policy.second_unit_reason``): level-3 hot redundancy, or a basic-ops team
        added = "added_ops" if s.reason == "basic_ops" else "added"
        return finding("sizing.single_point", variant=added, one={"tr": f"plan.capacity16.unit.{s.unit}"},
                       gpus=lay.load_gpus, gpu=ch.gpu.name, monthly=_amount(s.monthly, f), capex=capex,
                       verdict={**verdict, "tr": f"plan.prices17.single_point.fits_{s.basis}"})  # fmt: skip
    variant = "covered" if s.covered else None
    if s.covered and s.capex is not None and s.basis in ("capex", "monthly") and spare_card.optional(f.ctx):
        # a small internal tool: the bought second server is an option, not advice (q02, blind review 20b)
        variant, verdict = "optional", {**verdict, "tr": f"campus32.sp.optional_{s.basis}", "peak": f.ctx.peak}
    if s.covered and spare_paid_once42.applies(f):  # on the budget row's basis: paid once, signed off (review 32, q02)
        verdict = {**verdict, "tr": spare_paid_once42.verdict(verdict["tr"], f)}
    return finding("sizing.single_point", variant=variant, severity="warning" if variant == "covered" else None,
                   one={"tr": f"plan.capacity16.unit.{s.unit}"}, replicas=ch.replicas, gpus=ch.total_gpus,
                   gpu=ch.gpu.name, monthly=_amount(s.monthly, f), capex=capex, verdict=verdict,
                   costs=_second_costs(f, s, capex))  # fmt: skip


def _second_costs(f: Facts, s: Any, capex: Any) -> dict[str, Any]:
    """What the second unit costs: its figures, or "as much again as this one" where they are the plan's own to the
    figure (blind review 35, q01/q10/q17: the plan's cost said again in this finding beside the cost finding and the
    cost row; a bought server is the same server again, a rented one the plan's month again)."""
    own = f.cost.costs.recommended_monthly if f.cost is not None else None
    same = s.capex is not None or (own is not None and _amount(s.monthly, f) == _amount((own.low, own.high), f))
    if same:
        return {"tr": "rep44.second.same_bought" if s.capex is not None else "rep44.second.same_rented"}
    return {"tr": "rep44.second.costs", "monthly": _amount(s.monthly, f), "capex": capex}


__all__ = ["single_point"]
