"""SGLang's two ratios for hybrid models, set by the team (s20-sglang20, #28): ``--swa-full-tokens-ratio`` and
``--mamba-full-memory-ratio`` (advisor/sizing/sglang_hybrid.py).

Each expected figure below is SGLang's own arithmetic worked by hand, not this project's function:

- SWA (python/sglang/srt/model_executor/pool_configurator.py, commit 003fca8, ``HybridSWAPoolConfigurator``):
  ``_cell_size = _full_per_token * _full_layers_num + _swa_full_tokens_ratio * _swa_per_token * _swa_layers_num``;
  ``max_total_num_tokens = int(available_bytes // self._cell_size)``; ``full_tokens = align_page_size(
  max_total_num_tokens)``; ``swa_tokens = align_page_size(int(full_tokens * self._swa_full_tokens_ratio))``, with
  ``_full_per_token = get_num_kv_heads(tp) * (head_dim + v_head_dim) * kv_size`` (page size 1 by default).
- Linear attention (model_runner_kv_cache_mixin.py, commit 001ccef, ``handle_max_mamba_cache``):
  ``mamba_state_memory_raw = total_rest_memory * mamba_full_memory_ratio / (1 + mamba_full_memory_ratio)``;
  ``max_mamba_cache_size = int((mamba_state_memory_raw * (1 << 30)) // mamba_cache_per_req)``; the KV pool gets the
  rest, divided by the full-attention layers' cell (``profile_max_num_token``); ``init_memory`` caps running requests
  at ``max_mamba_cache_size // 3`` (radix cache on).

The rest memory both start from (``rest_memory``, our ``kv_budget_bytes``) is pinned elsewhere
(tests/core/test_sglang_kv_pool_logs.py); here it is the given, as the log's bytes are SGLang's given.
"""

from __future__ import annotations

import json
import math

import pytest
from pydantic import ValidationError

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import get_profile, resolve_engine
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.i18n import set_language
from advisor.sizing import size
from advisor.sizing.sglang_hybrid import MAMBA_FULL_MEMORY_RATIO, SWA_FULL_TOKENS_RATIO, swa_split
from advisor.validation import validation_message

H100 = "h100-sxm-80g"
BF16 = 2  # bytes of one K or V element (--kv-cache-dtype auto on a bf16 checkpoint)


def _request(model: str, gpus: int = 1, context: int = 32768, concurrency: int = 8, profile: str = "sglang",
             **ratios: float) -> SizingRequest:  # fmt: skip
    g = get_gpu(H100)
    engine = resolve_engine(None, get_profile(profile), g).model_copy(update=ratios)
    m = get_model(model)
    return SizingRequest(model=m, gpu=g, weights=m.weights_or_native(None), kv_dtype="bf16", context=context,
                         concurrency=concurrency, gpus=gpus, engine=engine, engine_profile=profile)  # fmt: skip


