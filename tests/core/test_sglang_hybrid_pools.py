"""SGLang's pools for sliding-window and linear-attention models (advisor/sizing/sglang_hybrid.py), pinned to the
engine's own arithmetic.

The formulas, as SGLang's code writes them (sgl-project/sglang):

- Sliding window, python/sglang/srt/model_executor/pool_configurator.py, ``HybridSWAPoolConfigurator``:
  ``self._cell_size = self._full_per_token * self._full_layers_num + self._swa_full_tokens_ratio *
  self._swa_per_token * self._swa_layers_num``; ``calculate_pool_sizes``: ``max_total_num_tokens =
  int(available_bytes // self._cell_size)``; ``_solve_pool_sizes``: ``full_tokens = align_page_size(max_total_num_tokens)``,
  ``swa_tokens = align_page_size(int(full_tokens * self._swa_full_tokens_ratio))``.
  The older model_runner.py (``set_num_token_hybrid``) reached it through all layers:
  ``total_tokens = self.max_total_num_tokens * self.model_config.num_hidden_layers``,
  ``denominator = swa_full_tokens_ratio * swa_layers_num + full_layers_num``,
  ``self.full_max_total_num_tokens = int(total_tokens / denominator)``.
  server_args.py: ``swa_full_tokens_ratio: float = 0.8``; model_config.py ``is_hybrid_swa_model``: Llama4, GptOss,
  MiMoV2Flash, Step3p5 (and Gemma4 later), not Gemma 2/3.
- Linear attention, python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py (commit 001ccef),
  ``handle_max_mamba_cache``: ``mamba_state_memory_raw = total_rest_memory * server_args.mamba_full_memory_ratio /
  (1 + server_args.mamba_full_memory_ratio)``, ``max_mamba_cache_size = int((mamba_state_memory_raw * (1 << 30)) //
  config.mamba2_cache_params.mamba_cache_per_req)``, returning ``total_rest_memory - mamba_state_memory``;
  ``profile_max_num_token`` counts only ``full_attention_layer_ids`` in ``cell_size``; ``init_memory``:
  ``max_num_reqs = min(max_num_reqs, self.server_args.max_mamba_cache_size // ratio)`` with
  ``MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = 3``. Qwen3-Next's ``mamba_cache_per_req`` (configs/qwen3_next.py):
  conv state ``(conv_dim / tp, linear_conv_kernel_dim - 1)`` in bfloat16, temporal state ``(linear_num_value_heads / tp,
  linear_key_head_dim, linear_value_head_dim)`` in float32, times the linear layers.

A published log: sgl-project/sglang#18039 (MiMo-V2-Flash, TP 4, --page-size 64, ratio 0.8): "Use sliding window
memory pool. full_layer_tokens=375360, swa_layer_tokens=300288". No published gpt-oss or Gemma 3 line with the split
was found; Gemma-3-4B's all-layer pool (sgl-project/sglang#4826) is pinned in test_sglang_kv_pool_logs.py.
"""

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import get_profile, resolve_engine
from advisor.domain.sizing import SizingRequest, SpeedFactors
from advisor.sizing import size
from advisor.sizing.memory import kv_layout
from advisor.sizing.sglang_hybrid import state_bytes_per_request, state_pool, swa_pool, swa_split

H100 = "h100-sxm-80g"


def _request(model: str, profile: str = "sglang", gpus: int = 1, context: int = 32768, concurrency: int = 8,
             version: str | None = None, gpu: str = H100) -> SizingRequest:  # fmt: skip
    g = get_gpu(gpu)
    factors = SpeedFactors(engine_version=version) if version else SpeedFactors()
    return SizingRequest(model=get_model(model), gpu=g, weights=get_model(model).weights_or_native(None), kv_dtype="bf16",
                         context=context, concurrency=concurrency, gpus=gpus, factors=factors,
                         engine=resolve_engine(None, get_profile(profile), g), engine_profile=profile)  # fmt: skip


def test_the_split_matches_the_published_mimo_v2_flash_line():
    """SGLang aligns the full pool to the page, takes the ratio of it and aligns again (#18039's log, page 64)."""
    assert swa_split(375360 + 63, 0.8, 64) == (375360, 300288)


