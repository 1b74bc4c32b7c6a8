"""The shipped data: GPU catalog rows, model presets and the published reference figures the tests compare against.

These tests guard the data itself (transcription slips, sparse-vs-dense mix-ups, presets drifting from their raw
config.json copies), not any formula of ours.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from advisor.domain.gpu import GiB, GpuSpec
from advisor.resources import resource_path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CHINA_MARKET_IDS = {"h20-96g", "h800-sxm-80g", "a800-80g", "l20-48g", "rtx-4090d"}
PRESET_KEYS = {"id", "name", "hf_repo", "license", "config"}


def _catalog_rows() -> list[dict]:
    return json.loads(resource_path("gpus", "catalog.json").read_text(encoding="utf-8"))


def _preset_files() -> list[Path]:
    return sorted(resource_path("models").glob("*.json"))


def _presets() -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in _preset_files()}


def _reference(name: str):
    return json.loads((FIXTURES / "reference" / name).read_text(encoding="utf-8"))


def sparse_suspects(row: dict) -> list[str]:
    """Reasons a row looks like it carries 2:4-sparse ("with sparsity") datasheet figures instead of dense ones."""
    reasons = []
    bf16 = row["bf16_tflops_dense"]
    arch = row.get("architecture", "")
    market = row.get("market", "datacenter")
    # Dense BF16 peaks: H100/H200 SXM 989, B200 2250 (dense); anything above is a sparse figure.
    ceilings = {"Hopper": 1000.0, "Ampere": 320.0, "Ada Lovelace": 370.0, "Volta": 130.0, "Turing": 70.0, "Blackwell": 2300.0}
    if arch in ceilings and bf16 > ceilings[arch]:
        reasons.append(f"bf16 {bf16} above the dense {arch} ceiling {ceilings[arch]}")
    # FP8 runs at exactly twice BF16 on every FP8-capable part (dense or sparse alike), so a ratio far from 2
    # means one of the two figures was taken from the sparse column.
    fp8 = row.get("fp8_tflops_dense")
    if fp8 and not 1.9 <= fp8 / bf16 <= 2.1:
        reasons.append(f"fp8/bf16 ratio {fp8 / bf16:.2f} is not 2")
    # GeForce cards halve FP16 with FP32 accumulate; the whitepaper's FP16-accumulate column is 2x too high.
    if market == "consumer" and arch == "Ada Lovelace" and bf16 > 170:
        reasons.append("GeForce Ada BF16 above the FP32-accumulate rate")
    return reasons


# ---------------------------------------------------------------- GPU catalog


def test_every_catalog_row_validates_as_gpuspec():
    rows = _catalog_rows()
    for row in rows:
        GpuSpec.model_validate(row)


def test_catalog_ids_are_unique_and_there_are_enough_rows():
    ids = [row["id"] for row in _catalog_rows()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(ids) >= 25


def test_china_market_parts_are_present_and_flagged():
    by_id = {row["id"]: GpuSpec.model_validate(row) for row in _catalog_rows()}
    assert CHINA_MARKET_IDS <= set(by_id)
    for gpu_id in CHINA_MARKET_IDS:
        assert by_id[gpu_id].china_market, gpu_id
    # and nothing else claims to be a China-market part
    assert {g.id for g in by_id.values() if g.china_market} == CHINA_MARKET_IDS


def test_vendors_and_required_parts_are_covered():
    by_id = {row["id"]: GpuSpec.model_validate(row) for row in _catalog_rows()}
    for gpu_id in ("h100-sxm-80g", "h200-141g", "a100-sxm-80g", "l40s", "l4", "rtx-4090", "rtx-5090", "b200"):
        assert gpu_id in by_id, gpu_id
    assert by_id["mi300x"].vendor == "AMD"
    assert by_id["ascend-910b"].vendor == "Huawei"
    assert by_id["ascend-910b"].confidence == "low"


def test_no_catalog_row_carries_sparse_figures():
    offenders = {row["id"]: sparse_suspects(row) for row in _catalog_rows()}
    assert {k: v for k, v in offenders.items() if v} == {}


@pytest.mark.parametrize(
    "change",
    [
        {"bf16_tflops_dense": 1979.0},  # H100 datasheet "with sparsity" figure
        {"fp8_tflops_dense": 3958.0},  # sparse FP8 next to a dense BF16
    ],
)
def test_sparse_looking_figures_are_rejected(change):
    h100 = next(row for row in _catalog_rows() if row["id"] == "h100-sxm-80g")
    assert sparse_suspects(h100) == []
    assert sparse_suspects({**h100, **change})


def test_geforce_fp16_accumulate_figure_is_rejected():
    rtx = next(row for row in _catalog_rows() if row["id"] == "rtx-4090")
    assert sparse_suspects(rtx) == []
    assert sparse_suspects({**rtx, "bf16_tflops_dense": 330.3})


def test_memory_is_whole_gibibytes_and_usable_memory_is_plausible():
    for row in _catalog_rows():
        gpu = GpuSpec.model_validate(row)
        assert gpu.memory_bytes % GiB == 0, f"{gpu.id}: built memory should be a whole number of GiB"
        if gpu.usable_memory_bytes is not None:
            # GDDR data-centre cards run with ECC on, which keeps 1/16 of the memory, and the driver reserves
            # ~0.3-0.8 GiB on top (a T4 reports 14.56 of 16 GiB = 91 %); HBM parts lose the reserve only.
            floor = 0.90 if gpu.memory_type.startswith("GDDR") else 0.95
            assert floor * gpu.memory_bytes <= gpu.usable_memory_bytes <= gpu.memory_bytes, gpu.id


def test_hbm_parts_out_run_gddr_parts():
    gpus = [GpuSpec.model_validate(row) for row in _catalog_rows()]
    slowest_hbm = min(g.bandwidth_bytes_per_s for g in gpus if g.memory_type.startswith("HBM"))
    assert slowest_hbm >= 0.9e12
    for g in gpus:
        if g.memory_type.startswith("GDDR"):
            assert g.bandwidth_bytes_per_s < 2e12, g.id
        assert g.source.strip(), g.id
        if g.confidence == "low":
            assert g.notes, f"{g.id}: a low-confidence row must say why in notes"


# ---------------------------------------------------------------- model presets


def test_there_are_enough_presets_and_file_names_match_ids():
    files = _preset_files()
    assert len(files) >= 14
    for path in files:
        preset = json.loads(path.read_text(encoding="utf-8"))
        assert PRESET_KEYS <= set(preset) <= PRESET_KEYS | {"source_note", "same_tensors_as", "modelscope_id",
                                                          "modelscope_reupload"}, path.name
        assert preset["id"] == path.stem
        assert preset["id"] == preset["id"].lower()
        assert "/" in preset["hf_repo"]


@pytest.mark.parametrize("preset_id", sorted(p.stem for p in _preset_files()))
def test_preset_config_has_the_fields_sizing_needs(preset_id):
    cfg = _presets()[preset_id]["config"]
    assert cfg.get("model_type")
    assert cfg.get("architectures")
    if cfg["model_type"] in ("gemma3", "llama4", "qwen3_vl", "qwen3_5", "qwen3_5_moe"):  # the text model is in text_config
        text = cfg["text_config"]  # (Gemma 3: defaults fill the rest; a MoE text model has expert widths instead)
        assert text["hidden_size"] > 0 and text["num_hidden_layers"] > 0
        assert (text.get("intermediate_size") or text.get("moe_intermediate_size") or 0) > 0
        vision = cfg["vision_config"]
        assert (vision.get("num_hidden_layers") or vision.get("depth")) > 0
        return
    assert cfg.get("hidden_size", 0) > 0
    assert (cfg.get("num_hidden_layers") or cfg.get("num_layers") or 0) > 0
    assert cfg.get("num_attention_heads", 0) > 0
    assert (cfg.get("vocab_size") or cfg.get("padded_vocab_size") or 0) > 0
    if cfg["model_type"] == "chatglm":
        for key in ("multi_query_group_num", "kv_channels", "padded_vocab_size", "num_layers", "ffn_hidden_size", "add_qkv_bias"):
            assert key in cfg, key
    else:
        assert cfg.get("intermediate_size", 0) > 0


@pytest.mark.parametrize("preset_id", sorted(p.stem for p in _preset_files()))
def test_preset_matches_its_raw_config_fixture(preset_id):
    raw = json.loads((FIXTURES / "configs" / f"{preset_id}.config.json").read_text(encoding="utf-8"))
    assert raw == _presets()[preset_id]["config"]


def test_every_raw_config_fixture_has_a_preset():
    stems = {p.name.removesuffix(".config.json") for p in (FIXTURES / "configs").glob("*.config.json")}
    assert stems == set(_presets())


def test_architecture_variety_is_covered():
    configs = [p["config"] for p in _presets().values()]
    assert any(c.get("kv_lora_rank") for c in configs), "an MLA model (DeepSeek)"
    assert any(c.get("num_experts") or c.get("n_routed_experts") for c in configs), "a MoE model"
    assert any(c.get("quantization_config", {}).get("quant_method") == "fp8" for c in configs)
    assert any(c.get("quantization_config", {}).get("quant_method") in ("gptq", "awq") for c in configs)
    assert any(c.get("model_type") == "chatglm" for c in configs)


@pytest.mark.parametrize("preset_id", sorted(p.stem for p in _preset_files()))
def test_every_preset_imports(preset_id):
    from advisor.model_import import model_from_config

    spec = model_from_config(_presets()[preset_id]["config"])
    assert spec.num_layers > 0 and spec.hidden_size > 0


# ---------------------------------------------------------------- published reference figures


def test_param_count_references_point_at_presets_and_are_consistent():
    presets = _presets()
    refs = _reference("param_counts.json")
    assert len(refs) >= 10
    for preset_id, ref in refs.items():
        assert preset_id in presets, preset_id
        assert isinstance(ref["params_total"], int) and ref["params_total"] > 0
        if ref["params_active"] is not None:
            assert 0 < ref["params_active"] <= ref["params_total"]
        assert ref["source"] and ref["includes"]


@pytest.mark.parametrize("preset_id", sorted(_reference("param_counts.json")))
def test_tensor_inventory_matches_the_published_parameter_count(preset_id):
    from advisor.model_import import model_from_config
    from advisor.sizing.tensors import param_counts

    ref = _reference("param_counts.json")[preset_id]
    counts = param_counts(model_from_config(_presets()[preset_id]["config"]))
    # Every stored tensor: DeepSeek's MTP layer and its FP8 block scales (weight_scale_inv) included.
    assert counts.checkpoint == ref["params_total"]
    if ref.get("params_active"):
        assert counts.active == ref["params_active"]


def test_engine_log_entries_are_quoted_and_add_up():
    presets = _presets()
    entries = _reference("engine_logs.json")["entries"]
    assert len(entries) >= 8
    for e in entries:
        assert e["source"].startswith("https://"), e["model"]
        assert e["quote"] and all(isinstance(line, str) and line for line in e["quote"])
        assert e["preset_id"] is None or e["preset_id"] in presets
        parts = [e.get(k) for k in ("weights_gib", "non_torch_gib", "activation_peak_gib", "kv_cache_gib")]
        if e.get("total_gpu_memory_gib") and e.get("gpu_memory_utilization") and None not in parts:
            budget = e["total_gpu_memory_gib"] * e["gpu_memory_utilization"]
            assert math.isclose(sum(parts), budget, abs_tol=0.03), (e["source"], sum(parts), budget)
        conc = e.get("max_concurrency")
        if conc and e.get("kv_cache_tokens"):
            assert math.isclose(e["kv_cache_tokens"] / conc["tokens_per_request"], conc["value"], abs_tol=0.01), e["source"]


def test_engine_logs_cover_dense_moe_mla_and_quantized():
    entries = _reference("engine_logs.json")["entries"]
    models = " ".join(e["model"] for e in entries)
    assert "Llama" in models and "Qwen3-30B-A3B" in models and "DeepSeek" in models
    assert any(e.get("quantization") for e in entries)


def test_gguf_sizes_have_plausible_bits_per_weight():
    expected_bpw = {"Q4_K_M": (4.5, 5.2), "Q8_0": (8.3, 8.7)}
    for e in _reference("gguf_sizes.json")["entries"]:
        assert e["source"]
        if "file_size_bytes" in e and "params" in e:
            low, high = expected_bpw[e["quant"]]
            assert low <= e["file_size_bytes"] * 8 / e["params"] <= high, e["file"]


def test_releases_with_the_same_tensors_name_their_preset_not_a_prefix_match():
    """GLM-4.6 is GLM-4.7's shapes and context (the engines load the same tensors); GLM-4.5 has its own preset
    (a shorter context), and neither may fall through to the prefix match that would pick GLM-4.5-Air."""
    from advisor.catalog import get_model
    from advisor.plan.models import resolve_plan_model

    presets = _presets()
    repos = {p["hf_repo"].lower() for p in presets.values()}
    for preset in presets.values():
        for repo in preset.get("same_tensors_as", []):
            assert "/" in repo and repo.lower() not in repos, repo  # another release, not another preset
    assert presets["glm-4.7"]["config"] == dict(presets["glm-4.5"]["config"], max_position_embeddings=202752)
    for name, preset_id in (("zai-org/GLM-4.6", "glm-4.7"), ("zai-org/GLM-4.5", "glm-4.5"), ("zai-org/GLM-4.5-Air", "glm-4.5-air")):
        assert get_model(name).id == preset_id
        assert resolve_plan_model(name).spec.id == preset_id
    assert resolve_plan_model("zai-org/GLM-4.6-FP8").spec.id == "glm-4.7"


def test_modelscope_ids_are_the_publishers_own_mirrors():
    """Qwen, DeepSeek and Moonshot mirror their releases on ModelScope under the same owner/name; Zhipu's GLM repos
    (zai-org, formerly THUDM, on Hugging Face) are under ZhipuAI there, MiniMaxAI's under MiniMax (the M2.7 model card:
    "You also can get model weights from modelscope.cn/models/MiniMax/MiniMax-M2.7"). Other publishers' models get no
    id rather than a community re-upload."""
    mirrors = {"Qwen": "Qwen", "deepseek-ai": "deepseek-ai", "moonshotai": "moonshotai", "zai-org": "ZhipuAI", "THUDM": "ZhipuAI",
               "MiniMaxAI": "MiniMax"}
    for pid, preset in _presets().items():
        owner, name = preset["hf_repo"].split("/")
        if owner in mirrors:
            assert preset.get("modelscope_id") == f"{mirrors[owner]}/{name}", pid
        else:
            assert "modelscope_id" not in preset, pid


def test_chat_checkpoints_have_their_presets_and_published_quantized_repos():
    """Qwen2.5 14B/32B/3B Instruct are their own presets (32,768 positions, not the base model's 131,072), so a
    command serves the chat model; their AWQ/GPTQ/GGUF releases are known."""
    from advisor.catalog import get_model
    from advisor.sizing.advice import quantized_checkpoint
    from advisor.sizing.quant import get_format

    for size in ("3B", "14B", "32B"):
        spec = get_model(f"Qwen/Qwen2.5-{size}-Instruct")
        assert spec.id == f"qwen2.5-{size.lower()}-instruct" and spec.max_context == 32_768
        assert quantized_checkpoint(spec.id, get_format("awq-int4")) == f"Qwen/Qwen2.5-{size}-Instruct-AWQ"
        assert quantized_checkpoint(spec.id, get_format("gptq-int4")) == f"Qwen/Qwen2.5-{size}-Instruct-GPTQ-Int4"
    assert quantized_checkpoint("qwen3-next-80b-a3b-instruct", get_format("fp8-block")) == "Qwen/Qwen3-Next-80B-A3B-Instruct-FP8"
