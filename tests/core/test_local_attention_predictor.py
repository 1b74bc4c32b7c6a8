"""Local attention layers in the speed model (issue #28): a chunked layer reads at most its chunk, a sliding-window
layer at most its window, per decoding query, not the whole context.

Llama 4 (meta-llama/Llama-4-*, attention_chunk_size 8,192): three of every four layers attend within their
8,192-token chunk. vLLM builds that as local "virtual" batches (vllm/v1/attention/backends/utils.py,
make_local_attention_virtual_batches: each query's seqlens_k_local is at most attn_chunk_size), as transformers'
Llama 4 chunked attention mask does; FlashAttention's window_size skips the key blocks left of a sliding window
(Gemma 3's 1,024-token window, gpt-oss's 128).
"""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import SizingRequest
from advisor.sizing import estimate_perf, with_engine_defaults
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import StepCostModel


def _all_global(spec: ModelSpec) -> ModelSpec:
    """The same model with every layer attending to the whole context (what the predictor assumed before)."""
    return spec.model_copy(update={"layer_types": tuple("full" for _ in spec.layer_types), "attention_chunk_size": None})


def test_scout_chunked_layers_are_read_up_to_their_chunk():
    scout = get_model("llama-4-scout-17b-16e")
    costs = StepCostModel.build(scout, "bf16", "bf16", get_gpu("h200-141g"), 2)
    per_layer_token = 2 * 4 * 128 * 2  # 8 KV heads over 2 GPUs, K and V, 128 wide, BF16
    assert costs.window_tokens == 8192
    assert costs.window_bytes_per_token == 36 * per_layer_token
    assert costs.kv_bytes_per_token == 48 * per_layer_token
    assert costs.window_flops_per_pair == 4.0 * 36 * 40 * 128
    # a short context is read whole; past the chunk, the 36 chunked layers read 8,192 tokens a sequence
    assert costs.decode_attention(8, 8 * 4000)[1] == 8 * 4000 * 48 * per_layer_token
    flops, read = costs.decode_attention(8, 8 * 100_000)
    assert read == 8 * 100_000 * 12 * per_layer_token + 8 * 8192 * 36 * per_layer_token
    assert flops == 8 * 100_000 * 4.0 * 12 * 40 * 128 + 8 * 8192 * 4.0 * 36 * 40 * 128
    # a prompt chunk's queries meet at most 8,192 keys each in a chunked layer
    pairs = 8192 * 90_000 + 8192 * 8193 / 2
    assert costs.prefill_attention_flops(8192, pairs) == pairs * 4.0 * 12 * 40 * 128 + 8192 * 8192 * 4.0 * 36 * 40 * 128


def test_scout_tpot_at_100k_context_is_lower_than_with_global_attention_everywhere_by_the_chunked_reads():
    """8 users at a 100,000-token prompt: each decode step reads 36 layers × (100,250 − 8,192) tokens less KV per
    sequence than the same model attending globally everywhere; at decode the attention is bandwidth-bound, so the
    step is shorter by exactly those bytes over the achievable bandwidth."""
    scout, h200 = get_model("llama-4-scout-17b-16e"), get_gpu("h200-141g")
    fmt = get_format("bf16")

    def perf(spec: ModelSpec):
        req = SizingRequest(model=spec, gpu=h200, gpus=2, weights="bf16", kv_dtype="bf16", context=131_072,
                            concurrency=8, prompt_tokens=100_000, output_tokens=500)  # fmt: skip
        return estimate_perf(with_engine_defaults(req, fmt), fmt)

    chunked, everywhere = perf(scout), perf(_all_global(scout))
    costs = StepCostModel.build(scout, fmt, "bf16", h200, 2)
    avg_context = 100_000 + 500 / 2
    saved_bytes = 8 * (avg_context - 8192) * costs.window_bytes_per_token
    assert everywhere.decode_step_ms.value - chunked.decode_step_ms.value == pytest.approx(saved_bytes / costs.bytes_per_s * 1000, rel=1e-9)
    assert chunked.decode_step_ms.value < 0.75 * everywhere.decode_step_ms.value
    # the prompt's attention FLOPs drop too: the chunked layers' queries meet at most 8,192 keys
    assert chunked.prefill_ms.value < everywhere.prefill_ms.value
    # short prompts stay inside the first chunk: nothing changes
    short = SizingRequest(model=scout, gpu=h200, gpus=2, weights="bf16", kv_dtype="bf16", context=8192, concurrency=8,
                          prompt_tokens=2000, output_tokens=500)  # fmt: skip
    same = short.model_copy(update={"model": _all_global(scout)})
    assert estimate_perf(with_engine_defaults(short, fmt), fmt).decode_step_ms == estimate_perf(with_engine_defaults(same, fmt), fmt).decode_step_ms


def test_gemma3_sliding_layers_read_their_window():
    gemma = get_model("gemma-3-27b-it")
    costs = StepCostModel.build(gemma, "bf16", "bf16", get_gpu("h100-sxm-80g"), 1)
    sliding = sum(1 for t in gemma.layer_types if t == "sliding")
    assert (sliding, costs.window_tokens) == (52, 1024)
    per_layer_token = 2 * gemma.num_kv_heads * gemma.head_dim * 2
    assert costs.decode_attention(4, 4 * 32_000)[1] == 4 * 32_000 * 10 * per_layer_token + 4 * 1024 * 52 * per_layer_token


def test_models_without_local_layers_keep_reading_the_whole_context():
    qwen = StepCostModel.build(get_model("qwen2.5-14b-instruct"), "bf16", "bf16", get_gpu("h100-sxm-80g"), 1)
    assert qwen.window_tokens == 0
    assert qwen.decode_attention(8, 8 * 100_000) == (8 * 100_000 * qwen.attn_flops_per_pair, 8 * 100_000 * qwen.kv_bytes_per_token)
