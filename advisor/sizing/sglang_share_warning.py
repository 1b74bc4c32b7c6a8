"""The Sizing side's warning when SGLang's static memory share leaves too little for one step's activations.

SGLang sizes its KV pool as ``mem_fraction_static`` of the memory free before loading, less the weights, and does not
profile a forward pass (advisor/sizing/sglang_pool.py): activations, CUDA graphs and workspaces must fit in what the
other ``1 − mem_fraction_static`` leaves. Its default reserve is sized for its own prefill chunk on the GPU
(#10975: 1.5 MiB a chunk token, 2,048 tokens below 35 GiB); a larger chunk (``--chunked-prefill-size``) or a share
set higher than the default outgrows it, and the server then runs out of memory at the first long prompt, not at
start-up. The sizing core's activation estimate for one step of the chunk (``activation_bytes``) is compared with
that rest (``MemoryEstimate.activation_over_share_bytes``); the advice gives the share that would leave room.
"""

from __future__ import annotations

import math

from advisor.domain.sizing import Advice, MemoryEstimate, SizingRequest
from advisor.i18n import translate
from advisor.sizing.non_torch import non_torch_bytes
from advisor.sizing.sglang_pool import share_and_free
from advisor.units import format_bytes


def share_room_fraction(req: SizingRequest, mem: MemoryEstimate) -> tuple[float, float]:
    """(the share the sizing used, the highest share in hundredths that leaves one step's activations room)."""
    fraction, free = share_and_free(req.engine, mem.gpu_memory_bytes, req.gpus, req.factors.engine_version,
                                    req.model.has_vision, non_torch_bytes(req.engine, req.gpus, req.gpu.interconnect == "nvlink"))  # fmt: skip
    room = fraction - mem.activation_over_share_bytes / free if free > 0 else 0.0
    return fraction, math.floor(max(0.0, room) * 100) / 100


def sglang_share_warning(req: SizingRequest, mem: MemoryEstimate, lang: str) -> Advice | None:
    """The warning (None when the activations fit the share's rest, or the engine is not SGLang)."""
    if mem.activation_over_share_bytes <= 0 or not mem.weights_fit:
        return None
    fraction, room = share_room_fraction(req, mem)
    key = "sizing.advice.sglang_share_set" if req.engine.mem_fraction_static else "sizing.advice.sglang_share_default"
    text = translate(lang, key, share=f"{fraction:.3f}", left=format_bytes(mem.activation_bytes - mem.activation_over_share_bytes, 2),
                     tokens=f"{req.engine.max_num_batched_tokens or 0:,}", peak=format_bytes(mem.activation_bytes, 2),
                     room=f"{room:.2f}")  # fmt: skip
    return Advice(kind="warning", text=text, flags=f"--mem-fraction-static {room:.2f}")
