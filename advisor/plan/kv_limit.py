"""The context and concurrency limit the KV cache sets, where it is tight (blind review 17, q35: DeepSeek-V3 on
8 × H20 in FP8 has ~6.8 GiB a GPU left for the KV cache beside 79 GiB of weights, and the memo never said how many
8k requests fit or how long a context the planned load can have).

The rule: an interactive plan whose replica's KV cache holds fewer requests at the full context than the replica
carries at the peak is KV-tight; its memo says how many full-context requests fit, and the longest context each of
the planned requests can then reach (the KV cache's tokens shared among them, never above the context the plan was
sized for). Every figure is the plan's own memory estimate (``advisor.sizing.memory`` through ``Candidate.memory``),
never re-derived. Long-prompt loads say their KV limit already (long_prompt.py) and are left to it.

The load with one replica down is held to the same test (s32-kvfit33, blind review 21, q38: 11 full-context requests
on one L40S against the 15 it carries with the other down): where only that load exceeds the full-context count, one
sentence says both figures, that the serve command's cap rests on average lengths, and the remedies (kv_fit.py);
where the peak already does, the sentence above is followed by the failover load and the cap. The cap is named
without its flag: the latency section's seat-jump reading is told apart by "--max-num-seqs" in this paragraph.

For a model with multi-head latent attention (DeepSeek-V2/V3 class) on more than one GPU, the latent KV cache is not
split by tensor parallelism (it has no head dimension to split) but held whole on every GPU of the replica, so the
engines' data-parallel attention, with the experts split by expert or tensor parallelism, keeps each request's cache
on one attention group only and multiplies the tokens a replica holds. That is named as an option with its cost (the
attention weights are held once per attention group), not as a figure: the plan's memory estimate does not model it
(docs/sizing.md, "SGLang's DP attention").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.context import Ctx
from advisor.plan.kv_fit import DP_ATTENTION_FLAGS, kv_fit
from advisor.plan.long_prompt import is_long_prompt
from advisor.plan.money_text import round_money
from advisor.plan.result import KvFit

GIB = 1024**3

# the engines' flags for data-parallel attention: kept in kv_fit (which kv_limit imports), named here too


def kv_short(ctx: Ctx, ch: sizing.Candidate | None) -> bool:
    """``ch``'s replica holds fewer requests at the full context than it carries at the peak (the rule above) — an
    interactive plan only, not a long-prompt load (long_prompt.py sizes those on their own KV limit)."""
    if ch is None or ctx.is_batch or is_long_prompt(ctx) or not ch.replicas:
        return False
    m = ch.memory
    return m.kv_tokens > 0 and m.max_concurrency_kv < ch.per_replica


def kv_limit_phrases(
    ctx: Ctx, ch: sizing.Candidate | None, *, room_said: bool = False
) -> list[dict[str, Any]]:
    """The KV-tight sentence (and the data-parallel-attention option where it applies) for ``ch``; empty where the
    KV cache holds the planned load at the full context, for a batch job, or where long_prompt.py says it.
    ``room_said``: the sentence before it gave the KV cache's room already ("KV memory decides: … 3.7 GiB"), so
    this one goes on from it without saying it again."""
    if ch is None:
        return []
    if not kv_short(ctx, ch):
        return _failover_phrases(ctx, ch)
    m = ch.memory
    load = ch.per_replica
    out: list[dict[str, Any]] = [{
        "tr": "kvlimit28.tight_after" if room_said else "kvlimit28.tight", "kv_gpu_gib": round(m.kv_budget_bytes / GIB, 1), "kv_dtype": ch.kv_dtype,
        "tp": ch.tp, "context": ctx.max_context, "full_fit": m.max_concurrency_kv, "load": load,
        "longest": min(ctx.max_context, m.kv_tokens // load)}]  # fmt: skip
    if ch.kv_dtype != "fp8" and fp8_kv_allowed(ctx, ch.gpu):
        # what an FP8 KV cache would hold, tried on the same memory estimate before the limit is left as it is (the
        # plan keeps an interactive service's cache in BF16: batch_kv.py says why)
        fp8 = sizing._memory(ctx, ch.gpu, ch.weights, "fp8", ch.tp, sizing._engine(ctx, ch.gpu))
        if fp8.kv_tokens > m.kv_tokens:
            out.append(
                {
                    "tr": "kvlimit28.fp8_kv",
                    "full_fit": fp8.max_concurrency_kv,
                    "load": load,
                    "longest": min(ctx.max_context, fp8.kv_tokens // load),
                }
            )
    fit = kv_fit(ctx, ch)
    if fit is not None:
        # the failover load, the average-length count and the serve command's cap beside it (s32-kvfit33), and the
        # remedies the FP8 sentence above did not name
        said = {"fp8_kv"} if len(out) > 1 else set()
        out.append({"tr": "kvfit33.also" if fit.failover_per_replica else "kvfit33.also_nodown",
                    "down": fit.failover_per_replica or fit.peak_per_replica, "typical": fit.at_typical,
                    "avg": fit.typical_tokens, "cap": fit.max_num_seqs})  # fmt: skip
        out.extend(_remedy_phrase(fit, said))
    flags = DP_ATTENTION_FLAGS.get(sizing.serving_profile(ctx).id)
    if ctx.model.is_mla and ctx.model.is_moe and ch.tp > 1 and flags:
        out.append({"tr": "kvlimit28.dp_attention", "tp": ch.tp, "flags": flags})
        if sizing.serving_profile(ctx).id != "sglang":
            # SGLang's own flags beside vLLM's: its DP-attention guide (docs.sglang.io, advanced_features/
            # dp_dpa_smg_guide, grade A) names MLA models such as DeepSeek's (blind review 27, q35: "mention SGLang
            # as the alternative engine")
            out.append({"tr": "dsv3cmd38_dp.sglang", "flags": DP_ATTENTION_FLAGS["sglang"]})
    return out


def _failover_phrases(ctx: Ctx, ch: sizing.Candidate) -> list[dict[str, Any]]:
    """The KV cache holds the peak's load at the full context but not the load with one replica down (q38: 11
    full-context requests on one L40S against the 15 it carries with the other down): one sentence with both
    figures, what the serve command's cap rests on, and the remedies (kv_fit.py)."""
    fit = kv_fit(ctx, ch)
    said: list[dict[str, Any]] = []
    if fit is not None and fit.bf16_full_fit is not None:
        # the plan set the cache to FP8 (kv_fp8_set.py): why its serve command carries the flag (blind review 22);
        # where FP8 holds the peak's load only, the failover load is said after it, with the remedies left (q37)
        down = fit.failover_per_replica if not fit.load_over_full else None
        said = [{"tr": "kvdef34.set_down" if down and down > fit.peak_per_replica else "kvdef34.set_peak",
                 "bf16": fit.bf16_full_fit, "context": fit.context, "down": max(down or 0, fit.peak_per_replica),
                 "full_fit": fit.at_full}]  # fmt: skip
        if not fit.load_over_full:
            return said
    if fit is None or not fit.load_over_full or fit.failover_per_replica is None:
        return said
    return [*said, {"tr": "kvfit33.down", "down": fit.failover_per_replica, "full_fit": fit.at_full, "context": fit.context,
             "typical": fit.at_typical, "avg": fit.typical_tokens, "cap": fit.max_num_seqs},
            *_remedy_phrase(fit, set())]  # fmt: skip


