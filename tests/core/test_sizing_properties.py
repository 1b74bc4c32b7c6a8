"""Property tests: estimates move the right way, and invalid input is refused with a field-level message."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.model_import import ModelImportError, model_from_config
from advisor.sizing import size
from advisor.sizing.memory import weight_bytes
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import ATTENTION_CALL_FIXED_S, ELEMENTWISE_OP_FIXED_S

MODEL = get_model("qwen2.5-7b-instruct")
GPU = get_gpu("rtx-4090")
contexts = st.integers(min_value=16, max_value=131072)
concurrency = st.integers(min_value=1, max_value=512)


def _size(**kw):
    base = {"model": MODEL, "gpu": GPU}
    base.update(kw)
    return size(SizingRequest(**base))


@settings(max_examples=40, deadline=None)
@given(c1=contexts, c2=contexts, n=concurrency)
def test_longer_context_never_raises_max_concurrency(c1, c2, n):
    lo, hi = sorted((c1, c2))
    assert _size(context=hi, concurrency=n).memory.max_concurrency_kv <= _size(context=lo, concurrency=n).memory.max_concurrency_kv


@settings(max_examples=40, deadline=None)
@given(ctx=contexts, n1=concurrency, n2=concurrency)
def test_more_requests_need_more_kv_and_allow_shorter_context(ctx, n1, n2):
    lo, hi = sorted((n1, n2))
    a, b = _size(context=ctx, concurrency=lo).memory, _size(context=ctx, concurrency=hi).memory
    assert b.kv_cache_bytes >= a.kv_cache_bytes
    assert b.max_context <= a.max_context
    assert not (b.fits and not a.fits)


@settings(max_examples=20, deadline=None)
@given(util1=st.floats(0.5, 0.98), util2=st.floats(0.5, 0.98))
def test_more_memory_for_the_engine_means_more_kv_tokens(util1, util2):
    lo, hi = sorted((util1, util2))
    a = _size(engine=EngineSettings(gpu_memory_utilization=lo)).memory
    b = _size(engine=EngineSettings(gpu_memory_utilization=hi)).memory
    assert b.kv_tokens >= a.kv_tokens


def test_fewer_bits_fewer_weight_bytes():
    order = ["bf16", "fp8", "gguf-q8_0", "gguf-q6_k", "gguf-q5_k_m", "gguf-q4_k_m", "gguf-q3_k_m", "gguf-q2_k"]
    sizes = [weight_bytes(MODEL, get_format(f), 1).per_gpu for f in order]
    assert sizes == sorted(sizes, reverse=True)
    assert weight_bytes(MODEL, get_format("awq-int4"), 1).per_gpu < weight_bytes(MODEL, get_format("gptq-int8"), 1).per_gpu


def test_more_gpus_less_weight_per_gpu_and_faster_decode():
    m = get_model("llama-3.3-70b-instruct")
    h100 = get_gpu("h100-sxm-80g")
    one = size(SizingRequest(model=m, gpu=h100, gpus=2))
    four = size(SizingRequest(model=m, gpu=h100, gpus=4))
    assert four.memory.weights_bytes < one.memory.weights_bytes
    assert four.perf.decode_tokens_per_s.value > one.perf.decode_tokens_per_s.value


def test_prefill_is_compute_bound_and_decode_bandwidth_bound_at_batch_one():
    r = _size(context=4096, concurrency=1)
    assert r.perf.prefill_bound == "compute"
    assert r.perf.decode_bound == "bandwidth"
    assert r.perf.decode_tokens_per_s.low <= r.perf.decode_tokens_per_s.value <= r.perf.decode_tokens_per_s.high


def test_decode_at_batch_one_is_weights_over_bandwidth():
    """Memory time of one decode step ≈ the weight bytes a step reads / (bandwidth × the share decode-shaped GEMMs
    reach on this GPU: the L40S's 0.783 for an Ada GDDR card) when the context is short: every weight but the untied
    input embedding table, of which the lookup gathers one row per token."""
    r = _size(context=64, concurrency=1, prompt_tokens=32, output_tokens=32)
    fmt = get_format("bf16")
    assert not MODEL.tie_word_embeddings
    table = MODEL.vocab_size * MODEL.hidden_size * 2
    read = weight_bytes(MODEL, fmt, 1).per_gpu - table
    # + the embedding lookup (step overhead) and three norm/activation kernels per layer (NVIDIA aiconfigurator's step model)
    small_ms = 0.003 + MODEL.num_layers * 3 * ELEMENTWISE_OP_FIXED_S * 1000
    expected_ms = read / (GPU.bandwidth_bytes_per_s * 0.783) * 1000 + small_ms
    assert r.perf.decode_step_ms.value == pytest.approx(expected_ms, rel=0.02)
    small = get_model("qwen2.5-3b")
    assert small.tie_word_embeddings  # the table is the output head too: read in full every step
    tied = size(SizingRequest(model=small, gpu=GPU, context=64, concurrency=1, prompt_tokens=32, output_tokens=32))
    # the embedding lookup + per layer the attention kernel's launch and three norm/activation kernels
    fixed_ms = 0.003 + small.num_layers * (ATTENTION_CALL_FIXED_S + 3 * ELEMENTWISE_OP_FIXED_S) * 1000
    tied_ms = weight_bytes(small, fmt, 1).per_gpu / (GPU.bandwidth_bytes_per_s * 0.783) * 1000 + fixed_ms
    assert tied.perf.decode_step_ms.value == pytest.approx(tied_ms, rel=0.01)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("context", -5, "at least 16"),
        ("context", 0, "at least 16"),
        ("concurrency", 0, "at least 1"),
        ("gpus", 0, "at least 1"),
        ("context", 10**9, "beyond"),
    ],
)
def test_invalid_request_names_the_field(field, value, words):
    with pytest.raises(ValidationError) as exc:
        SizingRequest(model=MODEL, gpu=GPU, **{field: value})
    err = exc.value.errors()[0]
    assert err["loc"] == (field,)
    assert words in err["msg"]


@pytest.mark.parametrize("util", [math.nan, 0.0, 1.5])
def test_invalid_engine_setting_rejected(util):
    with pytest.raises(ValidationError):
        EngineSettings(gpu_memory_utilization=util)


def test_heads_not_divisible_by_kv_heads_is_explained():
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 2,
           "num_attention_heads": 32, "num_key_value_heads": 5, "intermediate_size": 11008, "vocab_size": 32000,
           "max_position_embeddings": 4096}  # fmt: skip
    with pytest.raises(ModelImportError, match="multiple of the number of KV heads"):
        model_from_config(cfg)


def test_missing_field_is_named():
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "num_hidden_layers": 2, "num_attention_heads": 32}
    with pytest.raises(ModelImportError, match="hidden_size"):
        model_from_config(cfg)


def test_unknown_architecture_is_named():
    with pytest.raises(ModelImportError, match="falcon"):
        model_from_config({"model_type": "falcon", "architectures": ["FalconForCausalLM"]})


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", ""])
def test_broken_json_text(text, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(text)
    with pytest.raises(ModelImportError):
        model_from_config(path)


@settings(max_examples=30, deadline=None)
@given(
    context=st.one_of(st.integers(max_value=15), st.integers(min_value=100_000_001)),
    gpus=st.integers(max_value=0),
    concurrency=st.integers(max_value=0),
)
def test_out_of_range_input_is_always_refused(context, gpus, concurrency):
    for field, value in (("context", context), ("gpus", gpus), ("concurrency", concurrency)):
        with pytest.raises(ValidationError) as exc:
            SizingRequest(model=MODEL, gpu=GPU, **{field: value})
        assert exc.value.errors()[0]["loc"] == (field,)


@settings(max_examples=30, deadline=None)
@given(heads=st.integers(1, 128), kv=st.integers(1, 128))
def test_kv_heads_must_divide_heads(heads, kv):
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 128 * heads,
           "num_hidden_layers": 2, "num_attention_heads": heads, "num_key_value_heads": kv,
           "intermediate_size": 256, "vocab_size": 1000, "max_position_embeddings": 4096}  # fmt: skip
    if heads % kv == 0:
        assert model_from_config(cfg).num_kv_heads == kv
    else:
        with pytest.raises(ModelImportError, match="num_attention_heads"):
            model_from_config(cfg)


def test_when_no_tp_fits_the_full_node_answer_is_given():
    req = SizingRequest(model=get_model("llama-3.1-70b-instruct"), gpu=get_gpu("h20-96g"), gpus=2, context=32768, concurrency=64)
    r = size(req)
    assert r.min_gpus is None
    full = [a for a in r.advice if a.flags and "--tensor-parallel-size 8" in a.flags]
    assert full, [a.text for a in r.advice]
    at8 = size(req.model_copy(update={"gpus": 8}))
    assert f"--max-num-seqs {at8.memory.max_concurrency}" in full[0].flags


def test_the_command_to_copy_uses_the_gpu_count_that_fits():
    req = SizingRequest(model=get_model("llama-3.1-70b-instruct"), gpu=get_gpu("h20-96g"), context=32768, concurrency=8)
    r = size(req)
    assert not r.memory.fits and r.min_gpus and r.min_gpus > 1
    assert f"--tensor-parallel-size {r.min_gpus}" in r.vllm_command and "--max-num-seqs 8" in r.vllm_command
    assert size(req.model_copy(update={"gpus": r.min_gpus})).memory.fits
