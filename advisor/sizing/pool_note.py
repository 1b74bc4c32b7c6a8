"""Where the KV pool's size comes from, in words, for an engine that sizes it its own way (SGLang): the share of the
free memory it keeps and whether that share is the user's or the engine's default (advisor/sizing/sglang_pool.py),
then, for a sliding-window or linear-attention model, how SGLang divides it (advisor/sizing/sglang_hybrid.py)."""

from __future__ import annotations

from advisor.domain.sizing import MemoryEstimate, SizingRequest
from advisor.i18n import translate
from advisor.sizing.memory import kv_layout
from advisor.sizing.non_torch import non_torch_bytes
from advisor.sizing.sglang_hybrid import GPT_OSS_SWA_POOL_SINCE, SWA_POOL_ARCHITECTURES
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
    note = translate(lang, key, share=f"{fraction:.3f}", free=format_bytes(free, 2), budget=format_bytes(mem.engine_budget_bytes, 2),
                     weights=format_bytes(mem.weights_bytes, 2), kv=format_bytes(max(0, mem.kv_budget_bytes), 2),
                     tokens=f"{mem.kv_tokens:,}", version=version or translate(lang, "sizing.kv_pool.current"))  # fmt: skip
    split = _split_note(req, mem, lang)
    return f"{note}{'' if lang.startswith('zh') else ' '}{split}" if split else note


def _split_note(req: SizingRequest, mem: MemoryEstimate, lang: str) -> str | None:
    """How SGLang divides the pool for a model whose layers are not all full attention (None for a plain model)."""
    kind = mem.sglang_pool_kind
    if kind is None:
        return None
    if kind == "state_unmodelled":
        return translate(lang, "sizing.kv_pool.sglang_state_unmodelled")
    layout = kv_layout(req.model, req.kv_dtype, req.gpus)
    swa_layers = layout.sliding_layers + layout.chunked_layers
    common = {"context": f"{req.context:,}", "requests": f"{mem.max_concurrency_kv:,}", "full_layers": layout.full_layers,
              "swa_layers": swa_layers}  # fmt: skip
    if kind == "swa":
        return translate(lang, "sizing.kv_pool.sglang_swa", full=f"{mem.kv_tokens:,}", swa=f"{mem.sglang_swa_tokens or 0:,}",
                         ratio=f"{mem.sglang_swa_full_tokens_ratio:g}", window=f"{layout.window or layout.chunk or 0:,}",
                         **common)  # fmt: skip
    if kind == "swa_off":
        if req.model.architecture in SWA_POOL_ARCHITECTURES:  # gpt-oss on a release before its SWA pool
            return translate(lang, "sizing.kv_pool.sglang_swa_off_release", version=req.factors.engine_version or "",
                             since=GPT_OSS_SWA_POOL_SINCE, **common)  # fmt: skip
        return translate(lang, "sizing.kv_pool.sglang_swa_off_arch", **common)
    return translate(lang, "sizing.kv_pool.sglang_state", slots=f"{mem.sglang_state_slots or 0:,}",
                     state=format_bytes(mem.sglang_state_bytes_per_request, 2), ratio=f"{mem.sglang_mamba_full_memory_ratio:g}", tokens=f"{mem.kv_tokens:,}",
                     cap=f"{mem.sglang_running_cap or 0:,}", **common)  # fmt: skip
