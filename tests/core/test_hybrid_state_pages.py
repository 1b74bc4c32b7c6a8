"""How many state pages vLLM holds per request for a hybrid (linear-attention) model, as its logs show.

vLLM's MambaSpec.max_memory_usage_bytes (vllm/v1/kv_cache_interface.py, commit 001cabc) is one page per layer group in
mamba_cache_mode "none" and ``2 + num_speculative_blocks`` in "align"; vllm/config/cache.py (commit 002f10e) documents
"align" as "the default when prefix caching is enabled". Prefix caching stays opt-in for hybrid models ("experimental,
opt-in", vllm-project/vllm PR #46778), so a default server holds one page and a server started with
--enable-prefix-caching two. "Maximum concurrency for N tokens per request" is the pool's pages over one request's:
its context's attention pages plus the state pages of each linear-attention group.

"Code-index id" is the id of a public GitHub file in the project's code search, where the quoted log is.
"""

from __future__ import annotations

import json

from advisor.catalog import get_model
from advisor.domain.sizing import EngineSettings
from advisor.sizing.memory import estimate_memory, kv_layout, weight_bytes
from advisor.sizing.quant import get_format

GIB = 1024**3


def _memory(preset_id: str, kv_dtype: str, context: int, kv_budget: int, mode: str):
    spec = get_model(preset_id)
    weights = weight_bytes(spec, get_format("bf16")).per_gpu
    engine = EngineSettings(max_num_batched_tokens=4096, max_num_seqs=8, gpu_memory_utilization=1.0, non_torch_bytes=0,
                            activation_bytes=0, cuda_graph_bytes=0, mamba_cache_mode=mode)  # fmt: skip
    return estimate_memory(spec, get_format("bf16"), kv_dtype, context, 1, weights + kv_budget, 1, engine)


def _pages_per_request(mem) -> int:
    return mem.kv_bytes_per_request // (mem.kv_bytes_per_token * mem.block_size)


def test_prefix_caching_on_holds_two_state_pages_per_group_as_vllm_0_16_logs():
    """vLLM 0.16.1rc1, Qwen3.5-9B, FP8 KV cache, TP 1, --enable-prefix-caching (code-index id 54355267735): "Mamba cache
    mode is set to 'align' for Qwen3_5ForConditionalGeneration by default when prefix caching is enabled", "Available
    KV cache memory: 2.43 GiB", "GPU KV cache size: 39,072 tokens", "Maximum concurrency for 16,384 tokens per request:
    6.82x": 150 pages over 16 attention pages + 3 DeltaNet groups × 2 = 22."""
    mem = _memory("qwen3.5-9b", "fp8", 16_384, int(2.43 * GIB), "align")
    assert (mem.block_size, mem.kv_blocks, mem.kv_tokens) == (1056, 150, 39_072)
    assert _pages_per_request(mem) == 16 + 3 * 2
    assert round(mem.kv_blocks / _pages_per_request(mem), 2) == 6.82
    assert mem.max_concurrency_kv == 6
    # the same server without prefix caching would have held one page per group: 150 / 19
    none = _memory("qwen3.5-9b", "fp8", 16_384, int(2.43 * GIB), "none")
    assert _pages_per_request(none) == 19 and none.max_concurrency_kv == 7


def test_a_default_server_holds_one_state_page_per_group_as_vllm_0_19_logs():
    """vLLM 0.19.0 on an H20, `vllm serve Qwen3.5-27B --max-model-len 32768 --max-num-seqs 16 --max-num-batched-token
    16384` (no prefix-caching flag; vllm-project/vllm issue #40691): "GPU KV cache size: 290,864 tokens", "Maximum
    concurrency for 32,768 tokens per request: 33.04x". 290,864 = 1,487 pages // 4 groups × 784 tokens, and 1,487 / 33.04
    is 45 pages a request: 42 attention pages of 784 tokens and one per DeltaNet group (48 would be 30.98x)."""
    layout = kv_layout(get_model("qwen3.5-27b"), "bf16", 1)
    page = layout.per_token_bytes * layout.block_tokens(16)
    mem = _memory("qwen3.5-27b", "bf16", 32_768, 1_487 * page, "none")
    assert (mem.block_size, mem.kv_blocks, mem.kv_tokens) == (784, 1_487, 290_864)
    assert _pages_per_request(mem) == 42 + 3
    assert round(mem.kv_blocks / _pages_per_request(mem), 2) == 33.04
    align = _memory("qwen3.5-27b", "bf16", 32_768, 1_487 * page, "align")
    assert round(align.kv_blocks / _pages_per_request(align), 2) == 30.98


def test_calc_takes_the_mode_and_says_so_in_the_kv_line(capsys):
    from advisor.cli import main

    def run(*extra: str) -> dict:
        # in-process: the command's JSON is what is checked (an interpreter start was ~0.7 s of CPU a run)
        code = main(["calc", "--model", "qwen3-next-80b-a3b-instruct", "--gpu", "h200-141g", "--gpus", "2",
                     "--context", "32768", "--json", *extra])  # fmt: skip
        out = capsys.readouterr()
        assert code == 0, out.err
        return json.loads(out.out)

    plain, aligned = run(), run("--mamba-cache-mode", "align")
    assert "--enable-prefix-caching" in aligned["vllm_command"] and "--enable-prefix-caching" not in plain["vllm_command"]
    plain, align = plain["memory"], aligned["memory"]
    page = align["kv_bytes_per_token"] * align["block_size"]
    assert align["kv_bytes_per_request"] - plain["kv_bytes_per_request"] == 3 * page  # 36 DeltaNet layers, 3 groups
    kv_line = next(b["formula"] for b in align["breakdown"] if b["key"] == "kv_cache")
    assert "2 ('align' mode)" in kv_line
