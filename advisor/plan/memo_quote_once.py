"""Page 1 says once that the region's GPU price is a stand-in (issue 25, a typical memo in 4 pages; session 26).

Where the region's GPU price stands in for a quote, page 1's cost row says so ("— the Hong Kong figure is a stand-in
until a data centre there quotes", or that the provider sells no such instance there), and the next step that asks
for the quote said it again in brackets ("the GPU price above is a stand-in: another region's rows times an
uplift"; q34, q25, q09, …). On page 1 the step asks, the row says why; the step keeps its bracket where the row does
not say it (another region's stand-in) and in the app and ``--json``.
"""

from __future__ import annotations

from advisor.plan.result import NextStep, PlanResult

STEP_KEY = "rows18.next.quotes_region"
SHORT_KEY = "pages26.next.quotes_region"


def said_in_cost_row(step: NextStep, result: PlanResult) -> bool:
    """The step asks for a quote in the region whose stand-in price page 1's cost row names as one."""
    pb = result.costs.price_basis
    if step.key != STEP_KEY or pb is None or not pb.stand_in_where:
        return False
    region = step.params.get("region")
    return isinstance(region, dict) and region.get("tr") == f"plan.region.{pb.stand_in_where}"


def page_one_step(step: NextStep, result: PlanResult) -> NextStep:
    """``step`` as page 1 prints it: without the stand-in bracket where the cost row above says it."""
    return step.model_copy(update={"key": SHORT_KEY}) if said_in_cost_row(step, result) else step
