"""The whole catalog at once, as the Sizing page's table shows it: for each GPU, does the request fit at the GPU
count asked, with how many GPUs it would, how many users, how fast. Each GPU is sized through ``size()`` with its
own engine defaults (the same verdict as the page's overview: memory, and an engine that accepts the setup).

One function for the page (in a worker thread, cancellable between GPUs) and for ``bench/sizing_speed.py``, so the
speed goal is measured on what the page runs."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from advisor.catalog import load_gpus
from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import SizingRequest
from advisor.sizing import size


class CatalogRow(BaseModel):
    gpu_id: str
    gpu_name: str
    memory_bytes: int
    fits_now: bool  # at the requested GPU count
    gpus_needed: int | None  # smallest tensor-parallel degree that fits (None: not within one node)
    max_concurrency: int  # at gpus_needed (or the requested count when nothing fits)
    tokens_per_s_total: float
    tokens_per_s_user: float
    ttft_ms: float
    user_defined: bool
    china_market: bool = False


def catalog_table(req: SizingRequest, gpus: list[GpuSpec] | None = None, *, cancel: Any = None) -> list[CatalogRow]:
    """One row per GPU for the request's model, format, context and concurrency (``req.gpu`` is replaced by each
    GPU; ``req.gpus`` is the count "fits now" is judged at). ``cancel``: a token whose ``raise_if_cancelled`` is
    called between GPUs, so a newer request supersedes this one within one GPU's sizing."""
    rows = []
    for gpu in gpus if gpus is not None else load_gpus():
        if cancel is not None:
            cancel.raise_if_cancelled()
        try:
            here = size(req.model_copy(update={"gpu": gpu}))
            needed = here.min_gpus
            at = here
            if needed is not None and needed != req.gpus:
                at = size(req.model_copy(update={"gpu": gpu, "gpus": needed}))
        except (ValueError, ArithmeticError):
            continue  # a GPU the model cannot be placed on at all: left out rather than failing the table
        rows.append(
            CatalogRow(
                gpu_id=gpu.id,
                gpu_name=gpu.name,
                memory_bytes=gpu.memory_bytes,
                fits_now=here.verdict == "fits",
                gpus_needed=needed,
                max_concurrency=at.memory.max_concurrency,
                tokens_per_s_total=at.perf.decode_tokens_per_s_total.value,
                tokens_per_s_user=at.perf.decode_tokens_per_s.value,
                ttft_ms=(at.perf.ttft_ms or at.perf.prefill_ms).value,  # as the overview: prefill + serving overhead
                user_defined=gpu.user_defined,
                china_market=gpu.china_market,
            )
        )
    return rows
