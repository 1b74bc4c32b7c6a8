"""The whole catalog at once: for each GPU, does it fit, with how many GPUs, how many users, how fast."""

from __future__ import annotations

from pydantic import BaseModel

from advisor.catalog import load_gpus
from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import SizingRequest
from advisor.sizing import estimate_perf, min_gpus_that_fit, with_engine_defaults
from advisor.sizing.memory import estimate_memory
from advisor.sizing.quant import get_format


class CatalogRow(BaseModel):
    gpu_id: str
    gpu_name: str
    memory_bytes: int
    fits_one: bool
    gpus_needed: int | None  # smallest tensor-parallel degree that fits; None when none in one node does
    max_concurrency: int  # at gpus_needed (or 1 GPU when nothing fits)
    max_context: int
    decode_tokens_per_s: float  # per user at the requested concurrency, at gpus_needed
    prefill_ms: float
    china_market: bool


def catalog_table(req: SizingRequest, gpus: list[GpuSpec] | None = None) -> list[CatalogRow]:
    """One row per GPU for the request's model, format, context and concurrency (req.gpu/gpus are ignored)."""
    fmt = get_format(req.weights)
    rows = []
    for gpu in gpus if gpus is not None else load_gpus():
        one = with_engine_defaults(req.model_copy(update={"gpu": gpu, "gpus": 1}), fmt)  # each GPU's own defaults
        n = min_gpus_that_fit(one, fmt)
        at = one.model_copy(update={"gpus": n or 1})
        mem = estimate_memory(
            req.model, fmt, req.kv_dtype, req.context, req.concurrency, gpu.effective_memory_bytes, n or 1, one.engine
        )
        perf = estimate_perf(at, fmt)
        rows.append(
            CatalogRow(
                gpu_id=gpu.id,
                gpu_name=gpu.name,
                memory_bytes=gpu.memory_bytes,
                fits_one=n == 1,
                gpus_needed=n,
                max_concurrency=mem.max_concurrency,
                max_context=mem.max_context,
                decode_tokens_per_s=perf.decode_tokens_per_s.value if n else 0.0,
                prefill_ms=perf.prefill_ms.value if n else 0.0,
                china_market=gpu.china_market,
            )
        )
    return rows
