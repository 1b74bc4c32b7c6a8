"""SGLang's KV pool against what published SGLang start-ups logged (tests/fixtures/reference/sglang_kv_pool_logs.json).

Three checks, from the engine's own arithmetic outwards (advisor/sizing/sglang_pool.py):

- the pool formula on a log's own figures (free memory before loading, weights, mem_fraction_static): SGLang's
  rounding to 0.01 GB in its log lines is the only slack (0.02 GiB);
- the default mem_fraction_static of a release, where a log printed the one SGLang chose;
- the whole prediction (our weights, our free memory before loading, the default or set fraction) against the
  logged pool: 0.8 GiB, as for vLLM (tests/core/test_kv_available_logs.py); our weights and the CUDA context are
  estimates, the pool is what is left of them.

And the memory SGLang's distributed start-up took, against advisor/sizing/non_torch.py's growth with TP.
"""

import json
from pathlib import Path

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import get_profile, resolve_engine
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size
from advisor.sizing.memory import estimate_memory, kv_layout
from advisor.sizing.non_torch import non_torch_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.sglang_pool import default_mem_fraction_static, pool_bytes

GIB = 1024**3
DATA = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "sglang_kv_pool_logs.json").read_text(encoding="utf-8"))
POOLS = DATA["pools"]
DEFAULTS = DATA["default_mem_fraction_static"]
DIST = DATA["distributed_init"]
TOLERANCE_GIB = 0.8


def _fraction(e: dict) -> float:
    """The share SGLang used: the command's, the printed one, else the release's default for that model and GPU."""
    if e["mem_fraction_static_set"] or e["mem_fraction_static_logged"]:
        return e["mem_fraction_static_set"] or e["mem_fraction_static_logged"]
    m = get_model(e["preset"])
    return default_mem_fraction_static(get_gpu(e["gpu_id"]).effective_memory_bytes, e["tp"], e["engine_version"], m.has_vision)


@pytest.mark.parametrize("entry", [e for e in POOLS if e["free_before_load_gib"]], ids=lambda e: e["id"])
def test_pool_formula_on_the_logs_own_figures(entry):
    pool = pool_bytes(int(entry["free_before_load_gib"] * GIB), int(entry["weights_gib"] * GIB), _fraction(entry)) / GIB
    logged = entry["available_bytes"] / GIB if entry.get("available_bytes") else entry["k_size_gib"] + entry["v_size_gib"]
    assert pool == pytest.approx(logged, abs=0.02)


def test_pool_formula_gives_the_logged_token_count():
    """max_total_num_tokens is the pool in whole tokens of the model's K and V over all its layers."""
    e = next(x for x in POOLS if x["id"] == "sglang4826-h200-gemma3-4b")
    per_token = kv_layout(get_model(e["preset"]), "bf16", e["tp"]).per_token_bytes
    pool = pool_bytes(int(e["free_before_load_gib"] * GIB), int(e["weights_gib"] * GIB), _fraction(e))
    assert pool // per_token == pytest.approx(e["tokens"], abs=200)  # 0.02 GiB of log rounding is ~150 tokens


@pytest.mark.parametrize("entry", DEFAULTS, ids=lambda e: e["id"])
def test_default_mem_fraction_static_of_the_release(entry):
    gpu = get_gpu(entry["gpu_id"])
    assert default_mem_fraction_static(gpu.effective_memory_bytes, entry["tp"], entry["engine_version"]) == pytest.approx(
        entry["mem_fraction_static"], abs=1e-9
    )


def test_the_current_default_follows_the_general_heuristics():
    """Since #10975: 512 MiB + 1.5 MiB a prefill-chunk token + TP/8 GiB + 2 MiB a graph batch slot, at least 10 GiB
    over 60 GiB (NVIDIA aiconfigurator's mirror of SGLang 0.5.16 gives 0.847 for a 24,564 MiB RTX 4090 at TP 1:
    3,760 MiB reserved)."""
    assert default_mem_fraction_static(24564 * 1024**2, 1) == 0.847
    h100 = get_gpu("h100-sxm-80g").effective_memory_bytes
    mib = h100 / 1024**2
    assert default_mem_fraction_static(h100, 1) == round((mib - 13440) / mib, 3)  # 512 + 12,288 + 128 + 512
    assert default_mem_fraction_static(h100, 8) == round((mib - 14848) / mib, 3)  # 512 + 12,288 + 1,024 + 1,024


