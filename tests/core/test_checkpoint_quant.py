"""Which weight format a checkpoint's quantization_config declares.

The quantization_config blocks below have the shape llm-compressor writes into the config.json of its
checkpoints (Red Hat AI's -FP8-dynamic, -FP8-block, -quantized.w4a16 and -quantized.w8a8 repos, zai-org's
-FP8 ones); the W8A16 one is a published Qwen3-VL checkpoint's, quoted in llm-compressor's issue tracker. A scheme
the sizing has no byte rule for must be refused by name, never sized as something else.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.i18n import set_language
from advisor.model_import import ModelImportError, model_from_config
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format

LLAMA = json.loads((Path(__file__).parents[1] / "fixtures" / "configs" / "llama-3.1-8b-instruct.config.json").read_text())

FP8_DYNAMIC = {
    "config_groups": {"group_0": {
        "input_activations": {"actorder": None, "block_structure": None, "dynamic": True, "group_size": None, "num_bits": 8,
                              "observer": None, "observer_kwargs": {}, "strategy": "token", "symmetric": True, "type": "float"},
        "output_activations": None,
        "targets": ["Linear"],
        "weights": {"actorder": None, "block_structure": None, "dynamic": False, "group_size": None, "num_bits": 8,
                    "observer": "minmax", "observer_kwargs": {}, "strategy": "channel", "symmetric": True, "type": "float"},
    }},
    "format": "float-quantized", "global_compression_ratio": None, "ignore": ["lm_head"], "kv_cache_scheme": None,
    "quant_method": "compressed-tensors", "quantization_status": "compressed",
}  # fmt: skip


def _ct(weights: dict, activations: dict | None = None, fmt: str = "pack-quantized") -> dict:
    group = {"input_activations": activations, "output_activations": None, "targets": ["Linear"], "weights": weights}
    return {"config_groups": {"group_0": group}, "format": fmt, "ignore": ["lm_head"],
            "quant_method": "compressed-tensors", "quantization_status": "compressed"}  # fmt: skip


def _import(quantization_config: dict):
    return model_from_config(dict(LLAMA, quantization_config=quantization_config))


def test_fp8_dynamic_is_fp8():
    spec = _import(FP8_DYNAMIC)
    assert (spec.checkpoint_quant, spec.quant_group_size) == ("fp8", None)


def test_fp8_block_scales_are_fp8_block():
    weights = dict(FP8_DYNAMIC["config_groups"]["group_0"]["weights"], strategy="block", block_structure=[128, 128])
    activations = dict(FP8_DYNAMIC["config_groups"]["group_0"]["input_activations"], strategy="group", group_size=128)
    assert _import(_ct(weights, activations, "float-quantized")).checkpoint_quant == "fp8-block"


def test_int8_weights_and_activations_are_w8a8():
    weights = {"num_bits": 8, "type": "int", "strategy": "channel", "symmetric": True, "group_size": None, "dynamic": False}
    activations = {"num_bits": 8, "type": "int", "strategy": "token", "symmetric": True, "dynamic": True}
    assert _import(_ct(weights, activations, "int-quantized")).checkpoint_quant == "int8"


def test_w4a16_is_a_4_bit_weight_only_format_with_its_group_size():
    weights = {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": True, "dynamic": False,
               "actorder": None, "block_structure": None, "observer": "minmax", "observer_kwargs": {}}  # fmt: skip
    spec = _import(_ct(weights))
    assert (spec.checkpoint_quant, spec.quant_group_size) == ("gptq-int4", 128)
    # A 4-bit checkpoint of Llama-3.1-8B: ~4.2 bits per quantized weight plus the 16-bit embeddings and head,
    # about a third of the BF16 size (calling it INT8, as compressed-tensors once was, doubled the decoder).
    bf16 = weight_bytes(spec, get_format("bf16")).per_gpu
    w4 = weight_bytes(spec, get_format(spec.checkpoint_quant)).per_gpu
    assert 0.33 < w4 / bf16 < 0.40
    assert w4 < 0.65 * weight_bytes(spec, get_format("int8")).per_gpu  # 5.7 GB against 9.1 GB


def test_published_w8a16_group_32_checkpoint():
    # The quantization_config of a Qwen3-VL-MoE W8A16 checkpoint (llm-compressor issue tracker, 2025-10-17).
    weights = {"actorder": None, "block_structure": None, "dynamic": False, "group_size": 32, "num_bits": 8, "observer": "mse",
               "observer_kwargs": {}, "strategy": "group", "symmetric": True, "type": "int"}  # fmt: skip
    spec = _import(_ct(weights))
    assert (spec.checkpoint_quant, spec.quant_group_size) == ("gptq-int8", 32)


def test_modelopt_fp8_is_fp8():
    assert _import({"quant_method": "modelopt", "quant_algo": "FP8"}).checkpoint_quant == "fp8"


@pytest.mark.parametrize(
    ("quantization_config", "named"),
    [
        # NVFP4 (llm-compressor's nvfp4-pack-quantized): 4-bit floats in groups of 16, 4-bit float activations
        (_ct({"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": True},
             {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "dynamic": "local"},
             "nvfp4-pack-quantized"), "float4"),
        ({"quant_method": "modelopt", "quant_algo": "NVFP4"}, "NVFP4"),
        ({"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4"}, "bitsandbytes"),
        ({"quant_method": "hqq", "nbits": 4}, "hqq"),
    ],
)  # fmt: skip
def test_schemes_without_a_byte_rule_are_refused_by_name(quantization_config, named):
    with pytest.raises(ModelImportError, match=named):
        _import(quantization_config)


def test_mixed_schemes_are_refused_with_both_named():
    int4 = {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 32, "symmetric": True}
    int8 = {"num_bits": 8, "type": "int", "strategy": "group", "group_size": 64, "symmetric": True}
    mixed = _ct(int4)
    mixed["config_groups"]["group_1"] = {"input_activations": None, "targets": ["re:.*self_attn.*"], "weights": int8}
    with pytest.raises(ModelImportError, match=r"int4 weights.*int8 weights"):
        _import(mixed)


def test_refusals_are_translated():
    set_language("zh_CN")
    try:
        with pytest.raises(ModelImportError, match="目前无法计算"):
            _import({"quant_method": "bitsandbytes"})
        with pytest.raises(ModelImportError, match="AWQ 检查点是 4 位的"):
            _import({"quant_method": "awq", "bits": 8, "group_size": 128})
    finally:
        set_language("en")


def test_malformed_config_groups_are_import_errors():
    for groups in (None, [], {"group_0": "Linear"}, {"group_0": {"weights": None}}):
        with pytest.raises(ModelImportError, match="config_groups"):
            _import({"quant_method": "compressed-tensors", "config_groups": groups})


@pytest.mark.parametrize(("preset_id", "checkpoint_bytes"), [("gpt-oss-20b", 13_761_264_768), ("gpt-oss-120b", 65_248_815_744)])
def test_gpt_oss_weighs_what_its_published_checkpoint_weighs(preset_id, checkpoint_bytes):
    """MXFP4 on the routed experts only (two 4-bit values a byte, an 8-bit scale per 32), BF16 for the rest,
    sinks and expert biases included: the sum is the checkpoint's own tensor data (index.json total_size)."""
    from advisor.catalog import get_model

    spec = get_model(preset_id)
    assert spec.checkpoint_quant == "mxfp4" and spec.attention_sinks and spec.expert_bias
    assert weight_bytes(spec, get_format("mxfp4")).per_gpu == checkpoint_bytes
    assert spec.layer_types.count("sliding") == spec.num_layers // 2 and spec.sliding_window == 128


