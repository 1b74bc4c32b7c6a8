"""The exact list of weight tensors a checkpoint holds, derived from a ModelSpec.

Parameter counts and weight bytes are sums over this list, so a count is exact whenever the list is: it
matches the element count in the checkpoint's safetensors files (tests check published counts). Each tensor
also says how tensor parallelism splits it (column/row/vocab/replicated, as vLLM's parallel layers do) and
whether quantization formats touch it (embeddings, norms, routers and biases stay 16/32-bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from advisor.domain.model import ModelSpec

Split = Literal["col", "row", "vocab", "rep", "kv"]
Kind = Literal["embed", "lm_head", "norm", "bias", "linear", "router"]


@dataclass(frozen=True, slots=True)
class Tensor:
    role: str  # GGUF-style name: attn_q, attn_v, ffn_down, ffn_down_exps, token_embd, output, …
    kind: Kind
    rows: int  # output features (1 for vectors)
    cols: int  # input features (length for vectors)
    count: int = 1  # identical copies (routed experts of one layer)
    layer: int = -1
    split: Split = "rep"
    expert: bool = False  # a routed expert: only the experts a token picks are read while decoding
    mtp: bool = False  # multi-token-prediction layer: stored, not loaded by default
    vision: bool = False  # vision encoder or its projector: loaded, run once per image, never per generated token

    @property
    def elements(self) -> int:
        return self.rows * self.cols * self.count

    @property
    def quantizable(self) -> bool:
        # DeepSeek-V3's MTP eh_proj ships in BF16 while every other decoder linear is FP8. Published quantized
        # checkpoints of vision-language models leave the vision tower in 16 bits (llm-compressor recipes ignore
        # "re:vision_tower.*" and "re:multi_modal_projector.*"; GGUF keeps it in a separate mmproj file).
        # DeepSeek-V3.2's indexer weights_proj stays BF16 beside the FP8 wq_b/wk (vLLM builds it with quant_config=None)
        return self.kind == "linear" and self.role not in ("mtp_eh_proj", "indexer_weights_proj") and not self.vision


def _linear(role: str, out: int, inp: int, layer: int, split: Split, **kw: object) -> Tensor:
    return Tensor(role, "linear", out, inp, layer=layer, split=split, **kw)  # type: ignore[arg-type]


def _vec(role: str, kind: Kind, n: int, layer: int, split: Split = "rep", count: int = 1, **kw: object) -> Tensor:
    return Tensor(role, kind, 1, n, count=count, layer=layer, split=split, **kw)  # type: ignore[arg-type]


def _attention(m: ModelSpec, i: int, mtp: bool) -> list[Tensor]:
    h = m.hidden_size
    out: list[Tensor] = []
    if m.is_mla:
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        heads = m.num_attention_heads
        if m.q_lora_rank:
            out += [
                _linear("attn_q_a", m.q_lora_rank, h, i, "rep", mtp=mtp),
                _vec("attn_q_a_norm", "norm", m.q_lora_rank, i, mtp=mtp),
                _linear("attn_q_b", heads * qk, m.q_lora_rank, i, "col", mtp=mtp),
            ]
        else:
            out.append(_linear("attn_q", heads * qk, h, i, "col", mtp=mtp))
        out += [
            _linear("attn_kv_a_mqa", m.kv_lora_rank + m.qk_rope_head_dim, h, i, "rep", mtp=mtp),
            _vec("attn_kv_a_norm", "norm", m.kv_lora_rank, i, mtp=mtp),
            _linear("attn_kv_b", heads * (m.qk_nope_head_dim + m.v_head_dim), m.kv_lora_rank, i, "col", mtp=mtp),
            _linear("attn_output", h, heads * m.v_head_dim, i, "row", mtp=mtp),
        ]
        if m.index_n_heads:  # DeepSeek-V3.2's lightning indexer, replicated on every GPU (vLLM: disable_tp)
            d = m.index_head_dim
            out += [
                _linear("indexer_wq_b", m.index_n_heads * d, m.q_lora_rank or h, i, "rep", mtp=mtp),
                _linear("indexer_wk", d, h, i, "rep", mtp=mtp),
                _vec("indexer_k_norm", "norm", d, i, mtp=mtp),
                _vec("indexer_k_norm_bias", "bias", d, i, mtp=mtp),
                _linear("indexer_weights_proj", m.index_n_heads, h, i, "rep", mtp=mtp),
            ]
        return out
    q_out = m.num_attention_heads * m.head_dim
    kv_out = m.num_kv_heads * m.head_dim
    gate = 2 if m.attn_output_gate else 1  # Qwen3-Next: q_proj holds the query and a sigmoid gate per head
    out += [
        _linear("attn_q", gate * q_out, h, i, "col", mtp=mtp),
        _linear("attn_k", kv_out, h, i, "kv", mtp=mtp),
        _linear("attn_v", kv_out, h, i, "kv", mtp=mtp),
        _linear("attn_output", h, q_out, i, "row", mtp=mtp),
    ]
    if m.qkv_bias:
        out += [
            _vec("attn_q_bias", "bias", q_out, i, "col", mtp=mtp),
            _vec("attn_k_bias", "bias", kv_out, i, "kv", mtp=mtp),
            _vec("attn_v_bias", "bias", kv_out, i, "kv", mtp=mtp),
        ]
    if m.o_bias:
        out.append(_vec("attn_output_bias", "bias", h, i, mtp=mtp))
    if m.attention_sinks:
        out.append(_vec("attn_sinks", "bias", m.num_attention_heads, i, "col", mtp=mtp))  # split with the heads
    if m.qk_norm and m.qk_norm_full:  # MiniMax-M2 (FlexOlmo-style): one norm over every q head, one over every k head
        out += [_vec("attn_q_norm", "norm", q_out, i, "col", mtp=mtp), _vec("attn_k_norm", "norm", kv_out, i, "kv", mtp=mtp)]
    elif m.qk_norm:
        out += [_vec("attn_q_norm", "norm", m.head_dim, i, mtp=mtp), _vec("attn_k_norm", "norm", m.head_dim, i, mtp=mtp)]
    return out


def _linear_attention(m: ModelSpec, i: int) -> list[Tensor]:
    """A Gated DeltaNet layer as Qwen3-Next stores it (vLLM's qwen3_next.py, Qwen3NextGatedDeltaNet): in_proj_qkvz
    (q and k per key head, v and the output gate z per value head), in_proj_ba (beta and alpha per value head), a
    depthwise causal conv1d over q, k and v, per-value-head dt_bias and A_log, a gated RMSNorm over one value head,
    and out_proj."""
    h = m.hidden_size
    key_dim = m.linear_num_key_heads * m.linear_key_head_dim
    value_dim = m.linear_num_value_heads * m.linear_value_head_dim
    conv_dim = 2 * key_dim + value_dim
    return [
        _linear("ssm_in_qkvz", 2 * key_dim + 2 * value_dim, h, i, "col"),
        _linear("ssm_in_ba", 2 * m.linear_num_value_heads, h, i, "col"),
        Tensor("ssm_conv1d", "norm", conv_dim, m.linear_conv_kernel_dim, layer=i, split="col"),
        _vec("ssm_dt_bias", "bias", m.linear_num_value_heads, i, "col"),
        _vec("ssm_a_log", "norm", m.linear_num_value_heads, i, "col"),
        _vec("ssm_norm", "norm", m.linear_value_head_dim, i),
        _linear("ssm_out", h, value_dim, i, "row"),
    ]


def _vision_tower(m: ModelSpec) -> list[Tensor]:
    """Gemma 3's SigLIP encoder (vision_use_head false) and its projector into the text model, as stored
    (vision_tower.vision_model.*, multi_modal_projector.*): a patch-embedding convolution with bias, one learned
    position per patch, pre-norm encoder layers with biased q/k/v/out and a biased two-layer GELU MLP, a final
    LayerNorm; the projector is an RMSNorm over the vision width and a vision → text matrix."""
    v, w = m.vision_hidden_size, m.vision_intermediate_size
    patches = (m.vision_image_size // m.vision_patch_size) ** 2
    layer = -2  # not a decoder layer

    def lin(role: str, out: int, inp: int, count: int = 1) -> Tensor:
        return Tensor(role, "linear", out, inp, count=count, layer=layer, vision=True)

    def vec(role: str, kind: Kind, n: int, count: int = 1) -> Tensor:
        return Tensor(role, kind, 1, n, count=count, layer=layer, vision=True)

    n = m.vision_layers
    if m.vision_kind == "qwen2_5_vl":
        # Qwen2.5-VL's encoder (visual.*, vLLM's qwen2_5_vl.py): an unbiased 3-D patch convolution over
        # temporal_patch_size frames, RMSNorm blocks with biased fused qkv and proj and a biased gated SiLU MLP (no
        # learned positions: 2-D rotary), then the merger: an RMSNorm and two biased layers from the 2x2-merged
        # patches (vision width × merge²) to the text width
        merged = v * m.vision_merge**2
        return [
            lin("v_patch_embd", v, m.vision_channels * m.vision_temporal_patch * m.vision_patch_size**2),
            vec("v_ln1", "norm", v, n), vec("v_ln2", "norm", v, n),
            lin("v_attn_qkv", 3 * v, v, n), vec("v_attn_qkv_bias", "bias", 3 * v, n),
            lin("v_attn_out", v, v, n), vec("v_attn_out_bias", "bias", v, n),
            lin("v_ffn_gate", w, v, n), vec("v_ffn_gate_bias", "bias", w, n),
            lin("v_ffn_up", w, v, n), vec("v_ffn_up_bias", "bias", w, n),
            lin("v_ffn_down", v, w, n), vec("v_ffn_down_bias", "bias", v, n),
            vec("mm_merger_norm", "norm", v),
            lin("mm_merger_fc1", merged, merged), vec("mm_merger_fc1_bias", "bias", merged),
            lin("mm_merger_fc2", m.vision_output_dim, merged), vec("mm_merger_fc2_bias", "bias", m.vision_output_dim),
        ]  # fmt: skip
    if m.vision_kind == "qwen3_vl":
        # Qwen3-VL's encoder (model.visual.*, vLLM's qwen3_vl.py): a biased 3-D patch convolution, learned patch
        # positions, LayerNorm blocks with biased fused qkv, proj and a two-layer GELU MLP, then the merger (a
        # LayerNorm over the vision width and two biased layers from the 2x2-merged patches to the text width) and one
        # deepstack merger per deepstack_visual_indexes entry (the same, its LayerNorm over the merged width)
        merged = v * m.vision_merge**2
        out_dim = m.vision_output_dim

        def merger(prefix: str, norm_width: int, count: int) -> list[Tensor]:
            return [
                vec(f"{prefix}_norm", "norm", norm_width, count), vec(f"{prefix}_norm_bias", "bias", norm_width, count),
                lin(f"{prefix}_fc1", merged, merged, count), vec(f"{prefix}_fc1_bias", "bias", merged, count),
                lin(f"{prefix}_fc2", out_dim, merged, count), vec(f"{prefix}_fc2_bias", "bias", out_dim, count),
            ]  # fmt: skip

        out = [
            lin("v_patch_embd", v, m.vision_channels * m.vision_temporal_patch * m.vision_patch_size**2),
            vec("v_patch_embd_bias", "bias", v),
            Tensor("v_position_embd", "embed", m.vision_position_embeddings, v, layer=layer, vision=True),
            vec("v_ln1", "norm", v, n), vec("v_ln1_bias", "bias", v, n),
            vec("v_ln2", "norm", v, n), vec("v_ln2_bias", "bias", v, n),
            lin("v_attn_qkv", 3 * v, v, n), vec("v_attn_qkv_bias", "bias", 3 * v, n),
            lin("v_attn_out", v, v, n), vec("v_attn_out_bias", "bias", v, n),
            lin("v_ffn_up", w, v, n), vec("v_ffn_up_bias", "bias", w, n),
            lin("v_ffn_down", v, w, n), vec("v_ffn_down_bias", "bias", v, n),
            *merger("mm_merger", v, 1),
        ]  # fmt: skip
        if m.vision_deepstack:
            out += merger("mm_deepstack", merged, m.vision_deepstack)
        return out
    if m.vision_kind == "llama4":
        # Llama 4's encoder (vision_model.*): an unbiased patch projection, a class token and one position per patch
        # plus it, LayerNorms before and after the same biased pre-norm layers, then the pixel-shuffle adapter's two
        # unbiased matrices and multi_modal_projector.linear_1 into the text model
        return [
            lin("v_patch_embd", v, m.vision_channels * m.vision_patch_size**2),
            vec("v_class_embd", "embed", v),
            Tensor("v_position_embd", "embed", patches + 1, v, layer=layer, vision=True),
            vec("v_pre_ln", "norm", v), vec("v_pre_ln_bias", "bias", v),
            vec("v_post_ln", "norm", v), vec("v_post_ln_bias", "bias", v),
            vec("v_ln1", "norm", v, n), vec("v_ln1_bias", "bias", v, n),
            lin("v_attn_qkv", 3 * v, v, n), vec("v_attn_qkv_bias", "bias", 3 * v, n),
            lin("v_attn_out", v, v, n), vec("v_attn_out_bias", "bias", v, n),
            vec("v_ln2", "norm", v, n), vec("v_ln2_bias", "bias", v, n),
            lin("v_ffn_up", w, v, n), vec("v_ffn_up_bias", "bias", w, n),
            lin("v_ffn_down", v, w, n), vec("v_ffn_down_bias", "bias", v, n),
            lin("v_adapter_fc1", m.vision_projector_in, w),
            lin("v_adapter_fc2", m.vision_projector_out, m.vision_projector_in),
            lin("mm_input_projection", m.hidden_size, m.vision_output_dim),
        ]  # fmt: skip
    return [
        lin("v_patch_embd", v, m.vision_channels * m.vision_patch_size**2),
        vec("v_patch_embd_bias", "bias", v),
        Tensor("v_position_embd", "embed", patches, v, layer=layer, vision=True),
        vec("v_ln1", "norm", v, n), vec("v_ln1_bias", "bias", v, n),
        lin("v_attn_qkv", 3 * v, v, n), vec("v_attn_qkv_bias", "bias", 3 * v, n),
        lin("v_attn_out", v, v, n), vec("v_attn_out_bias", "bias", v, n),
        vec("v_ln2", "norm", v, n), vec("v_ln2_bias", "bias", v, n),
        lin("v_ffn_up", w, v, n), vec("v_ffn_up_bias", "bias", w, n),
        lin("v_ffn_down", v, w, n), vec("v_ffn_down_bias", "bias", v, n),
        vec("v_post_ln", "norm", v), vec("v_post_ln_bias", "bias", v),
        vec("mm_soft_emb_norm", "norm", v),
        lin("mm_input_projection", m.hidden_size, v),
    ]  # fmt: skip


def _dense_mlp(m: ModelSpec, i: int, width: int, suffix: str, mtp: bool, bias: bool) -> list[Tensor]:
    h = m.hidden_size
    out = []
    if m.mlp_gated:
        out.append(_linear(f"ffn_gate{suffix}", width, h, i, "col", mtp=mtp))
    out += [_linear(f"ffn_up{suffix}", width, h, i, "col", mtp=mtp), _linear(f"ffn_down{suffix}", h, width, i, "row", mtp=mtp)]
    if bias:
        out += [_vec(f"ffn_up{suffix}_bias", "bias", width, i, "col", mtp=mtp), _vec(f"ffn_down{suffix}_bias", "bias", h, i, mtp=mtp)]
        if m.mlp_gated:
            out.append(_vec(f"ffn_gate{suffix}_bias", "bias", width, i, "col", mtp=mtp))
    return out


def _moe_mlp(m: ModelSpec, i: int, mtp: bool) -> list[Tensor]:
    h, w, e = m.hidden_size, m.moe_intermediate_size, m.num_experts
    out = [
        Tensor("ffn_gate_inp", "router", e, h, layer=i, mtp=mtp),
        Tensor("ffn_gate_exps", "linear", w, h, count=e, layer=i, split="col", expert=True, mtp=mtp),
        Tensor("ffn_up_exps", "linear", w, h, count=e, layer=i, split="col", expert=True, mtp=mtp),
        Tensor("ffn_down_exps", "linear", h, w, count=e, layer=i, split="row", expert=True, mtp=mtp),
    ]
    if m.router_bias:
        out.append(_vec("exp_probs_b", "router", e, i, mtp=mtp))
    if m.expert_bias:  # gpt-oss: gate_up_proj_bias [E, 2w] and down_proj_bias [E, h], 16-bit in every format
        out += [
            _vec("ffn_gate_up_exps_bias", "bias", 2 * w, i, "col", count=e, expert=True, mtp=mtp),
            _vec("ffn_down_exps_bias", "bias", h, i, count=e, expert=True, mtp=mtp),
        ]
    shared_width = m.num_shared_experts * w if m.num_shared_experts else m.shared_expert_intermediate_size
    if shared_width:
        out += _dense_mlp(m, i, shared_width, "_shexp", mtp, bias=False)
    if m.shared_expert_gate:
        out.append(Tensor("ffn_gate_inp_shexp", "router", 1, h, layer=i, mtp=mtp))
    return out


def _decoder_layer(m: ModelSpec, i: int, moe: bool, mtp: bool = False) -> list[Tensor]:
    out = [_vec(f"norm_{k}", "norm", m.hidden_size, i, mtp=mtp) for k in range(m.norms_per_layer)]
    if m.norm == "layernorm":
        out += [_vec(f"norm_{k}_bias", "bias", m.hidden_size, i, mtp=mtp) for k in range(m.norms_per_layer)]
    linear = bool(m.layer_types) and m.layer_types[i] == "linear" if i < m.num_layers else False
    out += _linear_attention(m, i) if linear else _attention(m, i, mtp)
    out += _moe_mlp(m, i, mtp) if moe else _dense_mlp(m, i, m.intermediate_size, "", mtp, m.mlp_bias)
    return out


@cache
def tensors(m: ModelSpec) -> tuple[Tensor, ...]:
    """Every weight tensor of the checkpoint (MTP layers included, flagged)."""
    h = m.hidden_size
    out: list[Tensor] = [Tensor("token_embd", "embed", m.vocab_size, h, split="vocab")]
    for i in range(m.num_layers):
        out += _decoder_layer(m, i, moe=m.is_moe and m.moe_layers[i])
    out.append(_vec("output_norm", "norm", h, -1))
    if m.norm == "layernorm":
        out.append(_vec("output_norm_bias", "bias", h, -1))
    if not m.tie_word_embeddings:
        out.append(Tensor("output", "lm_head", m.vocab_size, h, split="vocab"))
    if m.has_vision:
        out += _vision_tower(m)
    # DeepSeek-V3's MTP module: its own embedding and head copies, two norms, a 2h→h projection and one full
    # decoder layer (MoE), as stored in the checkpoint (model.layers.61.*). Qwen3-Next's (mtp.*) shares the model's
    # embedding and head: mtp.fc (2h→h), two pre-fc norms, one full-attention MoE layer and a final norm.
    for k in range(m.num_mtp_layers):
        i = m.num_layers + k
        if m.mtp_style == "qwen3_next":
            out += [
                _linear("mtp_eh_proj", h, 2 * h, i, "rep", mtp=True),
                _vec("mtp_enorm", "norm", h, i, mtp=True),
                _vec("mtp_hnorm", "norm", h, i, mtp=True),
                _vec("mtp_head_norm", "norm", h, i, mtp=True),
            ]
            out += _decoder_layer(m, i, moe=m.is_moe, mtp=True)
            continue
        out += [
            Tensor("mtp_embd", "embed", m.vocab_size, h, layer=i, split="vocab", mtp=True),
            _vec("mtp_enorm", "norm", h, i, mtp=True),
            _vec("mtp_hnorm", "norm", h, i, mtp=True),
            _linear("mtp_eh_proj", h, 2 * h, i, "rep", mtp=True),
            _vec("mtp_head_norm", "norm", h, i, mtp=True),
            Tensor("mtp_head", "lm_head", m.vocab_size, h, layer=i, split="vocab", mtp=True),
        ]
        out += _decoder_layer(m, i, moe=m.is_moe, mtp=True)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ParamCounts:
    total: int  # what the engine loads (MTP excluded)
    active: int  # touched per token: routed experts scaled to experts-per-token
    checkpoint: int  # every tensor stored, MTP layers and FP8 block scales included
    embedding: int  # input embedding (+ untied output head)
    vision: int = 0  # vision encoder and projector (part of total; not touched by text tokens, so not of active)


@cache
def param_counts(m: ModelSpec) -> ParamCounts:
    total = active = checkpoint = embedding = vision = 0
    k_over_e = (m.num_experts_per_tok / m.num_experts) if m.is_moe else 1.0
    block_scaled = m.checkpoint_quant == "fp8-block"
    for t in tensors(m):
        n = t.elements
        checkpoint += n
        if block_scaled and t.quantizable:
            # one fp32 `weight_scale_inv` per 128×128 block is stored (and counted) beside each FP8 weight
            checkpoint += -(-t.rows // 128) * -(-t.cols // 128) * t.count
        if t.mtp:
            continue
        total += n
        if t.vision:
            vision += n
            continue
        if t.kind in ("embed", "lm_head"):
            embedding += n
        active += round(n * k_over_e) if t.expert else n
    return ParamCounts(total=total, active=active, checkpoint=checkpoint, embedding=embedding, vision=vision)
