"""The better part bought on its quote, with the setup the budget surely covers as the fallback (issue 25, round 15,
q17: "I would not sign 8 × A10 24GB (Ampere, no FP8, TP4 over PCIe, 0.6 TB/s) as a 4-year purchase"; "the L20 only
appears as a quote step").

A setup whose purchase is over the one-off budget only at the high end of a stand-in price, the budget covering its
middle (``purchase_rank.stand_in_straddle``), is ranked as fitting: the placeholder cannot say it does not fit, the
quote can. The plan then buys it, and names the next setup whose purchase fits the budget at its high end as what to
buy if the quote comes in over the budget, with what that setup lacks (FP8 where it has none, more cards, a smaller
KV cache). ``grant_straddle`` is the mirror case (the budget set the better part aside on a sourced price).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook
from advisor.plan.gpu_grade import internal_grade_reason
from advisor.plan.grant_straddle import purchase_range
from advisor.plan.purchase_rank import stand_in_straddle
from advisor.plan.stand_in_prices import stand_ins


def fallback(c: Ctx, chosen: Any, others: list[Any], book: PriceBook, kv: dict[str, int]) -> dict[str, Any] | None:
    """``GpuChoice.grant`` with ``fallback`` set where ``chosen`` straddles the one-off budget on a stand-in price:
    the first data-centre setup among ``others`` (on another GPU) whose purchase fits the budget at its high end,
    with both ranges; None where the chosen setup does not straddle that way or no other setup fits."""
    b = getattr(c.answers, "capex_budget", None)
    if b is None or internal_grade_reason(c) != "server_room" or not stand_in_straddle(c, chosen, book):
        return None
    mine = purchase_range(c, book, chosen)
    if mine is None:
        return None
    budget = b.amount if b.currency == c.currency else None
    if budget is None:
        fx = float(book.fx()["cny_per_usd"])
        budget = b.amount * fx if c.currency == "CNY" else b.amount / fx
    for k in others:
        if k.gpu.market == "consumer" or k.gpu.id == chosen.gpu.id:
            continue
        r = purchase_range(c, book, k)
        if r is None or r[1] > budget:
            continue
        return {"fallback": True, "gpu_name": k.gpu.name, "gpus": k.total_gpus, "weights": k.weights,
                "low": round(r[0]), "high": round(r[1]), "chosen_low": round(mine[0]), "chosen_high": round(mine[1]),
                "budget": round(budget), "fp8": chosen.weights.startswith("fp8") and not k.weights.startswith("fp8"),
                "fewer": chosen.total_gpus < k.total_gpus, "kv": kv.get(k.gpu.id), "chosen_kv": kv.get(chosen.gpu.id),
                "chosen_gpu_name": chosen.gpu.name, "chosen_gpus": chosen.total_gpus, "chosen_weights": chosen.weights,
                # what ``same_gpu_fallback`` says of it after fewer cards of the chosen GPU: its catalog entry
                # against the chosen one's, the cards a replica splits over, and whether its price is a stand-in
                "gpu": k.gpu.id, "chosen_gpu": chosen.gpu.id, "tp": k.tp,
                "price_stand_in": bool(stand_ins(book.find(k.gpu.id, "capex")))}
    return None


__all__ = ["fallback"]
