"""The headline is never "fits" for a setup the engine refuses: TP degrees and contexts it will not start with."""

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size
from advisor.sizing.parallel import tp_refusal

QWEN7 = get_model("qwen2.5-7b-instruct")  # 28 attention heads, 4 KV heads, 32k context
H100 = get_gpu("h100-sxm-80g")


def _headline(result):
    return next(a for a in result.advice if a.kind in ("fits", "does_not_fit"))


@pytest.mark.parametrize(
    ("tp", "why"),
    [(1, None), (2, None), (4, None), (3, "attention_heads"), (8, "attention_heads"), (16, "attention_heads"), (7, "kv_heads"), (14, "kv_heads")],
)
def test_vllm_tp_rule(tp, why):
    # vLLM: heads % tp == 0; KV heads split (kv % tp) below, replicated a whole number of times (tp % kv) above.
    assert tp_refusal(QWEN7, tp) == why


@pytest.mark.parametrize("gpus", [3, 16])
def test_refused_tp_never_reads_fits(gpus):
    r = size(SizingRequest(model=QWEN7, gpu=H100, gpus=gpus), "en")
    assert r.memory.fits  # memory alone is fine ...
    assert r.verdict == "engine_refuses" and r.engine_refusal == "attention_heads"
    head = _headline(r)
    assert head.kind == "does_not_fit" and "refuses" in head.text
    assert all(a.kind != "fits" for a in r.advice)
    assert f"--tensor-parallel-size {gpus}" not in (r.vllm_command or "")  # the command to copy starts


def test_context_beyond_the_model_leads_with_the_cap():
    r = size(SizingRequest(model=QWEN7, gpu=H100, context=10_000_000), "en")
    assert r.verdict == "context_too_long"
    first = r.advice[0]
    assert first.kind == "does_not_fit" and first.flags == f"--max-model-len {QWEN7.max_context}"
    assert f"--max-model-len {QWEN7.max_context}" in r.vllm_command
    assert r.perf.prompt_tokens + r.perf.output_tokens <= QWEN7.max_context  # no TTFT of days
    assert r.perf.prefill_ms.value < 10_000


def test_an_over_long_context_is_answered_by_the_cap_alone():
    # the KV cache 10M tokens would need (534 GiB) says nothing the cap does not; and one request reads as one
    r = size(SizingRequest(model=QWEN7, gpu=get_gpu("rtx-4090"), context=10_000_000), "en")
    texts = [a.text for a in r.advice]
    assert not any("KV cache, but only" in t for t in texts), texts
    assert not any("1 requests" in t or "1 users" in t for t in texts), texts


def test_context_cap_is_the_memory_cap_when_that_is_smaller():
    r = size(SizingRequest(model=QWEN7, gpu=get_gpu("rtx-4090"), context=10_000_000, concurrency=64), "en")
    first = r.advice[0]
    cap = r.memory.max_context
    assert 16 <= cap < QWEN7.max_context
    assert first.flags == f"--max-model-len {cap}" and f"--max-model-len {cap}" in r.vllm_command


def test_accepted_setup_still_fits():
    r = size(SizingRequest(model=QWEN7, gpu=H100, gpus=2), "en")
    assert r.verdict == "fits" and _headline(r).kind == "fits"


def test_room_for_a_single_request_is_said_as_such():
    # Qwen2.5-7B at 32k on one RTX 4090 at 75 % memory: the KV cache holds one full context (not "up to 1 concurrent
    # requests")
    engine = EngineSettings(gpu_memory_utilization=0.75)
    r = size(SizingRequest(model=QWEN7, gpu=get_gpu("rtx-4090"), context=32768, concurrency=1, engine=engine), "en")
    assert r.memory.max_concurrency == 1 and r.verdict == "fits"
    assert _headline(r).text == "Fits: one request at a time at 32k context."
    assert "一次只能处理 1 个请求" in _headline(size(r.request, "zh_CN")).text


def test_calc_json_says_engine_refuses(capsys):
    import json

    from tests.support.cli_run import printed  # in-process: exit status 0 and the JSON are what is checked

    # an answer, like "does not fit" (exit status 0); the verdict says no
    data = json.loads(printed(capsys, "calc", "--model", "qwen2.5-7b-instruct", "--gpus", "3", "--json", "--lang", "en"))
    assert data["fits"] is False and data["verdict"] == "engine_refuses" and data["memory"]["fits"] is True
