"""What a node downloads and reads from disk before it serves (s18-zhpolish; en reviewer, q28/q36: "weight sizes
quoted at their fp8 size when online fp8 quantisation actually downloads the bf16 checkpoint").

The serve command quantises to FP8 as it loads (``--quantization fp8``, ``engine._hardware_capacity``) when the
plan's weights are FP8 and the checkpoint is not: the checkpoint fetched and read is then the checkpoint's own
format (BF16), twice the bytes the GPUs hold. Every other format is loaded as it is stored (a GPTQ/AWQ plan serves a
published quantised checkpoint), so what the GPUs hold is what is downloaded."""

from __future__ import annotations

from typing import Any

from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format

ONLINE = "fp8"  # the one format vLLM quantises to on load (FP8 W8A8, dynamic)


def quantised_on_load(model: Any, weights: str | None) -> bool:
    """The engine quantises ``model``'s checkpoint to ``weights`` as it loads it."""
    return weights == ONLINE and model.native_weights != ONLINE


def checkpoint_bytes(model: Any, weights: str | None, in_gpu_bytes: int) -> int:
    """Bytes a node downloads and reads from disk for one copy of the weights: the checkpoint in its own format
    where the engine quantises on load, else what the GPUs hold (``in_gpu_bytes``)."""
    if not quantised_on_load(model, weights):
        return in_gpu_bytes
    return weight_bytes(model, get_format(model.native_weights), 1).all_gpus


__all__ = ["checkpoint_bytes", "quantised_on_load"]
