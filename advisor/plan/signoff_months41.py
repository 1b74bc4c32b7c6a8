"""A purchase paid once under a monthly budget, said in months of that budget (issue #25, blind reviews 30 and 31,
q02 zh: "it should say this equals about 6–9 months of his ¥3,000 budget"; en: "the owner offered about 3,000 CNY a
month, not capex, so the sign-off question should be the first line, not buried").

Where the memo's budget row says the purchase is paid once, outside the monthly budget, on the owner's sign-off
(``capex_unknown.paid_once_signoff``), the purchase finding's title (page 1's first reason) says how many months of
that budget the price is (price ÷ monthly budget, both ends) and that the owner signs it off.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from advisor.plan import capex_unknown
from advisor.plan.result import Finding, MoneyRange

# the title variants of one office box (or two) that have a sign-off wording (box41.on_premises.<variant>.title)
VARIANTS = ("lan", "lan_two")


def months(capex: MoneyRange, budget: float) -> str | None:
    """"6–9": the purchase's ends ÷ the monthly budget, to whole months; None under two months of it (a sum that
    close to one month's budget is no months-long commitment to weigh) or without a budget."""
    if not budget or budget <= 0:
        return None
    lo, hi = round(capex.low / budget), round(capex.high / budget)
    if hi < 2:
        return None
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def titled(fnd: Finding, costs: Any, answers: dict[str, Any], variant: str | None, budget_text: str) -> Finding:
    """``fnd`` (``cost.on_premises``) with the sign-off title where the purchase is paid once under the monthly
    budget; ``fnd`` unchanged otherwise. ``budget_text``: the monthly budget as the title's money is written."""
    own = getattr(costs, "owned", None)
    if variant not in VARIANTS or own is None or costs.budget_monthly is None:
        return fnd
    if not capex_unknown.paid_once_signoff(SimpleNamespace(costs=costs, answers=answers), own):
        return fnd
    n = months(own.capex, costs.budget_monthly)
    if n is None:
        return fnd
    return fnd.model_copy(update={"title_key": f"box41.on_premises.{variant}.title",
                                  "params": {**fnd.params, "budget_months": n, "budget": budget_text}})


__all__ = ["VARIANTS", "months", "titled"]
