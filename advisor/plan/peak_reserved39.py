"""A public service's peak-hour replicas reserved too: page 1's month is the one the memo advises (issue 25, review 29).

``scaling.commit38_peak`` (review 27) advised "reserve all 4 GPUs, 27,362–36,846 CNY" where committing for every GPU
fits the budget, while page 1's cost, the decision line and the budget check kept the mixed month (the always-on
floor reserved, the peak-hour replicas on demand: 26,016–31,933). Four reviewers of review 29 (q07, q32, q37, q42):
"choose one and make the headline match it"; "put the recommended figure on page 1".

Where the rule would advise it, the setup is costed again with every GPU committed (``CostInputs.reserve_peak``) and
that costing is the plan's: ``recommended_monthly``, the budget check and every figure made from them are the
reserved-all month, and the mixed month is kept (``Costs.cloud_peak_floor``) as the cheaper option not taken. Where
committing for every GPU does not fit the budget, the plan keeps the mixed month and the rule says the stock risk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan.reserved_price import same


def eligible(ctx: Any, form: str, region: str, costs: Any) -> bool:
    """A public or paid service (not internal-only, not a batch) renting cloud GPUs whose reserved option, page 1's
    month, leaves the peak-hour replicas on demand (not scheduled bursts: those book their dates)."""
    if form != "cloud" or costs is None or ctx.internal_only or ctx.is_batch or costs.per_job:
        return False
    if region == "mainland_plus_overseas":
        return False  # two nodes priced together: "all N × GPU" would name one node's part for both (q05)
    floor = costs.cloud_reserved_floor
    if floor is None or floor.get("load") != "diurnal" or costs.cloud_reserved_all_monthly is None:
        return False
    return same(costs.recommended_monthly, costs.cloud_monthly)  # not on demand, spot or another form's month


def reserved(costs: Any) -> bool:
    """The plan commits for every GPU, its peak-hour replicas too, and that is page 1's month."""
    return costs is not None and costs.cloud_peak_floor is not None and same(costs.recommended_monthly,
                                                                           costs.cloud_monthly)


def adopt(ctx: Any, form: str, region: str, out: Any, recost: Callable[[], Any],
          judge: Callable[[Any], tuple[Any, Any, Any]]) -> tuple[Any, tuple[Any, Any, Any]] | None:
    """(the setup's costing with every GPU committed, its budget check) where the plan is ``eligible`` and that
    month (with a priced line) is within the budget at its high end, or no budget is given; None otherwise.
    ``recost()`` costs the same setup with ``reserve_peak``; ``judge(out)`` checks it against the budget as the plan's
    own month is checked (with the line where one is priced)."""
    if out is None or not eligible(ctx, form, region, out.costs):
        return None
    alt = recost()
    if alt is None:
        return None
    judged = judge(alt)
    if not reserved(alt.costs):
        return None  # the month is not the commitment on every GPU (another form's, or no floor costed)
    if ctx.budget_amount is not None and (judged[0] is not True or judged[2]):
        return None  # over the budget at the high end: the mixed month stays, the rule says the stock risk
    return alt, judged


__all__ = ["adopt", "eligible", "reserved"]