def test_gpt_oss_at_a_quarter_is_sglangs_split_worked_by_hand():
    """openai/gpt-oss-20b config.json: 24 layers alternating sliding_attention / full_attention (12 + 12),
    num_key_value_heads 8, head_dim 64, sliding_window 128. Every layer's K and V: 8 × (64 + 64) × 2 B = 2,048 B."""
    m = get_model("gpt-oss-20b")
    assert (m.layer_types.count("full"), m.layer_types.count("sliding"), m.num_kv_heads, m.head_dim) == (12, 12, 8, 64)
    per_token = 8 * (64 + 64) * BF16
    mem = size(_request("gpt-oss-20b", swa_full_tokens_ratio=0.25)).memory
    rest = mem.kv_budget_bytes
    full = int(rest // (per_token * 12 + 0.25 * per_token * 12))  # max_total_num_tokens, page size 1
    swa = int(full * 0.25)
    assert (mem.kv_tokens, mem.sglang_swa_tokens, mem.sglang_swa_full_tokens_ratio) == (full, swa, 0.25)
    # the full pool grows against the default split: 1.8 / 1.25 times the tokens, the window pool shrinks
    default = size(_request("gpt-oss-20b")).memory
    assert default.kv_budget_bytes == rest
    assert abs(mem.kv_tokens / default.kv_tokens - 1.8 / 1.25) < 1e-5
    assert mem.sglang_swa_tokens < default.sglang_swa_tokens
    # 32,768-token requests: the full pool holds them, each keeps its window and a page (129) in the other
    assert mem.max_concurrency_kv == min(full // 32768, swa // 129) > default.max_concurrency_kv


def test_llama_4_scout_weighs_the_ratio_by_its_three_chunked_layers_to_one_full():
    """meta-llama/Llama-4-Scout-17B-16E config.json: 48 layers, every 4th without RoPE is full attention (12), the
    other 36 chunked (SGLang's SWA layers, attention_chunk_size 8192); num_key_value_heads 8, head_dim 128. At TP 4
    each GPU holds 2 KV heads: 2 × (128 + 128) × 2 B = 1,024 B a layer and token."""
    m = get_model("llama-4-scout-17b-16e")
    assert (m.layer_types.count("full"), m.layer_types.count("chunked"), m.num_kv_heads, m.head_dim) == (12, 36, 8, 128)
    per_token = 8 // 4 * (128 + 128) * BF16
    mem = size(_request("llama-4-scout-17b-16e", gpus=4, context=65536, swa_full_tokens_ratio=0.5)).memory
    full = int(mem.kv_budget_bytes // (per_token * 12 + 0.5 * per_token * 36))
    assert (mem.kv_tokens, mem.sglang_swa_tokens) == (full, int(full * 0.5))
    assert mem.max_concurrency_kv == min(full // 65536, int(full * 0.5) // (8192 + 1))


def test_the_published_page_aligned_split_at_another_ratio():
    """sgl-project/sglang#18039's MiMo-V2-Flash run (--page-size 64) logged full_layer_tokens=375360 at 0.8: the same
    unaligned pool at 0.5 aligns the full pool alike and takes half of it, rounded down to a page."""
    full, swa = swa_split(375360 + 63, 0.5, 64)
    assert full == 375360 and swa == 375360 // 2 // 64 * 64 == 187648


def test_qwen3_next_at_half_is_sglangs_state_split_worked_by_hand():
    """Qwen/Qwen3-Next-80B-A3B-Instruct config.json: 48 layers, full_attention_interval 4 (12 full, 36 Gated
    DeltaNet), linear_num_key_heads 16, linear_key_head_dim 128, linear_num_value_heads 32, linear_value_head_dim 128,
    linear_conv_kernel_dim 4; num_key_value_heads 2, head_dim 256. At TP 4 (configs/qwen3_next.py mamba2_cache_params):
    conv (2·16·128 + 32·128) / 4 × (4 − 1) × 2 B (bf16) = 12,288 B and temporal 32/4 × 128 × 128 × 4 B (float32) =
    524,288 B a layer, × 36; a full-attention token: max(1, 2 // 4) head × (256 + 256) × 2 B × 12 layers."""
    m = get_model("qwen3-next-80b-a3b-instruct")
    assert (m.layer_types.count("full"), m.layer_types.count("linear"), m.linear_num_key_heads, m.linear_key_head_dim,
            m.linear_num_value_heads, m.linear_value_head_dim, m.linear_conv_kernel_dim, m.num_kv_heads, m.head_dim) \
        == (12, 36, 16, 128, 32, 128, 4, 2, 256)  # fmt: skip
    per_req = ((2 * 16 * 128 + 32 * 128) // 4 * 3 * 2 + 32 // 4 * 128 * 128 * 4) * 36
    cell = 1 * (256 + 256) * BF16 * 12
    mem = size(_request("qwen3-next-80b-a3b-instruct", gpus=4, mamba_full_memory_ratio=0.5)).memory
    rest = mem.kv_budget_bytes
    slots = int(rest * 0.5 / (1 + 0.5) // per_req)
    assert mem.sglang_state_bytes_per_request == per_req == 19_316_736
    assert (mem.sglang_state_slots, mem.sglang_mamba_full_memory_ratio) == (slots, 0.5)
    assert mem.kv_tokens == (rest - slots * per_req) // cell
    assert mem.sglang_running_cap == slots // 3
    assert mem.max_concurrency_kv == min(mem.kv_tokens // 32768, slots // 3)
    # a larger share for states: more slots, fewer tokens
    more = size(_request("qwen3-next-80b-a3b-instruct", gpus=4, mamba_full_memory_ratio=2.0)).memory
    assert more.sglang_state_slots > slots and more.kv_tokens < mem.kv_tokens


@pytest.mark.parametrize("model, gpus, field, default", [
    ("gpt-oss-20b", 1, "swa_full_tokens_ratio", SWA_FULL_TOKENS_RATIO),
    ("llama-4-scout-17b-16e", 4, "swa_full_tokens_ratio", SWA_FULL_TOKENS_RATIO),
    ("qwen3-next-80b-a3b-instruct", 4, "mamba_full_memory_ratio", MAMBA_FULL_MEMORY_RATIO),
])  # fmt: skip
def test_sglangs_default_set_or_unset_gives_the_same_sizing_and_no_flag(model, gpus, field, default):
    unset = size(_request(model, gpus=gpus))
    named = size(_request(model, gpus=gpus, **{field: default}))
    assert unset.memory == named.memory and unset.sglang_command == named.sglang_command
    assert "ratio" not in (unset.sglang_command or "")
    reported = unset.memory.sglang_swa_full_tokens_ratio if field.startswith("swa") else unset.memory.sglang_mamba_full_memory_ratio
    assert reported == default


def test_a_ratio_the_model_does_not_read_changes_nothing():
    """The SWA ratio on a linear-attention model, the state ratio on a sliding-window one, either on vLLM or on a plain
    model: same figures, no flag in the launch line."""
    for model, gpus, ratio in (("qwen3-next-80b-a3b-instruct", 4, {"swa_full_tokens_ratio": 0.3}),
                               ("gpt-oss-20b", 1, {"mamba_full_memory_ratio": 3.0}),
                               ("qwen2.5-7b-instruct", 1, {"swa_full_tokens_ratio": 0.3, "mamba_full_memory_ratio": 3.0})):  # fmt: skip
        plain, set_ = size(_request(model, gpus=gpus)), size(_request(model, gpus=gpus, **ratio))
        assert plain.memory == set_.memory and plain.sglang_command == set_.sglang_command
    vllm = size(_request("gpt-oss-20b", profile="vllm")).memory
    assert size(_request("gpt-oss-20b", profile="vllm", swa_full_tokens_ratio=0.2)).memory == vllm


def test_a_window_pool_too_small_for_one_request_holds_none():
    """SGLang refuses to start when the SWA pool cannot hold sliding_window_size + page_size tokens
    (_solve_pool_sizes: "Increase --swa-full-tokens-ratio"): no request fits."""
    mem = size(_request("gpt-oss-20b", swa_full_tokens_ratio=1e-6)).memory
    assert mem.sglang_swa_tokens is not None and mem.sglang_swa_tokens < 128 + 1
    assert mem.max_concurrency_kv == 0 and not mem.fits


def test_the_launch_line_and_the_note_carry_a_set_ratio():
    swa = size(_request("gpt-oss-20b", swa_full_tokens_ratio=0.25), "en")
    assert swa.sglang_command and swa.sglang_command.endswith("--swa-full-tokens-ratio 0.25")
    assert swa.kv_pool_note and "--swa-full-tokens-ratio 0.25" in swa.kv_pool_note
    state = size(_request("qwen3-next-80b-a3b-instruct", gpus=4, mamba_full_memory_ratio=1.5), "zh_CN")
    assert state.sglang_command and "--mamba-full-memory-ratio 1.5" in state.sglang_command
    assert state.kv_pool_note and "--mamba-full-memory-ratio 1.5" in state.kv_pool_note


@pytest.mark.parametrize("field, good, bad", [
    ("swa_full_tokens_ratio", (1e-3, 0.5, 1.0), (0.0, -0.2, 1.01, math.nan, math.inf)),
    ("mamba_full_memory_ratio", (1e-3, 0.9, 5.0, 40.0), (0.0, -1.0, math.nan, math.inf)),
])  # fmt: skip
def test_the_range_sglang_accepts_is_said_by_field_in_both_languages(field, good, bad):
    for v in good:
        assert getattr(EngineSettings(**{field: v}), field) == v
    flag = "--" + field.replace("_", "-")
    try:
        for lang, word in (("en", "above 0"), ("zh_CN", "大于 0")):
            set_language(lang)
            for v in bad:
                with pytest.raises(ValidationError) as err:
                    EngineSettings(**{field: v})
                text = validation_message(err.value)
                assert text.startswith(field) and flag in text and word in text and str(v) in text
    finally:
        set_language("en")


def test_calc_takes_both_ratios_and_json_carries_them(capsys):
    from advisor.cli import main

    base = ["calc", "--gpu", H100, "--engine-profile", "sglang", "--context", "32768", "--concurrency", "8", "--json"]
    assert main([*base, "--model", "gpt-oss-20b", "--swa-full-tokens-ratio", "0.4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"]["swa_full_tokens_ratio"] == 0.4 and out["memory"]["sglang_swa_full_tokens_ratio"] == 0.4
    assert out["memory"]["sglang_swa_tokens"] == int(out["kv_tokens"] * 0.4)
    assert "--swa-full-tokens-ratio 0.4" in out["sglang_command"]
    assert main([*base, "--model", "qwen3-next-80b-a3b-instruct", "--gpus", "4", "--mamba-full-memory-ratio", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"]["mamba_full_memory_ratio"] == 2.0 and out["memory"]["sglang_mamba_full_memory_ratio"] == 2.0
    assert "--mamba-full-memory-ratio 2" in out["sglang_command"]
    # unset: SGLang's own, reported as the split used, not as the team's choice
    assert main([*base, "--model", "gpt-oss-20b"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"]["swa_full_tokens_ratio"] is None and out["memory"]["sglang_swa_full_tokens_ratio"] == 0.8
    # out of range: refused with the field's own sentence
    assert main([*base, "--model", "gpt-oss-20b", "--swa-full-tokens-ratio", "2"]) == 2
    assert "--swa-full-tokens-ratio must be above 0 and at most 1" in capsys.readouterr().err
