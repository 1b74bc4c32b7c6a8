"""Sliding-window layers reserve what vLLM's SlidingWindowSpec reserves, not just the window."""

from math import ceil

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size
from advisor.sizing.memory import kv_layout

GEMMA2 = get_model("gemma-2-9b-it")  # 42 layers, every other one windowed (4096 tokens)


def _expected(model, context, chunk, block=16):
    layout = kv_layout(model, "bf16", 1)
    full = ceil(context / block) * block
    # vLLM: (cdiv(min(window - 1 + max_num_batched_tokens, max_model_len), block_size) + 1) blocks per windowed layer
    window = (ceil(min(model.sliding_window - 1 + chunk, context) / block) + 1) * block
    return layout.per_layer_token_bytes * (layout.full_layers * full + layout.sliding_layers * window)


def test_windowed_layers_keep_window_minus_one_plus_the_chunk():
    for context, chunk in ((8192, 8192), (8192, 2048), (4096, 512), (100, 8192)):
        engine = EngineSettings(max_num_batched_tokens=chunk)
        r = size(SizingRequest(model=GEMMA2, gpu=get_gpu("h100-sxm-80g"), context=context, engine=engine))
        assert r.memory.sliding_window_layers == 21
        assert r.memory.kv_bytes_per_request == _expected(GEMMA2, context, chunk), (context, chunk)


def test_a_small_chunk_lets_the_window_save_memory_a_large_one_does_not():
    gpu = get_gpu("h100-sxm-80g")
    small = size(SizingRequest(model=GEMMA2, gpu=gpu, context=8192, engine=EngineSettings(max_num_batched_tokens=512)))
    large = size(SizingRequest(model=GEMMA2, gpu=gpu, context=8192, engine=EngineSettings(max_num_batched_tokens=8192)))
    assert small.memory.kv_bytes_per_request < large.memory.kv_bytes_per_request
    # with an 8192-token budget the window layers hold the whole 8k context (+1 block): no saving at 8k
    assert large.memory.kv_bytes_per_request > large.memory.kv_bytes_per_request_all_full


def test_mistral_7b_v01_reserves_window_minus_one_plus_chunk_not_the_window():
    # mistralai/Mistral-7B-v0.1 config.json: every layer windowed (4096) under a 32k context
    from advisor.model_import import model_from_config

    cfg = {
        "architectures": ["MistralForCausalLM"], "model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000,
        "max_position_embeddings": 32768, "sliding_window": 4096, "rope_theta": 10000.0, "rms_norm_eps": 1e-5,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16", "hidden_act": "silu",
    }  # fmt: skip
    model = model_from_config(cfg, model_id="mistral-7b-v0.1")
    r = size(SizingRequest(model=model, gpu=get_gpu("h100-sxm-80g"), context=32768), "en")
    per_token_layer = 2 * 8 * 128 * 2
    assert r.memory.kv_bytes_per_request == 32 * per_token_layer * (ceil((4095 + 8192) / 16) + 1) * 16  # 769 blocks
    # the old rule (window + 1 block = 257 blocks) was 3x too small
    assert r.memory.kv_bytes_per_request > 2.9 * 32 * per_token_layer * (4096 + 16)
