"""Our figures against published ones: checkpoint element counts, vLLM start-up logs, GGUF file sizes.

The reference numbers live in tests/fixtures/reference/*.json with their sources and exact quotes; nothing
there is computed by this project.
"""

import json
from pathlib import Path

import pytest

from advisor.catalog import get_model
from advisor.domain.sizing import EngineSettings
from advisor.sizing.memory import estimate_memory, kv_layout, weight_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.tensors import param_counts

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
GIB = 1024**3
LOGS = json.loads((REF / "engine_logs.json").read_text())["entries"]
GGUF = json.loads((REF / "gguf_sizes.json").read_text())["entries"]

# Log entries of models whose tensor shapes equal one of our presets (same architecture, other weights).
SAME_SHAPES = {
    "meta-llama/Meta-Llama-3-8B": ("llama-3-8b-instruct", "bf16"),
    "neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8": ("llama-3.3-70b-instruct", "int8"),
    "Qwen/Qwen3-30B-A3B": ("qwen3-30b-a3b", "bf16"),
}
# Entries we do not hold ourselves to, and why.
NOT_COMPARABLE = {
    "Qwen/Qwen3-4B": "ROCm build on a unified-memory APU; its 0.19 GiB extra is not explained by the source",
}


def test_deepseek_v3_counts():
    c = param_counts(get_model("deepseek-v3"))
    assert c.checkpoint == 684_531_386_000  # safetensors total: 61 layers + MTP layer + fp32 block scales
    assert round(c.total / 1e9) == 671  # "671B total parameters" (DeepSeek-V3 report), MTP excluded
    assert round(c.active / 1e9) == 38  # ≈ "37B activated": our figure includes embeddings and the LM head


def _log_cases():
    for e in LOGS:
        if e["model"] in NOT_COMPARABLE:
            continue
        preset, fmt = SAME_SHAPES.get(e["model"], (e.get("preset_id"), "bf16"))
        if not preset:
            continue
        weights = e.get("weights_gib") or e.get("weights_gb_as_logged")  # vLLM printed GiB as "GB" until 2025
        if weights:
            yield pytest.param(preset, fmt, e["tp"], weights, id=f"{e['model']}-tp{e['tp']}")


@pytest.mark.parametrize(("preset", "fmt", "tp", "logged_gib"), list(_log_cases()))
def test_weight_memory_matches_vllm_log(preset, fmt, tp, logged_gib):
    ours = weight_bytes(get_model(preset), get_format(fmt), tp).per_gpu / GIB
    assert ours == pytest.approx(logged_gib, rel=0.01)


# What that log's vLLM (V0, Dec 2024) ran with: no chunked prefill below a 32k context, so max(max_model_len, 2048)
# = 8192 tokens a step, and 256 sequences
V0_DEFAULTS = EngineSettings(max_num_batched_tokens=8192, max_num_seqs=256)
V0_VERSION = "0.6.4"  # a V0 release: its profile step sampled inside the forward pass (advisor/sizing/vllm_profile.py)


def test_kv_budget_matches_vllm_log_for_llama3_8b():
    """total 79.22 GiB × 0.90 − weights − non-torch 1.79 − activations 1.26 → 'available_kv_cache_memory 53.29GiB'."""
    e = next(x for x in LOGS if x["model"] == "meta-llama/Meta-Llama-3-8B" and x["tp"] == 1)
    engine = V0_DEFAULTS.model_copy(update=dict(
        gpu_memory_utilization=e["gpu_memory_utilization"],
        non_torch_bytes=int(e["non_torch_gib"] * GIB),
        activation_bytes=int(e["activation_peak_gib"] * GIB),
    ))  # fmt: skip
    mem = estimate_memory(
        get_model("llama-3-8b-instruct"), get_format("bf16"), "bf16", 8192, 1, int(e["total_gpu_memory_gib"] * GIB), 1, engine,
        engine_version=V0_VERSION,
    )
    assert mem.kv_budget_bytes / GIB == pytest.approx(e["kv_cache_gib"], rel=0.01)


def test_activation_estimate_close_to_vllm_profile_for_llama3_8b():
    e = next(x for x in LOGS if x["model"] == "meta-llama/Meta-Llama-3-8B" and x["tp"] == 1)
    mem = estimate_memory(
        get_model("llama-3-8b-instruct"), get_format("bf16"), "bf16", 8192, 1, 80 * GIB, 1, V0_DEFAULTS, engine_version=V0_VERSION
    )
    assert mem.activation_bytes / GIB == pytest.approx(e["activation_peak_gib"], rel=0.05)


def _kv_token_cases():
    for e in LOGS:
        preset = e.get("preset_id") or SAME_SHAPES.get(e["model"], (None,))[0]
        if preset and e.get("kv_cache_gib") and e.get("kv_cache_tokens") and e["model"] not in NOT_COMPARABLE:
            yield pytest.param(preset, e["kv_cache_gib"], e["kv_cache_tokens"], e["tp"], id=e["model"])


@pytest.mark.parametrize(("preset", "kv_gib", "tokens", "tp"), list(_kv_token_cases()))
def test_kv_tokens_from_logged_kv_memory(preset, kv_gib, tokens, tp):
    """The engine's 'GPU KV cache size: N tokens' from its 'Available KV cache memory', via our bytes/token."""
    per_token = kv_layout(get_model(preset), "bf16", tp).per_token_bytes
    blocks = int(kv_gib * GIB) // (per_token * 16)
    assert blocks * 16 == pytest.approx(tokens, rel=0.01)


def test_max_concurrency_is_kv_tokens_over_request_length():
    for e in LOGS:
        mc, tokens = e.get("max_concurrency"), e.get("kv_cache_tokens")
        if mc and tokens:
            assert tokens / mc["tokens_per_request"] == pytest.approx(mc["value"], abs=0.01)


def _gguf_cases():
    for e in GGUF:
        preset = e.get("preset_id") or ("qwen2.5-7b-instruct" if "Qwen2.5-Coder-7B" in e["model"] else None)
        size = e.get("tensor_bytes") or e.get("file_size_bytes")
        if preset and size:
            yield pytest.param(preset, "gguf-" + e["quant"].lower(), size, id=e["file"])


@pytest.mark.parametrize(("preset", "fmt", "published"), list(_gguf_cases()))
def test_gguf_size_matches_published(preset, fmt, published):
    ours = weight_bytes(get_model(preset), get_format(fmt), 1).all_gpus
    assert ours <= published  # the file adds its header, tokenizer and metadata
    assert ours == pytest.approx(published, rel=0.01)
