"""The overseas node of a two-node plan sized on a part sold in its region, the stand-in part named as the one to
quote (issue #25, blind review 25, q34: "The Singapore node uses a GPU with no known seller there … price = US g6e ×
1.2. Put an SKU actually listed in Singapore in the headline, such as the L4 option the memo already prices").

``supply_lead`` moves a one-node plan off a part priced by another region's row × the uplift onto the part priced
on the region's own row; a two-node plan's overseas node is the same case one level down. The same rule, the same
conditions (``supply_lead.fits_region``, ``supply_lead.kv_short``): the node's plan B (``in_region_fallback.find``)
meets the target, the two nodes' rent stays within the budget, and its KV cache holds its peak at the full context
where the stand-in's did. The node is then planned again on that part alone; the mainland node and everything else
of the plan are kept. The switch record is ``supply_lead``'s (marked ``node``), so page 1, the quote step and the
JSON say it as they say a one-node plan's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from advisor.plan import gpu_choice as gchoice
from advisor.plan import in_region_fallback, kv_fit, node_layout39, supply_lead, two_nodes
from advisor.plan.context import Ctx


def _usd_high(out: Any) -> float | None:
    hi = out.cloud_usd[1] if out is not None else None
    return float(hi) if hi is not None else None


def lead(c: Ctx, ov: Any, main: Any, book: Any, *, verify: Callable[[Ctx, Any, str], Any],
         cost: Callable[[Ctx, Any, str], Any]) -> Any:
    """``ov`` (an ``OverseasNode``) re-planned on the part priced by its region's own row, with ``switch`` set;
    ``ov`` unchanged where its part is priced there already or no such part meets the conditions."""
    n = getattr(ov, "node", None)
    if n is None or main is None or not in_region_fallback.stand_in(n.out):
        return ov
    fb = in_region_fallback.find(n.ctx, n.region, n.cand, n.out, list(n.ok), book,
                                 lambda k: verify(n.ctx, k, n.region))
    conv = n.out.conv
    main_hi = _usd_high(main.out)
    budget = c.budget_amount
    left = None if budget is None or main_hi is None else budget - main_hi * conv
    if fb is None or not supply_lead.fits_region(fb, left):
        return ov
    prefer = next((k for k in n.ok if (k.gpu.id, k.tp, k.weights) == (fb["gpu_id"], fb["tp"], fb["weights"])), None)
    if prefer is None:
        return ov
    new = two_nodes.plan_node(n.ctx, n.region, prefer, screen=lambda _x, _r: list(n.ok), verify=verify, cost=cost,
                              only_prefer=True)
    hi = _usd_high(new.out) if new is not None else None
    if new is None or hi is None or new.out.cloud_usd[0] is None:
        return ov
    if left is not None and hi * conv > left:  # the node's whole month, not its GPU rent alone, within the budget
        return ov
    if supply_lead.kv_short(kv_fit.kv_fit(new.ctx, new.cand)) and not supply_lead.kv_short(kv_fit.kv_fit(n.ctx, n.cand)):
        return ov
    if dearer_per_user(n.out, new.out):
        return ov
    lo = float(new.out.cloud_usd[0]) * conv
    switch = {"kind": "region", "node": True, "gpu_id": n.cand.gpu.id, "gpu": n.cand.gpu.name,
              "n": n.cand.total_gpus, "region": n.region, "lead_gpu": new.cand.gpu.name,
              "lead_n": new.cand.total_gpus, "below": round(lo, 2), "currency": c.currency, "per_job": False,
              "was": [round(float(x) * conv, 2) for x in n.out.cloud_usd] if None not in n.out.cloud_usd else None,
              "deadline_days": None, "slack_days": None, "deadline_hours": None}
    rows = gchoice.price_rows(book, new.cand.gpu.id, n.region, new.cand.tp)
    k = new.cand
    # why its replica spans the GPUs it does, against smaller splits and one big card (s37-usage39, review 28 q05)
    switch["layout"] = node_layout39.why(k, list(n.ok), lambda x: bool(gchoice.price_rows(book, x.gpu.id, n.region,
                                                                                        x.tp)))
    return dataclasses.replace(ov, gpu_name=k.gpu.name, tp=k.tp, replicas=k.replicas, total_gpus=k.total_gpus,
                               weights=k.weights, monthly_usd=(float(new.out.cloud_usd[0]), hi),
                               sourced=gchoice.sourced(rows), node=new, stand_in=False, faster=None, quicker=None,
                               switch=switch)


def dearer_per_user(stand_in_out: Any, listed_out: Any) -> bool:
    """The part listed in the region costs more, even at its low end, than the stand-in part at its high end for the
    same share of the peak (blind review 35, q05: "2 × A100 SXM4 at a GCP on-demand list rate, dearer than the
    mainland's 5 × L20 for more users, and runs bf16 while the mainland runs fp8"). The node then stays on the
    stand-in part (an FP8-capable L40S where the plan accepts FP8), named as the part to get quotes for there, and
    the listed part is its plan B (``in_region_fallback``): a list price more than the estimate's whole range is no
    reason to plan on the dearer card."""
    from advisor.plan import overseas44

    if not overseas44.on():
        return False
    lo = listed_out.cloud_usd[0] if listed_out is not None else None
    hi = stand_in_out.cloud_usd[1] if stand_in_out is not None else None
    return lo is not None and hi is not None and float(lo) > float(hi)


def said(result: Any, ov: Any) -> Any:
    """The plan with the node's switch recorded (``supply_switch``) and its quote step before the serve step."""
    s = getattr(ov, "switch", None)
    if s is None or result.nodes is None or result.supply_switch is not None:
        return result
    return result.model_copy(update={"supply_switch": s, "next_steps": supply_lead.with_step(result.next_steps, s)})


__all__ = ["dearer_per_user", "lead", "said"]
