"""A data-centre setup set aside only because the high end of its purchase breaks a one-off budget, said with both
purchase ranges (tenth blind review, q17: a university lab's ¥400,000 grant bought 8 × A10 — Ampere, no FP8, a
3.2 s TTFT at one request — while 4 × L20 48GB, whose purchase the memo itself put at ¥340,000–460,000, was never
weighed: its low end fits the grant, its high end does not).

``gpu_grade`` sets such a setup aside so the plan never recommends a purchase that may break the grant. The memo
then says what it would cost against the chosen purchase, that a quote at or under the grant makes it the buy, and
why (FP8 where the chosen cards have none, fewer cards, the KV cache a replica holds).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook
from advisor.plan.gpu_grade import internal_grade_reason
from advisor.plan.stand_in_prices import stand_ins


def purchase_range(c: Ctx, book: PriceBook, k: Any) -> tuple[float, float] | None:
    """The setup's purchase (cards and their share of a server) low and high, in the answer's currency."""
    rows = book.find(k.gpu.id, "capex")
    if not rows:
        return None
    fx = float(book.fx()["cny_per_usd"])

    def usd(v: float, unit: str) -> float:
        return v / fx if unit.upper().startswith("CNY") else v

    low = min(usd(r.low, r.unit) for r in rows) * k.total_gpus
    high = max(usd(r.high, r.unit) for r in rows) * k.total_gpus
    conv = fx if c.currency == "CNY" else 1.0
    return low * conv, high * conv


def straddling(c: Ctx, chosen: Any, others: list[Any], book: PriceBook, kv: dict[str, int]) -> dict[str, Any] | None:
    """The first data-centre setup among ``others`` (the next ones on other GPUs) whose purchase starts within the
    one-off budget and ends above it, with both ranges; None where none does or the plan buys on no such budget.
    ``kv``: requests of average length one replica's KV cache holds, by GPU id (the weighing's figures)."""
    b = getattr(c.answers, "capex_budget", None)
    if b is None or internal_grade_reason(c) != "server_room":
        return None
    mine = purchase_range(c, book, chosen)
    if mine is None:
        return None
    fx = float(book.fx()["cny_per_usd"])
    budget = b.amount if b.currency == c.currency else b.amount * fx if c.currency == "CNY" else b.amount / fx
    for k in others:
        if k.gpu.market == "consumer" or k.gpu.id == chosen.gpu.id:
            continue
        r = purchase_range(c, book, k)
        if r is None or not r[0] <= budget < r[1]:
            continue
        fp8 = k.weights.startswith("fp8") and not chosen.weights.startswith("fp8")
        # round 14 (q17): a high end over the budget on a stand-in price, with the middle within it, is no verdict
        # against the part: the step after the purchase's start is its quote (``better_on_quote``)
        stand_in = bool(stand_ins(book.find(k.gpu.id, "capex")))
        return {"gpu_name": k.gpu.name, "gpus": k.total_gpus, "weights": k.weights, "low": round(r[0]),
                "high": round(r[1]), "chosen_low": round(mine[0]), "chosen_high": round(mine[1]),
                "budget": round(budget), "fp8": fp8, "fewer": k.total_gpus < chosen.total_gpus,
                "kv": kv.get(k.gpu.id), "chosen_kv": kv.get(chosen.gpu.id), "stand_in": stand_in,
                "mid_fits": round((r[0] + r[1]) / 2) <= round(budget), "chosen_gpu_name": chosen.gpu.name,
                "chosen_gpus": chosen.total_gpus}
    return None


__all__ = ["purchase_range", "straddling"]
