"""A second bought box priced on the same budget basis as the budget row (issue #25, blind review 32, q02).

Where the budget row says the purchase is paid once, outside the monthly budget, on the owner's sign-off
(``capex_unknown.paid_once_signoff``), the redundancy finding said the second box "fits the monthly budget" with
its purchase spread over the horizon: two readings of one purchase on one page. Here the second box is said the way
the first is: a purchase paid once, outside the monthly budget, for the owner to sign off.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from advisor.plan import capex_unknown


def applies(f: Any) -> bool:
    """The second unit ``f.second_unit`` is a bought server judged on the monthly budget, and the budget row says the
    purchase is paid once outside it (``contra40_budget.paid_once``)."""
    s = f.second_unit
    costs = None if f.cost is None else f.cost.costs
    if s is None or s.basis != "monthly" or s.capex is None or costs is None or costs.owned is None:
        return False
    answers = f.ctx.answers.model_dump(mode="json", exclude_none=True)
    return capex_unknown.paid_once_signoff(SimpleNamespace(costs=costs, answers=answers), costs.owned)


def verdict(tr: str, f: Any = None) -> str:
    """The verdict key said on the paid-once basis: ``…_monthly`` → ``box42.sp.<covered|optional>_paid_once``; where
    the budget row says the purchase fits the monthly budget spread over the horizon (``capex_unknown.budget_row``,
    review 36, q02), ``own44.sp.<covered|optional>_up_front``: paid up front, not "outside the budget"."""
    optional = tr.startswith("campus32.sp.optional")
    if f is not None and _fits_spread(f):
        return "own44.sp.optional_up_front" if optional else "own44.sp.covered_up_front"
    return "box42.sp.optional_paid_once" if optional else "box42.sp.covered_paid_once"


def _fits_spread(f: Any) -> bool:
    """The purchase spread over the horizon, with the running costs, fits the monthly budget (the budget row's test)."""
    costs = None if f.cost is None else f.cost.costs
    if costs is None or costs.owned is None or costs.budget_monthly is None:
        return False
    return bool(costs.owned.monthly.high <= costs.budget_monthly)


__all__ = ["applies", "verdict"]