@pytest.mark.parametrize("entry", [e for e in POOLS if e["preset"]], ids=lambda e: e["id"])
def test_predicted_pool_matches_the_log(entry):
    m = get_model(entry["preset"])
    gpu = get_gpu(entry["gpu_id"])
    engine = resolve_engine(EngineSettings(mem_fraction_static=entry["mem_fraction_static_set"]), get_profile("sglang"), gpu)
    mem = estimate_memory(m, get_format(entry["weights"]), "bf16", 4096, 1, gpu.effective_memory_bytes, entry["tp"], engine,
                          engine_version=entry["engine_version"], vllm_profile=False, sglang_pool=True,
                          nvlink=entry["interconnect"] == "nvlink")  # fmt: skip
    assert mem.kv_budget_bytes / GIB == pytest.approx(entry["k_size_gib"] + entry["v_size_gib"], abs=TOLERANCE_GIB)
    per_token = kv_layout(m, "bf16", entry["tp"]).per_token_bytes
    assert mem.kv_tokens == pytest.approx(entry["tokens"], abs=TOLERANCE_GIB * GIB / per_token)


def test_sizing_of_an_sglang_request_uses_the_sglang_pool():
    """`advisor calc --engine sglang`, the Sizing page and the simulator share size(): the SGLang request's KV is the
    share of the free memory before loading, not vLLM's 0.9 of the total less a profile."""
    m, gpu = get_model("qwen3-8b"), get_gpu("h100-sxm-80g")
    req = SizingRequest(model=m, gpu=gpu, weights="bf16", kv_dtype="bf16", context=8192, concurrency=1, gpus=1,
                        engine=resolve_engine(None, get_profile("sglang"), gpu), engine_profile="sglang")  # fmt: skip
    mem = size(req).memory
    fraction = default_mem_fraction_static(gpu.effective_memory_bytes, 1)
    free = gpu.effective_memory_bytes - req.engine.cuda_context_bytes
    assert mem.kv_budget_bytes == pool_bytes(free, mem.weights_bytes, fraction)
    vllm = size(req.model_copy(update={"engine_profile": "vllm", "engine": resolve_engine(None, get_profile("vllm"), gpu)})).memory
    assert mem.kv_budget_bytes != vllm.kv_budget_bytes


def test_a_set_mem_fraction_static_is_used():
    m, gpu = get_model("qwen3-8b"), get_gpu("h100-sxm-80g")
    engine = resolve_engine(EngineSettings(mem_fraction_static=0.7), get_profile("sglang"), gpu)
    mem = estimate_memory(m, get_format("bf16"), "bf16", 4096, 1, gpu.effective_memory_bytes, 1, engine, vllm_profile=False, sglang_pool=True)
    assert mem.engine_budget_bytes == int((gpu.effective_memory_bytes - engine.cuda_context_bytes) * 0.7)


@pytest.mark.parametrize("entry", DIST, ids=lambda e: e["id"])
def test_distributed_start_up_memory_grows_with_tp_over_nvlink_only(entry):
    """What SGLang's distributed start-up took per rank is the TP growth of non-torch memory (the one-GPU part,
    cuBLAS workspaces, comes later)."""
    engine = EngineSettings()
    grown = (non_torch_bytes(engine, entry["tp"], entry["interconnect"] == "nvlink") - engine.non_torch_bytes) / GIB
    for logged in entry["mem_usage_gib"]:
        assert grown == pytest.approx(logged, abs=0.25)


def test_calc_json_gives_the_sglang_pool_and_takes_a_set_share(capsys):
    """`advisor calc --engine-profile sglang --json` reports the same pool as size(); --mem-fraction-static moves it by
    the share of the free memory before loading."""
    from advisor.cli import main

    def kv(*extra: str) -> int:
        assert main(["calc", "--model", "qwen3-8b", "--gpu", "h100-sxm-80g", "--engine-profile", "sglang", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["memory"]["kv_budget_bytes"]

    gpu = get_gpu("h100-sxm-80g")
    free = gpu.effective_memory_bytes - EngineSettings().cuda_context_bytes
    default, set_share = kv(), kv("--mem-fraction-static", "0.7")
    assert default - set_share == int(free * default_mem_fraction_static(gpu.effective_memory_bytes, 1)) - int(free * 0.7)


def test_the_sglang_pool_is_said_in_words_with_its_share_and_tokens():
    """calc's table, its --json and the Sizing page's tips carry one sentence: the share, whose it is, what is left."""
    m, gpu = get_model("qwen3-32b"), get_gpu("h100-sxm-80g")

    def result(profile: str, engine: EngineSettings | None = None):
        req = SizingRequest(model=m, gpu=gpu, weights="bf16", kv_dtype="bf16", context=8192, concurrency=1, gpus=1,
                            engine=resolve_engine(engine, get_profile(profile), gpu), engine_profile=profile)  # fmt: skip
        return size(req, "en")

    default = result("sglang")
    share = default_mem_fraction_static(gpu.effective_memory_bytes, 1)
    assert default.kv_pool_note and f"{share:.3f}" in default.kv_pool_note and "default" in default.kv_pool_note
    assert f"{default.memory.kv_tokens:,} tokens" in default.kv_pool_note
    chosen = result("sglang", EngineSettings(mem_fraction_static=0.88)).kv_pool_note
    assert chosen and "0.880" in chosen and "as set" in chosen
    assert result("vllm").kv_pool_note is None
