"""Hugging Face ``config.json`` → ModelSpec, handling the key aliases real configs use.

Families differ in names (``num_key_value_heads`` vs GLM's ``multi_query_group_num``), in defaults that are
not written in the file (Qwen2's q/k/v biases, Gemma's tied embeddings) and in layer layouts (DeepSeek's
first dense layers, Gemma-2's alternating sliding windows). Each is handled here, once, with a clear error
naming the missing field when a config cannot be understood.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.domain.model import LayerAttention, ModelSpec
from advisor.domain.unquantized_rules import rules_from_config
from advisor.i18n import tr
from advisor.safe_json import JsonInputError, loads, read_bounded

CONFIG_MAX_BYTES = 16 * 1024 * 1024  # real config.json files are a few KB; 16 MiB is surely the wrong file
MAX_LAYERS = 1024  # ModelSpec's limit, checked before any per-layer list is built

# model_type → how to read it. Anything else is refused with the list, rather than sized wrongly.
SUPPORTED_FAMILIES = (
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "deepseek_v2", "deepseek_v3",
    "chatglm", "glm", "glm4", "glm4_moe", "gemma", "gemma2", "gemma3", "gemma3_text", "phi3", "gpt_oss", "qwen3_next",
    "kimi_k2", "llama4", "llama4_text", "minimax_m2", "deepseek_v32", "qwen2_5_vl", "qwen3_vl",
    "qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text",
)  # fmt: skip
# Families that are not read, and the supported one nearest to each: the message names it, so a user knows
# whether a preset or a hand-edited config can stand in (or that none can).
_CLOSEST_FAMILY = {
    "kimi_k25": "deepseek_v3", "kimi_linear": "qwen3_next", "qwen3_vl_moe": "qwen3_moe",
    "gemma3n": "gemma3", "mistral3": "mistral", "phi4mm": "phi3", "mllama": "llama", "olmoe": "qwen2_moe",
    "nemotron_h": "qwen3_next", "granitemoehybrid": "qwen3_next", "jamba": "qwen3_next", "mamba": "qwen3_next",
}  # fmt: skip
# Gemma 3's config.json names few keys; transformers' Gemma3TextConfig fills in the rest (vocab_size 262,208;
# 8 heads, 4 KV heads of 256; 128K positions; a 4,096-token window; a global layer every 6th).
_GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 131072,
    "sliding_window": 4096, "sliding_window_pattern": 6, "tie_word_embeddings": True,
}  # fmt: skip
# Every layer MoE, each expert as wide as intermediate_size (no dense FFN anywhere).
# MiniMax-M2 (minimax_m2): 256 experts of intermediate_size on every layer, sigmoid router with e_score_correction_bias.
_WIDE_EXPERT_MOE = ("mixtral", "gpt_oss", "llama4", "llama4_text", "minimax_m2")
# DeepSeek-style MoE: the first `first_k_dense_replace` layers dense, then routed experts plus shared ones.
# GLM-4.5/4.6 (glm4_moe) routes the same way (vLLM's glm4_moe.py) with grouped-query attention instead of MLA.
# Kimi-K2 (model_type kimi_k2) is DeepSeek-V3's architecture (architectures: DeepseekV3ForCausalLM) at other sizes.
# DeepSeek-V3.2 (deepseek_v32) is V3.1's shapes plus a sparse-attention indexer on every layer.
_DEEPSEEK_STYLE_MOE = ("deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe", "deepseek_v32")
_TIED_BY_DEFAULT = {"gemma", "gemma2", "gemma3_text", "gemma3"}
# Qwen3.5 / Qwen3.6 (transformers' qwen3_5 and qwen3_5_moe): Qwen3-Next's hybrid text model (Gated DeltaNet layers,
# every 4th one gated full attention, one MTP layer in mtp.*) with a dense MLP or 256/512 experts plus a gated shared
# expert, nested in text_config beside Qwen3-VL's vision encoder without deepstack mergers. The checkpoint splits the
# DeltaNet input projection into in_proj_qkv/z/b/a; vLLM's qwen3_5.py loads them into Qwen3-Next's fused
# in_proj_qkvz/ba (the same elements), so the text model is read as qwen3_next.
_QWEN3_5_WRAPPED = ("qwen3_5", "qwen3_5_moe")
_QWEN3_5_TEXT = ("qwen3_5_text", "qwen3_5_moe_text")
# vLLM's Qwen3_5ForConditionalGenerationConfig sets mamba_ssm_cache_dtype from the config's mamba_ssm_dtype: the
# recurrent state is kept in float32 while the conv state stays in the model's dtype
_STATE_DTYPES = {"float32": "float32", "fp32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16",
                 "float16": "float16", "fp16": "float16"}  # fmt: skip
_QKV_BIAS_ALWAYS = {"qwen2", "qwen2_moe"}  # the modeling code hard-codes bias=True for q/k/v


class ModelImportError(ValueError):
    """A config.json that cannot be turned into a ModelSpec; the message names the field."""


# What a missing field is, in the user's language (s16-models, #28: the refusal was English in every language). A
# description not listed here is a field path itself (vision_config.hidden_size) and is shown as it is.
_FIELD_WHAT = {
    "experts used per token": "models16.field.experts_per_token",
    "the Gated DeltaNet key heads": "models16.field.deltanet_key_heads",
    "the Gated DeltaNet key width": "models16.field.deltanet_key_width",
    "the Gated DeltaNet value heads": "models16.field.deltanet_value_heads",
    "the Gated DeltaNet value width": "models16.field.deltanet_value_width",
    "the KV groups": "models16.field.kv_groups",
    "the MLA head width": "models16.field.mla_head_width",
    "the MLA latent width": "models16.field.mla_latent_width",
    "the MLA rope width": "models16.field.mla_rope_width",
    "the MLA value width": "models16.field.mla_value_width",
    "the expert width (moe_intermediate_size)": "models16.field.expert_width_moe",
    "the expert width": "models16.field.expert_width",
    "the hidden size": "models16.field.hidden_size",
    "the indexer head width": "models16.field.indexer_head_width",
    "the indexer heads": "models16.field.indexer_heads",
    "the longest context": "models16.field.longest_context",
    "the number of attention heads": "models16.field.attention_heads",
    "the number of layers": "models16.field.layers",
    "the tokens the indexer selects": "models16.field.indexer_topk",
    "the vocabulary size": "models16.field.vocab_size",
    "a whole number": "models16.field.whole_number",
}  # fmt: skip


def _first(cfg: dict[str, Any], *keys: str, default: Any = None, required: str | None = None) -> Any:
    for key in keys:
        if cfg.get(key) is not None:
            return cfg[key]
    if required:
        what = tr(_FIELD_WHAT[required]) if required in _FIELD_WHAT else required
        raise ModelImportError(tr("models16.config.missing_field", keys=" / ".join(repr(k) for k in keys), what=what))
    return default


_INT_LIMIT = 10**15  # above any real width, count or length; keeps loops and products bounded


def _int(value: Any, key: str, *, low: int = 0, high: int = _INT_LIMIT) -> int:
    """A whole number for ``key``: ``true``, ``28.5``, ``"28"``, NaN and out-of-range values are refused
    (``int()`` would quietly turn them into 1, 28, …)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelImportError(tr("inputs.config.not_integer", field=key, value=_show(value)))
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise ModelImportError(tr("inputs.config.not_integer", field=key, value=_show(value)))
        value = int(value)
    if not low <= value <= high:
        raise ModelImportError(tr("inputs.config.out_of_range", field=key, value=_show(value), low=low, high=high))
    return value


