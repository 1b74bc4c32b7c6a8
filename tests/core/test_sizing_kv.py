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


# ----------------------------------------------------------------------------- shared prefix (prefix caching)
# vLLM V1 shares a prefix's *full* blocks (block hashes over block_size tokens; BlockPool.touch bumps ref_cnt);
# the partial last block is each request's own, and a request always computes its last prompt token
# (max_cache_hit_length = num_tokens - 1). Llama-3.1-8B: 131,072 B per token, 16-token blocks.
LLAMA_TOKEN = 2 * 32 * 8 * 128 * 2


def _sized(name: str = "llama-3.1-8b-instruct", gpu: str = "h100-sxm-80g", **kw):
    from advisor.catalog import get_gpu
    from advisor.domain.sizing import SizingRequest
    from advisor.sizing import size

    fields = {"context": 1000, "concurrency": 3, **kw}
    return size(SizingRequest(model=_model(name), gpu=get_gpu(gpu), **fields))


def test_shared_prefix_full_blocks_stored_once():
    plain = _sized().memory
    shared = _sized(shared_prefix_tokens=500).memory
    # 1000 tokens = 63 blocks; 500 prefix tokens = 31 whole blocks (496 tokens) + 4 tokens in a partial block
    assert plain.kv_cache_bytes == 3 * 63 * 16 * LLAMA_TOKEN
    assert shared.shared_prefix_blocks == 31
    assert shared.kv_bytes_shared_prefix == 31 * 16 * LLAMA_TOKEN
    assert shared.kv_bytes_per_request == (63 - 31) * 16 * LLAMA_TOKEN  # what each request adds
    assert shared.kv_bytes_per_request_unshared == plain.kv_bytes_per_request == 63 * 16 * LLAMA_TOKEN
    assert shared.kv_cache_bytes == (3 * 32 + 31) * 16 * LLAMA_TOKEN
    assert shared.kv_blocks == plain.kv_blocks  # the pool is the same size; it is used more thriftily
    assert plain.max_concurrency_kv == plain.kv_blocks // 63
    assert shared.max_concurrency_kv == (shared.kv_blocks - 31) // 32
    # longest context for 3 requests: 3 × (b − 31) + 31 ≤ kv_blocks
    assert shared.max_context == min(((shared.kv_blocks - 31) // 3 + 31) * 16, _model("llama-3.1-8b-instruct").max_context)
    assert shared.total_bytes - plain.total_bytes == shared.kv_cache_bytes - plain.kv_cache_bytes


@pytest.mark.parametrize(
    ("prefix", "block", "blocks"),
    [(0, 16, 0), (15, 16, 0), (16, 16, 1), (31, 16, 1), (32, 16, 2), (500, 16, 31), (63, 32, 1), (64, 32, 2)],
)
def test_shared_prefix_counts_whole_blocks_only(prefix, block, blocks):
    from advisor.domain.sizing import EngineSettings

    mem = _sized(shared_prefix_tokens=prefix, engine=EngineSettings(block_size=block)).memory
    per_request = -(-1000 // block)
    assert mem.shared_prefix_blocks == blocks
    assert mem.kv_cache_bytes == (3 * (per_request - blocks) + blocks) * block * LLAMA_TOKEN


def test_prefix_as_long_as_the_context_leaves_each_request_its_last_block():
    from advisor.catalog import get_gpu
    from advisor.domain.sizing import EngineSettings
    from advisor.sizing.memory import estimate_memory
    from advisor.sizing.quant import get_format

    m, engine = _model("llama-3.1-8b-instruct"), EngineSettings(max_num_batched_tokens=8192, max_num_seqs=256)
    gpu = get_gpu("h100-sxm-80g").effective_memory_bytes
    mem = estimate_memory(m, get_format("bf16"), "bf16", 1024, 4, gpu, 1, engine, shared_prefix_tokens=1024)
    assert mem.shared_prefix_blocks == 63  # min(1024, 1024 − 1) // 16: the last token is always computed
    assert mem.kv_bytes_per_request == 1 * 16 * LLAMA_TOKEN
    off = estimate_memory(m, get_format("bf16"), "bf16", 1024, 4, gpu, 1, engine, shared_prefix_tokens=1024, prefix_caching=False)
    assert off.shared_prefix_blocks == 0 and off.kv_cache_bytes == 4 * 64 * 16 * LLAMA_TOKEN


def test_shared_prefix_agrees_with_the_predictor_and_cuts_prefill():
    from advisor.sim.engine import EngineLimits

    plain, shared = _sized(prompt_tokens=800), _sized(prompt_tokens=800, shared_prefix_tokens=500)
    limits = EngineLimits(kv_blocks=shared.memory.kv_blocks, shared_prefix_tokens=500)  # what `advisor predict` uses
    assert limits.cached_prefix_blocks == shared.memory.shared_prefix_blocks == 31
    assert plain.perf.cached_prompt_tokens == 0 and shared.perf.cached_prompt_tokens == 496
    assert shared.perf.prefill_ms.value < plain.perf.prefill_ms.value
    assert shared.shared_prefix_note and "496" in shared.shared_prefix_note and plain.shared_prefix_note is None


def test_engines_that_do_not_share_the_prefix_count_it_per_request():
    plain = _sized().memory
    trt = _sized(shared_prefix_tokens=500, engine_profile="trtllm")  # prefix caching off by default in the profile
    assert trt.memory.shared_prefix_blocks == 0 and trt.memory.kv_cache_bytes == plain.kv_cache_bytes
    assert trt.perf.cached_prompt_tokens == 0 and "off" in (trt.shared_prefix_note or "")
    gguf = _sized(shared_prefix_tokens=500, weights="gguf-q4_k_m")  # llama.cpp slots keep their own cells
    assert gguf.memory.shared_prefix_blocks == 0 and gguf.memory.kv_bytes_shared_prefix == 0


def test_sliding_window_layers_keep_their_own_window():
    """Gemma-2: only the full-attention layers' blocks of the prefix are counted as shared (conservative)."""
    m = _model("gemma-2-9b-it")
    layout = kv_layout(m, "bf16", 1)
    assert layout.sliding_layers and layout.full_layers
    mem = _sized("gemma-2-9b-it", context=8192, concurrency=2, shared_prefix_tokens=1000).memory
    assert mem.shared_prefix_blocks == 62
    assert mem.kv_bytes_shared_prefix == 62 * 16 * layout.per_layer_token_bytes * layout.full_layers
    plain = _sized("gemma-2-9b-it", context=8192, concurrency=2).memory
    assert mem.kv_bytes_per_request == plain.kv_bytes_per_request - mem.kv_bytes_shared_prefix


def test_prefix_longer_than_the_prompt_is_a_field_error():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="shared_prefix_tokens"):
        _sized(prompt_tokens=400, shared_prefix_tokens=401)


@pytest.mark.parametrize("name", ["llama-3.1-8b-instruct", "gemma-2-9b-it", "deepseek-v3", "qwen3-30b-a3b"])
def test_sharing_never_needs_more_memory_or_allows_fewer_requests(name):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from advisor.catalog import get_gpu
    from advisor.domain.sizing import EngineSettings
    from advisor.sizing.memory import estimate_memory
    from advisor.sizing.quant import get_format

    m, gpu = _model(name), get_gpu("h200-141g").effective_memory_bytes  # per GPU, 8 in tensor parallel
    fmt = get_format("fp8")

    @settings(max_examples=40, deadline=None)
    @given(context=st.integers(16, 65536), conc=st.integers(1, 64), share=st.floats(0, 1), block=st.sampled_from([16, 32]))
    def check(context, conc, share, block):
        engine = EngineSettings(block_size=block, max_num_batched_tokens=8192, max_num_seqs=256)
        prefix = int(share * context)
        plain = estimate_memory(m, fmt, "bf16", context, conc, gpu, 8, engine)
        shared = estimate_memory(m, fmt, "bf16", context, conc, gpu, 8, engine, shared_prefix_tokens=prefix)
        assert shared.kv_cache_bytes <= plain.kv_cache_bytes
        assert shared.max_concurrency_kv >= plain.max_concurrency_kv
        assert shared.max_context >= plain.max_context
        assert shared.fits >= plain.fits
        assert shared.kv_bytes_per_request > 0  # a request always holds at least its last block
        assert shared.shared_prefix_blocks == min(prefix, context - 1) // block

    check()


def test_a_shared_prefix_on_windowed_layers_never_costs_a_page_more():
    """The counterexample hypothesis found: Gemma-2's prefix covers only its full-attention layers, so rounding the
    prefix and each request's own part up to whole pages separately cost one page (1.4 MB) more than not sharing."""
    from advisor.catalog import get_gpu
    from advisor.domain.sizing import EngineSettings
    from advisor.sizing.memory import estimate_memory
    from advisor.sizing.quant import get_format

    m, gpu, fmt = _model("gemma-2-9b-it"), get_gpu("h200-141g").effective_memory_bytes, get_format("fp8")
    engine = EngineSettings(block_size=32, max_num_batched_tokens=8192, max_num_seqs=256)
    context = 17153
    plain = estimate_memory(m, fmt, "bf16", context, 1, gpu, 8, engine)
    shared = estimate_memory(m, fmt, "bf16", context, 1, gpu, 8, engine, shared_prefix_tokens=int(0.625 * context))
    assert shared.shared_prefix_blocks > 0
    assert shared.kv_cache_bytes <= plain.kv_cache_bytes
    assert shared.max_concurrency_kv >= plain.max_concurrency_kv
