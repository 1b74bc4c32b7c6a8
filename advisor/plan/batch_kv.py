"""An offline batch job's KV cache in FP8 when the answers accept FP8 (#25, s15-polish).

An interactive service keeps a BF16 KV cache under "FP8 only": its answers are read one by one and the FP8 weights
already cost a quality check. An offline batch is judged by the hours it takes, and its decode steps re-read the
weights for as many sequences as the KV cache holds: an FP8 KV cache holds about twice as many, so the same GPUs
finish the job sooner (q28: 7 → 14 sequences a replica on one L20). Whoever accepts FP8 weights for a job checks the
answers of a sample anyway (the memo's quality step), and that check covers the KV cache too. vLLM runs it with
``--kv-cache-dtype fp8`` (the memo's command carries the flag whenever the plan's KV cache is FP8).
"""

from __future__ import annotations

from advisor.domain.gpu import GpuSpec
from advisor.plan.context import Ctx

FP8_ACCEPTED = ("fp8_only", "yes_after_quality_check", "yes")


def fp8_kv_allowed(ctx: Ctx, gpu: GpuSpec) -> bool:
    """Whether a KV cache in FP8 is an option on ``gpu``: FP8 accepted, and the GPU has FP8 units."""
    return ctx.quant in FP8_ACCEPTED and bool(gpu.fp8_tflops_dense)


def with_fp8_kv(ctx: Ctx, gpu: GpuSpec, formats: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``formats`` (weights, KV dtype), each followed by the same weights with an FP8 KV cache for a batch job where
    that is allowed; unchanged otherwise. The BF16 KV cache comes first, so that of two setups that cost the same
    the plan keeps the one closer to the published model."""
    if not (ctx.is_batch and fp8_kv_allowed(ctx, gpu)):
        return list(formats)
    out: list[tuple[str, str]] = []
    for weights, kv in formats:
        for pair in ((weights, kv), (weights, "fp8")):
            if pair not in out:
                out.append(pair)
    return out


def job_fp8_kv(ctx: Ctx, kv_dtype: str | None) -> bool:
    """Whether a batch job's KV cache is FP8 by the plan's choice (``with_fp8_kv``), to be checked on a sample of the
    job like quantized weights (an FP8 checkpoint's own KV cache is served as the publisher ships it)."""
    return ctx.is_batch and kv_dtype == "fp8" and not (ctx.model.checkpoint_quant or "").startswith("fp8")