def _num(value: Any, key: str) -> float:
    """A finite positive number for ``key`` (a scaling factor)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
        raise ModelImportError(tr("inputs.config.not_positive_number", field=key, value=_show(value)))
    return float(value)


def _bool(cfg: dict[str, Any], key: str, default: bool) -> bool:
    """``true``/``false`` for ``key`` (null or absent: ``default``); ``"false"`` is not quietly True."""
    value = cfg.get(key)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):  # some older configs write 0/1
        return bool(value)
    raise ModelImportError(tr("inputs.config.not_bool", field=key, value=_show(value)))


def _show(value: Any) -> str:
    if isinstance(value, list | dict):  # never repr a container: it may nest thousands deep
        return f"a {'list' if isinstance(value, list) else 'JSON object'} of {len(value)} items"
    text = json.dumps(value) if isinstance(value, bool | None | str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int_first(cfg: dict[str, Any], *keys: str, default: int | None = None, required: str | None = None,
               low: int = 0, high: int = _INT_LIMIT) -> int:
    """The first of ``keys`` present (not null), as a whole number; ``default`` when none is."""
    for key in keys:
        if cfg.get(key) is not None:
            return _int(cfg[key], key, low=low, high=high)
    if required or default is None:
        _first(cfg, *keys, required=required or "a whole number")
    assert default is not None
    return default


def _read(source: dict[str, Any] | str | Path) -> dict[str, Any]:
    if isinstance(source, dict):
        return source
    text: str | bytes
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        path = Path(source)
        label = str(path)
        if not path.is_file():
            raise ModelImportError(tr("inputs.config.no_file", path=path))
        try:
            text = read_bounded(path, CONFIG_MAX_BYTES)
        except JsonInputError as exc:
            raise ModelImportError(str(exc)) from exc
    else:
        text = str(source)
        label = "config.json"
    try:
        data = loads(text, source=label, max_bytes=CONFIG_MAX_BYTES)
    except JsonInputError as exc:
        raise ModelImportError(str(exc)) from exc
    if not isinstance(data, dict):
        raise ModelImportError(tr("inputs.config.not_json_object", source=label))
    return data


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-") or "model"


def _moe_layers(cfg: dict[str, Any], family: str, num_layers: int) -> tuple[bool, ...]:
    if family in _DEEPSEEK_STYLE_MOE:
        first_dense = _int_first(cfg, "first_k_dense_replace", default=0)
        freq = _int_first(cfg, "moe_layer_freq", default=1) or 1
        return tuple(i >= first_dense and i % freq == 0 for i in range(num_layers))
    if family in ("llama4", "llama4_text"):  # MoE every interleave_moe_layer_step-th layer (or the listed moe_layers)
        listed = cfg.get("moe_layers")
        if isinstance(listed, list) and listed:
            chosen = {_int(i, "moe_layers") for i in listed}
            return tuple(i in chosen for i in range(num_layers))
        step = _int_first(cfg, "interleave_moe_layer_step", default=1) or 1
        return tuple((i + 1) % step == 0 for i in range(num_layers))
    if family in ("qwen2_moe", "qwen3_moe", "qwen3_next"):
        step = _int_first(cfg, "decoder_sparse_step", default=1) or 1
        only = cfg.get("mlp_only_layers") or []
        if not isinstance(only, list):
            raise ModelImportError(tr("inputs.config.not_list", field="mlp_only_layers", value=_show(only)))
        dense_only = {_int(i, "mlp_only_layers") for i in only}
        return tuple(i not in dense_only and (i + 1) % step == 0 for i in range(num_layers))
    return tuple(True for _ in range(num_layers))  # Mixtral: every layer


def _layer_types(cfg: dict[str, Any], family: str, num_layers: int) -> tuple[tuple[LayerAttention, ...], int | None]:
    window = None if cfg.get("sliding_window") is False else (_int_first(cfg, "sliding_window", default=0) or None)
    explicit = cfg.get("layer_types")
    if explicit is not None and not isinstance(explicit, list):
        raise ModelImportError(tr("inputs.config.not_list", field="layer_types", value=_show(explicit)))
    if explicit:
        if len(explicit) != num_layers:
            raise ModelImportError(tr("inputs.config.layer_types_count", listed=len(explicit), layers=num_layers))
        kinds: tuple[LayerAttention, ...] = tuple(
            "sliding" if "sliding" in str(t) else "linear" if "linear" in str(t) else "full" for t in explicit
        )
        return kinds, (window if "sliding" in kinds else None)
    if family in ("llama4", "llama4_text"):  # RoPE layers attend within chunks; every 4th (NoPE) layer is global
        chunk = _int_first(cfg, "attention_chunk_size", default=0)
        nope = cfg.get("no_rope_layers")
        if not chunk:
            return (), None
        if not isinstance(nope, list) or len(nope) != num_layers:
            interval = _int_first(cfg, "nope_layer_interval", default=4, low=1)
            nope = [0 if (i + 1) % interval == 0 else 1 for i in range(num_layers)]
        return tuple("chunked" if flag else "full" for flag in nope), None
    if family == "qwen3_next":  # Gated DeltaNet layers, every full_attention_interval-th one full attention
        interval = _int_first(cfg, "full_attention_interval", default=4, low=1)
        return tuple("full" if (i + 1) % interval == 0 else "linear" for i in range(num_layers)), None
    if not window:
        return (), None
    if family in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe"):
        if not _bool(cfg, "use_sliding_window", False):
            return (), None  # the window is in the file but switched off
        first_windowed = _int_first(cfg, "max_window_layers", default=0)
        return tuple("sliding" if i >= first_windowed else "full" for i in range(num_layers)), window
    if family == "gemma2":
        return tuple("sliding" if i % 2 == 0 else "full" for i in range(num_layers)), window
    if family in ("gemma3", "gemma3_text"):  # 5 local : 1 global
        pattern = _int_first(cfg, "sliding_window_pattern", default=6) or 6
        return tuple("full" if (i + 1) % pattern == 0 else "sliding" for i in range(num_layers)), window
    if family in ("mistral", "mixtral", "phi3"):
        if window >= _int_first(cfg, "max_position_embeddings", default=window):
            return (), None  # a window as long as the context changes nothing
        return tuple("sliding" for _ in range(num_layers)), window
    return (), None


def _max_context(cfg: dict[str, Any], family: str = "") -> tuple[int, float | None, int | None]:
    max_pos = _int_first(cfg, "max_position_embeddings", "seq_length", "n_positions", required="the longest context",
                         low=1)
    rope = cfg.get("rope_scaling") or {}
    if not isinstance(rope, dict):
        raise ModelImportError(tr("inputs.config.not_object", field="rope_scaling", value=_show(rope)))
    raw_factor = rope.get("factor") if isinstance(rope, dict) else None
    factor = _num(raw_factor, "rope_scaling.factor") if raw_factor is not None else None
    kind = (rope.get("rope_type") or rope.get("type")) if isinstance(rope, dict) else None
    raw_original = rope.get("original_max_position_embeddings") if isinstance(rope, dict) else None
    original = _int(raw_original, "rope_scaling.original_max_position_embeddings", low=1) if raw_original else None
    # vLLM: "Gemma3's max_model_len (128K) is already scaled by RoPE scaling, so we skip applying the scaling
    # factor again" (_get_and_verify_max_len)
    if factor and kind in ("yarn", "dynamic", "linear") and "gemma3" not in family:
        base = original or max_pos
        return max(max_pos, int(min(base * factor, float(_INT_LIMIT)))), factor, original
    return max_pos, factor, original


def _state_dtype(value: Any) -> str:
    """The Gated DeltaNet recurrent state's dtype a Qwen3.5 config names (mamba_ssm_dtype)."""
    found = _STATE_DTYPES.get(str(value).lower()) if isinstance(value, str) else None
    if found is None:
        raise ModelImportError(tr("inputs.config.state_dtype", field="mamba_ssm_dtype", value=_show(value),
                                  known=", ".join(sorted(set(_STATE_DTYPES.values())))))  # fmt: skip
    return found


