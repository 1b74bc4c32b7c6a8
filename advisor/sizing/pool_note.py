"""Where the KV pool's size comes from, in words, for an engine that sizes it its own way (SGLang): the share of the
free memory it keeps and whether that share is the user's or the engine's default (advisor/sizing/sglang_pool.py)."""

from __future__ import annotations

from advisor.domain.sizing import MemoryEstimate, SizingRequest
from advisor.i18n import translate
from advisor.sizing.non_torch import non_torch_bytes
from advisor.sizing.sglang_pool import share_and_free
from advisor.units import format_bytes


def kv_pool_note(req: SizingRequest, engine_id: str, mem: MemoryEstimate, lang: str) -> str | None:
    """SGLang's pool in words (None for the other engines, whose budget the page's rows already show)."""
    if engine_id != "sglang" or not mem.weights_fit:
        return None
    version = req.factors.engine_version
    nvlink = req.gpu.interconnect == "nvlink"
    fraction, free = share_and_free(req.engine, mem.gpu_memory_bytes, req.gpus, version, req.model.has_vision,
                                    non_torch_bytes(req.engine, req.gpus, nvlink))  # fmt: skip
    key = "sizing.kv_pool.sglang_set" if req.engine.mem_fraction_static else "sizing.kv_pool.sglang_default"
    return translate(lang, key, share=f"{fraction:.3f}", free=format_bytes(free, 2), budget=format_bytes(mem.engine_budget_bytes, 2),
                     weights=format_bytes(mem.weights_bytes, 2), kv=format_bytes(max(0, mem.kv_budget_bytes), 2),
                     tokens=f"{mem.kv_tokens:,}", version=version or translate(lang, "sizing.kv_pool.current"))  # fmt: skip
