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


def verdict(tr: str) -> str:
    """The verdict key said on the paid-once basis: ``…_monthly`` → ``box42.sp.<covered|optional>_paid_once``."""
    return "box42.sp.optional_paid_once" if tr.startswith("campus32.sp.optional") else "box42.sp.covered_paid_once"


__all__ = ["applies", "verdict"]