def _checkpoint_quant(cfg: dict[str, Any]) -> tuple[str | None, int | None]:
    """The weight format a checkpoint's quantization_config declares, and its group size where it has one.

    A quantization the sizing has no byte rule for is refused by name: sizing such a checkpoint as 16-bit (or as
    any other format) would show a size that looks right and is not."""
    q = cfg.get("quantization_config")
    if q is None:
        return None, None
    if not isinstance(q, dict):
        raise ModelImportError(tr("inputs.config.not_object", field="quantization_config", value=_show(q)))
    method = str(q.get("quant_method", "")).lower().replace("_", "-")
    bits = q.get("bits") or q.get("w_bit")
    group = q.get("group_size") or q.get("q_group_size")
    if method == "fp8":
        return ("fp8-block" if q.get("weight_block_size") else "fp8"), None
    if method in ("gptq", "awq") and bits in (4, 8):
        if method == "awq" and bits == 8:
            raise ModelImportError(tr("inputs.config.awq_bits", bits=bits))
        return f"{method}-int{bits}", _int(group, "quantization_config.group_size", low=-1) if group else 128
    if method == "compressed-tensors":
        return _compressed_tensors_quant(q)
    if method == "modelopt" and str(q.get("quant_algo", "")).upper() == "FP8":
        return "fp8", None
    if method == "mxfp4":  # gpt-oss: the routed experts in MXFP4, everything else 16-bit (modules_to_not_convert)
        return "mxfp4", None
    scheme = method or "?"
    if method == "modelopt":
        scheme = f"modelopt {q.get('quant_algo', '?')}"
    raise ModelImportError(tr("inputs.config.quant_unsupported", scheme=scheme))


