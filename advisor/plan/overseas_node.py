"""The overseas node of a mainland + overseas plan, chosen among the parts sold in its region (review 13).

A plan for users on both sides is sized on the mainland node's GPU. When that part is a China-market one (H20,
L20, 4090D, H800, A800), no cloud outside the mainland offers it, so the overseas node needs a part sold there:
the cheapest setup that meets the target for the overseas share of the peak (the same screen, ranking, predictor
check and N+1 as any plan in that region), priced from that region's own price rows. A part offered there too runs
on both nodes (s14-plan), the overseas one sized and priced the same way; the plan's totals add the two nodes
(``two_nodes``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.plan import gpu_choice as gchoice
from advisor.plan import node_quicker, two_nodes
from advisor.plan.context import Ctx
from advisor.plan.regions import market_region


@dataclass(frozen=True)
class OverseasNode:
    region: str  # the overseas node's region (singapore, japan, …)
    instead_of: str  # the mainland part's name (not offered there)
    gpu_name: str
    tp: int
    replicas: int
    total_gpus: int
    weights: str
    peak: int  # the overseas share of the peak the node carries
    monthly_usd: tuple[float, float] | None  # from the region's own rows; None without a price row
    sourced: bool  # at least one sourced price row (grade A–C or a quote)
    same_part: bool = False  # the mainland node's part, offered there too (s14-plan)
    main_peak: int = 0  # the mainland node's share of the peak (set when the plan lays out both nodes)
    node: Any = None  # two_nodes.Node: the setup, its context and cost outcome
    # s21-gpu21b: priced from US rows times the region's uplift (no row of the region for this part): said so, never
    # "priced from Singapore rows" (q34's L40S node, chosen for its failover TPOT: AWS g6e rows times the uplift)
    stand_in: bool = False
    # s21-gpu21b: the cheaper split setup passed over for one card a replica (``latency_pick.clause`` with the other
    # setup's cards, name and USD an hour): said with both failover figures
    faster: dict[str, Any] | None = None
    # s24-gpuchoice24 (round 13, q05): a faster card priced there, where the node's TPOT takes a felt share of the
    # target (``node_quicker``): its size, USD a month and P99 TPOT beside the node's
    quicker: dict[str, Any] | None = None
    # s34-twonode36 (review 25, q34): the node moved off a stand-in part onto one priced by its region's own row; the
    # stand-in named as the part to quote (``node_supply``, ``supply_lead``'s switch record)
    switch: dict[str, Any] | None = None


def overseas_ctx(c: Ctx) -> Ctx:
    """The context of the overseas node alone: its share of the peak, its users (none in the mainland)."""
    share = min(max(1.0 - c.mainland_share, 0.0), 1.0)
    peak = max(1, math.ceil(c.peak * share - 1e-9))
    return dataclasses.replace(c, peak=peak, mainland_share=0.0, user_location="overseas")


def plan_overseas_node(c: Ctx, region: str, chosen: Any, book: Any, fx: float, *,
                       screen: Callable[[Ctx, str], list[Any]], verify: Callable[[Ctx, Any, str], Any],
                       cost: Callable[[Ctx, Any, str], Any]) -> OverseasNode | None:
    """The overseas node of a two-node plan: on the plan's part where it is offered there, else on the region's own
    ranking; None for a one-node plan or when no part sold there meets the target. ``verify`` returns the
    predictor's (ttft, tpot, meets)."""
    if region != "mainland_plus_overseas" or chosen is None or c.is_batch:
        return None
    where = market_region(c.overseas_markets)
    same = gchoice.offered_in(where, chosen.gpu.id)
    ov = overseas_ctx(c)
    node = two_nodes.plan_node(ov, where, chosen, screen=screen, verify=verify, cost=cost, only_prefer=same)
    if node is None:
        return None
    if not same:  # the region's own ranking chose it: a split replica near its TPOT at failover (latency_pick)
        node = _faster(ov, where, node, book, verify, cost)
    cand, out = node.cand, node.out
    faster = None
    from advisor.plan import latency_pick

    other = latency_pick.passed_over(cand, node.ok)
    if other is not None and (said := latency_pick.clause(ov, cand, other, gchoice.hourly)) is not None:
        faster = {**said, "other_gpus": other.total_gpus, "other_gpu": other.gpu.name, "other_tp": other.tp,
                  "other_usd_h": gchoice.hourly(other), "usd_h": gchoice.hourly(cand)}
    quicker = node_quicker.find(ov, where, node, verify, cost) if not same and faster is None else None
    rows = gchoice.price_rows(book, cand.gpu.id, where, cand.tp)
    lo, hi = out.cloud_usd
    usd = (lo, hi) if lo is not None and hi is not None else None
    return OverseasNode(region=where, instead_of=chosen.gpu.name, gpu_name=cand.gpu.name, tp=cand.tp,
                        replicas=cand.replicas, total_gpus=cand.total_gpus, weights=cand.weights, peak=ov.peak,
                        monthly_usd=usd, sourced=gchoice.sourced(rows), same_part=same,
                        node=node, stand_in=out.costs.region_uplift is not None,
                        faster=faster, quicker=quicker)  # fmt: skip


def _faster(ov: Ctx, where: str, node: Any, book: Any, verify: Callable[[Ctx, Any, str], Any],
            cost: Callable[[Ctx, Any, str], Any]) -> Any:
    """The node on one card a replica where its split replica runs near the TPOT target with one replica down
    (``latency_pick``, eleventh review q34/q05: the Singapore node's 2 × L4 TP2 beside one L40S a replica)."""
    from advisor.plan import latency_pick

    pick = latency_pick.prefer(ov, node.cand, node.ok,
                               same_standing=lambda k: gchoice.same_standing(ov, where, book, k, node.cand),
                               hourly=gchoice.hourly, verify=lambda k: bool(verify(ov, k, where)[2]))
    if pick is None:
        return node
    latency_pick.mark(pick, node.cand)
    ttft, tpot, _ = verify(ov, pick, where)
    return dataclasses.replace(node, cand=pick, out=cost(ov, pick, where), sim_ttft=ttft, sim_tpot=tpot)


__all__ = ["OverseasNode", "overseas_ctx", "plan_overseas_node"]
