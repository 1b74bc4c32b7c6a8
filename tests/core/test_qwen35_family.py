"""Qwen3.5 and Qwen3.6 (Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration): imported as vLLM
builds them, and counted, weighed and paged against figures published outside this repository.

The architecture (transformers' qwen3_5/modular_qwen3_5.py and qwen3_5_moe/modular_qwen3_5_moe.py, vLLM's
models/qwen3_5.py and qwen3_5_mtp.py): Qwen3-Next's hybrid text model (3 Gated DeltaNet layers : 1 gated full-attention
layer, partial RoPE, q_proj twice as wide for the output gate), a dense MLP or 256/512 experts plus a gated shared
expert, one MTP layer stored as mtp.*, and Qwen3-VL's vision encoder without deepstack mergers. The checkpoint stores
the DeltaNet input projection as in_proj_qkv/in_proj_z/in_proj_b/in_proj_a; vLLM loads them into Qwen3-Next's fused
in_proj_qkvz/in_proj_ba, the same elements.

"Code-index id" below is the id of a public GitHub file in the project's code search, where the quoted figure is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.catalog import get_gpu, get_model, modelscope_id
from advisor.domain.sizing import EngineSettings
from advisor.i18n import set_language
from advisor.model_import import ModelImportError, model_from_config
from advisor.sizing.advice import quantized_checkpoint
from advisor.sizing.memory import estimate_memory, kv_layout, linear_state_bytes, weight_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import StepCostModel
from advisor.sizing.tensors import param_counts, tensors

GIB = 1024**3
CONFIGS = Path(__file__).resolve().parents[1] / "fixtures" / "configs"  # each preset's config.json, as published


# ---------------------------------------------------------------- parameter counts


@pytest.mark.parametrize(
    ("preset_id", "published"),
    [
        # Hugging Face model API safetensors.total (Hub API 2026-09-25) as a public audit script lists it,
        # code-index id 71142266638 (KNOWN_MODELS: 'Qwen/Qwen3.5-0.8B': 873438784 … 'Qwen/Qwen3.6-35B-A3B': 35951822704);
        # the same five dense figures in a public research log, code-index id 61762937035
        ("qwen3.5-0.8b", 873_438_784),
        ("qwen3.5-2b", 2_274_069_824),
        ("qwen3.5-4b", 4_659_865_088),
        ("qwen3.5-9b", 9_653_104_368),
        ("qwen3.6-27b", 27_781_427_952),
        ("qwen3.6-35b-a3b", 35_951_822_704),
        # a public model registry's parameters_raw per Hugging Face repo (code-index ids 52555998385, 55778153074)
        ("qwen3.5-27b", 27_781_427_952),
        ("qwen3.5-35b-a3b", 35_951_822_704),
        ("qwen3.5-122b-a10b", 125_086_497_008),
        ("qwen3.5-397b-a17b", 403_397_928_944),
    ],
)
def test_every_stored_tensor_counts_to_the_published_total(preset_id, published):
    """The total counts every stored tensor: text model, vision encoder and the MTP layer (vLLM skips mtp.* unless
    MTP speculative decoding is on, so the engine's own count leaves it out)."""
    counts = param_counts(get_model(preset_id))
    assert counts.checkpoint == published
    mtp = sum(t.elements for t in tensors(get_model(preset_id)) if t.mtp)
    assert counts.total == published - mtp


def test_qwen35_27b_has_qwen36_27bs_shapes_and_its_own_published_total():
    """Qwen/Qwen3.5-27B's own total is published (the registry above: "parameters_raw": 27781427952, code-index id
    55778153074) and equals Qwen3.6-27B's: the same shapes (64 layers, 24 heads, 4 KV heads, 17,408-wide MLP, 48
    DeltaNet value heads: also THUDM/slime's scripts/models/qwen3.5-27B.sh). The two releases differ only in the
    dtype of A_log and the DeltaNet norm (F32 in 3.5, BF16 in 3.6), which the byte test below pins."""
    q35, q36 = get_model("qwen3.5-27b"), get_model("qwen3.6-27b")
    assert q35.model_copy(update={"id": q36.id, "name": q36.name, "hf_repo": q36.hf_repo}) == q36
    assert param_counts(q35).checkpoint == 27_781_427_952


def test_the_parts_match_published_tensor_header_audits():
    """Public audits of the safetensors headers split the totals: Qwen3.6-27B's vision tower 460,730,096 and language +
    MTP 27,320,697,856 (code-index id 68305723776); Qwen3.5-397B-A17B's text (embedding and head included)
    396,346,350,336, vision 456,010,480, MTP 6,595,568,128 (code-index id 69814713714); Qwen3.6-35B-A3B's text-only
    weights 69,321,221,376 bytes in BF16 (code-index id 69395936378); the 397B's mtp.* holds 1,553 tensors, each
    expert's gate/up/down stored apart (code-index id 68664414405)."""
    c27 = param_counts(get_model("qwen3.6-27b"))
    assert c27.vision == 460_730_096 and c27.checkpoint - c27.vision == 27_320_697_856
    c397 = param_counts(get_model("qwen3.5-397b-a17b"))
    assert (c397.total - c397.vision, c397.vision, c397.checkpoint - c397.total) == (396_346_350_336, 456_010_480, 6_595_568_128)
    c35 = param_counts(get_model("qwen3.6-35b-a3b"))
    assert 2 * (c35.total - c35.vision) == 69_321_221_376
    # per-expert tensors of the MTP layer: 512 × 3, plus 17 others (attention 6, norms 5, router, shared expert 3 and
    # its gate, mtp.fc)
    mtp = [t for t in tensors(get_model("qwen3.5-397b-a17b")) if t.mtp]
    assert sum(t.count if t.expert else 1 for t in mtp) == 1_553


# ---------------------------------------------------------------- bytes


@pytest.mark.parametrize(
    ("preset_id", "total_size"),
    [
        # model.safetensors.index.json metadata.total_size: Qwen/Qwen3.6-27B ("index tensor-data bytes: 55562855904",
        # code-index id 56148059805; 18 shards, every dtype BF16, code-index id 68366820786) and Qwen/Qwen3.6-35B-A3B
        # ("hf_total_size_bytes: 71903645408.0", code-index ids 52861813616, 68855521962)
        ("qwen3.6-27b", 55_562_855_904),
        ("qwen3.6-35b-a3b", 71_903_645_408),
    ],
)
def test_weights_plus_the_mtp_layer_weigh_what_the_index_says(preset_id, total_size):
    spec = get_model(preset_id)
    loaded = weight_bytes(spec, get_format("bf16"))
    counts = param_counts(spec)
    assert loaded.per_gpu + 2 * (counts.checkpoint - counts.total) == total_size
    assert loaded.vision_per_gpu == 2 * counts.vision  # the encoder is loaded with the weights


def test_qwen35_releases_store_each_deltanet_layers_a_log_and_norm_in_float32():
    """Qwen3.5's own checkpoints keep A_log and the gated RMSNorm weight of every DeltaNet layer in F32 (the Qwen3.6
    ones above are all BF16): Qwen3.5-397B-A17B's headers list 2,924 tensors, 2,834 BF16 and 90 FP32, 806,795,875,168
    bytes (code-index id 69814713714); Qwen3.5-122B-A10B's index counts 125,086,490,096 BF16 and 6,912 F32 elements
    (code-index id 71308848130); Qwen3.5-0.8B-Base's index total_size is 1,746,882,752 (code-index id 68616827808).
    The sizing counts them in the model's dtype, so it is short of those totals by exactly the F32 tensors' extra
    2 bytes an element (kilobytes): checked here rather than presented as exact."""

    def f32(pid: str) -> list:
        return [t for t in tensors(get_model(pid)) if t.role in ("ssm_a_log", "ssm_norm")]

    assert len(f32("qwen3.5-397b-a17b")) == 90
    assert sum(t.elements for t in f32("qwen3.5-122b-a10b")) == 6_912
    # Qwen/Qwen3.5-27B's index: "total_size":55562872800 over 11 shards, layers.0.linear_attn.A_log "F32" [48]
    # (a loader's fixture of the official metadata, code-index id 57402636031)
    for pid, total_size in (("qwen3.5-397b-a17b", 806_795_875_168), ("qwen3.5-0.8b", 1_746_882_752),
                            ("qwen3.5-27b", 55_562_872_800)):  # fmt: skip
        bf16 = 2 * param_counts(get_model(pid)).checkpoint
        assert total_size - bf16 == 2 * sum(t.elements for t in f32(pid))


# ---------------------------------------------------------------- layers, state and the hybrid allocator


def test_layers_experts_mtp_and_vision_tower():
    spec = get_model("qwen3.5-35b-a3b")
    assert spec.layer_types == ("linear", "linear", "linear", "full") * 10
    assert spec.num_experts == 256 and spec.num_experts_per_tok == 8 and spec.shared_expert_gate and all(spec.moe_layers)
    assert spec.attn_output_gate and spec.qk_norm and spec.num_mtp_layers == 1 and spec.mtp_style == "qwen3_next"
    assert spec.vision_kind == "qwen3_vl" and spec.vision_deepstack == 0  # deepstack_visual_indexes: []
    assert not any(t.role.startswith("mm_deepstack") for t in tensors(spec))
    assert spec.image_tokens == 1024 and spec.max_context == 262_144  # 16-px patches merged 2 × 2
    dense = get_model("qwen3.5-9b")
    assert not dense.is_moe and dense.intermediate_size == 12_288 and dense.layer_types.count("full") == 8


def test_the_recurrent_state_is_float32_as_the_config_says():
    """mamba_ssm_dtype float32: vLLM's Qwen3_5ForConditionalGenerationConfig sets mamba_ssm_cache_dtype from it (code-
    index ids 54516328227, 51780233634); the conv state stays in the model's BF16. Per DeltaNet layer and sequence:
    conv (2·16·128 + 32·128) × 3 × 2 B and recurrent 32 × 128 × 128 × 4 B."""
    spec = get_model("qwen3.5-35b-a3b")
    assert spec.linear_state_dtype == "float32"
    assert linear_state_bytes(spec, 1) == 8192 * 3 * 2 + 32 * 128 * 128 * 4 == 2_146_304
    assert linear_state_bytes(get_model("qwen3-next-80b-a3b-instruct"), 1) == (8192 * 3 + 32 * 128 * 128) * 2


@pytest.mark.parametrize(
    ("preset_id", "kv_dtype", "tp", "block", "padding"),
    [
        # "Setting attention block size to 1056 tokens …" / "Padding mamba page size by 0.76% …": Qwen3.5-35B-A3B at
        # TP 1 and TP 2 (code-index ids 55375616592, 66696367809, 58039819897), Qwen3.5-4B and -9B with an FP8 KV cache
        # at TP 1 (vLLM 0.16.1rc1, code-index id 54355267735); 528 tokens and 1.34 % for a Qwen3_5Moe 397B at TP 8
        # (code-index id 68664414405). A BF16 state would give 544 and 528 → 272.
        ("qwen3.5-35b-a3b", "bf16", 1, 1056, 0.76),
        ("qwen3.5-35b-a3b", "bf16", 2, 1056, 0.76),
        ("qwen3.5-9b", "fp8", 1, 1056, 0.76),
        ("qwen3.5-4b", "fp8", 1, 1056, 0.76),
        ("qwen3.5-397b-a17b", "bf16", 8, 528, 1.34),
    ],
)
def test_attention_pages_grow_to_hold_a_float32_state_as_vllm_logs(preset_id, kv_dtype, tp, block, padding):
    layout = kv_layout(get_model(preset_id), kv_dtype, tp)
    assert layout.block_tokens(16) == block
    padded = block * layout.per_layer_token_bytes
    assert round(100 * (padded - layout.state_bytes_per_layer) / layout.state_bytes_per_layer, 2) == padding


def test_qwen35_9b_kv_capacity_matches_vllms_log():
    """vLLM 0.16.1rc1, Qwen3.5-9B (an INT8 checkpoint: only the KV budget matters here), FP8 KV cache, TP 1:
    "Available KV cache memory: 2.43 GiB" → "GPU KV cache size: 39,072 tokens" (code-index id 54355267735): 150 pages
    of 8 layers, over 1 attention + 3 DeltaNet groups, 37 × 1,056 tokens.

    The same log's "Maximum concurrency for 16,384 tokens per request: 6.82x" (150 / 22 pages: two per DeltaNet group
    in 'align' mode, which its --enable-prefix-caching selects) is pinned in test_hybrid_state_pages.py; the default
    here is prefix caching off, one page per group."""
    spec = get_model("qwen3.5-9b")
    weights = weight_bytes(spec, get_format("bf16")).per_gpu
    engine = EngineSettings(max_num_batched_tokens=4096, max_num_seqs=8, gpu_memory_utilization=1.0,
                            non_torch_bytes=0, activation_bytes=0, cuda_graph_bytes=0)  # fmt: skip
    mem = estimate_memory(spec, get_format("bf16"), "fp8", 16_384, 1, weights + int(2.43 * GIB), 1, engine)
    assert (mem.block_size, mem.kv_blocks, mem.kv_tokens) == (1056, 150, 39_072)
    assert kv_layout(spec, "fp8", 1).kv_groups() == 4


def test_decode_reads_kv_of_the_full_attention_layers_and_each_sequences_state():
    step = StepCostModel.build(get_model("qwen3.5-27b"), "bf16", "bf16", get_gpu("h200-141g"), 1)
    assert step.kv_bytes_per_token == 16 * 2 * 4 * 256 * 2  # 16 full-attention layers, 4 KV heads of 256, K and V
    assert step.state_bytes_per_seq == 2 * 48 * (10_240 * 3 * 2 + 48 * 128 * 128 * 4)  # read and written back


# ---------------------------------------------------------------- import variants and refusals


def test_a_text_only_config_imports_as_the_same_text_model():
    """Qwen3_5MoeForCausalLM (model_type qwen3_5_moe_text, no encoder): the text model and its MTP layer."""
    cfg = json.loads((CONFIGS / "qwen3.5-35b-a3b.config.json").read_text(encoding="utf-8"))
    text = dict(cfg["text_config"], architectures=["Qwen3_5MoeForCausalLM"])
    spec = model_from_config(text)
    assert not spec.has_vision and spec.family == "qwen3_5_moe_text"
    counts, wrapped = param_counts(spec), param_counts(get_model("qwen3.5-35b-a3b"))
    assert counts.checkpoint == wrapped.checkpoint - wrapped.vision


def test_an_unknown_state_dtype_is_refused_by_name_in_both_languages():
    cfg = json.loads((CONFIGS / "qwen3.5-0.8b.config.json").read_text(encoding="utf-8"))
    bad = dict(cfg, text_config=dict(cfg["text_config"], mamba_ssm_dtype="int4"))
    with pytest.raises(ModelImportError, match=r'mamba_ssm_dtype is "int4".*bfloat16, float16, float32'):
        model_from_config(bad)
    set_language("zh_CN")
    try:
        with pytest.raises(ModelImportError, match=r"mamba_ssm_dtype 为 \"int4\"；目前只能计算"):
            model_from_config(bad)
    finally:
        set_language("en")


# ---------------------------------------------------------------- presets, repositories, commands


def test_presets_name_the_publishers_quantized_repos_and_modelscope_mirrors():
    """Qwen's FP8 (block-wise 128 × 128) and GPTQ-Int4 releases and their ModelScope mirrors as Xinference's registry
    lists them (github.com/xorbitsai/inference doc/source/models/builtin/llm/qwen3.5.rst, commit 1f8bd91); the Qwen3.6
    FP8 releases and their quantization_config as a listing of the downloaded configs gives them (code-index id
    71355564543). Qwen3.6 is its own preset, so a command serves the release the user named."""
    fp8, gptq = get_format("fp8-block"), get_format("gptq-int4")
    for size in ("27B", "35B-A3B", "122B-A10B", "397B-A17B"):
        pid = f"qwen3.5-{size.lower()}"
        assert quantized_checkpoint(pid, fp8) == f"Qwen/Qwen3.5-{size}-FP8"
        assert quantized_checkpoint(pid, gptq) == f"Qwen/Qwen3.5-{size}-GPTQ-Int4"
        assert modelscope_id(pid) == f"Qwen/Qwen3.5-{size}"
    assert quantized_checkpoint("qwen3.6-35b-a3b", fp8) == "Qwen/Qwen3.6-35B-A3B-FP8"
    assert quantized_checkpoint("qwen3.5-9b", gptq) is None  # none published by Qwen
    assert get_model("Qwen/Qwen3.6-27B").id == "qwen3.6-27b" and get_model("Qwen/Qwen3.5-27B").id == "qwen3.5-27b"


def test_calc_json_sizes_weights_state_kv_and_the_vision_encoder(capsys):
    from tests.support.cli_run import printed  # in-process: the JSON is what is checked

    data = json.loads(printed(capsys, "calc", "--model", "qwen3.5-27b", "--gpu", "h200-141g", "--context", "32768",
                              "--concurrency", "8", "--json"))  # fmt: skip
    spec = get_model("qwen3.5-27b")
    assert data["weights_bytes"] == weight_bytes(spec, get_format("bf16")).per_gpu == 2 * 27_356_728_560
    mem = data["memory"]
    assert mem["block_size"] == 784 and mem["kv_bytes_per_token"] == 16 * 2 * 4 * 256 * 2
    # a request holds its context's pages of the 16 attention layers plus one page per DeltaNet layer
    assert mem["kv_bytes_per_request"] == (-(-32_768 // 784) * 784) * 16 * 4096 + 48 * 784 * 4096
    kv_line = next(b["formula"] for b in mem["breakdown"] if b["key"] == "kv_cache")
    assert "48 linear-attention layers" in kv_line
    assert data["perf"]["ttft_ms"]["value"] > 0 and data["perf"]["steady_tpot_ms"]["value"] > 0
    vision = next(a["text"] for a in data["advice"] if "vision encoder" in a["text"])
    assert "1,024 prompt tokens" in vision and "878.77 MiB" in vision  # 460,730,096 BF16 weights


def test_the_predictor_runs_a_concurrency_sweep_on_a_qwen35_moe(capsys):
    from tests.support.cli_run import printed  # in-process: the JSON is what is checked

    data = json.loads(printed(capsys, "predict", "--model", "qwen3.5-35b-a3b", "--gpu", "h200-141g", "--json"))
    assert data["model"] == "qwen3.5-35b-a3b" and len(data["levels"]) >= 5
    first, last = data["levels"][0], data["levels"][-1]
    assert 0 < first["ttft_ms"]["p50"] and 0 < first["tpot_ms"]["p50"] < last["tpot_ms"]["p50"]
