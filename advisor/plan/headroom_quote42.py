"""A card with room to spare at about the same price, priced only by a stand-in: named as the part to quote (issue 25,
blind review 32, q13: "The fallback picks 5 × L4, which gives only '13.8 tokens/s per user' and '3 at the full
4,096' a card, over L40S at almost the same price (4.47 vs 4.36 USD/h) with four times the requests a replica. Pick
2 × L40S.").

The engine takes a card with more memory for its KV cache within a margin (``kv_pick``), but only one priced by a
row of the plan's own region: a card moved to must be one the region is known to sell (AWS sells no g6e in Singapore
or Hong Kong: ``in_region_fallback``). So in Singapore the L40S, priced as another region's row times the uplift,
stays a name in "Why this GPU" with its price 2.5 % above the L4's, and the memo gave no reason for passing it over.
Here, where the chosen replica's KV cache holds fewer full-context requests than a replica carries at the peak (the
basis section 2's KV sentence says it on) and a listed alternative:

- costs at most ``CLOSE`` more an hour at the size that meets the target (a policy: "about the same price");
- has more memory a card and its replica holds its own peak load at the full context (its own cache, the same
  memory estimate as ``kv_card``), more requests than the chosen replica holds there;
- is priced in the plan's region only by a stand-in (no sourced row of the region, and the region has an uplift),

"Why this GPU" says why it is not the plan (its price is a guess) and the quote step asks for it beside the planned
GPUs (or a step of its own where no quote step is planned). The plan is unchanged: a quote entered (plan → quotes)
makes its price the region's own, and ``kv_pick`` then weighs it.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook
from advisor.plan.headroom_quote42_words import params
from advisor.plan.in_region_fallback import in_region_rows
from advisor.plan.price_rows import uplift_factor
from advisor.plan.result import NextStep

CLOSE = 0.05  # a policy: up to 5 % more an hour counts as "about the same price" (q13's 2.5 %)
STEP_ID = "quote_headroom42"


def find(ctx: Ctx, region: str, ch: sizing.Candidate | None, choice: Any, ok: list[sizing.Candidate],
         book: PriceBook) -> dict[str, Any] | None:
    """{"gpu", "gpu_name", "gpus", "per_hour", "chosen_per_hour", "chosen_name", "more_pct", "full_fit", "load",
    "chosen_full", "chosen_load", "context", "region", "currency"} for the card to quote, or None (see the module)."""
    if ch is None or choice is None or ctx.is_batch or not ch.replicas or ch.memory.kv_tokens <= 0:
        return None
    if uplift_factor(region) is None or choice.chosen.purchase is not None:
        return None  # no stand-in price in this region (US rows as they are), or a purchase: another basis
    need = ch.per_replica  # at the peak with every replica up: the basis section 2's KV sentence says it on
    if not need or need <= ch.memory.max_concurrency_kv:
        return None  # the chosen cache holds its load at the full context: nothing to trade for
    mine = float(choice.chosen.per_hour or 0.0)
    if mine <= 0:
        return None
    best: dict[str, Any] | None = None
    for alt in choice.alternatives:
        if alt.purchase is not None or alt.gpu == ch.gpu.id or not mine <= alt.per_hour <= mine * (1 + CLOSE) + 1e-9:
            continue  # a cheaper card is the choice's own business (the ranking, ``supply36`` for a stand-in)
        if in_region_rows(book, alt.gpu, region):
            continue  # priced by a row of the region: ``kv_pick`` weighs it
        k = next((x for x in ok if x.gpu.id == alt.gpu and x.weights == alt.weights), None)
        if k is None or k.memory.kv_tokens <= 0 or k.gpu.memory_bytes <= ch.gpu.memory_bytes:
            continue
        load = max(1, math.ceil(ctx.peak / max(1, alt.gpus // max(1, k.tp)))) if ctx.peak else k.per_replica
        fit = sizing._memory(ctx, k.gpu, k.weights, k.kv_dtype, k.tp, sizing._engine(ctx, k.gpu)).max_concurrency_kv
        if fit < load or fit <= ch.memory.max_concurrency_kv:
            continue
        if best is None or alt.per_hour < best["per_hour"]:
            best = {"gpu": alt.gpu, "gpu_name": alt.gpu_name, "gpus": alt.gpus, "per_hour": alt.per_hour,
                    "chosen_per_hour": mine, "chosen_name": choice.chosen.gpu_name,
                    "more_pct": round((alt.per_hour / mine - 1.0) * 100, 1), "full_fit": fit, "load": load,
                    "chosen_full": ch.memory.max_concurrency_kv, "chosen_load": need,
                    "context": ctx.max_context, "region": region, "currency": choice.currency}
    return best


def with_step(steps: list[NextStep], d: dict[str, Any] | None) -> list[NextStep]:
    """The quote step asks for the card too; where no quote step is planned, a step of its own before the serve
    step (a quote to have before renting the planned cards)."""
    if not d:
        return steps
    p = params(d)
    at = next((i for i, s in enumerate(steps) if s.id == "quotes"), None)
    if at is not None and "supply" in steps[at].params:  # the quote step's trailing slot (its keys all have one)
        s = steps[at]
        also = {"tr": "reg42.next.also_quote", "before": s.params.get("supply") or "", **p}
        return [*steps[:at], s.model_copy(update={"params": {**s.params, "supply": also}}), *steps[at + 1:]]
    step = NextStep(id=STEP_ID, key="reg42.next.quote", params=p)
    at = next((i for i, s in enumerate(steps) if s.id == "serve"), len(steps))
    return [*steps[:at], step, *steps[at:]]


__all__ = ["CLOSE", "STEP_ID", "find", "with_step"]