def _compressed_tensors_quant(q: dict[str, Any]) -> tuple[str, int | None]:
    """llm-compressor's compressed-tensors checkpoints (Red Hat AI / Neural Magic's -FP8-dynamic, -w4a16 and
    -w8a8 repos, zai-org's -FP8): the scheme is in config_groups, one per set of target layers, as vLLM reads it
    (compressed_tensors.py): float 8-bit weights are FP8 (block scales when the strategy is "block"), int 8-bit
    weights with int activations are INT8 W8A8, int 4/8-bit weights alone run as GPTQ-style weight-only
    (Marlin) with their group size. The byte rule is the GPTQ one, within ~1 % of a symmetric checkpoint's
    (it has no zero points or g_idx)."""
    groups = q.get("config_groups")
    if not isinstance(groups, dict) or not groups:
        raise ModelImportError(tr("inputs.config.not_object", field="quantization_config.config_groups", value=_show(groups)))
    found: dict[tuple[str, int | None], str] = {}
    for name, group in groups.items():
        weights = group.get("weights") if isinstance(group, dict) else None
        if not isinstance(weights, dict):
            raise ModelImportError(tr("inputs.config.not_object", field=f"quantization_config.config_groups.{name}.weights", value=_show(weights)))
        kind, bits = str(weights.get("type", "int")).lower(), weights.get("num_bits")
        acts = group.get("input_activations")
        scheme = f"{kind}{bits} weights" + (f", {acts.get('type', 'int')}{acts.get('num_bits')} activations" if isinstance(acts, dict) else "")
        if kind == "float" and bits == 8:
            found[("fp8-block" if weights.get("strategy") == "block" else "fp8", None)] = scheme
        elif kind == "int" and bits == 8 and isinstance(acts, dict) and acts.get("type", "int") == "int" and acts.get("num_bits") == 8:
            found[("int8", None)] = scheme
        elif kind == "int" and bits in (4, 8) and not isinstance(acts, dict):
            size = weights.get("group_size")
            found[(f"gptq-int{bits}", _int(size, f"quantization_config.config_groups.{name}.weights.group_size", low=1) if size else -1)] = scheme
        else:
            raise ModelImportError(tr("inputs.config.quant_unsupported", scheme=f"compressed-tensors ({scheme})"))
    if len(found) > 1:
        raise ModelImportError(tr("inputs.config.quant_mixed", schemes="; ".join(sorted(set(found.values())))))
    return next(iter(found))


