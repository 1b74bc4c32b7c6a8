"""The memory floor of a replica, said in the sizing reasoning: the weights' bytes against one card's memory give the
fewest cards that can hold them at all, and the sizing core's memory estimate (weights, KV cache for one full-context
request, the engine's overhead) the fewest the engine can actually run on (blind review q40: "sizes 8 × A800 per
replica but never states the memory floor: 145 GB of bf16 weights need at least two, in practice four, 80 GB GPUs").

Figures come from the sizing core (advisor.sizing's MemoryEstimate) at the plan's own weight format; nothing here
re-derives a byte count. Said only when the weights do not fit on one card (a floor of one card says nothing).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from advisor.plan.context import Ctx
    from advisor.plan.result import LayoutSearch
    from advisor.plan.sizing import Candidate

TP_SIZES = (1, 2, 4, 8)  # tensor-parallel sizes vLLM runs a dense model on within one server


def memory_floor(ctx: Ctx, cand: Candidate | None, tried: LayoutSearch | None = None) -> dict[str, Any] | None:
    """Figures for ``plan.binding.memory_floor``; None when the weights fit on one card or there is no setup.
    ``tried``: the plan's layout search, whose figure says why the plan runs more cards a replica than the fewest."""
    if cand is None:
        return None
    from advisor.plan import sizing

    weights = cand.memory.weights_bytes_all_gpus
    card = cand.gpu.memory_bytes
    at_least = math.ceil(weights / card)
    if at_least <= 1:
        return None
    engine = sizing._engine(ctx, cand.gpu)
    practical = room = None
    for tp in TP_SIZES:
        if tp < at_least:
            continue
        mem = sizing._memory(ctx, cand.gpu, cand.weights, cand.kv_dtype, tp, engine)
        if mem.weights_fit and mem.kv_tokens >= ctx.max_context:
            practical, room = tp, mem.kv_tokens // max(ctx.prompt_avg + ctx.output_avg, 1)
            break
    said: dict[str, Any] | str = ""
    if practical is not None:
        said = {"tr": "plan.binding.memory_floor.practical", "tp": practical, "context": ctx.max_context,
                "room": room, "plan": _why_more(cand, practical, tried) if cand.tp > practical else ""}
    return {"weights_gb": round(weights / 1e9), "weights": cand.weights, "gpu": cand.gpu.name,
            "card_gb": round(card / 1024**3), "at_least": at_least, "practical": said}


def _why_more(cand: Candidate, practical: int, tried: LayoutSearch | None) -> dict[str, Any]:
    """Why the plan runs more cards a replica than the fewest the engine runs on: the layout search's own figure
    where the fewest misses a target even for one request (review 27, q40: "runs 4 per replica for more KV room
    and faster decoding" where TP2 misses the 2,000 ms TTFT at one request, 2,183 ms: the reader took the plan,
    and its "more budget" cost, for inflated), else the general reason."""
    t = next((x for x in (tried.tries if tried is not None else []) if x.tp == practical
              and x.weights == cand.weights and x.outcome in ("ttft", "tpot")), None)
    if t is None:
        return {"tr": "plan.binding.memory_floor.plan", "tp": cand.tp}
    return {"tr": f"layoutwhy37_floor.{t.outcome}", "tp": cand.tp, "fewest": practical,
            "value": f"{t.value or 0:,.0f}", "target": f"{t.target or 0:,.0f}"}


__all__ = ["memory_floor"]
