"""Long prompts (a document assistant's 60k-token contracts): both limits with figures (#25, q10 blind review).

Two things size such a service, and the reader is shown both: prefill compute (a long prompt's first token waits for
the whole prompt to be processed, so prefill takes most of the GPU time and sets TTFT) and KV memory (a request at
the full context holds tens of GiB of KV cache, so few requests fit beside the weights). Every figure comes from the
sizing core the plan was built on: the step-cost model (token_split.prefill_share, the one split the GPU weighing and the cost table use)
and the memory estimate (advisor.sizing.memory), never re-derived here.

The plan keeps an interactive service's KV cache in BF16 under "FP8 only" (batch_kv.py says why); the memo says
what an FP8 KV cache would give, weighed on the predictor at one request a replica more than the plan carries (blind
review 12, q10: "an FP8 KV cache doubles concurrency at 131k context"), and what the FP8 weights already freed.

Compute-light GPUs (H20, L20: high memory, a fraction of the tensor rate) are weighed on their fastest layout (the
largest TP a server holds, q10's "8 × H20 TP8"): the predictor's P99 first token of one request alone says whether
they can meet the target at all; those that cannot are set aside with that figure, one sentence in the memo.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.plan import sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.context import Ctx
from advisor.plan.data import gpus_by_id
from advisor.plan.fastest_layout import fastest_alone
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
        phrase: dict[str, Any] = {"kv_req_gib": _gib(fp8.kv_bytes_per_request * ch.tp), "full_fit": fp8.max_concurrency_kv,
                  "avg_fit": fp8.kv_tokens // per_avg, "c_max": within}  # fmt: skip
        more = _fp8_kv_one_more(ctx, ch, fp8, within) if within > 0 else None
        if more is None:
            phrase["tr"] = "plan.long_prompt.fp8_kv"
        else:  # weighed on the predictor: one request a replica more than the plan carries, with the FP8 cache
            ttft, tpot, meets = more
            phrase.update(tr="plan.long_prompt.fp8_kv_" + ("more" if meets else "held"), c_next=within + 1,
                          ttft_s=round(ttft / 1000, 1), tpot_ms=round(tpot, 1),
                          ttft_target_s=round((ctx.ttft_slo_ms or 0) / 1000), tpot_target_ms=round(ctx.tpot_slo_ms or 0))
        out.append(phrase)
    return out


def _fp8_kv_one_more(ctx: Ctx, ch: sizing.Candidate, fp8: Any, within: int) -> tuple[float, float, bool] | None:
    """The predictor's P99 TTFT and TPOT (ms) of one replica of ``ch`` with an FP8 KV cache at one request more
    than the ``within`` it carries with the bf16 cache, and whether both meet the targets; None when the FP8 cache
    could not hold that many at the average length (then the room, not the latency, is what it would give)."""
    per_avg = max(ctx.prompt_avg + ctx.output_avg, 1)
    if fp8.kv_tokens // per_avg < within + 1 or not fp8.weights_fit:
        return None
    cand = dataclasses.replace(ch, kv_dtype="fp8", memory=fp8, checked={}, monotone_memo={}, knee_memo={},
                               costs=sizing.step_costs(ctx, ch.gpu, ch.weights, "fp8", ch.tp))
    lv = sizing.simulate_at(ctx, cand, within + 1)
    ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    if ttft is None or tpot is None:
        return None
    meets = (ctx.ttft_slo_ms is None or ttft <= ctx.ttft_slo_ms) and (ctx.tpot_slo_ms is None or tpot <= ctx.tpot_slo_ms)
    return float(ttft), float(tpot), meets


def binding_phrases(ctx: Ctx, ch: sizing.Candidate | None, claimed: int | None) -> list[dict[str, Any]]:
    """Sentences said after "what decides the size" for a long-prompt interactive load: prefill's share and time,
    the KV cache a request holds. Empty otherwise. ``claimed``: requests per replica within the target (the memo's
    figure; the analytic screen's when None)."""
    if ch is None or not is_long_prompt(ctx):
        return []
    return [_prefill_phrase(ctx, ch), *_kv_phrases(ctx, ch, claimed if claimed is not None else ch.c_max)]


def compute_light(ctx: Ctx, considered: list[str], chosen: sizing.Candidate) -> dict[str, Any] | None:
    """The compute-light GPUs among those the plan ``considered`` (engine.candidate_gpus) that miss the TTFT target
    on their fastest layout even with one request alone (the predictor's P99), set aside for a long-prompt load with
    that figure and their dense tensor rate against the chosen GPU's. One that could meet the target is not set
    aside here: the GPU choice weighs it like any other."""
    if not is_long_prompt(ctx) or not ctx.ttft_slo_ms:
        return None

    mine = _tflops(chosen.gpu, chosen.weights)
    mine_bf16 = float(chosen.gpu.bf16_tflops_dense or 0)
    if mine <= 0 or mine_bf16 <= 0:
        return None
    weights = chosen.weights if ctx.quant != "no" else "bf16"
    table = gpus_by_id()
    light: list[tuple[float, str, dict[str, Any]]] = []
    for gid in considered:
        g = table.get(gid)
        if g is None or gid == chosen.gpu.id or not g.bf16_tflops_dense:
            continue
        # compute-light by the BF16 rate (every GPU has one), a memory-rich part all the same (H20, L20), not a small
        # card no one would weigh for a 128k context; each is quoted at the precision the plan's weights run at there
        if g.bf16_tflops_dense > COMPUTE_LIGHT_SHARE * mine_bf16 or g.memory_bytes < chosen.gpu.memory_bytes * 0.5:
            continue
        fastest = fastest_alone(ctx, gid)
        if fastest is None or fastest[1] <= ctx.ttft_slo_ms:
            continue
        k, ttft = fastest
        fp8 = k.weights.startswith("fp8") and bool(g.fp8_tflops_dense)
        light.append((ttft, g.name, {"name": g.name, "n": k.tp, "tp": k.tp, "tflops": f"{_tflops(g, k.weights):,.0f}",
                                     "precision": "FP8" if fp8 else "BF16", "ttft_s": round(ttft / 1000, 1)}))
    if not light:
        return None
    light.sort(key=lambda x: (x[0], x[1]))
    return {"gpus": [g for _, _, g in light[:3]], "chosen": chosen.gpu.name, "chosen_tflops": f"{mine:,.0f}",
            "precision": "FP8" if weights.startswith("fp8") and chosen.gpu.fp8_tflops_dense else "BF16",
            "ttft_target_s": round(ctx.ttft_slo_ms / 1000)}  # fmt: skip


__all__ = ["binding_phrases", "compute_light", "is_long_prompt"]