def model_from_config(
    source: dict[str, Any] | str | Path, model_id: str | None = None, name: str | None = None, hf_repo: str | None = None
) -> ModelSpec:
    """Read a config.json (dict, JSON text or file path) into a ModelSpec; every failure is a ModelImportError
    whose message names the file (when there is one) and the field."""
    cfg = _read(source)
    label = str(source) if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")) else ""
    try:
        return _from_cfg(cfg, model_id, name, hf_repo)
    except ModelImportError as exc:
        raise ModelImportError(f"{label}: {exc}" if label else str(exc)) from exc
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        where = label or "config.json"
        raise ModelImportError(tr("inputs.config.unexpected", source=where, error=f"{type(exc).__name__}: {exc}")) from exc


def _unsupported(family: str, architecture: str) -> ModelImportError:
    """An architecture we do not read: what it is, the nearest family we do read, and what the user can do."""
    shown = family or "(no model_type)"
    supported = ", ".join(SUPPORTED_FAMILIES)
    closest = _CLOSEST_FAMILY.get(family)
    if closest:
        return ModelImportError(tr("inputs.config.family_unsupported_closest", family=shown, architecture=architecture,
                                   closest=closest, supported=supported))  # fmt: skip
    return ModelImportError(tr("inputs.config.family_unsupported", family=shown, architecture=architecture,
                               supported=supported))  # fmt: skip


def _gemma3_text(cfg: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Gemma 3's multimodal config: the text model (text_config, with transformers' defaults for the keys it leaves
    out) and the vision tower (vision_config)."""
    text, vision = _wrapped_text(cfg)
    return {**_GEMMA3_TEXT_DEFAULTS, **text}, vision


def _wrapped_text(cfg: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A multimodal config's text model (text_config, with the top-level dtype, tying and quantization when it does
    not set them) and its vision tower (vision_config)."""
    text = cfg.get("text_config")
    if not isinstance(text, dict):
        raise ModelImportError(tr("inputs.config.not_object", field="text_config", value=_show(text)))
    vision = cfg.get("vision_config") or {}
    if not isinstance(vision, dict):
        raise ModelImportError(tr("inputs.config.not_object", field="vision_config", value=_show(vision)))
    merged = {k: v for k, v in text.items() if v is not None}
    for key in ("quantization_config", "torch_dtype", "dtype", "tie_word_embeddings"):
        if cfg.get(key) is not None and key not in merged:
            merged[key] = cfg[key]
    return merged, vision


def _vit_tower(vision: dict[str, Any]) -> dict[str, int]:
    """The shapes every ViT-style vision tower here shares (SigLIP for Gemma 3, Llama 4's): width, MLP, depth,
    image and patch size, channels."""
    return {
        "vision_hidden_size": _int_first(vision, "hidden_size", required="vision_config.hidden_size"),
        "vision_intermediate_size": _int_first(vision, "intermediate_size", required="vision_config.intermediate_size"),
        "vision_layers": _int_first(vision, "num_hidden_layers", required="vision_config.num_hidden_layers", low=1, high=MAX_LAYERS),
        "vision_image_size": _int_first(vision, "image_size", required="vision_config.image_size", low=1),
        "vision_patch_size": _int_first(vision, "patch_size", required="vision_config.patch_size", low=1),
        "vision_channels": _int_first(vision, "num_channels", default=3, low=1, high=16),
    }


