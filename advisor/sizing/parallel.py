"""Which tensor-parallel degrees the engine accepts for a model (vLLM's own checks).

vLLM refuses to start unless (vllm/config ``ModelConfig.verify_with_parallel_config``)
``num_attention_heads % tensor_parallel_size == 0`` — "Total number of attention heads (X) must be divisible
by tensor parallel size (Y)". Its ``QKVParallelLinear`` then splits the KV heads with ``divide()``, which
asserts exact division: ``num_kv_heads % tp == 0`` when TP is below the KV head count, ``tp % num_kv_heads == 0``
(each KV head replicated on tp / num_kv_heads GPUs) when TP is at or above it. MLA models (DeepSeek) have no
separate KV heads to split: only the attention-head rule applies.
"""

from __future__ import annotations

from typing import Literal

from advisor.domain.model import ModelSpec

Refusal = Literal["attention_heads", "kv_heads"]


def tp_refusal(model: ModelSpec, tp: int) -> Refusal | None:
    """Why the engine would refuse this tensor-parallel degree, or None when it accepts it."""
    if tp <= 1:
        return None
    if model.num_attention_heads % tp:
        return "attention_heads"
    if not model.is_mla and model.num_kv_heads:
        kv = model.num_kv_heads
        if (tp < kv and kv % tp) or (tp >= kv and tp % kv):
            return "kv_heads"
    return None


def tp_accepted(model: ModelSpec, tp: int, draft: ModelSpec | None = None) -> bool:
    """``draft``: a speculative-decoding draft model, which vLLM runs at the target's TP degree (its heads must split
    the same way: advisor/sizing/speculative.py)."""
    return tp_refusal(model, tp) is None and (draft is None or tp_refusal(draft, tp) is None)
