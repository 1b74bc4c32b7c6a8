"""DeepSeek-V3.2 (issue #28): V3.1's shapes plus the lightning indexer, counted against Hugging Face's figures and
cached as vLLM allocates it.

Hugging Face safetensors totals (a public table of HF API figures, code-index id 69468411049):
deepseek-ai/DeepSeek-V3.2-Exp and -V3.2-Speciale 685,396,921,376 (FP8 block scales counted, as for DeepSeek-V3's
684,531,386,000), deepseek-ai/DeepSeek-V3.2 685,355,329,792 (the same tensors, scales not counted).

vLLM (model_executor/models/deepseek_v2.py, Indexer): the indexer keeps its own key cache,
``DeepseekV32IndexerCache(head_dim=self.head_dim + self.head_dim // self.quant_block_size * 4, dtype=torch.uint8)``
= 128 FP8 bytes + one FP32 scale per token and layer, on every GPU; with an FP8 KV cache the sparse MLA latent is
FlashMLA's 656-byte layout (fp8_ds_mla: 512 FP8 values, 4 FP32 scales, the 64-wide rope key in BF16).
No published vLLM capacity log of V3.2 was found to pin the total against an engine's own line.
"""

from __future__ import annotations

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.model_import import model_from_config
from advisor.sizing import size
from advisor.sizing.memory import kv_layout
from advisor.sizing.tensors import param_counts, tensors


def test_v32_counts_what_hugging_face_counts():
    spec = get_model("deepseek-v3.2-exp")
    assert param_counts(spec).checkpoint == 685_396_921_376  # V3.2-Exp, V3.2-Speciale: with the FP8 scales
    assert sum(t.elements for t in tensors(spec)) == 685_355_329_792  # V3.2: the same tensors, scales not counted
    v3 = param_counts(get_model("deepseek-v3")).checkpoint
    # the indexer on each of the 62 stored layers (61 + MTP): wq_b, wk (+ their 768 + 56 scales), k_norm, weights_proj
    per_layer = 8192 * 1536 + 128 * 7168 + 2 * 128 + 64 * 7168
    assert param_counts(spec).checkpoint - v3 == 62 * (per_layer + 768 + 56)


def test_v32_releases_name_the_preset():
    for repo in ("deepseek-ai/DeepSeek-V3.2", "deepseek-ai/DeepSeek-V3.2-Exp", "deepseek-ai/DeepSeek-V3.2-Speciale"):
        assert get_model(repo).id == "deepseek-v3.2-exp"
    assert get_model("deepseek-ai/DeepSeek-V3.1").id == "deepseek-v3"  # no indexer there


def test_v32_caches_the_indexer_keys_beside_the_latent():
    spec = get_model("deepseek-v3.2-exp")
    assert (spec.index_n_heads, spec.index_head_dim, spec.index_topk) == (64, 128, 2048)
    assert kv_layout(spec, "bf16", 8).per_token_bytes == 61 * ((512 + 64) * 2 + 132)
    assert kv_layout(spec, "fp8", 8).per_token_bytes == 61 * (656 + 132)
    # V3's cache has no indexer: the same context holds more tokens there
    assert kv_layout(get_model("deepseek-v3"), "bf16", 8).per_token_bytes == 61 * (512 + 64) * 2


def test_v32_sizes_on_eight_h200_with_the_indexer_cache():
    r = size(SizingRequest(model=get_model("deepseek-v3.2-exp"), gpu=get_gpu("h200-141g"), weights="fp8-block", gpus=8), "en")
    v3 = size(SizingRequest(model=get_model("deepseek-v3"), gpu=get_gpu("h200-141g"), weights="fp8-block", gpus=8), "en")
    assert r.memory.kv_bytes_per_token == 61 * ((512 + 64) * 2 + 132)
    assert r.memory.weights_bytes > v3.memory.weights_bytes  # the indexer's weights are replicated on every GPU
    assert r.vllm_command.startswith("vllm serve deepseek-ai/DeepSeek-V3.2-Exp --tensor-parallel-size 8 ")


def test_a_v32_config_imports_instead_of_being_refused():
    import json
    from pathlib import Path

    raw = Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "deepseek-v3.2-exp.config.json"
    spec = model_from_config(json.loads(raw.read_text(encoding="utf-8")))
    assert spec.family == "deepseek_v32" and spec.is_mla and spec.index_topk == 2048
    assert param_counts(spec).checkpoint == 685_396_921_376


def test_v32_decode_reads_the_selected_latents_and_every_indexer_key():
    """Sparse attention: each decoding sequence reads at most index_topk (2,048) latents, the indexer reads all of its
    132-byte keys; V3's dense MLA reads the whole context."""
    from advisor.sizing.roofline import StepCostModel

    h200 = get_gpu("h200-141g")
    v32 = StepCostModel.build(get_model("deepseek-v3.2-exp"), "fp8-block", "bf16", h200, 8)
    v3 = StepCostModel.build(get_model("deepseek-v3"), "fp8-block", "bf16", h200, 8)
    flops, read = v32.decode_attention(64, 64 * 128_000)
    assert read == 64 * 2048 * 61 * 1152 + 64 * 128_000 * 61 * 132
    assert flops == 64 * 2048 * v32.attn_flops_per_pair + 64 * 128_000 * 2.0 * 61 * 64 * 128
    # short contexts: every token is selected, and the indexer's keys come on top
    assert v32.decode_attention(64, 64 * 1000)[1] == 64 * 1000 * 61 * (1152 + 132)
    assert v32.decode_step_seconds(64, 1000) >= v3.decode_step_seconds(64, 1000)
    # long contexts: V3.2's step grows with the indexer's 132 bytes a token, V3's with 1,152
    assert v32.decode_step_seconds(64, 128_000) < v3.decode_step_seconds(64, 128_000) / 3