def _vision_fields(vision: dict[str, Any], cfg: dict[str, Any]) -> dict[str, Any]:
    """Gemma 3's SigLIP tower (vision_use_head false) or Llama 4's encoder, and the image tokens Gemma 3 states."""
    if not vision:
        return {}
    if str(vision.get("model_type")) in ("qwen2_5_vl", "qwen3_vl"):
        qwen3 = str(vision.get("model_type")) == "qwen3_vl"
        patch = _int_first(vision, "patch_size", "spatial_patch_size", default=16 if qwen3 else 14, low=1)
        merge = _int_first(vision, "spatial_merge_size", default=2, low=1, high=16)
        deepstack = vision.get("deepstack_visual_indexes") or []
        if not isinstance(deepstack, list):
            raise ModelImportError(tr("inputs.config.not_list", field="vision_config.deepstack_visual_indexes", value=_show(deepstack)))
        extra = {"vision_position_embeddings": _int_first(vision, "num_position_embeddings", required="vision_config.num_position_embeddings", low=1),
                 "vision_deepstack": len(deepstack)} if qwen3 else {}  # fmt: skip
        return {
            **extra,
            "vision_kind": "qwen3_vl" if qwen3 else "qwen2_5_vl",
            "vision_hidden_size": _int_first(vision, "hidden_size", required="vision_config.hidden_size"),
            "vision_intermediate_size": _int_first(vision, "intermediate_size", required="vision_config.intermediate_size"),
            "vision_layers": _int_first(vision, "depth", "num_hidden_layers", required="vision_config.depth", low=1, high=MAX_LAYERS),
            "vision_patch_size": patch,
            "vision_channels": _int_first(vision, "in_chans", "in_channels", default=3, low=1, high=16),
            "vision_temporal_patch": _int_first(vision, "temporal_patch_size", default=2, low=1, high=16),
            "vision_merge": merge,
            "vision_output_dim": _int_first(vision, "out_hidden_size", required="vision_config.out_hidden_size"),
            # the stated budget: a 1,024 x 1,024 image, resized to the nearest multiple of patch x merge pixels a side
            # as Qwen's processor does (smart_resize): Qwen2.5-VL's 28 px give (1,036 / 28)^2 = 1,369 tokens, Qwen3-VL's
            # 32 px (1,024 / 32)^2 = 1,024; more pixels, more tokens
            "image_tokens": round(1024 / (patch * merge)) ** 2,
        }
    if str(vision.get("model_type")) == "llama4_vision_model":
        return {
            "vision_kind": "llama4",
            **_vit_tower(vision),
            "vision_projector_in": _int_first(vision, "projector_input_dim", required="vision_config.projector_input_dim"),
            "vision_projector_out": _int_first(vision, "projector_output_dim", required="vision_config.projector_output_dim"),
            "vision_output_dim": _int_first(vision, "vision_output_dim", required="vision_config.vision_output_dim"),
        }
    if str(vision.get("model_type", "siglip_vision_model")) != "siglip_vision_model" or _bool(vision, "vision_use_head", False):
        raise ModelImportError(tr("inputs.config.vision_unsupported", kind=str(vision.get("model_type"))))
    return {**_vit_tower(vision), "image_tokens": _int_first(cfg, "mm_tokens_per_image", default=256, low=1)}


