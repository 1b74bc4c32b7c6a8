"""Does the led plan's KV cache hold the requests a replica carries — at the peak, with one replica down, and up to
the serve command's ``--max-num-seqs`` — at the full context, or only at the average length? (Issue 25, blind review
21: q38 "bf16 leaves 10.7 GiB of KV (58k tokens), about 11 requests at the full 5,120 context, while a single replica
must carry 15 during failover"; q36 "50 requests a replica on an A10 whose KV holds 16 full-context requests"; q35
"2.2 GiB a GPU for KV (8 full-context requests) … marginal".)

Every count is the plan's own memory estimate (``advisor.sizing.memory`` through ``Candidate.memory``): the requests
at the full ``--max-model-len`` are the engine's block count (``max_concurrency_kv``), those at the average length
the KV tokens over the average prompt plus answer (the sizing table's "most requests the KV cache holds"). A load
above the full-context count rests on average lengths: past what the cache holds, vLLM pauses the newest requests
and recomputes them later (recompute preemption), which the plan's latency table simulates with the same KV blocks
at the workload's length distribution (advisor.sim.engine), not with every request at the full context.

Where the failover load (or the peak's, where the plan keeps no spare) exceeds the full-context count, the remedies
that apply are tried on the same memory estimate: an FP8 KV cache, FP8 weights (where the GPU has FP8 units), a
shorter ``--max-model-len`` that still covers the p95 prompt plus the p95 answer, and a card with more memory (always
an option, not sized here). Nothing here changes the plan: it says what the plan relies on. Where the FP8 cache holds
the load and the answers accept FP8, the plan has already set it (kv_fp8_set.py): ``bf16_full_fit`` then says what
the 16-bit cache held."""

from __future__ import annotations

import dataclasses

from advisor.plan import kv_card, served_context38, sizing
from advisor.plan.capacity import engine_cap, one_down_load
from advisor.plan.context import Ctx
from advisor.plan.kv_fp8_set import bf16_full_fit
from advisor.plan.result import KvFit, KvRemedy, MoneyRange

GIB = 1024**3
SOURCE = ("advisor.sizing.memory (the plan's memory estimate: KV tokens left beside the weights at "
          "--gpu-memory-utilization, in the engine's blocks); the latency table simulates the same blocks with "
          "vLLM's recompute preemption at the workload's lengths (advisor.sim.engine)")  # fmt: skip
# kv_replicas42.attach notes there the replicas of this card that hold the load within the budget (kv_replicas42
# imports this module, so the name is kept here)
MORE_ATTR = "_kv_replicas42"
CONTEXT_STEP = 256  # a shorter --max-model-len is offered in these steps (whole KV blocks of 16 on every engine)
# a higher --gpu-memory-utilization, sized (blind review 35, q35 zh: "raising --gpu-memory-utilization to 0.95 roughly
# triples the KV room"; the gate said only "a higher … than the serve command's"): vLLM's own examples go to 0.95
# (docs.vllm.ai, "Optimization and Tuning"), the share the engine hands out beside the weights; above it the CUDA
# graphs and non-torch memory outside the share run short
HIGHER_UTILIZATION = 0.95


# the engines' flags for data-parallel attention with the experts split across the attention groups: SGLang's
# server arguments (docs/sizing.md) and vLLM's data-parallel deployment
# (https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/, grade A: "for MoE models, particularly those
# like DeepSeek that employ MLA, it can be advantageous to use data parallel for the attention layers and expert or
# tensor parallel (EP or TP) for the expert layers")
DP_ATTENTION_FLAGS = {
    "sglang": "--enable-dp-attention --dp-size D",
    "vllm": "--data-parallel-size D --enable-expert-parallel",
}


def _full_fit(ctx: Ctx, ch: sizing.Candidate, weights: str, kv: str) -> int:
    return sizing._memory(ctx, ch.gpu, weights, kv, ch.tp, sizing._engine(ctx, ch.gpu)).max_concurrency_kv


def _fp8_weights_ok(ctx: Ctx, ch: sizing.Candidate) -> bool:
    """FP8 weights are a remedy where the GPU has FP8 units and the plan's weights are wider (bf16/fp16); a
    published checkpoint in its own format keeps it."""
    return bool(ch.gpu.fp8_tflops_dense) and ch.weights in ("bf16", "fp16") and not ctx.model.checkpoint_quant


def dp_attention_applies(ctx: Ctx, ch: sizing.Candidate) -> bool:
    """A latent-attention MoE model (DeepSeek-V2/V3 class) split over several GPUs on an engine with data-parallel
    attention: its KV cache is held whole on every GPU of the replica, which data-parallel attention undoes
    (DP_ATTENTION_FLAGS above: vLLM's data-parallel deployment and SGLang's --enable-dp-attention; s33-kvdef,
    blind review 22: q35's list of fixes named only a larger card)."""
    return bool(ctx.model.is_mla and ctx.model.is_moe and ch.tp > 1
                and DP_ATTENTION_FLAGS.get(sizing.serving_profile(ctx).id))


