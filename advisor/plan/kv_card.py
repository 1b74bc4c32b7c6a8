"""The card with more memory that would hold the failover load at the full context, named with its price (issue 25,
blind reviews 23–24: q36 "the L20 in fp8 costs the same (58.52 against 58.44 CNY/h) and has twice the memory", q41
and q30 "one A10 holds 16 full-context requests, on failover one card carries all 30/40", q21's A10 fallback).

Where the led plan's KV cache holds fewer full-context requests than a replica carries with one replica down (or at
the peak) and the plan did not set an FP8 cache (kv_fp8_set.py: an A10 has no FP8 units), the KV-fit sentence's
"a card with more memory" names one: the cheapest of the GPU choice's listed alternatives (each already sized and
priced by ``gpu_choice.build_choice`` at the size that meets the target, the same figures "Why this GPU" says) whose
replica holds its own load with the same number of replicas down at the full context. Its load is read as the led
plan's is (``capacity.one_down_load``: the peak over the replicas left serving), its full-context count from the same
memory estimate (``sizing._memory`` at its own weights, cache and TP). Only a sourced hourly price, rented (a purchase
is compared on another basis), so the difference said is one the reader can check against the price rows.

The plan itself is not changed here (the engine keeps its choice): the sentence says what the card costs against the
chosen one. ``CLOSE`` is the premium under which the card is named first among the remedies: within 10 % a month it
is the plainest fix (q36's 0.1 %); above it, it stays after the cheaper remedies, its difference still said (q41's
50 %).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import sizing
from advisor.plan.capacity import one_down_load, serving_replicas
from advisor.plan.context import Ctx

CLOSE = 0.10  # a policy: up to 10 % more an hour (so a month) counts as "about the same cost" and leads the remedies
ATTR = "_kv_card"  # set on the led setup by the engine once the GPU choice is built; kv_fit.py reads it


def named(ctx: Ctx, ch: sizing.Candidate | None, choice: Any, ok: list[sizing.Candidate]) -> dict[str, Any] | None:
    """{"gpu", "gpu_name", "weights", "gpus", "load", "full_fit", "per_hour", "chosen_per_hour", "more_pct",
    "close", "currency"} for the card to name, or None where the led plan's cache holds its load at the full context,
    set FP8 for it, or no listed alternative holds its own load there."""
    if ch is None or choice is None or ctx.is_batch or not ch.replicas or ch.memory.kv_tokens <= 0:
        return None
    down = one_down_load(ctx, ch)
    need = max(ch.per_replica, down or 0)
    if need <= ch.memory.max_concurrency_kv or ch.kv_dtype == "fp8":
        return None
    spares = ch.replicas - serving_replicas(ch) if down else 0
    mine = float(choice.chosen.per_hour or 0.0)
    if mine <= 0 or choice.chosen.purchase is not None:
        return None
    best: dict[str, Any] | None = None
    for alt in choice.alternatives:
        # only a dearer card: a cheaper one that holds it would have been a reason for the choice itself
        if not alt.price_sourced or alt.purchase is not None or alt.gpu == ch.gpu.id or alt.per_hour < mine:
            continue
        k = next((x for x in ok if x.gpu.id == alt.gpu and x.weights == alt.weights), None)
        # a card with more memory, as the sentence says (q37: 8 × L4 hold their own smaller loads on cards with less)
        if k is None or k.memory.kv_tokens <= 0 or k.gpu.memory_bytes <= ch.gpu.memory_bytes:
            continue
        replicas = max(1, alt.gpus // max(1, k.tp))
        serving = max(1, replicas - spares)
        load = max(1, math.ceil(ctx.peak / serving)) if ctx.peak else k.per_replica
        fit = sizing._memory(ctx, k.gpu, k.weights, k.kv_dtype, k.tp, sizing._engine(ctx, k.gpu)).max_concurrency_kv
        if fit < load or fit <= ch.memory.max_concurrency_kv:
            continue
        if best is None or alt.per_hour < best["per_hour"]:
            more = alt.per_hour / mine - 1.0
            best = {"gpu": alt.gpu, "gpu_name": alt.gpu_name, "weights": alt.weights, "gpus": alt.gpus, "load": load,
                    "full_fit": fit, "per_hour": alt.per_hour, "chosen_per_hour": mine,
                    "more_pct": round(more * 100, 1), "close": more <= CLOSE + 1e-9, "currency": choice.currency}
    return best


def attach(ch: sizing.Candidate | None, card: dict[str, Any] | None) -> None:
    """Note the card on the led setup (kv_fit.py reads it for the KV-fit sentence and the JSON)."""
    if ch is not None:
        setattr(ch, ATTR, card)


def of(ch: sizing.Candidate | None) -> dict[str, Any] | None:
    return getattr(ch, ATTR, None) if ch is not None else None


__all__ = ["ATTR", "CLOSE", "attach", "named", "of"]
