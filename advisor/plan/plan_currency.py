"""The currency a plan's costs are shown in (fifth blind review, q18: "all costs are in CNY for a US company").

The budget's currency when a budget is given (the monthly one, else the one-off hardware budget). Without either,
a team with no mainland entity serving users outside the mainland is costed in US dollars, any other in yuan; the
memo says which it assumed and why. Every figure is then converted once with the plan's stated exchange rate.
"""

from __future__ import annotations

from advisor.plan.answers import PlanAnswers


def given_currency(a: PlanAnswers) -> str | None:
    """The currency the answers give: the monthly budget's, else the one-off hardware budget's."""
    for budget in (a.monthly_budget, a.capex_budget):
        if budget is not None:
            return str(budget.currency)
    return None


def assumed_currency(user_location: str | None, entity: bool) -> str:
    """No budget currency given: USD for a team with no mainland entity whose users are outside the mainland."""
    return "USD" if not entity and user_location in ("overseas", "hk_tw") else "CNY"


__all__ = ["assumed_currency", "given_currency"]
