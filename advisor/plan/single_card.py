"""One larger card per replica before tensor parallelism over PCIe, when it costs at most a modest premium (issue 25,
q38: 2 × L4 with TP2 over PCIe at about 1.75 USD/h chosen over one L40S at about 2.15 USD/h that holds as much KV
cache).

An engineer pays a little more for the single card: no all-reduce over PCIe on every layer, one failure domain per
replica, one card to run and replace (deployment-facts rule 9). The ranking (``gpu_choice.arrange`` and the
setups to buy) therefore puts one card per replica (or a replica inside an NVLink domain) on another GPU first when
the cheapest setup splits a replica over PCIe cards and the other costs at most ``premium_for()`` more an hour
(``premium()`` for each halving of the split).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan.data import gpu_choice_facts
from advisor.plan.sizing import Candidate
from advisor.sizing.links import fast_link
from advisor.sizing.quant import get_format


def premium() -> float:
    """The premium a single card (or an NVLink replica) may cost over tensor parallelism across PCIe cards."""
    return float(gpu_choice_facts()["single_card"]["premium"])


def over_pcie(k: Candidate) -> bool:
    """A replica split over several cards joined only by PCIe (no NVLink between them)."""
    return k.tp > 1 and not fast_link(k.gpu)  # a vendor mesh (Infinity Fabric, HCCS) is no PCIe split (s23)


def premium_for(k: Candidate) -> float:
    """The premium a single card may cost over ``k``, a replica split over ``k.tp`` PCIe cards: ``premium()`` for
    each halving of the split (TP2 25 %, TP4 50 %, TP8 75 %). Four cards a replica are four failure domains and an
    all-reduce among four on every layer, not one more card than a pair: blind reviews 30 and 31 sent back q05's
    2 × (4 × L4) beside one A100 80GB a replica at 26 % more ("use that"). A policy, as ``premium()`` is; 0 where
    ``k`` is not split over PCIe."""
    return premium() * math.log2(k.tp) if over_pcie(k) else 0.0


def weighed(k: Candidate, per_hour: float) -> float:
    """The hourly cost the ranking compares: a replica over PCIe counts ``premium_for(k)`` dearer."""
    return per_hour * (1.0 + premium_for(k))


def prefer(ranked: list[Candidate], same_standing, hourly) -> list[Candidate]:
    """``ranked`` with the first setup of one card per replica (or an NVLink replica) on another GPU moved before the
    first one, when the first splits a replica over PCIe cards, the other is of the same standing
    (``same_standing(a, b)``: the ranking's tiers) and costs at most ``premium_for(first)`` more an hour. On the
    same GPU the tensor-parallel size stays the layout search's choice (``layout_search``: the KV room a larger TP
    gives weighed on the predictor)."""
    if not ranked or not over_pcie(ranked[0]):
        return ranked
    first = ranked[0]
    limit = weighed(first, hourly(first)) + 1e-9
    for k in ranked[1:]:
        if k.gpu.id != first.gpu.id and not over_pcie(k) and same_standing(k, first) and hourly(k) <= limit:
            return [k, *(x for x in ranked if x is not k)]
    return ranked


def passed_over(chosen: Candidate, others: list[Candidate], same_standing, hourly) -> dict[str, Any] | None:
    """The cheaper setup of the same standing on another GPU that splits a replica over PCIe and was ranked after
    ``chosen`` only by this rule, as the memo's clause says it (its cost, how much more the chosen one costs, the
    threshold); None when the rule decided nothing. ``same_standing(k)`` tells a setup of the chosen one's tiers;
    ``hourly(k)`` its cost."""
    if over_pcie(chosen):
        return None
    mine = hourly(chosen)
    for k in others:
        if k.gpu.id != chosen.gpu.id and over_pcie(k) and same_standing(k) and \
                hourly(k) < mine <= weighed(k, hourly(k)) + 1e-9:
            # nvlink: the chosen setup's several cards a replica are joined by NVLink
            return {"other": k, "more_pct": round((mine / hourly(k) - 1.0) * 100),
                    "limit_pct": round(premium_for(k) * 100), "nvlink": chosen.tp > 1}
    return None


def declined(chosen: Candidate, others: list[Candidate], same_standing, hourly) -> dict[str, Any] | None:
    """The cheapest setup of one card per replica (or an NVLink replica) on another GPU that ``chosen``, a replica
    split over PCIe cards, kept its place before because it costs more than ``premium_for(chosen)`` more (s20-gpu20,
    ninth blind review q13: "one L40S per replica is simpler for about 40 % more" — the rule was weighed and its limit
    decided, which the memo says); None when ``chosen`` is not split over PCIe or no such setup was weighed."""
    if not over_pcie(chosen):
        return None
    mine = hourly(chosen)
    singles = [k for k in others if k.gpu.id != chosen.gpu.id and not over_pcie(k) and same_standing(k)
               and hourly(k) > weighed(chosen, mine) + 1e-9]
    if not singles:
        return None
    # the one card named is at the chosen weights' precision or better where one is weighed: a 4-bit single card
    # beside an fp8 pair is no like-for-like fallback (blind review 32, q01: one A10 in awq-int4 named where one
    # L20 48GB holds the fp8 replica within the one-off budget)
    same = [k for k in singles if get_format(k.weights).bits >= get_format(chosen.weights).bits]
    k = min(same or singles, key=hourly)
    return {"other": k, "more_pct": round((hourly(k) / mine - 1.0) * 100),
            "limit_pct": round(premium_for(chosen) * 100), "nvlink": k.tp > 1,
            "data_centre": chosen.gpu.market == "consumer" and k.gpu.market != "consumer"}


__all__ = ["declined", "over_pcie", "passed_over", "prefer", "premium", "premium_for", "weighed"]
