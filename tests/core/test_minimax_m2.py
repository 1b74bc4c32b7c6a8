"""MiniMax-M2 (issue #28): imported as vLLM and transformers build it, counted and sized against published figures.

- Hugging Face safetensors totals (a public table of HF API figures, code-index id 69468411049): MiniMaxAI/MiniMax-M2,
  -M2.1 and -M2.7 228,689,764,864 (the weights), -M2.5 228,703,644,928 (the same tensors with the FP8 block scales).
- 96,103 stored tensors in an M2.5/M2.7 checkpoint ("each of the 96,103 checkpoint tensors", the model card of a
  merge of the two: https://huggingface.co/Ex0bit/MiniMax-SLURPY/commit/f30905c8677aac540df50a6e7dcb696660aaaa3d).
- llama.cpp: "minimax-m2 230B.A10B ... 228.69 B" (llama-bench, code-index ids 70130697289, 63638050291).
- vLLM at TP 2, MiniMax-M2.7 (same attention): "To serve at least one request with the model's max seq len (196608),
  23.25 GiB KV cache is needed" (https://github.com/eugr/spark-vllm-docker/issues/396).
"""

from __future__ import annotations

from advisor.catalog import get_model
from advisor.model_import import model_from_config
from advisor.sizing.memory import kv_layout
from advisor.sizing.tensors import param_counts, tensors

GIB = 1024**3


def test_minimax_m2_counts_what_hugging_face_counts():
    spec = get_model("minimax-m2")
    counts = param_counts(spec)
    assert counts.total == 228_689_764_864  # M2, M2.1, M2.7
    assert counts.checkpoint == 228_703_644_928  # M2.5: the same tensors with their FP8 weight_scale_inv
    assert f"{counts.total / 1e9:.2f} B" == "228.69 B"  # llama-bench


def test_minimax_m2_stores_96103_tensors():
    """Per layer: q/k/v/o and 768 expert matrices, each with its FP8 scale tensor, q_norm, k_norm, two layer norms,
    the router and its correction bias; then embeddings, final norm and head. No MTP modules are stored."""
    spec = get_model("minimax-m2")
    stored = 0
    for t in tensors(spec):
        stored += t.count * (2 if t.quantizable else 1)  # an FP8 weight and its weight_scale_inv
    assert stored == 96_103
    assert spec.num_mtp_layers == 0


def test_minimax_m2_shapes_as_vllm_builds_them():
    spec = get_model("minimax-m2")
    assert spec.family == "minimax_m2" and spec.checkpoint_quant == "fp8-block"
    assert spec.num_experts == 256 and spec.num_experts_per_tok == 8 and spec.moe_intermediate_size == 1536
    assert all(spec.moe_layers) and spec.router_bias and not spec.num_shared_experts
    assert spec.max_context == 196_608 and not spec.tie_word_embeddings
    norms = {t.role: t for t in tensors(spec) if t.layer == 0 and t.role in ("attn_q_norm", "attn_k_norm")}
    assert norms["attn_q_norm"].cols == 48 * 128 and norms["attn_k_norm"].cols == 8 * 128  # over all heads at once


def test_minimax_m2_kv_cache_is_what_vllm_asks_for_at_tp2():
    per_token = kv_layout(get_model("minimax-m2"), "bf16", 2).per_token_bytes
    assert per_token == 62 * 2 * 4 * 128 * 2  # 62 layers, K and V, 4 of the 8 KV heads per GPU, BF16
    assert f"{per_token * 196_608 / GIB:.2f} GiB" == "23.25 GiB"


def test_a_minimax_m2_config_imports_instead_of_being_refused():
    spec = model_from_config(
        {"architectures": ["MiniMaxM2ForCausalLM"], "model_type": "minimax_m2", "hidden_size": 3072,
         "intermediate_size": 1536, "num_hidden_layers": 62, "num_attention_heads": 48, "num_key_value_heads": 8,
         "head_dim": 128, "vocab_size": 200064, "num_local_experts": 256, "num_experts_per_tok": 8,
         "use_qk_norm": True, "qk_norm_type": "per_layer", "max_position_embeddings": 196608}
    )  # fmt: skip
    assert param_counts(spec).total == 228_689_764_864


def test_later_minimax_releases_name_the_preset():
    for repo in ("MiniMaxAI/MiniMax-M2.1", "MiniMaxAI/MiniMax-M2.7"):
        assert get_model(repo).id == "minimax-m2"
