"""KV cache bytes per token for each attention type, computed by hand from the public configs."""

from pathlib import Path

import pytest

from advisor.model_import import model_from_config
from advisor.sizing.memory import kv_layout

CONFIGS = Path(__file__).resolve().parents[1] / "fixtures" / "configs"


def _model(name: str):
    return model_from_config(CONFIGS / f"{name}.config.json", model_id=name)


@pytest.mark.parametrize(
    ("name", "kv_dtype", "tp", "expected"),
    [
        # GQA: 2 (K,V) × layers × KV heads × head_dim × bytes
        ("llama-3.1-8b-instruct", "bf16", 1, 2 * 32 * 8 * 128 * 2),  # 131,072
        ("qwen2.5-7b-instruct", "bf16", 1, 2 * 28 * 4 * 128 * 2),  # 57,344
        ("qwen2.5-7b-instruct", "fp8", 1, 2 * 28 * 4 * 128 * 1),
        ("llama-3.3-70b-instruct", "bf16", 4, 2 * 80 * (8 // 4) * 128 * 2),  # KV heads split over TP
        # GLM-4: multi_query_group_num = 2 KV groups, kv_channels = 128
        ("glm-4-9b-chat", "bf16", 1, 2 * 40 * 2 * 128 * 2),
        # Qwen3 MoE: explicit head_dim 128 (≠ hidden/heads = 2048/32 = 64)
        ("qwen3-30b-a3b", "bf16", 1, 2 * 48 * 4 * 128 * 2),
        # MLA: one compressed latent (512) + decoupled rope key (64) per layer, no per-head K/V
        ("deepseek-v3", "bf16", 1, 61 * (512 + 64) * 2),  # 70,272
        ("deepseek-v3", "bf16", 8, 61 * (512 + 64) * 2),  # replicated on every GPU under TP
    ],
)
def test_kv_bytes_per_token(name, kv_dtype, tp, expected):
    assert kv_layout(_model(name), kv_dtype, tp).per_token_bytes == expected


def test_tp_beyond_kv_heads_replicates_heads():
    m = _model("llama-3.3-70b-instruct")  # 8 KV heads
    at8 = kv_layout(m, "bf16", 8)
    at16 = kv_layout(m, "bf16", 16)
    assert at8.per_token_bytes == 2 * 80 * 1 * 128 * 2
    assert at16.per_token_bytes == at8.per_token_bytes  # one head per GPU, each stored twice
    assert at16.replication == 2


def test_head_dim_explicit_in_config_wins_over_hidden_over_heads():
    m = _model("qwen3-8b")
    assert m.head_dim == 128 and m.hidden_size // m.num_attention_heads == 128
    m2 = _model("qwen3-30b-a3b")
    assert m2.head_dim == 128 != m2.hidden_size // m2.num_attention_heads
