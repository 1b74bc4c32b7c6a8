"""A plan on one server (or one cloud VM) with no spare: what a second one costs, and whether the budget covers it
(issue 25, s16-capacity).

N+1 is planned for paid, public and business-facing services (``gpu_choice.redundancy_reason``). An internal tool
gets none, and a memo that put a hospital's clinical assistant on one 4-card server, a 30-seat call centre on one
A10, or a 671B model on one 8 × H20 node said nothing of it: "a single node means no redundancy … the budget easily
covers a second" (q03, q35, q41, fifth blind review). Here the plan's setup is priced again with one more unit of
the same kind: rented, on the plan's own cost function (the spare kept on around the clock, ``warm_floor``);
bought, as the same server again (purchase and running costs), checked against the one-off and the monthly budget.
The ``sizing.single_point`` rule (``capacity16_rules``) says it plainly and recommends it where the budget covers it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from advisor.plan import gpu_choice
from advisor.plan.node_shapes import OWNED_FORMS

Range = tuple[float, float]
SECOND_UNIT_NOTE = "second_unit"  # a candidate's note: the second unit the budget covers is part of the plan


@dataclasses.dataclass(frozen=True)
class SecondUnit:
    """One more unit of the plan's kind, in the answers' currency: ``monthly`` a month more (running costs, or the
    rent), ``capex`` bought once more (None when rented); ``covered``: within every budget given (None: no budget
    to check against); ``budget``/``capex_budget``: the budgets it was checked against."""

    unit: str  # "server" | "vm"
    monthly: Range
    capex: Range | None
    covered: bool | None
    budget: float | None
    capex_budget: float | None
    # which budget decided (sixth blind review: "the budget covers a second" with no one-off budget given, the
    # purchase spread over the months; "over the budget" where two servers straddle the grant): "capex" | "monthly"
    # (a purchase spread over the horizon) | "rent"
    basis: str | None = None
    straddles: bool = False  # the one-off budget lies inside the range two servers cost
    # s17-prices: the plan recommends it (every budget given covers it), so its hardware and cost rows include it
    # (q41, sixth blind review: "the recommended second server is not costed")
    added: bool = False
    # why it was added (``spare_policy.second_unit_reason``): "mlps3" | "basic_ops"
    reason: str | None = None
    # bought: one card of the setup with its share of the server (the purchase ÷ its cards), what a spare card on
    # the shelf costs (blind review 20b, q17: "keep a spare card on the shelf" (~¥100k) under a ¥400k grant, uncosted)
    card: Range | None = None


def single_point(c: Any, chosen: Any, form: str) -> bool:
    """The plan serves from one unit with no spare: one failure stops the service. Not for a batch (re-run), a
    hosted API, a hybrid (the cloud side carries the load while the base is down), or the team's own fleet (its
    other servers)."""
    if chosen is None or c.is_batch or form in ("hosted_api", "hybrid"):
        return False
    lay = getattr(chosen, "layout", None)
    return not (lay is None or lay.spare_units or lay.units != 1 or lay.basis == "fleet" or lay.regions != 1)


def price(c: Any, chosen: Any, form: str, out: Any, *, cost_of: Callable[[Any], Any],
          budget_of: Callable[[Any], tuple[bool | None, float | None, bool]], needed: float | None
          ) -> SecondUnit | None:
    """The second unit priced for ``chosen`` (whose cost outcome is ``out``), or None when the plan is not a single
    point of failure or a price is missing. ``cost_of(candidate)``: the plan's cost outcome of a setup;
    ``budget_of(outcome)``: the engine's budget check on it ((within, high end needed, straddles))."""
    if out is None or not single_point(c, chosen, form):
        return None
    conv = out.conv
    capex_budget = out.costs.capex_budget
    if form in OWNED_FORMS:
        own = out.forms.owned if out.forms is not None else None
        if own is None:
            return None
        running = own.running(c.ops)
        monthly = (running[0] * conv, running[1] * conv)  # the same server again: its power, colocation, staff share
        capex = (own.capex[0] * conv, own.capex[1] * conv)
        checks = []
        straddles = False
        if capex_budget is not None:
            checks.append(2 * capex[1] <= capex_budget)
            straddles = 2 * capex[0] <= capex_budget < 2 * capex[1]
        if c.budget_amount is not None and needed is not None:
            checks.append(needed + (own.monthly(c.ops)[1] if capex_budget is None else running[1]) * conv
                          <= c.budget_amount)
        basis = "capex" if capex_budget is not None else "monthly" if checks else None
        cards = max(1, int(getattr(chosen, "total_gpus", 0) or 1))
        return SecondUnit("server", monthly, capex, all(checks) if checks else None, c.budget_amount, capex_budget,
                          basis=basis, straddles=straddles, card=(capex[0] / cards, capex[1] / cards))
    lay = chosen.layout
    two = with_second(chosen)
    out2 = cost_of(two)
    within, needed2, _ = budget_of(out2)
    low, high = out.costs.recommended_monthly, out2.costs.recommended_monthly
    if low is None or high is None:
        return None
    monthly = (max(0.0, high.low - low.low), max(0.0, high.high - low.high))
    unit = "server" if lay.whole_server else "vm"
    return SecondUnit(unit, monthly, None, within if needed2 is not None else None, c.budget_amount, None,
                      basis="rent" if needed2 is not None else None)


def with_second(chosen: Any) -> Any:
    """``chosen`` with one more unit of its kind, kept as the spare (N+1)."""
    two = gpu_choice._copy(chosen)
    two.layout = dataclasses.replace(chosen.layout, units=chosen.layout.units + 1, spare_units=1)
    two.replicas = two.layout.replicas
    two.notes.append(SECOND_UNIT_NOTE)  # bought: forms.owned_layout keeps the spare server (an internal tool has none)
    return two


def adopt(second: SecondUnit | None, chosen: Any, cost_of: Callable[[Any], Any], *,
          reason: str | None) -> tuple[Any, Any, SecondUnit] | None:
    """Where the plan must have the second unit (``reason``, from ``spare_policy.second_unit_reason``: classified
    protection at level 3, or a rented unit run by a basic-ops team) and every budget given covers it
    (``covered``), the plan with it: (the two-unit setup, its cost outcome, the second unit marked ``added``).
    None where it is only suggested: the team's call, so its hardware and totals stay at one unit and the finding
    prices the second beside them."""
    if second is None or not second.covered or reason is None:
        return None
    two = with_second(chosen)
    return two, cost_of(two), dataclasses.replace(second, added=True, reason=reason)


__all__ = ["SecondUnit", "adopt", "price", "single_point", "with_second"]
