"""A mainland + overseas plan as the two nodes it really is (issue 25, q05): each node sized for its own share of the
peak, with its own N+1, on a part sold where it runs, priced from its own region's rows; the plan's headline GPU
count and monthly cost are the two nodes' sum.

The engine sizes a two-node plan on the whole peak first (that decides the form and the GPU). For a rented plan it
then lays out the nodes: the mainland node on the chosen setup for the mainland share, the overseas node on the
same part where it is offered there, else on the region's own ranking (``overseas_node``). The cost outcome the
plan reports is the two nodes' costs added (``merge``); the break-even and the cost per million tokens are
computed again from the sums. Owning forms on two nodes keep the single-setup figures (not laid out per node yet).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.plan import capacity_per_million, reserved_floor
from advisor.plan import cost as costmod
from advisor.plan.context import Ctx
from advisor.plan.result import CostPoint, MoneyRange, PlanNode

Verify = Callable[[Ctx, Any, str], tuple[float | None, float | None, bool]]
Screen = Callable[[Ctx, str], list[Any]]
Cost = Callable[[Ctx, Any, str], costmod.CostOutcome]


@dataclass
class Node:
    """One node as planned: its context (its share of the peak), region, setup, cost outcome and predictor check."""

    ctx: Ctx
    region: str
    cand: Any  # sizing.Candidate
    out: costmod.CostOutcome
    ok: list[Any]  # the setups screened for this node, ranked (for "why this GPU")
    sim_ttft: float | None
    sim_tpot: float | None


def mainland_ctx(c: Ctx) -> Ctx:
    """The mainland node alone: the mainland share of the peak, its users all in the mainland."""
    share = min(max(c.mainland_share, 0.0), 1.0)
    peak = max(1, math.ceil(c.peak * share - 1e-9))
    return dataclasses.replace(c, peak=peak, mainland_share=1.0, user_location="mainland")


def plan_node(ctx: Ctx, region: str, prefer: Any, *, screen: Screen, verify: Verify, cost: Cost,
              only_prefer: bool = False) -> Node | None:
    """The cheapest setup that meets the target for ``ctx`` in ``region``, the setup ``prefer`` (the plan's chosen
    one: same GPU, format, tensor parallel) first and then its GPU, checked on the predictor; None when none of the
    first four passes. ``only_prefer``: nothing but the preferred GPU (the mainland node keeps the plan's GPU)."""
    ranked = screen(ctx, region)

    def order(k: Any) -> int:
        if (k.gpu.id, k.weights, k.kv_dtype, k.tp) == (prefer.gpu.id, prefer.weights, prefer.kv_dtype, prefer.tp):
            return 0
        return 1 if k.gpu.id == prefer.gpu.id else 2

    tries = sorted(ranked, key=order)  # stable: the region's ranking within each group
    if only_prefer:
        tries = [k for k in tries if k.gpu.id == prefer.gpu.id]
    for k in tries[:4]:
        ttft, tpot, meets = verify(ctx, k, region)
        if meets:
            return Node(ctx=ctx, region=region, cand=k, out=cost(ctx, k, region), ok=ranked, sim_ttft=ttft,
                        sim_tpot=tpot)  # fmt: skip
    return None


def _add(a: MoneyRange | None, b: MoneyRange | None) -> MoneyRange | None:
    if a is None or b is None:
        return None
    return MoneyRange(low=round(a.low + b.low, 2), high=round(a.high + b.high, 2))


def _sum(a: tuple[float | None, float | None], b: tuple[float | None, float | None]
         ) -> tuple[float | None, float | None]:
    if None in a or None in b:
        return (None, None)
    return (a[0] + b[0], a[1] + b[1])  # type: ignore[operator]


def merge(a: costmod.CostOutcome, b: costmod.CostOutcome) -> costmod.CostOutcome:
    """The two nodes' cost outcomes added: every monthly figure summed (unknown where either is), the break-even
    and the cost per million tokens computed again from the sums, each price row once. The owning forms of one
    node are not the plan's (None): a rented two-node plan."""
    x, y = a.costs, b.costs
    costs = x.model_copy(deep=True)
    costs.gpus = x.gpus + y.gpus
    costs.cloud_per_gpu_hour = None  # two GPUs at two prices: each node's row says its own
    costs.region_uplift = x.region_uplift or y.region_uplift
    for name in ("cloud_on_demand_monthly", "cloud_monthly", "cloud_spot_monthly", "bare_metal_capex",
                 "bare_metal_amortised_monthly", "bare_metal_power_monthly", "bare_metal_colo_monthly",
                 "bare_metal_staff_monthly", "bare_metal_monthly"):
        setattr(costs, name, _add(getattr(x, name), getattr(y, name)))
    costs.owned = costs.hybrid = None
    # GPUs billed on demand on average: both nodes' (the merged label read "2 of 6 GPUs" from one node, q34)
    if x.cloud_billed_gpus is not None and y.cloud_billed_gpus is not None:
        costs.cloud_billed_gpus = round(x.cloud_billed_gpus + y.cloud_billed_gpus, 2)
        rx, ry = (c.cloud_billed_gpus_range or MoneyRange(low=c.cloud_billed_gpus or 0.0, high=c.cloud_billed_gpus or 0.0)
                  for c in (x, y))
        costs.cloud_billed_gpus_range = (_add(rx, ry) if x.cloud_billed_gpus_range or y.cloud_billed_gpus_range
                                         else None)
    # the reserved option as each node has it: its always-on floor reserved and bursts on demand, or every GPU
    costs.cloud_reserved_floor = reserved_floor.merged(x, y)  # (s19-reserve19)
    costs.cloud_reserved_all_monthly = (_add(x.cloud_reserved_all_monthly or x.cloud_monthly,
                                             y.cloud_reserved_all_monthly or y.cloud_monthly)
                                        if costs.cloud_reserved_floor is not None else None)
    costs.prices = list({r.id: r for r in [*x.prices, *y.prices]}.values())
    out_tok = (x.output_tokens_per_month or 0) + (y.output_tokens_per_month or 0)
    in_tok = (x.input_tokens_per_month or 0) + (y.input_tokens_per_month or 0)
    costs.output_tokens_per_month = out_tok or None
    costs.input_tokens_per_month = in_tok or None
    if x.output_tokens_per_month_high or y.output_tokens_per_month_high:  # an assumed month's high end: both nodes'
        costs.output_tokens_per_month_high = (x.output_tokens_per_month_high or x.output_tokens_per_month or 0) + \
            (y.output_tokens_per_month_high or y.output_tokens_per_month or 0)  # (s18-publicvol)
    _merge_usage(costs, x, y)
    cloud = _sum(a.cloud_usd, b.cloud_usd)
    owned = _sum(a.owned_usd, b.owned_usd)
    costs.cost_per_million_output_tokens = costs.cost_per_million_tokens = costs.per_million_monthly = None
    if out_tok and cloud[0] is not None and cloud[1] is not None:  # both nodes' cost (rebased on their capacity)
        capacity_per_million.set_monthly(costs, cloud[0] * a.conv, cloud[1] * a.conv)
    _break_even(costs, cloud, a.conv)
    series = []
    for p, q in zip(a.series, b.series, strict=True):
        bm = p.bare_metal_low is not None and q.bare_metal_low is not None
        series.append(CostPoint(month=p.month, cloud_low=p.cloud_low + q.cloud_low,
                                cloud_high=p.cloud_high + q.cloud_high,
                                bare_metal_low=(p.bare_metal_low or 0) + (q.bare_metal_low or 0) if bm else None,
                                bare_metal_high=(p.bare_metal_high or 0) + (q.bare_metal_high or 0) if bm else None))
    return costmod.CostOutcome(costs=costs, series=series, cloud_usd=cloud, owned_usd=owned, conv=a.conv)


def _merge_usage(costs: Any, x: Any, y: Any) -> None:
    """The plan's share of its capacity used: both nodes' month of tokens over both nodes' capacity (issue 25,
    session 30). The merged table kept the mainland node's own share (q05 "15 %": its 420,000,000 tokens over its
    own replicas) beside both nodes' tokens (600,000,000) and the per-million basis on both nodes' tokens/s, so the
    printed tokens ÷ the printed capacity gave 17 %. Each node's capacity is its tokens ÷ its share (``usage_share``:
    the simulated rate at its planned load, every replica around the clock); the power's busy hours at the high end
    are the two nodes' averaged over their GPUs. Left as it is where either node's share is measured or assumed."""
    if not (x.usage_from_tokens and y.usage_from_tokens) or x.utilisation <= 0 or y.utilisation <= 0:
        return
    tx, ty = x.output_tokens_per_month or 0, y.output_tokens_per_month or 0
    if tx <= 0 or ty <= 0:
        return
    full = tx / x.utilisation + ty / y.utilisation
    costs.utilisation = (tx + ty) / full
    hx = (x.output_tokens_per_month_high or tx) if x.usage_high else tx
    hy = (y.output_tokens_per_month_high or ty) if y.usage_high else ty
    high = min(1.0, (hx + hy) / full)
    costs.usage_high = round(high, 4) if high > costs.utilisation else None
    gx, gy = max(1, x.gpus), max(1, y.gpus)
    busy = ((x.power_busy_high or x.usage_high or x.utilisation) * gx +
            (y.power_busy_high or y.usage_high or y.utilisation) * gy) / (gx + gy)
    costs.power_busy_high = round(busy, 4) if busy > (costs.usage_high or costs.utilisation) else None


def _break_even(costs: Any, cloud: tuple[float | None, float | None], conv: float) -> None:
    """The payback of the two nodes together, from the summed owned figures against the summed rent the memo prints
    (``cloud``, USD: each node's cheaper of on demand and monthly/reserved), as ``cost.compute`` pays one node back
    (s22-rentbasis22b: it was against renting only the busy hours at the assumed share). Both nodes' power is at the
    assumed share they were costed at (the memo's assumption says so): one share for the monthly figure and this."""
    costs.break_even_utilisation = costs.break_even_months = None
    if costs.bare_metal_monthly is None or costs.bare_metal_capex is None or None in cloud:
        return
    opex = _add(_add(costs.bare_metal_power_monthly, costs.bare_metal_colo_monthly), costs.bare_metal_staff_monthly)
    if opex is None:
        return
    capex = (costs.bare_metal_capex.low, costs.bare_metal_capex.high)
    rent = (cloud[0] * conv, cloud[1] * conv)  # type: ignore[operator]
    costs.break_even_months = costmod.against_rent(capex, (opex.low, opex.high), rent, costs.horizon_months,
                                                   costs.utilisation)


def node_row(node: Node, command: str | None = None) -> PlanNode:
    """The node as the result lists it: its setup, the share of the peak it carries, what it costs a month."""
    k, out = node.cand, node.out
    lay = k.layout
    usd = out.cloud_usd
    monthly = None if None in usd else MoneyRange(low=round(usd[0] * out.conv, 2),  # type: ignore[operator]
                                                  high=round(usd[1] * out.conv, 2))  # type: ignore[operator]
    return PlanNode(region=node.region, gpu=k.gpu.id, gpu_name=k.gpu.name, tp=k.tp, replicas=k.replicas,
                    total_gpus=k.total_gpus, weights=k.weights, peak=node.ctx.peak,
                    units=lay.units if lay is not None else k.replicas,
                    unit_gpus=lay.unit_gpus if lay is not None else k.tp,
                    spare_units=lay.spare_units if lay is not None else 0,
                    unit="server" if lay is not None and (lay.whole_server or lay.owned) else "vm",
                    per_gpu_hour=out.costs.cloud_per_gpu_hour, monthly=monthly, command=command,
                    cost_factors=_cost_factors(out.costs, monthly))  # fmt: skip


def _cost_factors(c: Any, monthly: MoneyRange | None) -> dict[str, float] | None:
    """The factors of the node's monthly cost: on demand (the GPUs billed) or monthly/reserved (every GPU at the
    commitment discount), whichever the node is priced at (s15-batchcost: a reader can redo the sum)."""
    price, ov = c.cloud_per_gpu_hour, c.cloud_overhead
    if monthly is None or price is None or ov is None:
        return None
    base = {"hours": costmod.HOURS_PER_MONTH, "price_low": price.low, "price_high": price.high,
            "overhead_low": ov.low, "overhead_high": ov.high,
            "egress": float(any(p.name == "egress" for p in c.cloud_overhead_parts)),  # s22-uplift22c
            "support": float(any(p.name == "support" for p in c.cloud_overhead_parts))}  # AWS only (s25-prices25)
    od, mf = c.cloud_on_demand_monthly, c.cloud_monthly_factor
    if od is not None and c.cloud_billed_gpus and od.low == monthly.low and od.high == monthly.high:
        return {**base, "gpus": c.cloud_billed_gpus, "discount_low": 1.0, "discount_high": 1.0}
    floor = c.cloud_reserved_floor
    if mf is not None and floor is not None:  # the always-on floor reserved, the bursts on demand (s19-reserve19)
        return {**base, "gpus": float(floor["gpus"]), "discount_low": mf.low, "discount_high": mf.high,
                "burst_low": floor["burst_low"], "burst_high": floor["burst_high"]}
    if mf is not None and c.cloud_monthly is not None:
        return {**base, "gpus": float(c.gpus), "discount_low": mf.low, "discount_high": mf.high}
    return None


def prefill_share(nodes: list[Node]) -> float | None:
    """Prefill's share of the nodes' GPU cost together: each node's own share (its GPU, its load per replica: an L20
    node and an L4 node split their time differently) weighted by its cloud cost a month (the middle of its range),
    so that the cost per million input and output tokens adds the nodes up rather than applying one node's split to
    both. None when a node's share or cost is unknown."""
    from advisor.plan.token_split import prefill_share as node_share
    from advisor.plan.token_split import weighted_share

    parts: list[tuple[float | None, float | None]] = []
    for n in nodes:
        lo, hi = n.out.cloud_usd
        parts.append((node_share(n.ctx, n.cand), None if lo is None or hi is None else (lo + hi) / 2))
    return weighted_share(parts)


__all__ = ["Node", "mainland_ctx", "merge", "node_row", "plan_node", "prefill_share"]
