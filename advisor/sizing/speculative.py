"""Speculative decoding with a draft model: what vLLM holds for it beside the target (issue #28, s24-models24).

vLLM's draft-model method (``--speculative-config '{"method": "draft_model", "model": …, "num_speculative_tokens":
k}'``), read in vLLM's code (vllm/v1/spec_decode/draft_model.py, vllm/v1/core/sched/scheduler.py,
vllm/v1/kv_cache_interface.py):

- weights: ``DraftModelProposer.load_model`` builds the draft with ``get_model`` on the target's ``VllmConfig`` with
  the draft's model config, so the draft is split over the same tensor-parallel GPUs as the target (the method
  refuses a draft TP other than the target's) and stored in its own checkpoint's format;
- KV: the draft's ``Attention`` layers join the forward context (the layer names after loading it less those
  before), so the runner gives them KV like the target's layers, in the same KV cache dtype (one cache config),
  their heads split over the same GPUs. Layers of one type share one block table in one group whose page is the sum
  of every layer's page (``UniformTypeKVCacheSpecs.page_size_bytes``), and the blocks are the available memory //
  that page: a token's KV is the target's plus the draft's;
- lookahead: the scheduler allocates each running request's slots with ``num_lookahead_tokens =
  num_speculative_tokens`` for a draft model (``Scheduler.__init__``: ``uses_draft_model()``), so a request holds k
  slots beyond its tokens (``allocate_slots`` caps them at max_model_len: a request at the model's full length holds
  none, so the figure is then at most one block a request high).

The start-up profile's activation peak stays the target's forward pass: the draft's dummy run is a smaller model's
and comes after it. What a draft buys in speed depends on how many of its tokens the target accepts, a property of
the pair and the prompts, measured not predicted: this module sizes memory only.
"""

from __future__ import annotations

from advisor.domain.sizing import SpeculativeSettings
from advisor.sizing.memory import DraftReserve, kv_heads_per_gpu, kv_layout, weight_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.tensors import param_counts


def draft_reserve(spec: SpeculativeSettings, kv_dtype: str, tp: int) -> DraftReserve:
    """The draft model's share of one GPU: its weights split over ``tp`` GPUs, its KV per token in the target's KV
    cache dtype, and the lookahead slots each request holds."""
    m = spec.draft_model
    fmt = get_format(spec.draft_weights)
    layout = kv_layout(m, kv_dtype, tp)
    return DraftReserve(name=m.name, weights_label=fmt.label, params=param_counts(m).total,
                        weights_per_gpu=weight_bytes(m, fmt, tp).per_gpu, kv_per_token=layout.per_token_bytes,
                        layers=m.num_layers, kv_heads_per_gpu=kv_heads_per_gpu(m, tp), head_dim=m.head_dim,
                        lookahead=spec.num_speculative_tokens)  # fmt: skip


__all__ = ["draft_reserve"]
