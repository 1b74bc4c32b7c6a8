"""One server, no spare, beside a rented plan whose cost straddles the budget (issue 25, fifteenth blind review q10:
"16 H800s at ¥128–332k a month against a ¥150k budget, called conditionally feasible; it should show the one-server
option (2 TP4 replicas, 8 GPUs) with its failure trade-off").

Where the plan rents whole servers, needs two or more of them, and its cost range straddles the budget, one server
laid out with the same replicas (same GPU, precision and tensor parallelism) may carry the bare peak at the most a
replica takes within the target. It is then said, with its month at the same prices, factors and line as the plan's,
and what it gives up: no spare (a failed server stops the service until it is replaced) and no headroom above the
peak. The plan's decision stays: a production service keeps its spare; the option is the reader's to weigh.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import budget_share, line_total
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.rule_base import Facts, _money, _range


def _month(costs: Any, gpus: int) -> tuple[float, float] | None:
    """(low, high) month of ``gpus`` GPUs kept on around the clock at the plan's committed price: its GPU-hour price
    (already in the answer's currency) × hours × its commitment discount × (1 + its overhead share), plus its line."""
    p, mf, ov = costs.cloud_per_gpu_hour, costs.cloud_monthly_factor, costs.cloud_overhead
    if p is None or mf is None or ov is None:
        return None
    with_line, own = line_total.judged_total(costs), costs.recommended_monthly
    line = (with_line.low - own.low, with_line.high - own.high) if with_line is not None and own is not None \
        else (0.0, 0.0)
    return (p.low * HOURS_PER_MONTH * gpus * mf.low * (1 + ov.low) + line[0],
            p.high * HOURS_PER_MONTH * gpus * mf.high * (1 + ov.high) + line[1])


def option(f: Facts) -> dict[str, Any] | None:
    """The one-server option's figures for the budget finding's text; None where it does not apply (not rented,
    one server already, the peak not carried by one server's replicas within the target, or it does not cost less
    at the low end than the budget)."""
    ch, budget = f.chosen, f.ctx.budget_amount
    lay = getattr(ch, "layout", None)
    if f.form != "cloud" or ch is None or lay is None or budget is None or f.cost is None or not f.budget_straddles:
        return None
    if not lay.whole_server or lay.units < 2 or lay.unit_gpus % ch.tp:
        return None
    replicas = lay.unit_gpus // ch.tp
    peak = int(f.ctx.peak)
    # what one replica takes within the target on the plan's own predicted curve, as the sizing finding says it
    c_max = f.claimed_c_max or ch.c_max
    if replicas >= ch.replicas or c_max <= 0 or replicas * c_max < peak:
        return None
    month = _month(f.cost.costs, lay.unit_gpus)
    if month is None or month[0] > budget:
        return None
    per = -(-peak // replicas)
    return {"one_gpus": lay.unit_gpus, "one_gpu": ch.gpu.name, "one_replicas": replicas, "one_tp": ch.tp, "one_per": per,
            "one_cost": _range(month[0], month[1], f), "one_pct": budget_share.percent(month[0], month[1], budget),
            "one_budget": _money(budget, f)}


__all__ = ["option"]
