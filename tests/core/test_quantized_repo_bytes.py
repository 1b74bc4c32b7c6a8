"""Published quantized repositories that keep some layers in 16 bits weigh what their index.json says.

Qwen's Qwen3.5 GPTQ-Int4 releases quantize only the MLP (the routed experts of the MoE ones): their quantization_config
``dynamic`` table keeps attention and DeltaNet projections (``-:.*attn.*``), the shared expert, the MTP layer and the
vision tower in BF16. vLLM reads the table in model_executor/layers/quantization/utils/gptq_utils.py
(get_dynamic_override, commit 93e5a57): a ``-:`` key that re.match-es a module's name leaves it unquantized.

"Code-index id" is the id of a public GitHub file in the project's code search, where the quoted figure is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.catalog import get_model
from advisor.model_import import model_from_config
from advisor.sizing.advice import quantized_checkpoint
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format, tensor_bytes
from advisor.sizing.roofline import quantized_dense_bytes
from advisor.sizing.tensors import tensors
from advisor.sizing.unquantized import checkpoint_rules, kept_16bit, module_name, published_repo_rules

CONFIGS = Path(__file__).resolve().parents[1] / "fixtures" / "configs"
GPTQ = get_format("gptq-int4")
QWEN35_DYNAMIC = {"lm_head": {}, "model.language_model.embed_tokens": {}, "-:.*attn.*": {}, "-:.*shared_expert.*": {},
                  "-:.*mtp.*": {}, "-:.*visual.*": {}}  # fmt: skip


def _repository_bytes(spec) -> int:
    """Tensor data of the whole repository: what the engine loads, plus the MTP layer (kept BF16 by ``-:.*mtp.*``)
    and the extra 2 bytes an element of the DeltaNet A_log and norm, stored F32 in Qwen3.5's releases."""
    mtp = sum(2 * t.elements for t in tensors(spec) if t.mtp)
    f32 = sum(2 * t.elements for t in tensors(spec) if t.role in ("ssm_a_log", "ssm_norm"))
    return weight_bytes(spec, GPTQ).per_gpu + mtp + f32


@pytest.mark.parametrize(
    ("preset_id", "total_size"),
    [
        # Qwen/Qwen3.5-35B-A3B-GPTQ-Int4 at 3af5ca2: "124611 tensor names across 14 safetensors shards, total indexed
        # size 24403162208 bytes", g_idx present for every layer (code-index id 55044103545)
        ("qwen3.5-35b-a3b", 24_403_162_208),
        # Qwen/Qwen3.5-397B-A17B-GPTQ-Int4's size as a public config-parser test passes it (code-index id 57403603525)
        ("qwen3.5-397b-a17b", 235_657_499_488),
    ],
)
def test_qwen35_gptq_int4_repositories_weigh_what_is_published(preset_id, total_size):
    spec = get_model(preset_id)
    assert quantized_checkpoint(preset_id, GPTQ) == f"Qwen/{spec.hf_repo.split('/')[-1]}-GPTQ-Int4"
    assert _repository_bytes(spec) == total_size


def test_the_27b_quantizes_its_mlp_only():
    """Qwen3.5-27B-GPTQ-Int4 quantizes the dense MLP only: every one of the 48 DeltaNet and 16 attention layers'
    projections stays BF16, so the loaded weights are 29.4 GB, not the 18.7 GB an all-4-bit count gives."""
    spec = get_model("qwen3.5-27b")
    rules = checkpoint_rules(spec, "gptq-int4")
    kept = [t for t in tensors(spec) if kept_16bit(t, spec, rules) and not t.mtp]
    assert {t.role for t in kept} == {
        "attn_q",
        "attn_k",
        "attn_v",
        "attn_output",
        "ssm_in_qkvz",
        "ssm_in_ba",
        "ssm_out",
    }
    mlp = [t for t in tensors(spec) if t.role in ("ffn_gate", "ffn_up", "ffn_down") and not t.mtp]
    assert len(mlp) == 3 * 64 and not any(kept_16bit(t, spec, rules) for t in mlp)
    assert weight_bytes(spec, GPTQ).per_gpu == 29_385_628_128
    kept_params = sum(t.elements for t in kept)
    assert kept_params == 48 * (5120 * (10_240 + 6_144 + 96) + 6_144 * 5120) + 16 * (5120 * (12_288 + 2 * 1_024) + 6_144 * 5120)
    # the Marlin GEMMs read only the layers that are quantized: the MLP's packed weights, scales, zeros and g_idx
    assert quantized_dense_bytes(spec, GPTQ, 1) == sum(tensor_bytes(t, GPTQ, t.rows, t.cols) for t in mlp)


