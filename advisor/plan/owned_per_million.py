"""The cost per million tokens of a plan that buys its servers, from what owning costs a month (issue 25,
s15-batchcost).

A colocated bare-metal plan (q26, q31) printed a cost per million tokens worked out from the cloud rental price
while it recommended buying: the figure a reader checks against the owned monthly cost did not come from it. On-
premises and hybrid plans already take theirs from the owned form (advisor.plan.forms.apply_chosen); this does the
same for bought, colocated servers, from the recommended form's monthly cost (the team's fleet included).
"""

from __future__ import annotations

from advisor.plan import capacity_per_million
from advisor.plan.result import Costs


def apply(costs: Costs, form: str) -> None:
    """Per million tokens = the recommended owned monthly cost ÷ the tokens served a month (a no-op otherwise)."""
    monthly = costs.recommended_monthly
    out_tokens = costs.output_tokens_per_month or 0
    if form != "bare_metal" or monthly is None or out_tokens <= 0 or costs.per_job:
        return
    # four decimals (capacity_per_million): in US dollars a million tokens can cost a tenth of a dollar (q18 shown
    # in USD: 0.1 × 32 billion tokens read 3,244 beside 3,083 a month)
    capacity_per_million.set_monthly(costs, monthly.low, monthly.high)
