"""GGUF tensor data against llama.cpp's type choices: Q4_K_M upgrades some tensors to Q6_K."""

from advisor.domain.model import ModelSpec
from advisor.sizing.quant import GGML_TYPES, gguf_type
from advisor.sizing.tensors import Tensor


def test_block_sizes_match_ggml():
    # bytes per 256 weights: Q4_K = 2 fp16 + 12 scale bytes + 128 nibbles; Q6_K = 128 + 64 + 16 + 2
    assert GGML_TYPES["Q4_K"] == (256, 2 + 2 + 12 + 128)
    assert GGML_TYPES["Q6_K"] == (256, 128 + 64 + 16 + 2)
    assert GGML_TYPES["Q8_0"] == (32, 2 + 32)
    assert GGML_TYPES["Q4_0"] == (32, 2 + 16)


def test_q4_k_m_upgrades_attn_v_and_ffn_down_on_use_more_bits_layers():
    n = 32
    picked = [gguf_type(Tensor("ffn_down", "linear", 4096, 14336, layer=i), "Q4_K_M", n, 0, 4, False) for i in range(n)]
    # use_more_bits: first n/8, last n/8, and every third layer in between
    expected_q6 = [i for i in range(n) if i < 4 or i >= 28 or (i - 4) % 3 == 2]
    assert [i for i, t in enumerate(picked) if t == "Q6_K"] == expected_q6
    assert set(picked) == {"Q4_K", "Q6_K"}


def test_output_head_is_q6_k_and_norms_f32():
    head = Tensor("output", "lm_head", 128256, 4096)
    norm = Tensor("norm_0", "norm", 1, 4096)
    assert gguf_type(head, "Q4_K_M", 32, 0, 4, False) == "Q6_K"
    assert gguf_type(head, "Q8_0", 32, 0, 4, False) == "Q8_0"
    assert gguf_type(norm, "Q4_K_M", 32, 0, 4, False) == "F32"


def test_tied_embedding_takes_the_output_rule():
    embd = Tensor("token_embd", "embed", 151936, 1024)
    assert gguf_type(embd, "Q4_K_M", 28, 0, 2, tied=True) == "Q6_K"
    assert gguf_type(embd, "Q4_K_M", 28, 0, 2, tied=False) == "Q4_K"


def test_k_quant_falls_back_when_rows_not_multiple_of_256():
    odd = Tensor("ffn_up", "linear", 4096, 4000, layer=5)
    assert gguf_type(odd, "Q4_K_M", 32, 0, 4, False) == "Q5_0"


def test_model_spec_is_hashable_for_caching():
    m = ModelSpec(
        id="x", name="x", architecture="LlamaForCausalLM", family="llama", hidden_size=64, num_layers=2,
        num_attention_heads=4, num_kv_heads=2, head_dim=16, intermediate_size=128, vocab_size=100,
        max_position_embeddings=2048,
    )  # fmt: skip
    assert hash(m) == hash(m.model_copy())