def higher_utilization(ctx: Ctx, ch: sizing.Candidate) -> KvRemedy | None:
    """The serve command's --gpu-memory-utilization raised to HIGHER_UTILIZATION, on the same memory estimate: what a
    GPU then keeps for the KV cache and the requests a replica holds at the full context. vLLM only (SGLang sizes its
    pool by another share, llama.cpp takes what it needs); None where the command already asks as much."""
    engine = sizing._engine(ctx, ch.gpu)
    if sizing.serving_profile(ctx).id != "vllm" or engine.gpu_memory_utilization >= HIGHER_UTILIZATION:
        return None
    raised = engine.model_copy(update={"gpu_memory_utilization": HIGHER_UTILIZATION})
    m = sizing._memory(ctx, ch.gpu, ch.weights, ch.kv_dtype, ch.tp, raised)
    return KvRemedy(kind="memory_utilization", full_fit=m.max_concurrency_kv, utilization=HIGHER_UTILIZATION,
                    utilization_was=engine.gpu_memory_utilization, kv_gib=round(m.kv_budget_bytes / GIB, 1))


def _remedies(ctx: Ctx, ch: sizing.Candidate, need: int) -> list[KvRemedy]:
    out: list[KvRemedy] = []
    raised = higher_utilization(ctx, ch)
    if raised is not None:  # one flag on the same GPUs: the plainest fix, named first
        out.append(raised)
    if ch.kv_dtype != "fp8" and ch.gpu.fp8_tflops_dense:
        out.append(KvRemedy(kind="fp8_kv", full_fit=_full_fit(ctx, ch, ch.weights, "fp8")))
    if _fp8_weights_ok(ctx, ch):
        out.append(KvRemedy(kind="fp8_weights", full_fit=_full_fit(ctx, ch, "fp8", ch.kv_dtype)))
    # the longest --max-model-len at which ``need`` requests fit whole, if it still covers the p95 request
    p95 = ctx.prompt_p95 + ctx.output_p95
    n = (ch.memory.kv_tokens // max(need, 1)) // CONTEXT_STEP * CONTEXT_STEP
    while n >= p95 and n > 0:
        fit = sizing._memory(dataclasses.replace(ctx, max_context=n), ch.gpu, ch.weights, ch.kv_dtype, ch.tp,
                             sizing._engine(ctx, ch.gpu)).max_concurrency_kv  # fmt: skip
        if fit >= need:
            out.append(KvRemedy(kind="shorter_context", full_fit=fit, context=n))
            break
        n -= CONTEXT_STEP
    if dp_attention_applies(ctx, ch):  # named, not sized: the memory estimate does not model it (kv_limit.py)
        out.append(KvRemedy(kind="dp_attention"))
    card = kv_card.of(ch)  # the card the GPU choice lists that would hold it, with its price (kv_card.py)
    if card is None:
        out.append(KvRemedy(kind="larger_card"))
    else:
        named = KvRemedy(kind="larger_card", full_fit=card["full_fit"], gpu_name=card["gpu_name"],
                         weights=card["weights"], gpus=card["gpus"], load=card["load"], per_hour=card["per_hour"],
                         chosen_per_hour=card["chosen_per_hour"], more_pct=card["more_pct"],
                         currency=card["currency"])
        # about the same cost: the plainest fix, said first (kv_card.CLOSE); else after the cheaper remedies
        out = [named, *out] if card["close"] else [*out, named]
    out = [r for r in out if r.full_fit is None or r.full_fit > ch.memory.max_concurrency_kv]
    more = getattr(ch, MORE_ATTR, None)  # kv_replicas42.attach: more replicas of this card, within the budget: the plainest fix, said first
    if more is not None:
        out.insert(0, KvRemedy(kind="more_replicas", replicas=more["replicas"], added=more["add"], load=more["load"],
                               gpus=more["gpus"], gpu_name=None, currency=more["currency"],
                               more_monthly=MoneyRange(low=round(more["more_low"], 2), high=round(more["more_high"], 2)),
                               within_budget=more["within"]))
    return out


def kv_fit(ctx: Ctx, ch: sizing.Candidate | None) -> KvFit | None:
    """The led plan's KV fit (None for a batch job, whose engine cap is what the cache holds, or without a setup)."""
    if ch is None or ctx.is_batch or not ch.replicas or ch.memory.kv_tokens <= 0:
        return None
    m = ch.memory
    typical = ctx.prompt_avg + ctx.output_avg
    down = one_down_load(ctx, ch)
    cap = engine_cap(ctx, ch)
    worst = max(ch.per_replica, down or 0)
    # at the serve command's context: longer than the planned one where the cache holds all it admits there
    context, at_full = served_context38.served(ctx, ch)
    at_typical = m.kv_tokens // max(typical, 1)
    most = max(worst, cap)
    verdict = "full_context" if most <= at_full else "average_lengths" if most <= at_typical else "short"
    return KvFit(
        kv_tokens=m.kv_tokens, kv_gib_per_gpu=round(m.kv_budget_bytes / GIB, 1), kv_dtype=ch.kv_dtype,
        context=context, typical_tokens=typical, at_typical=at_typical, at_full=at_full,
        peak_per_replica=ch.per_replica, failover_per_replica=down, max_num_seqs=cap, verdict=verdict,
        load_over_full=worst > at_full, remedies=_remedies(ctx, ch, worst) if worst > at_full else [],
        bf16_full_fit=bf16_full_fit(ch), source=SOURCE)  # fmt: skip


__all__ = ["DP_ATTENTION_FLAGS", "SOURCE", "kv_fit"]
