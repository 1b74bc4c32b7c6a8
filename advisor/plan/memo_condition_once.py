"""The conditional buy said once on page 1 (issue 25, a typical memo in 4 pages; session 26).

Where renting costs less at the middle of stand-in prices and owning is recommended only if the quotes bring the
purchase under a threshold (s25-headline25, q26/q31), page 1 said the threshold three times: in the headline ("Own
… — if the quotes bring the purchase under about ¥746,000; on today's stand-in prices renting costs less"), at the end
of the cost row ("buy only if the quotes bring the purchase under about 746,000 CNY") and in next step 1 ("order only
if they bring the purchase under about ¥746,000 (on these prices renting costs less at the middle), else rent").
The headline states the condition; the cost row keeps the two middles it rests on, and the step keeps what to do
("order only if …, else rent") without the bracket the headline says. The app and ``--json`` keep the full texts.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import headline25
from advisor.plan.result import NextStep, PlanResult

SHORTER = {"tie25.next.condition.purchase": "pages26.next.condition.purchase",
           "tie25.next.condition.none": "pages26.next.condition.none"}


def said_in_headline(result: PlanResult, lang: str) -> bool:
    """Page 1's recommendation carries the purchase's condition (``headline25.form_condition``)."""
    return bool(headline25.form_condition(result, lang))


def page_one_step(step: NextStep, result: PlanResult, lang: str) -> NextStep:
    """``step`` with its condition's bracket left out where the headline says it."""
    condition: Any = step.params.get("condition")
    if not isinstance(condition, dict) or condition.get("tr") not in SHORTER or not said_in_headline(result, lang):
        return step
    return step.model_copy(update={"params": {**step.params,
                                              "condition": {**condition, "tr": SHORTER[condition["tr"]]}}})