def test_mxfp4_leaves_everything_but_routed_experts_at_16_bit():
    dense = _import({"quant_method": "gptq", "bits": 4, "group_size": 128})
    assert weight_bytes(dense, get_format("mxfp4")).per_gpu == weight_bytes(dense, get_format("bf16")).per_gpu


def test_mxfp4_on_a_dense_model_says_it_shrinks_nothing():
    from advisor.catalog import get_gpu, get_model
    from advisor.domain.sizing import SizingRequest
    from advisor.sizing import size

    dense = size(SizingRequest(model=get_model("qwen2.5-7b-instruct"), gpu=get_gpu("rtx-4090"), weights="mxfp4"))
    assert any(a.kind == "warning" and "routed experts only" in a.text for a in dense.advice)
    moe = size(SizingRequest(model=get_model("gpt-oss-20b"), gpu=get_gpu("rtx-4090"), weights="mxfp4"))
    assert not any("routed experts only" in a.text for a in moe.advice)


def test_the_checkpoints_own_group_size_sizes_its_scales_and_zeros():
    """The checkpoint's own group_size is used, not 128: groups of 32 carry four times the per-group fp16 scales
    and packed zeros (the GPTQ byte rule) of groups of 128, and a per-channel checkpoint (group_size -1) one per
    output row. Llama-3.1-8B per layer: q/k/v/o/gate/up read 4,096 inputs, down 14,336."""
    weights = {"num_bits": 8, "type": "int", "strategy": "group", "group_size": 32, "symmetric": True}
    g32 = _import(_ct(weights))
    g128 = _import(_ct(dict(weights, group_size=128)))
    channel = _import(_ct(dict(weights, strategy="channel", group_size=None)))
    fmt = get_format("gptq-int8")
    # per layer: inputs × outputs of every linear, summed as Σ cols × rows
    per_layer = 4096 * (4096 + 1024 + 1024) + 4096 * 4096 + 4096 * 14_336 * 2 + 14_336 * 4096
    scales_and_zeros_per_group = 2 + 1  # an fp16 scale and an 8-bit zero per group and output
    diff = weight_bytes(g32, fmt).per_gpu - weight_bytes(g128, fmt).per_gpu
    assert diff == 32 * scales_and_zeros_per_group * (per_layer // 32 - per_layer // 128)
    rows = 4096 + 1024 + 1024 + 4096 + 14_336 * 2 + 4096  # output channels of one layer
    assert weight_bytes(g128, fmt).per_gpu - weight_bytes(channel, fmt).per_gpu == 32 * 3 * (per_layer // 128 - rows)
