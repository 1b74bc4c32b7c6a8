"""Speculative decoding: what vLLM holds for each method beside the target (issue #28, s24-models24, s25-spec28).

Every method is a ``--speculative-config '{"method": …, "num_speculative_tokens": k}'``. What each holds on a GPU,
read in vLLM's code (vllm/v1/spec_decode/llm_base_proposer.py ``load_model``, ``_maybe_share_embeddings``,
``_maybe_share_lm_head`` at commit 00c4f22; vllm/v1/spec_decode/draft_model.py; vllm/v1/core/sched/scheduler.py;
vllm/v1/kv_cache_interface.py):

- KV: the proposer's ``Attention`` layers are the forward context's layer names after loading it less those before,
  so the runner gives them KV like the target's, in the same KV cache dtype, their heads split over the same GPUs.
  Layers of one type share one block table in one group whose page is the sum of every layer's page
  (``UniformTypeKVCacheSpecs.page_size_bytes``), and the blocks are the available memory // that page: a token's KV
  is the target's plus the proposer's layers'.
- lookahead: the scheduler allocates each running request's slots with ``num_lookahead_tokens =
  num_speculative_tokens`` where ``speculative_config.use_eagle()`` (EAGLE, EAGLE-3, MTP) or ``uses_draft_model()``
  (``Scheduler.__init__``); n-gram leaves it 0. ``allocate_slots`` caps the slots at max_model_len.
- ``draft_model``: ``DraftModelProposer`` builds the draft with ``get_model`` on the target's ``VllmConfig``: split over
  the same tensor-parallel GPUs (it refuses another draft TP), in its own checkpoint's format, embedding and head its own.
- ``eagle`` (vllm/model_executor/models/llama_eagle.py, commit 00da923): the head's decoder layers, the first
  without its input norm (``nn.Identity``), and ``fc``, a plain ``nn.Linear(2 × hidden → hidden)`` every GPU holds
  whole; no final norm. Its embedding and LM head are the target's (``_maybe_share_*``: an EAGLE head whose
  checkpoint holds none, or a copy equal to the target's, shares them; EAGLE's heads are trained on the target's
  frozen embedding and head).
- ``eagle3`` (llama_eagle3.py, commit 00bd149): the first decoder layer's q/k/v read [embedding, hidden state]
  (2 × hidden wide), each layer adds a ``hidden_norm``; ``fc`` a ``ReplicatedLinear(3 × target hidden → hidden)``
  on every GPU; a final norm; its own ``ParallelLMHead`` over ``draft_vocab_size`` tokens (split with the vocabulary)
  and ``draft_id_to_target_id``, one int64 a draft token on every GPU. The embedding is the target's.
- ``mtp`` (DeepSeek-V3's ``deepseek_mtp``, vllm/model_executor/models/deepseek_mtp.py): every
  ``num_nextn_predict_layers`` layer the checkpoint stores (its enorm, hnorm, eh_proj, shared_head.norm and one
  MLA + MoE decoder layer, in the target's quantization), each with one MLA attention layer in the target's KV
  group; the layer's own embedding and shared head are replaced by the target's (``_maybe_share_*``: "Detected MTP
  model. Sharing target model …"), so the copies the checkpoint stores are loaded and dropped.
- ``ngram``: prompt look-up on the CPU: no weights, no KV, no lookahead.

The start-up profile's activation peak stays the target's forward pass: the proposer's dummy run is a smaller
model's and comes after it. This module sizes memory only; what speculation buys in speed, which depends on how many
proposed tokens the target accepts, is speculative_speed.py's (a range only where that acceptance is published).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import SpeculativeSettings
from advisor.sizing.memory import (
    KV_DTYPES,
    DraftReserve,
    kv_heads_per_gpu,
    kv_layout,
    tensor_bytes_on_gpu,
    weight_bytes,
)
from advisor.sizing.quant import WeightFormat, get_format
from advisor.sizing.tensors import Tensor, param_counts, tensors

D2T_BYTES = 8  # draft_id_to_target_id: torch.long, one a draft-vocabulary token (Eagle3LlamaForCausalLM)
SHARED_WITH_TARGET = ("mtp_embd", "mtp_head")  # DeepSeek's MTP copies of the embedding and head, replaced by the target's


def eagle_head_tensors(head: ModelSpec, method: str, target_hidden: int, draft_vocab: int | None) -> tuple[Tensor, ...]:
    """The tensors vLLM loads for an EAGLE (``eagle``) or EAGLE-3 (``eagle3``) head read from its config.json, its
    embedding (and EAGLE-1's LM head) shared with the target. ``draft_id_to_target_id`` (EAGLE-3) is not a float
    tensor: ``eagle_reserve`` adds its bytes."""
    h = head.hidden_size
    decoder = [t for t in tensors(head) if t.layer >= 0 and not t.mtp and not t.vision]
    out: list[Tensor] = []
    for t in decoder:
        if t.layer == 0 and method == "eagle" and t.role == "norm_0":
            continue  # EAGLE-1 deletes the first layer's input_layernorm (nn.Identity)
        if t.layer == 0 and method == "eagle3" and t.role in ("attn_q", "attn_k", "attn_v"):
            t = replace(t, cols=2 * h)  # qkv_proj reads [input embeddings, hidden state]
        out.append(t)
    if method == "eagle":
        out.append(Tensor("fc", "linear", h, 2 * h))  # nn.Linear: whole on every GPU
        return tuple(out)
    out += [Tensor("hidden_norm", "norm", 1, h, layer=i) for i in range(head.num_layers)]
    out += [Tensor("fc", "linear", h, 3 * target_hidden), Tensor("output_norm", "norm", 1, h)]
    out.append(Tensor("output", "lm_head", draft_vocab or head.vocab_size, h, split="vocab"))
    return tuple(out)


def _layers_kv_formula(m: ModelSpec, kv_dtype: str, tp: int, layers: int) -> str:
    b = KV_DTYPES[kv_dtype]
    if m.is_mla:
        return f"{layers} layer(s) × (kv_lora_rank {m.kv_lora_rank} + rope {m.qk_rope_head_dim}) × {b} B"
    return f"2 (K,V) × {layers} layer(s) × {kv_heads_per_gpu(m, tp)} KV heads/GPU × head_dim {m.head_dim} × {b} B"


def _draft_model_reserve(spec: SpeculativeSettings, draft: ModelSpec, kv_dtype: str, tp: int) -> DraftReserve:
    fmt = get_format(spec.draft_weights)
    return DraftReserve(what=f"draft model {draft.name}", params=param_counts(draft).total,
                        weights_per_gpu=weight_bytes(draft, fmt, tp).per_gpu,
                        weights_formula=f"{param_counts(draft).total:,} parameters in {fmt.label}, split over the same GPUs",
                        kv_per_token=kv_layout(draft, kv_dtype, tp).per_token_bytes,
                        kv_formula=_layers_kv_formula(draft, kv_dtype, tp, draft.num_layers),
                        lookahead=spec.num_speculative_tokens)  # fmt: skip


def _eagle_reserve(spec: SpeculativeSettings, head: ModelSpec, target: ModelSpec, kv_dtype: str, tp: int) -> DraftReserve:
    fmt = get_format(spec.draft_weights)
    own = eagle_head_tensors(head, spec.method, target.hidden_size, spec.draft_vocab_size)
    params = sum(t.elements for t in own)
    per_gpu = sum(tensor_bytes_on_gpu(t, head, fmt, tp) for t in own)
    shared = "embedding" if spec.method == "eagle3" else "embedding and LM head"
    formula = f"{params:,} parameters in {fmt.label} (its {shared} the target's; fc whole on every GPU)"
    if spec.method == "eagle3":
        vocab = spec.draft_vocab_size or head.vocab_size
        per_gpu += D2T_BYTES * vocab
        formula += f", + draft_id_to_target_id {vocab:,} × {D2T_BYTES} B"
    label = "EAGLE-3 head" if spec.method == "eagle3" else "EAGLE head"
    return DraftReserve(what=f"{label} {head.name}", params=params, weights_per_gpu=per_gpu, weights_formula=formula,
                        kv_per_token=kv_layout(head, kv_dtype, tp).per_token_bytes,
                        kv_formula=_layers_kv_formula(head, kv_dtype, tp, head.num_layers),
                        lookahead=spec.num_speculative_tokens)  # fmt: skip


def mtp_tensors(target: ModelSpec) -> tuple[Tensor, ...]:
    """The MTP tensors vLLM keeps after loading: the checkpoint's MTP layers less their embedding and head copies."""
    return tuple(t for t in tensors(target) if t.mtp and t.role not in SHARED_WITH_TARGET)


def _mtp_reserve(spec: SpeculativeSettings, target: ModelSpec, fmt: WeightFormat, kv_dtype: str, tp: int) -> DraftReserve:
    own = mtp_tensors(target)
    params = sum(t.elements for t in own)
    n = target.num_mtp_layers
    layout = kv_layout(target, kv_dtype, tp)
    return DraftReserve(what=f"{n} MTP layer(s) of {target.name}", params=params,
                        weights_per_gpu=sum(tensor_bytes_on_gpu(t, target, fmt, tp) for t in own),
                        weights_formula=f"{params:,} parameters in {fmt.label} (embedding and head the target's)",
                        kv_per_token=n * layout.per_layer_token_bytes,
                        kv_formula=_layers_kv_formula(target, kv_dtype, tp, n),
                        lookahead=spec.num_speculative_tokens)  # fmt: skip


def draft_reserve(spec: SpeculativeSettings, target: ModelSpec, fmt: WeightFormat, kv_dtype: str, tp: int) -> DraftReserve | None:
    """What ``spec`` holds on one GPU beside ``target`` (loaded in ``fmt``) at ``tp`` GPUs; None for n-gram, which
    holds nothing."""
    if spec.method == "ngram":
        return None
    if spec.method == "mtp":
        return _mtp_reserve(spec, target, fmt, kv_dtype, tp)
    assert spec.draft_model is not None  # SpeculativeSettings: given for the other methods
    if spec.method == "draft_model":
        return _draft_model_reserve(spec, spec.draft_model, kv_dtype, tp)
    return _eagle_reserve(spec, spec.draft_model, target, kv_dtype, tp)


def config_draft_vocab(name_or_path: str | None) -> int | None:
    """An EAGLE-3 head's ``draft_vocab_size`` from its config.json (a file, or a folder holding one); None where the
    head is no file or its config names none (vLLM then takes its vocab_size)."""
    if not name_or_path:
        return None
    path = Path(name_or_path)
    path = path / "config.json" if path.is_dir() else path
    if not path.is_file():
        return None
    value = json.loads(path.read_text(encoding="utf-8")).get("draft_vocab_size")
    return value if isinstance(value, int) and value > 0 else None


__all__ = ["config_draft_vocab", "draft_reserve", "eagle_head_tensors", "mtp_tensors"]
