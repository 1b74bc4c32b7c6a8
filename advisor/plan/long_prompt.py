"""Long prompts (a document assistant's 60k-token contracts): both limits with figures (#25, q10 blind review).

Two things size such a service, and the reader is shown both: prefill compute (a long prompt's first token waits for
the whole prompt to be processed, so prefill takes most of the GPU time and sets TTFT) and KV memory (a request at
the full context holds tens of GiB of KV cache, so few requests fit beside the weights). Every figure comes from the
sizing core the plan was built on: the step-cost model (token_split.prefill_share, the one split the GPU weighing and the cost table use)
and the memory estimate (advisor.sizing.memory), never re-derived here.

The plan keeps an interactive service's KV cache in BF16 under "FP8 only" (batch_kv.py says why); the memo says
what an FP8 KV cache would give, so the reader can weigh it, and what the FP8 weights already freed.

Compute-light GPUs (H20, L20: high memory, a fraction of the tensor rate) are set aside for such a load: their
dense tensor rate against the chosen GPU's says how many times longer a long prompt's prefill would take.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.plan import sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.context import Ctx
from advisor.plan.data import gpus_by_id
from advisor.plan.token_split import decode_pct

GIB = 1024**3
# prompts this long (tokens) make prefill the larger part of a request's GPU time on any GPU the plan considers
LONG_PROMPT_TOKENS = 16_000
# a GPU whose dense tensor rate is at most this share of the chosen one's is "compute-light" for prefill
COMPUTE_LIGHT_SHARE = 0.25


def is_long_prompt(ctx: Ctx) -> bool:
    """An interactive load whose average prompt is long enough that prefill, not decode, dominates."""
    return not ctx.is_batch and ctx.prompt_avg >= LONG_PROMPT_TOKENS


def _gib(v: float) -> float:
    return round(v / GIB, 1)


def _tflops(gpu: GpuSpec, weights: str) -> float:
    """The dense tensor rate the plan's weights run at on ``gpu`` (FP8 weights on FP8 units, else BF16)."""
    if weights.startswith("fp8") and gpu.fp8_tflops_dense:
        return float(gpu.fp8_tflops_dense)
    return float(gpu.bf16_tflops_dense or 0)


def _prefill_seconds(ctx: Ctx, ch: sizing.Candidate, tokens: int) -> float:
    """One prompt's prefill alone on a replica: the engine's chunks, each attending to what came before."""
    chunk = sizing._engine(ctx, ch.gpu).max_num_batched_tokens or 8192  # resolved by the engine profile
    done, seconds = 0, 0.0
    while done < tokens:
        n = min(chunk, tokens - done)
        seconds += ch.costs.step_seconds(n, n * done + n * (n + 1) / 2, 0, 0)
        done += n
    return seconds


def _prefill_phrase(ctx: Ctx, ch: sizing.Candidate) -> dict[str, Any]:
    """Prefill's share of a replica's GPU time at the planned load (the GPU weighing's split), and the prefill time
    of an average and a p95 prompt alone, against the TTFT target."""
    return {"tr": "plan.long_prompt.prefill", "per_replica": max(1, ch.per_replica),
            "prefill_pct": 100 - (decode_pct(ctx, ch) or 0), "prompt_avg": ctx.prompt_avg, "prompt_p95": ctx.prompt_p95,
            "prefill_s": round(_prefill_seconds(ctx, ch, ctx.prompt_avg), 1),
            "prefill_p95_s": round(_prefill_seconds(ctx, ch, ctx.prompt_p95), 1),
            "ttft_target_s": round((ctx.ttft_slo_ms or 0) / 1000)}  # fmt: skip


