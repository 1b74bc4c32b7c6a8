"""The budget's room above a purchase estimate said once, in the recommendation (issue 25, blind review 35, q03: "the
¥680,000–¥920,000 is only a ceiling until quotes arrive; the memo says so three times (decision, next step 1,
findings), and once is enough").

Where page 1's recommendation plans on the estimate a server and says that the monthly budget leaves room above it,
kept from the vendors (``buy_quote38``'s ``plan41_lead.budget_room``, ``budget_room41.roomy``), the quotes step on
page 1 says to judge the quotes against that estimate and points up, and the placeholder-purchase finding in section
7 keeps its price basis and the quote step without the budget's room again. The app and ``--json`` keep both in full.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import budget_room41, quote_lead39
from advisor.plan.buy_quote38 import FORMS
from advisor.plan.result import NextStep, PlanResult

STEP_CLAUSE = "plan41_next.condition.budget_room"
STEP_SAID = "rep44.next.budget_room_said"
ROOM_DETAIL = "plan41.rule.cost.placeholder_purchase.room.detail"
ROOM_SAID = "rep44.placeholder_purchase.room_said.detail"


def in_lead(result: PlanResult) -> bool:
    """Page 1's recommendation says the budget's room above the estimate (``buy_quote38``'s test for it)."""
    c = result.costs
    if result.deployment_form not in FORMS or c is None or result.finding("cost.placeholder_purchase") is None:
        return False
    gate = getattr(c, "price_gate", None) or {}
    return gate.get("per_server") is not None and budget_room41.roomy(gate) and bool(quote_lead39.expected(result, gate))


def _point(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("tr") == STEP_CLAUSE:
            return {"tr": STEP_SAID}
        return {k: _point(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_point(v) for v in value]
    return value


def page_one_step(step: NextStep, result: PlanResult) -> NextStep:
    """The quotes step as page 1 prints it under that recommendation: the estimate, not the budget's room again."""
    if not in_lead(result):
        return step
    params = _point(step.params)
    return step if params == step.params else step.model_copy(update={"params": params})


def findings(every: list[Any], result: PlanResult) -> list[Any]:
    """The placeholder-purchase finding without the budget's room where the recommendation says it."""
    if not in_lead(result):
        return every
    return [f.model_copy(update={"detail_key": ROOM_SAID}) if f.detail_key == ROOM_DETAIL else f for f in every]


__all__ = ["findings", "in_lead", "page_one_step"]
