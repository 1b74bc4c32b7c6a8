"""Qwen2.5-VL-7B-Instruct and Qwen3-VL-8B-Instruct (issue #28): the vision encoders' weights and a stated image-token
budget per request.

Qwen3-VL-8B-Instruct: Hugging Face safetensors total 8,767,123,696 (code-index ids 62872967919, 52216676248,
71074644927); the publisher's GGUF Qwen3VL-8B-Instruct-Q4_K_M.gguf is 5,027,784,800 bytes (text model only, the
encoder ships as a separate mmproj file; code-index id 69556270285).

Published: 8,292,166,656 parameters (Hugging Face numParameters, code-index ids 33908990598, 65807199369), of which
the vision module 676,550,144 and 7,615,616,512 without it (transformers' count printed after loading, code-index id
49095663873); loaded in BF16 by transformers on an L4, "CUDA memory allocated after load 16584369664" with
"Parameter count 8292166656" (code-index id 66490360962): the weights plus 36,352 bytes of non-parameter buffers.
"""

from __future__ import annotations

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.model_import import model_from_config
from advisor.sizing import size
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.tensors import param_counts


def test_qwen25_vl_counts_text_model_and_vision_encoder():
    counts = param_counts(get_model("qwen2.5-vl-7b-instruct"))
    assert counts.total == 8_292_166_656
    assert counts.vision == 676_550_144
    assert counts.total - counts.vision == 7_615_616_512  # the Qwen2-7B text model
    assert counts.total - counts.vision == param_counts(get_model("qwen2-7b-instruct")).total


def test_qwen25_vl_weighs_what_transformers_allocates():
    wb = weight_bytes(get_model("qwen2.5-vl-7b-instruct"), get_format("bf16"), 1)
    assert wb.per_gpu == 2 * 8_292_166_656
    assert 16_584_369_664 - wb.per_gpu == 36_352  # buffers, not weights
    assert wb.vision_per_gpu == 2 * 676_550_144  # loaded, run once per image


def test_qwen25_vl_states_its_image_token_budget():
    spec = get_model("qwen2.5-vl-7b-instruct")
    assert spec.vision_kind == "qwen2_5_vl" and spec.image_tokens == (1036 // 28) ** 2 == 1369
    r = size(SizingRequest(model=spec, gpu=get_gpu("l4"), weights="bf16"), "en")
    assert any("1,369 prompt tokens" in a.text and "1.26 GiB" in a.text for a in r.advice)
    zh = size(SizingRequest(model=spec, gpu=get_gpu("l4"), weights="bf16"), "zh_CN")
    assert any("1,369 个提示 token" in a.text for a in zh.advice)
    # Gemma 3's SigLIP tower gives every image the same 256 tokens, whatever its size
    gemma = size(SizingRequest(model=get_model("gemma-3-4b-it"), gpu=get_gpu("l4"), weights="bf16"), "en")
    assert any("each adds 256 prompt tokens, whatever its size" in a.text for a in gemma.advice)


def test_qwen25_vl_awq_is_the_publishers_checkpoint():
    r = size(SizingRequest(model=get_model("qwen2.5-vl-7b-instruct"), gpu=get_gpu("l4"), weights="awq-int4"), "en")
    assert r.vllm_command.startswith("vllm serve Qwen/Qwen2.5-VL-7B-Instruct-AWQ ")
    # the vision encoder stays 16-bit in the AWQ checkpoint
    awq = weight_bytes(get_model("qwen2.5-vl-7b-instruct"), get_format("awq-int4"), 1)
    assert awq.vision_per_gpu == 2 * 676_550_144


def test_qwen25_vl_config_saved_with_text_config_imports_the_same():
    """Newer transformers save the text model under text_config; both layouts read the same."""
    import json
    from pathlib import Path

    raw = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "configs" / "qwen2.5-vl-7b-instruct.config.json").read_text())
    text_keys = {k: v for k, v in raw.items() if k not in ("architectures", "model_type", "vision_config")}
    nested = {"architectures": raw["architectures"], "model_type": "qwen2_5_vl", "vision_config": raw["vision_config"],
              "text_config": {**text_keys, "model_type": "qwen2_5_vl_text"}}  # fmt: skip
    assert param_counts(model_from_config(nested)).total == param_counts(model_from_config(raw)).total == 8_292_166_656


def test_qwen3_vl_counts_text_model_encoder_and_deepstack_mergers():
    spec = get_model("qwen3-vl-8b-instruct")
    counts = param_counts(spec)
    assert counts.total == 8_767_123_696
    assert counts.total - counts.vision == param_counts(get_model("qwen3-8b")).total == 8_190_735_360
    assert spec.vision_kind == "qwen3_vl" and spec.vision_deepstack == 3 and spec.image_tokens == (1024 // 32) ** 2


def test_qwen3_vl_gguf_is_the_text_model_the_publisher_ships():
    """llama.cpp keeps the encoder in its own mmproj file: the Q4_K_M file holds the text tensors, a header and the
    tokenizer."""
    from advisor.sizing.quant import gguf_bytes, gguf_type
    from advisor.sizing.tensors import tensors

    spec = get_model("qwen3-vl-8b-instruct")
    gqa = spec.num_attention_heads // spec.num_kv_heads
    text = sum(gguf_bytes(t, gguf_type(t, "Q4_K_M", spec.num_layers, 0, gqa, False)) for t in tensors(spec) if not t.vision)
    assert 0 < 5_027_784_800 - text < 8 * 1024**2
    r = size(SizingRequest(model=spec, gpu=get_gpu("l4"), weights="gguf-q4_k_m"), "en")
    assert r.llama_cpp_command.startswith("llama-server -hf Qwen/Qwen3-VL-8B-Instruct-GGUF:Q4_K_M ")
    fp8 = size(SizingRequest(model=spec, gpu=get_gpu("l4"), weights="fp8-block"), "en")
    assert fp8.vllm_command.startswith("vllm serve Qwen/Qwen3-VL-8B-Instruct-FP8 ")
    assert any("1,024 prompt tokens" in a.text for a in fp8.advice)
