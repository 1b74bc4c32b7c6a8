"""The cloud prices named by what each one bills, where they bill different GPUs (s18-apiweigh, issue 25).

On demand bills the GPUs the load keeps busy (the always-on replica around the clock, the others only for the
peak's hours: 3.1 of 4 GPUs on average), while a monthly/reserved commitment pays for every GPU all month. The cost
table printed "on demand 6,165–16,599; monthly/reserved 5,569–18,206", and blind reviewers read a reserved price
above on demand as a contradiction (q33, q36, q42). Where the two bill different GPU counts, each says which.
"""

from __future__ import annotations

from typing import Any


def scaled(costs: Any) -> bool:
    """On demand bills fewer GPUs than the plan has (scaled to the load), a commitment all of them; not a job's."""
    billed = costs.cloud_billed_gpus
    return not costs.per_job and billed is not None and 0 < billed < costs.gpus


def label_params(costs: Any) -> dict[str, Any]:
    """The GPU counts the labels name: billed on average on demand, and all of them."""
    return {"billed": billed_text(costs), "gpus": costs.gpus}


def billed_text(costs: Any) -> str:
    """GPUs billed on average on demand, the figure the cost row's worked product and its note print: "2.55", or
    "2.07–2.2" where the bursts' share is an assumed range (blind review 20b, q42: the label's "2.5 of 3 GPUs on
    average" beside the product's "2.55 GPUs billed" read as two figures; one is rounded once, as the product needs)."""
    return billed_range_text(costs)


def _count_text(n: float) -> str:
    """The stored average (two decimals) as the worked product prints it: 3, 2.55, 13.59."""
    return f"{n:.0f}" if n == int(n) else f"{n:g}"


def _three_figures(n: float) -> str:
    return f"{n:,.0f}" if n == int(n) or n >= 100 else f"{n:.3g}"


def billed_range_text(costs: Any) -> str:
    """The GPUs billed in the cost row's worked product: each end of an assumed range at three significant figures,
    the precision of the row's other factors, so that they multiply to the printed total (q36: 2.07 read "2.1" put
    the product 1.6 % off its 13,274 CNY). The price labels print the same figure (``billed_text``)."""
    r = getattr(costs, "cloud_billed_gpus_range", None)
    if r is not None and _three_figures(r.low) != _three_figures(r.high):
        return f"{_three_figures(r.low)}–{_three_figures(r.high)}"
    return _count_text(float(costs.cloud_billed_gpus or 0))


def on_demand_key(costs: Any) -> str:
    return "memo.apiweigh18.cost.on_demand_scaled" if scaled(costs) else "memo4.cost.on_demand"


def reserved_key(costs: Any) -> str:
    return "memo.apiweigh18.cost.reserved_all" if scaled(costs) else "memo4.cost.reserved"


__all__ = ["billed_range_text", "billed_text", "label_params", "on_demand_key", "reserved_key", "scaled"]
