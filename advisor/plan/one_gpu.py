"""Why a replica spans several PCIe cards rather than one (s14-fleetq, q33: 8 idle RTX 4090D, Qwen2.5-32B, 4-bit
accepted): an engineer's first choice is a model that fits on one card per replica (no tensor parallelism over
PCIe, more replicas from the same cards). When the plan runs tensor parallel over PCIe, the most compact weight
format the answers allow is checked on one card with the sizing core's own figures (the screen's memory model and
step costs), and what stops it is said with its figure: the weights do not fit, the KV cache left cannot hold the
context, or one request's first token (or an output token) comes later than the target on the predictor, the
plan's figure for every setup it sizes (s22-cleanup22b: not the screen's analytic estimate, which q03 quoted at
4,577 ms where the predictor gives about 3,600 ms within the 4,000 ms target)."""

from __future__ import annotations

from advisor.domain.gpu import GpuSpec
from advisor.plan import one_request, sizing
from advisor.plan.context import Ctx

GIB = 2**30  # card memory as its maker states it (24 GB on an RTX 4090 D is 24 GiB)


def why_not_one(ctx: Ctx, gpu: GpuSpec) -> dict | None:
    """A translatable phrase saying why one ``gpu`` per replica misses, with the figures; None when one card would
    meet the target (the ranking then chose several for another reason) or for a batch job."""
    if ctx.is_batch:
        return None
    weights, kv = sizing.allowed_formats(ctx, gpu)[-1]  # the most compact format allowed (best quality first)
    engine = sizing._engine(ctx, gpu)
    mem = sizing._memory(ctx, gpu, weights, kv, 1, engine)
    reasons: list[dict] = []
    if not mem.weights_fit:
        reasons.append({"tr": "plan.fleetq.one.weights", "need": f"{mem.weights_bytes / GIB:.1f}",
                        "mem": f"{gpu.memory_bytes / GIB:.0f}"})
        return _why(weights, reasons)
    if mem.kv_tokens < ctx.max_context:
        reasons.append({"tr": "plan.fleetq.one.kv", "need": f"{mem.weights_bytes / GIB:.1f}",
                        "mem": f"{gpu.memory_bytes / GIB:.0f}", "kv": mem.kv_tokens, "context": ctx.max_context})
    if not reasons:  # s22-cleanup22b: the latency the predictor gives one request, the plan's figure for every setup
        # (the screen's analytic P99 said 4,577 ms for q03's one L20 where the predictor gives about 3,600); a
        # card that cannot hold one request is said by its memory alone: no latency is checked for it
        one = one_request.setup(ctx, gpu, weights, kv, 1)
        missed = one_request.miss(ctx, one) if one is not None else None
        if missed is not None:
            value = f"{missed.value:,.0f}"
            reasons.append({"tr": f"cleanup22b.one.{missed.what}", "value": value, "slo": f"{missed.target:,.0f}"})
    return _why(weights, reasons) if reasons else None


def _why(weights: str, reasons: list[dict]) -> dict:
    """The reasons chained in order, each after the one before it ("…; …" / "…；…")."""
    for i, r in enumerate(reasons):
        r["more"] = {"tr": "plan.fleetq.one.and", "next": reasons[i + 1]} if i + 1 < len(reasons) else ""
    return {"tr": "plan.fleetq.one.why", "weights": weights, "reasons": reasons[0]}


__all__ = ["why_not_one"]