def test_the_weights_line_says_what_stays_16_bit(capsys):
    from tests.support.cli_run import printed  # in-process: the JSON is what is checked

    data = json.loads(printed(capsys, "calc", "--model", "qwen3.5-27b", "--weights", "gptq-int4", "--gpu", "h200-141g",
                              "--json"))  # fmt: skip
    assert data["weights_bytes"] == 29_385_628_128
    line = next(b["formula"] for b in data["memory"]["breakdown"] if b["key"] == "weights")
    assert "(7,237,795,840 of them kept 16-bit by the checkpoint's quantization_config)" in line
    assert data["vllm_command"].startswith("vllm serve Qwen/Qwen3.5-27B-GPTQ-Int4 ")


def test_an_imported_gptq_config_reads_its_dynamic_table_like_the_preset():
    cfg = json.loads((CONFIGS / "qwen3.5-35b-a3b.config.json").read_text(encoding="utf-8"))
    cfg["quantization_config"] = {"bits": 4, "group_size": 128, "sym": True, "desc_act": False, "quant_method": "gptq",
                                  "dynamic": QWEN35_DYNAMIC}  # fmt: skip
    spec = model_from_config(cfg)
    assert spec.checkpoint_quant == "gptq-int4"
    assert spec.quant_kept_16bit == ("q:lm_head", "q:model.language_model.embed_tokens", "re:.*attn.*",
                                     "re:.*shared_expert.*", "re:.*mtp.*", "re:.*visual.*")  # fmt: skip
    assert _repository_bytes(spec) == 24_403_162_208
    # without the table every linear layer counts as 4-bit: the repository would look 3.3 GB smaller than it is
    plain = model_from_config(dict(cfg, quantization_config=dict(cfg["quantization_config"], dynamic={})))
    assert _repository_bytes(spec) - _repository_bytes(plain) > 1_600_000_000


def test_modules_to_not_convert_keeps_the_named_modules_in_16_bits():
    """AutoAWQ / transformers write ``modules_to_not_convert``: a module whose name contains an entry is not quantized
    (vLLM's awq.py is_layer_skipped_awq)."""
    cfg = json.loads((CONFIGS / "llama-3.1-8b-instruct.config.json").read_text(encoding="utf-8"))
    quant = {"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": True}
    plain = model_from_config(dict(cfg, quantization_config=quant))
    skipped = model_from_config(
        dict(cfg, quantization_config=dict(quant, modules_to_not_convert=["self_attn.o_proj"]))
    )
    awq = get_format("awq-int4")
    o_proj = next(t for t in tensors(skipped) if t.role == "attn_output")
    assert module_name(o_proj, skipped) == f"model.layers.{o_proj.layer}.self_attn.o_proj"
    per_layer = 4096 * 4096 * 2 - (
        4096 * 4096 // 2 + 32 * 4096 * 2 + 32 * 4096 // 2
    )  # BF16 less AWQ int4 + scales
    assert weight_bytes(skipped, awq).per_gpu - weight_bytes(plain, awq).per_gpu == 32 * per_layer


def test_every_recorded_rule_names_a_known_repository():
    for preset_id, by_format in published_repo_rules().items():
        for fmt_id, entry in by_format.items():
            assert quantized_checkpoint(preset_id, get_format(fmt_id)) == entry["repo"]
            assert entry["source"]


def _llama_gptq(dynamic: dict):
    cfg = json.loads((CONFIGS / "llama-3.1-8b-instruct.config.json").read_text(encoding="utf-8"))
    quant = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True, "dynamic": dynamic}
    return model_from_config(dict(cfg, quantization_config=quant))


def test_a_dynamic_bits_override_sizes_those_layers_at_their_bits():
    """GPTQModel's positive keys override bits for what they match (vLLM's override_config): 8-bit down_proj in a
    4-bit checkpoint. Llama-3.1-8B's down_proj is 4,096 × 14,336: 8 bits add half a byte per weight and per zero."""
    plain, mixed = _llama_gptq({}), _llama_gptq({"+:.*down_proj": {"bits": 8}})
    extra = 4096 * 14_336 // 2 + (14_336 // 128) * 4096 // 2
    assert weight_bytes(mixed, GPTQ).per_gpu - weight_bytes(plain, GPTQ).per_gpu == 32 * extra


def test_the_first_dynamic_key_that_matches_decides():
    """vLLM's get_dynamic_override returns at the first key that matches: a positive key listed before a negative
    one keeps its modules quantized."""
    spec = _llama_gptq({"+:.*q_proj": {}, "-:.*self_attn.*": {}})
    rules = spec.quant_kept_16bit
    kept = {t.role for t in tensors(spec) if kept_16bit(t, spec, rules)}
    assert kept == {"attn_k", "attn_v", "attn_output"}