def test_the_swa_pool_is_the_source_formula_and_agrees_with_the_older_all_layer_one():
    """gpt-oss-20b on one H100: the configurator's cell (F·n_f + r·S·n_s) and the older model runner's route (tokens of
    all layers shared out by r·n_s + n_f) give the same full pool, to the older route's own rounding."""
    m = get_model("gpt-oss-20b")
    layout = kv_layout(m, "bf16", 1)
    rest = 56_634_043_782
    pool = swa_pool(rest, layout.per_layer_token_bytes * layout.full_layers, layout.per_layer_token_bytes * layout.sliding_layers, 128)
    assert pool.full_tokens == int(rest // (2048 * 12 + 0.8 * 2048 * 12))
    older_max_total = rest // (2048 * 24)  # profile_max_num_token over all 24 layers
    older_full = int(older_max_total * 24 / (0.8 * 12 + 12))
    assert abs(pool.full_tokens - older_full) <= 2
    assert pool.swa_tokens == int(pool.full_tokens * 0.8)
    # both pools together use no more than the rest, and less than one token of each short
    used = pool.full_tokens * 2048 * 12 + pool.swa_tokens * 2048 * 12
    assert rest - 2 * 2048 * 24 < used <= rest


def test_gpt_oss_on_sglang_gets_two_pools_and_the_concurrency_they_allow():
    mem = size(_request("gpt-oss-20b"), "en").memory
    layout = kv_layout(get_model("gpt-oss-20b"), "bf16", 1)
    assert mem.sglang_pool_kind == "swa" and mem.sglang_swa_full_tokens_ratio == 0.8
    assert mem.kv_tokens > mem.kv_budget_bytes // layout.per_token_bytes  # more than if every layer held every token
    assert mem.sglang_swa_tokens == int(mem.kv_tokens * 0.8)
    # a request holds its 32,768 tokens in the full pool and its window plus a page (129) in the SWA pool
    assert mem.max_concurrency_kv == min(mem.kv_tokens // 32768, mem.sglang_swa_tokens // 129)
    assert mem.fits == (8 <= mem.max_concurrency_kv)
    # vLLM, whose windowed layers take blocks from one pool, counts otherwise: the SGLang figures are SGLang's own
    vllm = size(_request("gpt-oss-20b", "vllm")).memory
    assert vllm.sglang_pool_kind is None and vllm.sglang_swa_tokens is None


def test_concurrency_falls_with_the_context_and_the_window_bounds_short_requests():
    short = size(_request("gpt-oss-20b", context=64)).memory
    long = size(_request("gpt-oss-20b", context=65536)).memory
    assert long.max_concurrency_kv < size(_request("gpt-oss-20b", context=16384)).memory.max_concurrency_kv
    # a 64-token request holds 64 SWA tokens, not the window's 129
    assert short.max_concurrency_kv == min(short.kv_tokens // 64, short.sglang_swa_tokens // 64)


@pytest.mark.parametrize("version, kind", [("0.5.2", "swa_off"), ("0.5.9", "swa"), (None, "swa")])
def test_gpt_oss_before_0_5_9_keeps_every_layer_full(version, kind):
    mem = size(_request("gpt-oss-20b", version=version)).memory
    assert mem.sglang_pool_kind == kind
    if kind == "swa_off":
        per_token = kv_layout(get_model("gpt-oss-20b"), "bf16", 1).per_token_bytes
        assert mem.kv_tokens == mem.kv_budget_bytes // per_token
        assert mem.max_concurrency_kv <= mem.kv_tokens // 32768


def test_gemma_3_on_sglang_keeps_the_whole_context_in_every_layer():
    """SGLang gives Gemma 3's sliding-window layers no pool (not in is_hybrid_swa_model): no window saving, unlike vLLM."""
    req = _request("gemma-3-4b-it", context=16384, concurrency=4)
    mem = size(req).memory
    assert mem.sglang_pool_kind == "swa_off"
    assert mem.kv_tokens == mem.kv_budget_bytes // kv_layout(req.model, "bf16", 1).per_token_bytes
    assert mem.max_concurrency_kv <= mem.kv_tokens // 16384
    assert mem.kv_bytes_per_request == mem.kv_bytes_per_request_all_full


def test_the_window_saving_is_offered_only_where_the_engine_windows():
    """Two KV sizes per request ("keeps only the window" / "every layer full") mean something only where the engine
    windows: on vLLM Gemma 3's sliding layers hold their window; on SGLang they keep everything, so its pool note
    speaks and the two-figure line (both figures equal) would suggest a saving the engine does not make."""
    def window_lines(profile: str) -> list[str]:
        res = size(_request("gemma-3-27b-it", profile=profile, context=16384, concurrency=4), "en")
        return [a.text for a in res.advice if "sliding window" in a.text]

    assert len(window_lines("vllm")) == 1
    assert window_lines("sglang") == []


def test_llama_4_chunked_layers_are_the_swa_layers_with_the_chunk_as_window():
    mem = size(_request("llama-4-scout-17b-16e", gpus=4, context=65536)).memory
    layout = kv_layout(get_model("llama-4-scout-17b-16e"), "bf16", 4)
    assert mem.sglang_pool_kind == "swa" and layout.chunked_layers == 36 and layout.full_layers == 12
    assert mem.max_concurrency_kv == min(mem.kv_tokens // 65536, mem.sglang_swa_tokens // (8192 + 1))


def test_the_state_pool_is_the_source_formula_for_qwen3_next():
    m = get_model("qwen3-next-80b-a3b-instruct")
    tp = 4
    conv_dim = 2 * m.linear_num_key_heads * m.linear_key_head_dim + m.linear_num_value_heads * m.linear_value_head_dim
    per_layer = conv_dim // tp * (m.linear_conv_kernel_dim - 1) * 2 + m.linear_num_value_heads // tp * m.linear_key_head_dim * m.linear_value_head_dim * 4
    assert state_bytes_per_request(m, tp) == per_layer * m.num_linear_layers
    mem = size(_request("qwen3-next-80b-a3b-instruct", gpus=tp)).memory
    assert mem.sglang_pool_kind == "state"
    rest = mem.kv_budget_bytes
    slots = int(rest * 0.9 / 1.9 // mem.sglang_state_bytes_per_request)
    assert mem.sglang_state_slots == slots and mem.sglang_running_cap == slots // 3
    cell = kv_layout(m, "bf16", tp).per_layer_token_bytes * kv_layout(m, "bf16", tp).full_layers
    assert mem.kv_tokens == (rest - slots * mem.sglang_state_bytes_per_request) // cell
    assert mem.max_concurrency_kv == min(mem.kv_tokens // 32768, slots // 3)


def test_a_larger_state_share_holds_more_states_and_fewer_tokens():
    small, large = state_pool(10 * 2**30, 20_000_000, 0.5), state_pool(10 * 2**30, 20_000_000, 2.0)
    assert large.slots > small.slots and large.kv_rest_bytes < small.kv_rest_bytes
    assert small.slots * 20_000_000 + small.kv_rest_bytes == 10 * 2**30


def test_a_linear_state_not_modelled_says_so():
    req = _request("qwen3-next-80b-a3b-instruct", gpus=4)
    odd = req.model_copy(update={"model": req.model.model_copy(update={"linear_num_value_heads": 0})})
    res = size(odd, "en")
    assert res.memory.sglang_pool_kind == "state_unmodelled" and res.memory.sglang_state_slots is None
    assert res.kv_pool_note and "not modelled for SGLang" in res.kv_pool_note


def test_the_split_is_said_in_both_languages():
    req = _request("gpt-oss-20b")
    en, zh = size(req, "en"), size(req, "zh_CN")
    mem = en.memory
    for note in (en.kv_pool_note, zh.kv_pool_note):
        assert note and f"{mem.kv_tokens:,}" in note and f"{mem.sglang_swa_tokens:,}" in note
        assert f"{mem.max_concurrency_kv:,}" in note and "--swa-full-tokens-ratio 0.8" in note
    assert "requests fit" in en.kv_pool_note and "requests" not in zh.kv_pool_note
    state = size(_request("qwen3-next-80b-a3b-instruct", gpus=4), "zh_CN")
    assert state.kv_pool_note and f"{state.memory.sglang_state_slots:,}" in state.kv_pool_note


def test_calc_json_carries_both_pools(capsys):
    from advisor.cli import main

    assert main(["calc", "--model", "gpt-oss-20b", "--gpu", H100, "--engine-profile", "sglang", "--context", "32768",
                 "--concurrency", "8", "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    mem = out["memory"]
    assert mem["sglang_pool_kind"] == "swa" and mem["sglang_swa_tokens"] == int(mem["kv_tokens"] * 0.8)
    assert out["max_concurrency"] == min(mem["max_concurrency_kv"], out["engine"]["max_num_seqs"])
    assert f"{mem['sglang_swa_tokens']:,}" in out["kv_pool_note"]
