"""The overseas node on the faster card by default where its cheaper card leaves users below the chat speed line and
the faster one keeps the plan within the budget (issue #25, blind review 35, q34: "the Singapore L4 node gives about
13.5 tokens/s per user, below the memo's own 20 tok/s line, and 2 × L40S fits the budget, so make L40S the default
and L4 the fallback, not the reverse").

``node_quicker`` finds the faster card (more memory bandwidth, materially faster decode, meeting the target) where
the node's P99 TPOT takes a felt share of the target, and until now only named it beside the cheaper node. Here the
node is planned again on that card when both nodes' whole month, at its high end, stays within the budget; the
card it replaces (its P99 TPOT slower than the chat line, ``chat_rule38.RULE_MS``: 20 tokens a second), priced by its region's own row, then comes back as plan B (``in_region_fallback``) where the
faster one rests on a stand-in price there, so the quote step asks for the faster card and says what to rent if no
host quotes it. No budget: the plan keeps the cheaper card (nothing says the faster one is affordable).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from advisor.plan import chat_rule38, two_nodes
from advisor.plan import gpu_choice as gchoice
from advisor.plan.context import Ctx


def lead(c: Ctx, ov: Any, main: Any, book: Any, *, verify: Callable[[Ctx, Any, str], Any],
         cost: Callable[[Ctx, Any, str], Any]) -> Any:
    """``ov`` (an ``OverseasNode``) re-planned on its ``quicker`` card where the plan stays within the budget;
    ``ov`` unchanged otherwise (no faster card, no budget, over it, or the card failing the target laid out)."""
    from advisor.plan import overseas44

    if not overseas44.on():
        return ov
    quick = getattr(ov, "quicker", None)
    n = getattr(ov, "node", None)
    budget = c.budget_amount
    if quick is None or n is None or main is None or budget is None or getattr(ov, "switch", None) is not None:
        return ov
    if float(quick["tpot"]) <= chat_rule38.RULE_MS:  # the cheaper card already streams at the chat line or faster
        return ov
    k = next((x for x in n.ok if x.gpu.name == quick["gpu"] and x.weights == quick["weights"]), None)
    if k is None:
        return ov
    new = two_nodes.plan_node(n.ctx, n.region, k, screen=lambda _x, _r: list(n.ok), verify=verify, cost=cost,
                              only_prefer=True)
    if new is None:
        return ov
    lo, hi = new.out.cloud_usd
    main_hi = main.out.cloud_usd[1]
    if lo is None or hi is None or main_hi is None or (float(main_hi) + float(hi)) * n.out.conv > budget:
        return ov  # both nodes' whole month at its high end, as the budget is judged
    cand = new.cand
    return dataclasses.replace(ov, gpu_name=cand.gpu.name, tp=cand.tp, replicas=cand.replicas,
                               total_gpus=cand.total_gpus, weights=cand.weights,
                               monthly_usd=(float(lo), float(hi)),
                               sourced=gchoice.sourced(gchoice.price_rows(book, cand.gpu.id, n.region, cand.tp)),
                               node=new, stand_in=new.out.costs.region_uplift is not None, faster=None, quicker=None)


__all__ = ["lead"]
