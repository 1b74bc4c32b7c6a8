"""A batch job that misses both its deadline and its budget: the budget's shortfall as a blocker of its own
(s34-q39h35, blind review 24 on q29: "'What decides it' and the findings list only the 12-hour blocker. The budget
shortfall (more than 12× the ¥20,000) appears only inside section 2 and must be a headline blocker of its own").

No setup finishes such a job in time, so no plan is costed and ``cost.budget_short`` (a costed plan against the
budget) never runs; the job is still priced on the nearest setup (``engine._price_the_unfinished_job``: its
GPU-hours at the listed rate). Where even that price's low end is over the budget, a longer deadline alone cannot
make the job affordable: a batch pays for its GPU-hours however many hours it is given. That is the blocker said
here, under the rule's own id so page 1 lists it with the deadline's.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan.result import Finding
from advisor.plan.rule_base import finding

TITLE = "q39h35.batch_budget.title"
TITLE_OVER = "q39h35.batch_budget.title_over"  # under twice the budget: "more than 1×" would read oddly
DETAIL = "q39h35.batch_budget.detail"


def _money(v: float, currency: str) -> str:
    return f"{'¥' if currency == 'CNY' else '$'}{v:,.0f}"


def blocker(binding: Any) -> Finding | None:
    """The budget's blocker of a batch priced on its nearest setup (``binding``: the priced batch binding, its
    figures ``job_low``/``job_high``/``budget``), where the job's low end is over the budget; else None."""
    if binding is None or binding.kind != "batch_throughput" or not str(binding.variant).endswith("priced"):
        return None
    fig = binding.figures
    low, high, budget = fig.get("job_low"), fig.get("job_high"), fig.get("budget")
    if not low or not high or not budget or low <= budget:
        return None  # the low end within the budget: the deadline is the blocker, the budget no hard limit
    cur = str(fig.get("currency") or "CNY")
    cost = _money(low, cur) if round(low) == round(high) else f"{_money(low, cur)}–{_money(high, cur)}"
    times = math.floor(low / budget)  # "more than N×": the low end over the budget N times (q29: 12)
    got = finding("cost.budget_short", severity="blocker", cost=cost, budget=_money(budget, cur), times=times,
                  gpu_hours=f"{float(fig.get('gpu_hours') or 0):,.0f}", gpu=fig.get("gpu", ""))
    return got.model_copy(update={"title_key": TITLE if times >= 2 else TITLE_OVER, "detail_key": DETAIL})


__all__ = ["DETAIL", "TITLE", "blocker"]
