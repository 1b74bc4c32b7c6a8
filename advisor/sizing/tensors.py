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

    @property
    def elements(self) -> int:
        return self.rows * self.cols * self.count

    @property
    def quantizable(self) -> bool:
        # DeepSeek-V3's MTP eh_proj ships in BF16 while every other decoder linear is FP8.
        return self.kind == "linear" and self.role != "mtp_eh_proj"


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
        return out
    q_out = m.num_attention_heads * m.head_dim
    kv_out = m.num_kv_heads * m.head_dim
    out += [
        _linear("attn_q", q_out, h, i, "col", mtp=mtp),
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
    if m.qk_norm:
        out += [_vec("attn_q_norm", "norm", m.head_dim, i, mtp=mtp), _vec("attn_k_norm", "norm", m.head_dim, i, mtp=mtp)]
    return out


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
    out += _attention(m, i, mtp)
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
    # DeepSeek-V3's MTP module: its own embedding and head copies, two norms, a 2h→h projection and one full
    # decoder layer (MoE), as stored in the checkpoint (model.layers.61.*).
    for k in range(m.num_mtp_layers):
        i = m.num_layers + k
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


@cache
def param_counts(m: ModelSpec) -> ParamCounts:
    total = active = checkpoint = embedding = 0
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
        if t.kind in ("embed", "lm_head"):
            embedding += n
        active += round(n * k_over_e) if t.expert else n
    return ParamCounts(total=total, active=active, checkpoint=checkpoint, embedding=embedding)
