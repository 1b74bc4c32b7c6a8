"""The all-on-demand figure named by what it bills (issue #25, blind review 32: q32, q42).

Page 1 quoted "everything on demand, scaled to the load: 34,763–38,074 CNY" beside "all 4 GPUs reserved", and the
reviewers read it as all 4 GPUs on demand all month (which would be about 44,900–49,100 CNY): the figure is on demand
for only the hours each GPU runs, 3.1 of the 4 on average. Where on demand bills fewer GPUs than the plan has, the
label says so with the count; where it bills all of them, "everything on demand" is what it counts.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import cloud_price_labels


def phrase(costs: Any) -> dict[str, Any]:
    """A ``{"tr": …}`` phrase naming what the all-on-demand figure counts (the words before its ": figure").
    Where on demand for only the hours each GPU runs still costs more than the reserved month at both ends, one
    clause says why (rv43, blind review 34, q05: "107,412–117,743 CNY is higher than the reserved figure with no
    explanation"): an on-demand hour costs more than a reserved one by more than the hours saved."""
    if cloud_price_labels.scaled(costs):
        key = "cst44.od.scaled_above" if above(costs) else "cons42.od.scaled"
        return {"tr": key, **cloud_price_labels.label_params(costs)}
    return {"tr": "cons42.od.all"}


def above(costs: Any) -> bool:
    """The on-demand month (billed for the hours run) above the reserved month at both ends of the range."""
    od, mon = getattr(costs, "cloud_on_demand_monthly", None), getattr(costs, "cloud_monthly", None)
    return od is not None and mon is not None and od.low > mon.high


__all__ = ["above", "phrase"]
