"""One larger card per replica before tensor parallelism over PCIe, when it costs at most a modest premium (issue 25,
q38: 2 × L4 with TP2 over PCIe at about 1.75 USD/h chosen over one L40S at about 2.15 USD/h that holds as much KV
cache).

An engineer pays a little more for the single card: no all-reduce over PCIe on every layer, one failure domain per
replica, one card to run and replace (deployment-facts rule 9). The ranking (``gpu_choice.rank_key``) therefore
compares a setup that splits a replica over several PCIe cards at its hourly cost × (1 + ``premium()``): one card per
replica (or a replica inside an NVLink domain) wins whenever it costs at most that much more. Between two setups of
the same kind the order by cost is unchanged.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import gpu_choice_facts
from advisor.plan.sizing import Candidate


def premium() -> float:
    """The premium a single card (or an NVLink replica) may cost over tensor parallelism across PCIe cards."""
    return float(gpu_choice_facts()["single_card"]["premium"])


def over_pcie(k: Candidate) -> bool:
    """A replica split over several cards joined only by PCIe (no NVLink between them)."""
    return k.tp > 1 and k.gpu.interconnect != "nvlink"


def weighed(k: Candidate, per_hour: float) -> float:
    """The hourly cost the ranking compares: a replica over PCIe counts ``premium()`` dearer."""
    return per_hour * (1.0 + premium()) if over_pcie(k) else per_hour


def passed_over(chosen: Candidate, others: list[Candidate], same_standing, hourly) -> dict[str, Any] | None:
    """The cheaper setup of the same standing that splits a replica over PCIe and was ranked after ``chosen`` only by
    this rule, as the memo's clause says it (its cost, how much more the chosen one costs, the threshold); None when
    the rule decided nothing. ``same_standing(k)`` tells a setup of the chosen one's tiers; ``hourly(k)`` its cost."""
    if over_pcie(chosen):
        return None
    mine = hourly(chosen)
    for k in others:
        if over_pcie(k) and same_standing(k) and hourly(k) < mine <= weighed(k, hourly(k)) + 1e-9:
            return {"other": k, "more_pct": round((mine / hourly(k) - 1.0) * 100), "limit_pct": round(premium() * 100)}
    return None


__all__ = ["over_pcie", "passed_over", "premium", "weighed"]
