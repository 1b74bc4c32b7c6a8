"""The linear layers a quantized checkpoint keeps in 16 bits, read from its quantization_config the way vLLM reads it.

A "GPTQ-Int4" repository is not 4-bit throughout. Qwen's Qwen3.5 GPTQ-Int4 releases quantize only the MLP (the routed
experts of the MoE ones) and keep every attention and DeltaNet projection, the shared expert, the MTP layer and the
vision tower in BF16; sized as if every linear layer were 4-bit, Qwen3.5-27B-GPTQ-Int4 came to 19.0 GB of tensors
where the repository holds 30.2 GB. Two declarations say which modules stay unquantized:

- GPTQModel's ``dynamic``: a key ``"-:<regex>"`` keeps every module whose name the regex matches (``re.match``) out of
  quantization; other keys (``"+:<regex>"`` or a bare name) only override bits or group size for what they match.
  vLLM: model_executor/layers/quantization/utils/gptq_utils.py, get_dynamic_override (commit 93e5a57).
- ``modules_to_not_convert`` (AutoAWQ, transformers' GPTQ/FP8 writers): a module whose name contains one of the
  strings stays unquantized (vLLM's awq.py is_layer_skipped_awq: ``any(module_name in prefix ...)``).

Rules are kept on the ModelSpec (imported checkpoints) or, for presets, in resources/models/quantized/unquantized.json
beside the repository they describe, as advisor/domain/unquantized_rules.py writes them. A positive ``dynamic`` key
that changes ``bits`` sizes its layers at those bits. Names are matched against the
module's checkpoint name (``model.language_model.layers.3.self_attn.q_proj``), built here from the tensor's role.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from advisor.domain.model import ModelSpec
from advisor.domain.unquantized_rules import rules_from_config
from advisor.resources import resource_path
from advisor.sizing.tensors import Tensor

# GGUF-style role → the module's name inside a decoder layer, as Hugging Face checkpoints spell it
_LAYER_MODULES: dict[str, str] = {
    "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "attn_q_a": "self_attn.q_a_proj", "attn_q_b": "self_attn.q_b_proj",
    "attn_kv_a_mqa": "self_attn.kv_a_proj_with_mqa", "attn_kv_b": "self_attn.kv_b_proj",
    "indexer_wq_b": "self_attn.indexer.wq_b", "indexer_wk": "self_attn.indexer.wk",
    "indexer_weights_proj": "self_attn.indexer.weights_proj",
    "ssm_in_qkvz": "linear_attn.in_proj_qkvz", "ssm_in_ba": "linear_attn.in_proj_ba", "ssm_out": "linear_attn.out_proj",
    "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj",
    "ffn_gate_exps": "mlp.experts.0.gate_proj", "ffn_up_exps": "mlp.experts.0.up_proj",
    "ffn_down_exps": "mlp.experts.0.down_proj",
    "ffn_gate_shexp": "mlp.{shared}.gate_proj", "ffn_up_shexp": "mlp.{shared}.up_proj",
    "ffn_down_shexp": "mlp.{shared}.down_proj",
    "ffn_gate_inp": "mlp.gate", "ffn_gate_inp_shexp": "mlp.shared_expert_gate",
}  # fmt: skip


def module_name(t: Tensor, m: ModelSpec) -> str:
    """The checkpoint name of the module holding tensor ``t`` (without ``.weight``)."""
    text = "model.language_model." if m.has_vision else "model."
    if t.vision:
        return "model.visual." + t.role
    if t.kind == "lm_head" and not t.mtp:
        return "lm_head"
    if t.kind == "embed" and not t.mtp:
        return text + "embed_tokens"
    if t.mtp and m.mtp_style == "qwen3_next":  # Qwen3-Next / Qwen3.5: mtp.fc and mtp.layers.0.*
        if t.role == "mtp_eh_proj":
            return "mtp.fc"
        prefix = "mtp.layers.0."
    else:  # DeepSeek-V3 stores its MTP layer as one more decoder layer
        prefix = f"{text}layers.{t.layer}."
    shared = "shared_experts" if m.num_shared_experts else "shared_expert"
    return prefix + _LAYER_MODULES.get(t.role, t.role).format(shared=shared)


def _decision(t: Tensor, m: ModelSpec, rules: tuple[str, ...]) -> tuple[bool, int | None]:
    """(kept 16-bit, bits override) for one tensor. vLLM takes the first ``dynamic`` key that matches (a ``-:`` one
    skips the module, any other quantizes it with its overrides); ``modules_to_not_convert`` skips on its own."""
    if not rules or not t.quantizable:
        return False, None
    name = module_name(t, m)
    if any(r.startswith("in:") and r[3:] in name for r in rules):
        return True, None
    for rule in rules:
        kind, _, pattern = rule.partition(":")
        if kind != "in" and _compiled(pattern).match(name):
            return (True, None) if kind == "re" else (False, int(kind[1:]) if kind[1:] else None)
    return False, None


def kept_16bit(t: Tensor, m: ModelSpec, rules: tuple[str, ...]) -> bool:
    """True when the checkpoint keeps this (otherwise quantizable) linear layer unquantized."""
    return _decision(t, m, rules)[0]


def bits_override(t: Tensor, m: ModelSpec, rules: tuple[str, ...]) -> int | None:
    """The bits a GPTQ ``dynamic`` key sets for this layer instead of the checkpoint's (e.g. 8 for some layers of a
    4-bit checkpoint), or None."""
    return _decision(t, m, rules)[1]


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@cache
def _published() -> dict[str, dict[str, dict[str, Any]]]:
    raw = json.loads(resource_path("models", "quantized", "unquantized.json").read_text(encoding="utf-8"))
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def published_repo_rules() -> dict[str, dict[str, dict[str, Any]]]:
    """Preset id → weight format → {repo, quantization_config (its exclusion keys, as published), source}."""
    return _published()


def checkpoint_rules(m: ModelSpec, fmt_id: str) -> tuple[str, ...]:
    """The rules of the checkpoint a size in ``fmt_id`` stands for: the model's own when it is that checkpoint,
    else those of the publisher's quantized repository of this preset in that format, when one is recorded."""
    if m.checkpoint_quant == fmt_id:
        return m.quant_kept_16bit
    entry = _published().get(m.id, {}).get(fmt_id)
    return rules_from_config(entry["quantization_config"]) if entry else ()