def _kv_phrases(ctx: Ctx, ch: sizing.Candidate, within: int) -> list[dict[str, Any]]:
    """KV bytes a full-context request holds and how many fit per replica; what an FP8 KV cache and the FP8 weights
    change. Per-GPU figures times TP: a replica's request holds its KV on each of its GPUs."""
    m = ch.memory
    per_avg = max(ctx.prompt_avg + ctx.output_avg, 1)
    out: list[dict[str, Any]] = [{
        "tr": "plan.long_prompt.kv", "context": ctx.max_context, "kv_dtype": ch.kv_dtype,
        "kv_req_gib": _gib(m.kv_bytes_per_request * ch.tp), "kv_free_gib": _gib(max(0, m.kv_budget_bytes) * ch.tp),
        "full_fit": m.max_concurrency_kv, "avg_fit": m.kv_tokens // per_avg, "avg_tokens": per_avg}]  # fmt: skip
    engine = sizing._engine(ctx, ch.gpu)
    if ch.weights.startswith("fp8") and not (ctx.model.checkpoint_quant or "").startswith("fp8"):
        native = sizing._memory(ctx, ch.gpu, "bf16", ch.kv_dtype, ch.tp, engine)
        freed = native.weights_bytes_all_gpus - m.weights_bytes_all_gpus
        if freed > 0:
            out.append({"tr": "plan.long_prompt.fp8_weights", "weights_gib": _gib(m.weights_bytes_all_gpus),
                        "bf16_gib": _gib(native.weights_bytes_all_gpus), "freed_gib": _gib(freed),
                        "full": round(freed / max(m.kv_bytes_per_request * ch.tp, 1), 1)})  # fmt: skip
    if ch.kv_dtype != "fp8" and fp8_kv_allowed(ctx, ch.gpu):
        fp8 = sizing._memory(ctx, ch.gpu, ch.weights, "fp8", ch.tp, engine)
        # the latency target already holds a replica to fewer requests than the bf16 cache fits: more KV room would
        # not change the plan, which is why it stays bf16 rather than take the FP8 cache's quality risk for nothing
        held = m.kv_tokens // per_avg >= within > 0
        out.append({"tr": "plan.long_prompt.fp8_kv" + ("_held" if held else ""), "c_max": within,
                    "kv_req_gib": _gib(fp8.kv_bytes_per_request * ch.tp), "full_fit": fp8.max_concurrency_kv,
                    "avg_fit": fp8.kv_tokens // per_avg})  # fmt: skip
    return out


def binding_phrases(ctx: Ctx, ch: sizing.Candidate | None, claimed: int | None) -> list[dict[str, Any]]:
    """Sentences said after "what decides the size" for a long-prompt interactive load: prefill's share and time,
    the KV cache a request holds. Empty otherwise. ``claimed``: requests per replica within the target (the memo's
    figure; the analytic screen's when None)."""
    if ch is None or not is_long_prompt(ctx):
        return []
    return [_prefill_phrase(ctx, ch), *_kv_phrases(ctx, ch, claimed if claimed is not None else ch.c_max)]


def compute_light(ctx: Ctx, considered: list[str], chosen: sizing.Candidate) -> dict[str, Any] | None:
    """The compute-light GPUs among those the plan ``considered`` (engine.candidate_gpus), set aside for a
    long-prompt load: each one's dense tensor rate against the chosen GPU's, and how many times longer an average
    prompt's prefill would take."""
    if not is_long_prompt(ctx):
        return None

    mine = _tflops(chosen.gpu, chosen.weights)
    mine_bf16 = float(chosen.gpu.bf16_tflops_dense or 0)
    if mine <= 0 or mine_bf16 <= 0:
        return None
    weights = chosen.weights if ctx.quant != "no" else "bf16"
    table = gpus_by_id()
    light: list[tuple[float, str, str]] = []
    for gid in considered:
        g = table.get(gid)
        if g is None or gid == chosen.gpu.id or not g.bf16_tflops_dense:
            continue
        # compute-light by the BF16 rate (every GPU has one), a memory-rich part all the same (H20, L20), not a small
        # card no one would weigh for a 128k context; each is quoted at the precision the plan's weights run at there
        if g.bf16_tflops_dense <= COMPUTE_LIGHT_SHARE * mine_bf16 and g.memory_bytes >= chosen.gpu.memory_bytes * 0.5:
            fp8 = weights.startswith("fp8") and bool(g.fp8_tflops_dense)
            light.append((_tflops(g, weights), g.name, "FP8" if fp8 else "BF16"))
    if not light:
        return None
    light.sort(reverse=True)
    gpus = [{"name": name, "tflops": f"{rate:,.0f}", "precision": prec} for rate, name, prec in light[:3]]
    times = math.floor(mine / light[0][0] * 10) / 10  # the fastest of them: "at least N×"
    return {"gpus": gpus, "chosen": chosen.gpu.name, "chosen_tflops": f"{mine:,.0f}",
            "precision": "FP8" if chosen.weights.startswith("fp8") and chosen.gpu.fp8_tflops_dense else "BF16",
            "times": times, "prompt_avg": ctx.prompt_avg}  # fmt: skip


__all__ = ["binding_phrases", "compute_light", "is_long_prompt"]
