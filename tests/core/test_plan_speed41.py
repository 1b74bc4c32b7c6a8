"""Session 41's memoised scans (issue #27) answer each model, format and GPU count as the scan itself does, in any
order of asking: a cache hit is never another input's result (``memory._kept_note``,
``roofline.quantized_dense_bytes``, ``roofline.quantized_dense_flops_per_token``)."""

from __future__ import annotations

from advisor.catalog import get_model
from advisor.sizing import memory, roofline
from advisor.sizing.quant import get_format

MODELS = ("qwen3.5-27b", "qwen2.5-7b-instruct", "qwen2.5-72b-instruct")
FORMATS = ("gptq-int4", "awq-int4", "fp8", "bf16")


def _cases():
    for model_id in MODELS:
        spec = get_model(model_id)
        for fmt_id in FORMATS:
            yield spec, get_format(fmt_id)


def test_the_memoised_scans_equal_the_scans_in_either_order():
    cases = list(_cases())
    for order in (cases, cases[::-1]):
        for spec, fmt in order:
            assert memory._kept_note(spec, fmt) == memory._kept_note.__wrapped__(spec, fmt)
            flops = roofline.quantized_dense_flops_per_token(spec, fmt)
            assert flops == roofline.quantized_dense_flops_per_token.__wrapped__(spec, fmt)
            for gpus in (1, 2, 4):
                got = roofline.quantized_dense_bytes(spec, fmt, gpus)
                assert got == roofline.quantized_dense_bytes.__wrapped__(spec, fmt, gpus)


def test_the_kept_note_names_the_checkpoints_own_16_bit_layers_only_where_it_keeps_some():
    spec = get_model("qwen3.5-27b")  # its GPTQ-Int4 repository keeps attention and DeltaNet projections in BF16
    assert "kept 16-bit" in memory._kept_note(spec, get_format("gptq-int4"))
    assert memory._kept_note(spec, get_format("bf16")) == ""
    # a model whose published quantized checkpoint keeps nothing 16-bit: no note, after the one above was cached
    assert memory._kept_note(get_model("qwen2.5-7b-instruct"), get_format("gptq-int4")) == ""


def test_more_gpus_split_the_marlin_bytes():
    spec, fmt = get_model("qwen2.5-72b-instruct"), get_format("gptq-int4")
    one, two = roofline.quantized_dense_bytes(spec, fmt, 1), roofline.quantized_dense_bytes(spec, fmt, 2)
    assert 0 < two < one
