"""A two-node plan's month of tokens said for the whole plan, its busiest-hour floor included (s29-volume29).

Each node's month is its share of the plan's estimate, raised in proportion where the whole plan's estimate is under
half of what the whole peak's busiest hour makes (``burst._floor``: one floor, decided on the whole peak). The merged
costs sum the nodes' months; this says them as one plan: the whole plan's phrase (``public_volume.rebase``,
``people_volume.rebase``) built on the nodes' estimates, never on the raised sum (a phrase of people read back from a
raised month would count people who were never assumed), and the floor's record, so the memo says the costs use the
raised figure and the estimate it replaces (s28-volume28 applied q34's floor without saying so).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import people_volume, public_volume
from advisor.plan.context import Ctx
from advisor.plan.volume_low_end import FLOOR
from advisor.plan.volume_peak import busy_hour_mean, when


def rebase(costs: Any, c: Ctx, parts: list[Any]) -> None:
    """``costs`` (the nodes' sum) said for the whole plan ``c``; ``parts``: the nodes' own costs."""
    found = [(p.volume_basis or {}).get(FLOOR) for p in parts]
    records: list[dict[str, Any]] = [r for r in found if r]
    if not records or len(records) < len(parts):  # one floor for the plan: every node raised, or none
        public_volume.rebase(costs, c)
        people_volume.rebase(costs, c)
        return
    summed = float(costs.output_tokens_per_month or 0)
    estimate = sum(float(r["estimate"]) for r in records)
    highs = [r.get("estimate_high") for r in records]
    # the phrases read the month they describe: the nodes' estimates and their high ends, not the raised sum
    costs.output_tokens_per_month = round(estimate)
    costs.output_tokens_per_month_high = round(sum(float(h or r["estimate"]) for h, r in zip(highs, records,
                                                                                              strict=True))) \
        if any(highs) else None
    public_volume.rebase(costs, c)
    people_volume.rebase(costs, c)
    high = costs.output_tokens_per_month_high
    costs.output_tokens_per_month = round(summed)
    costs.output_tokens_per_month_high = high if high is not None and high > summed else None
    costs.volume_basis = {**(costs.volume_basis or {}), FLOOR: {
        "implied": float(round(summed)), "estimate": round(estimate), "peak": c.peak, "mean": round(busy_hour_mean(c)),
        "when": when(c), "estimate_high": high, "nodes": len(parts),
        # the whole plan's busiest-hour line and people's cap (one floor, decided on the whole peak: each node's
        # record carries it) and the estimate's input, so the memo says the plan's figures (s30-floor30)
        "estimate_in": c.input_for(estimate), "line": records[0].get("line"), "cap": records[0].get("cap"),
        "peak_implied": records[0].get("peak_implied")}}


__all__ = ["rebase"]
