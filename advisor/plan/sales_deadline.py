"""A launch deadline on a rented part sold only through the cloud's sales: page 1 launches on the part rented on
demand (issue #25, blind review 24, q32 en/zh: "the GPU choice works against the 10-day deadline … lead with the
3 × L20 on demand (listed, about 43.89 CNY/h, well inside ¥80,000), or make the H20 conditional on a delivery date";
m1 "a 10-day launch is possible" only partial).

``sales_wait`` makes such a part's delivery a wait of unknown length, so the deadline is met only if the sales
deliver within the set-up's slack. Where the delivery is the only wait of unknown length (the rest of the launch
fits the deadline), and the GPU choice names a part rented on demand at a listed price (``sales_wait.start_on``)
whose month fits the budget, the launch and feasibility rows lead with that part: the launch within the deadline
on it, the sales-only part (cheaper at its placeholder price, as sized) only once the sales confirm its delivery
in writing within the slack. Decided from the answers and the plan (deadline, part sold only through sales, an
on-demand part meeting the target within budget), never from a scenario.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.result import render
from advisor.plan.sales_only import listed_on_request
from advisor.plan.sales_wait import ITEM_ID, RENTED_FORMS, start_on

STEP_KEY = "salesdl35.next.start_now"  # the quote step, led by the part to start on


def start_now(result: Any) -> dict[str, Any] | None:
    """The on-demand part to launch on within the deadline, with the figures page 1 quotes, or None."""
    tl, hw, costs = result.timeline, result.hardware, result.costs
    if result.deployment_form not in RENTED_FORMS or not result.feasible or not hw.gpu:
        return None
    if not listed_on_request(hw.gpu) or tl.deadline_days is None or tl.deadline_key() != "if":
        return None
    slack = tl.deadline_slack_days
    if slack is None or slack < 0 or [i.id for i in tl.untimed] != [ITEM_ID]:  # the delivery is the only unknown
        return None
    other = start_on(result)
    if other is None:
        return None
    month = float(other["per_hour"].replace(",", "")) * HOURS_PER_MONTH  # as the GPU choice states its month
    budget = costs.budget_monthly if costs is not None else None
    if budget is not None and month > budget:  # over the budget: no part to launch on, the delivery decides
        return None
    return {**other, "month": f"{month:,.0f}", "deadline": tl.deadline_days, "slack": slack,
            "sales_gpu": hw.gpu_name or hw.gpu}


def launch_text(result: Any, lang: str, days: str) -> str | None:
    """The launch row: within the deadline on the on-demand part; the sales-only part once its delivery is
    confirmed in writing within the slack. None where the rule does not apply."""
    p = start_now(result)
    return None if p is None else render(lang, "salesdl35.key.launch", {**p, "days": days})


def feasible_text(result: Any, lang: str) -> str | None:
    """The feasibility row: yes within the deadline on the on-demand part; None where the rule does not apply."""
    p = start_now(result)
    return None if p is None else render(lang, "salesdl35.key.feasible", p)


def blocking_cell(result: Any, item: Any, lang: str) -> str | None:
    """The timeline table's "before launch" cell of the delivery where the launch is on the on-demand part: only
    before moving to the sales-only part, not before the launch; None elsewhere."""
    p = start_now(result) if item.id == ITEM_ID else None
    return None if p is None else render(lang, "salesdl35.timeline.blocking", p)


__all__ = ["STEP_KEY", "blocking_cell", "feasible_text", "launch_text", "start_now"]