def _from_cfg(cfg: dict[str, Any], model_id: str | None, name: str | None, hf_repo: str | None) -> ModelSpec:
    family = str(cfg.get("model_type") or "").lower()
    archs = cfg.get("architectures") or []
    if not isinstance(archs, list):
        archs = [archs]
    architecture = str(archs[0]) if archs else family
    if not family and not archs:  # not a model's config.json at all (a tokenizer's, generation_config.json)
        raise ModelImportError(tr("models16.config.no_model_type", supported=", ".join(SUPPORTED_FAMILIES)))
    if family not in SUPPORTED_FAMILIES:
        raise _unsupported(family, architecture)
    vision: dict[str, Any] = {}
    outer = cfg
    if family == "gemma3":
        cfg, vision = _gemma3_text(cfg)
    elif family == "llama4":
        cfg, vision = _wrapped_text(cfg)
    elif family == "gemma3_text":
        cfg = {**_GEMMA3_TEXT_DEFAULTS, **{k: v for k, v in cfg.items() if v is not None}}
    model_family = family
    if family == "qwen2_5_vl":
        # Qwen2.5-VL: a Qwen2 text model (its keys at the top level, or in text_config as newer transformers save it)
        # and the vision encoder in vision_config
        if isinstance(cfg.get("text_config"), dict):
            cfg, vision = _wrapped_text(cfg)
        else:
            vision = cfg.get("vision_config") or {}
            if not isinstance(vision, dict):
                raise ModelImportError(tr("inputs.config.not_object", field="vision_config", value=_show(vision)))
        vision = {**vision, "model_type": "qwen2_5_vl"}
        family = "qwen2"
    elif family == "qwen3_vl":  # Qwen3-VL: a Qwen3 text model in text_config and its encoder in vision_config
        cfg, vision = _wrapped_text(cfg)
        vision = {**vision, "model_type": "qwen3_vl"}
        family = "qwen3"
    elif family in _QWEN3_5_WRAPPED:  # Qwen3.5/3.6: the hybrid text model in text_config, Qwen3-VL's encoder beside it
        cfg, vision = _wrapped_text(cfg)
        vision = {**vision, "model_type": "qwen3_vl"} if vision else {}
        family = "qwen3_next"
    elif family in _QWEN3_5_TEXT:  # a text-only Qwen3.5 config (Qwen3_5ForCausalLM): the same text model, no encoder
        family = "qwen3_next"
    hidden = _int_first(cfg, "hidden_size", "n_embd", "d_model", required="the hidden size")
    layers = _int_first(cfg, "num_hidden_layers", "num_layers", "n_layer", required="the number of layers", low=1,
                        high=MAX_LAYERS)
    heads = _int_first(cfg, "num_attention_heads", "n_head", required="the number of attention heads")
    if family == "chatglm":
        kv_heads = (_int_first(cfg, "multi_query_group_num", required="the KV groups") if _bool(cfg, "multi_query_attention", False)
                    else heads)  # fmt: skip
    else:
        kv_heads = _int_first(cfg, "num_key_value_heads", "n_head_kv", default=heads)
    head_dim = _int_first(cfg, "head_dim", "kv_channels", default=0) or (hidden // heads if heads else 0)
    vocab = _int_first(cfg, "padded_vocab_size", "vocab_size", required="the vocabulary size")
    max_ctx, rope_factor, original = _max_context(cfg, family)
    quant, group = _checkpoint_quant(cfg)

    moe: dict[str, Any] = {}
    n_experts = _int_first(cfg, "n_routed_experts", "num_local_experts", "num_experts", default=0)
    if family in ("qwen2_moe", "qwen3_moe", "qwen3_next", *_WIDE_EXPERT_MOE, *_DEEPSEEK_STYLE_MOE) and n_experts:
        if family in _WIDE_EXPERT_MOE:
            expert_width = _int_first(cfg, "intermediate_size", required="the expert width")
        else:
            expert_width = _int_first(cfg, "moe_intermediate_size", required="the expert width (moe_intermediate_size)")
        moe = {
            "num_experts": n_experts,
            "num_experts_per_tok": _int_first(cfg, "num_experts_per_tok", "experts_per_token", required="experts used per token"),
            "moe_intermediate_size": expert_width,
            "num_shared_experts": _int_first(cfg, "n_shared_experts", default=0),
            "shared_expert_intermediate_size": _int_first(cfg, "shared_expert_intermediate_size", default=0),
            "shared_expert_gate": family in ("qwen2_moe", "qwen3_next") and bool(cfg.get("shared_expert_intermediate_size")),
            # the router's e_score_correction_bias: DeepSeek-V3's noaux_tc routing; GLM-4.5's gate always has it
            # (gpt-oss's router is a biased linear layer)
            "router_bias": (family in ("deepseek_v3", "kimi_k2", "deepseek_v32") and cfg.get("topk_method", "noaux_tc") == "noaux_tc") or family in ("glm4_moe", "gpt_oss")
            or (family == "minimax_m2" and _bool(cfg, "use_routing_bias", True)),
            "expert_bias": family == "gpt_oss",
            "moe_layers": _moe_layers(cfg, family, layers),
        }
    intermediate = _int_first(cfg, "intermediate_size", "ffn_hidden_size", "n_inner", default=0)
    if family in _WIDE_EXPERT_MOE:
        intermediate = 0  # intermediate_size is the expert width there
    if family in ("llama4", "llama4_text"):
        # the dense layers (Maverick's every other one) are intermediate_size_mlp wide; each MoE layer adds one shared
        # expert as wide as a routed one (vLLM's llama4.py: Llama4MoE.shared_expert)
        intermediate = _int_first(cfg, "intermediate_size_mlp", default=0) if moe and not all(moe["moe_layers"]) else 0
        if moe:
            moe["shared_expert_intermediate_size"] = moe["moe_intermediate_size"]

    mla: dict[str, Any] = {}
    if family in ("deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32"):
        mla = {
            "q_lora_rank": _int_first(cfg, "q_lora_rank", default=0) or None,
            "kv_lora_rank": _int_first(cfg, "kv_lora_rank", required="the MLA latent width"),
            "qk_rope_head_dim": _int_first(cfg, "qk_rope_head_dim", required="the MLA rope width"),
            "qk_nope_head_dim": _int_first(cfg, "qk_nope_head_dim", required="the MLA head width"),
            "v_head_dim": _int_first(cfg, "v_head_dim", required="the MLA value width"),
        }
        if family == "deepseek_v32":  # the lightning indexer (vLLM's deepseek_v2.py Indexer)
            mla |= {
                "index_n_heads": _int_first(cfg, "index_n_heads", required="the indexer heads", low=1),
                "index_head_dim": _int_first(cfg, "index_head_dim", required="the indexer head width", low=1),
                "index_topk": _int_first(cfg, "index_topk", required="the tokens the indexer selects", low=1),
            }
        head_dim = mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"]
        kv_heads = heads  # MLA has no grouped KV heads; the latent is shared

    layer_types, window = _layer_types(cfg, family, layers)
    tie_default = family in _TIED_BY_DEFAULT
    if family == "chatglm":
        qkv_bias = _bool(cfg, "add_qkv_bias", False)
        o_bias = mlp_bias = _bool(cfg, "add_bias_linear", False)
    else:
        attn_bias = _bool(cfg, "attention_bias", False)
        qkv_bias = attn_bias or family in _QKV_BIAS_ALWAYS
        o_bias = attn_bias and family not in ("glm", "glm4_moe")  # their attention_bias covers q/k/v only
        mlp_bias = _bool(cfg, "mlp_bias", False)
    norms_per_layer = 4 if family in ("gemma2", "gemma3", "gemma3_text", "glm4") else 2
    linear: dict[str, Any] = {}
    mtp_layers = _int_first(cfg, "num_nextn_predict_layers", default=0)
    if family == "qwen3_next":
        linear = {
            "linear_num_key_heads": _int_first(cfg, "linear_num_key_heads", required="the Gated DeltaNet key heads", low=1),
            "linear_num_value_heads": _int_first(cfg, "linear_num_value_heads", required="the Gated DeltaNet value heads", low=1),
            "linear_key_head_dim": _int_first(cfg, "linear_key_head_dim", required="the Gated DeltaNet key width", low=1),
            "linear_value_head_dim": _int_first(cfg, "linear_value_head_dim", required="the Gated DeltaNet value width", low=1),
            "linear_conv_kernel_dim": _int_first(cfg, "linear_conv_kernel_dim", default=4, low=1, high=64),
            "attn_output_gate": _bool(cfg, "attn_output_gate", True),  # vLLM: getattr(config, "attn_output_gate", True)
            "mtp_style": "qwen3_next",
        }
        if model_family in (*_QWEN3_5_WRAPPED, *_QWEN3_5_TEXT) and cfg.get("mamba_ssm_dtype") is not None:
            linear["linear_state_dtype"] = _state_dtype(cfg.get("mamba_ssm_dtype"))
        # the checkpoint stores one MTP layer (mtp.*); vLLM's qwen3_next_mtp.py reads num_nextn_predict_layers, 1 if absent
        mtp_layers = _int_first(cfg, "num_nextn_predict_layers", "mtp_num_hidden_layers", default=1)

    fields: dict[str, Any] = {
        "id": model_id or _slug(str(cfg.get("_name_or_path") or name or architecture)),
        "name": name or str(cfg.get("_name_or_path") or architecture),
        "architecture": architecture,
        "family": model_family,
        "hf_repo": hf_repo,
        "hidden_size": hidden,
        "num_layers": layers,
        "num_attention_heads": heads,
        "num_kv_heads": kv_heads,
        "head_dim": head_dim,
        "intermediate_size": intermediate,
        "vocab_size": vocab,
        "tie_word_embeddings": _bool(cfg, "tie_word_embeddings", tie_default),
        "max_position_embeddings": max_ctx,
        "rope_scaling_factor": rope_factor,
        "original_max_position_embeddings": original,
        "qkv_bias": qkv_bias,
        "o_bias": o_bias,
        "mlp_bias": mlp_bias,
        "norm": "rmsnorm" if _bool(cfg, "rmsnorm", True) else "layernorm",
        "norms_per_layer": norms_per_layer,
        "qk_norm": family in ("qwen3", "qwen3_moe", "gemma3", "gemma3_text", "qwen3_next") or (family in ("glm4_moe", "minimax_m2") and _bool(cfg, "use_qk_norm", family == "minimax_m2")),
        # MiniMax-M2's qk_norm_type "per_layer": q_norm/k_norm span all heads (transformers' FlexOlmo-style attention,
        # vLLM's MiniMaxText01RMSNormTP shards them with the heads)
        "qk_norm_full": family == "minimax_m2" and str(cfg.get("qk_norm_type", "per_layer")) == "per_layer",
        "attention_sinks": family == "gpt_oss",
        "dtype": str(cfg.get("torch_dtype") or cfg.get("dtype") or outer.get("torch_dtype") or "bfloat16"),
        "sliding_window": window,
        "attention_chunk_size": (_int_first(cfg, "attention_chunk_size", default=0) or None) if "chunked" in layer_types else None,
        "layer_types": layer_types,
        "num_mtp_layers": mtp_layers,
        "checkpoint_quant": quant,
        "quant_group_size": group,
        "quant_kept_16bit": rules_from_config(cfg["quantization_config"]) if quant else (),
        **moe,
        **mla,
        **linear,
        **_vision_fields(vision, outer),
    }
    try:
        return ModelSpec(**fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "config"
        raise ModelImportError(f"{where}: {err['msg'].removeprefix('Value error, ')}") from exc