def _remedy_phrase(fit: KvFit, said: set[str]) -> list[dict[str, Any]]:
    """The remedies that apply, each with what it would hold at the full context, as one sentence."""
    kept = [r for r in fit.remedies if r.kind not in said]
    items: list[dict[str, Any]] = [
        _more_replicas(fit, r) if r.kind == "more_replicas" else
        _raised(fit, r) if r.kind == "memory_utilization" else
        _named_card(fit, r, last=i == len(kept) - 1 and len(kept) > 1) if r.gpu_name else
        {"tr": "kvdef34.remedy.dp_attention" if r.kind == "dp_attention" else f"kvfit33.remedy.{r.kind}",
         "full_fit": r.full_fit or 0, "context": str(r.context or 0)}  # a flag: no digit groups
        for i, r in enumerate(kept)]  # fmt: skip
    if len(items) == 1 and items[0]["tr"] == "kvfit33.remedy.larger_card":  # alone, without its "or"
        items[0]["tr"] = "kvfit33.remedy.larger_card_only"
    return [{"tr": "kvfit33.remedies", "items": items}] if items else []


def _more_replicas(fit: KvFit, r: Any) -> dict[str, Any]:
    """More replicas of the same card within the budget, with their month over the plan's (kv_replicas42.py)."""
    m = r.more_monthly
    return {"tr": "kvfail42.remedy.more", "more": {"tr": "kvfail42.more.one" if r.added == 1 else "kvfail42.more.many",
                                                   "add": r.added, "replicas": r.replicas},
            "load": r.load, "when": {"tr": "kvfail42.when.down" if fit.failover_per_replica else "kvfail42.when.peak"},
            "more_low": round_money(m.low) if m else "", "more_high": round_money(m.high) if m else "",
            "currency": r.currency or "", "within": {"tr": "kvfail42.fix.within"} if r.within_budget else ""}


def _raised(fit: KvFit, r: Any) -> dict[str, Any]:
    """--gpu-memory-utilization raised, with the KV room and the full-context requests it gives (kv_fit.py)."""
    return {"tr": "rep44.remedy.utilization", "util": f"{r.utilization:g}", "was": f"{r.utilization_was:g}",
            "gib": f"{r.kv_gib:g}", "was_gib": f"{fit.kv_gib_per_gpu:g}", "full_fit": r.full_fit or 0}


def _pct(v: float) -> str:
    """A premium as said: one decimal under 10 % (q36's 0.1 %), whole above."""
    return f"{v:.1f}" if abs(v) < 10 else f"{round(v)}"


def _named_card(fit: KvFit, r: Any, *, last: bool) -> dict[str, Any]:
    """The card the GPU choice lists that holds its own load at the full context, with both hourly prices as "Why
    this GPU" says them (kv_card.py); "or …" where it ends a list of remedies."""
    return {"tr": "failcard35.remedy.card_or" if last else "failcard35.remedy.card", "gpu": r.gpu_name,
            "weights": r.weights, "gpus": r.gpus, "full_fit": r.full_fit, "load": r.load,
            "context": fit.context, "carry": {"tr": "failcard35.carry.down" if fit.failover_per_replica
                                              else "failcard35.carry.peak"},
            "cost": f"{r.per_hour:,.2f}", "chosen_cost": f"{r.chosen_per_hour:,.2f}", "more": _pct(r.more_pct or 0.0),
            "currency": r.currency or ""}


__all__ = ["DP_ATTENTION_FLAGS", "kv_limit_phrases", "kv_short"]
