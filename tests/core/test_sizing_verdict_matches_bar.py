"""The Sizing verdict and the memory bar tell one story, whatever the engine (s18-sglcmd): the requests fit exactly when
the breakdown's total (everything but "free") is within the GPU's usable memory. SGLang's breakdown shows what it
reserves (weights + KV inside its mem_fraction_static share; activations, graphs and workspaces in what the share
leaves), vLLM's the 1 − gpu_memory_utilization it holds back; an RTX 4090 with SGLang once said "Fits" beside a bar of
24.7 GiB needed against 23.6 GiB usable."""

from __future__ import annotations

import itertools

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sizing import SizingRequest
from advisor.sizing import size

MODELS = ("llama-3.1-8b-instruct", "qwen3-8b", "gemma-3-12b-it", "mistral-7b-instruct-v0.3")
GPUS = ("rtx-4090", "a10", "l40s", "h100-sxm-80g")
ENGINES = ("vllm", "sglang", "trtllm")
LOADS = ((1, 8192), (4, 8192), (6, 8192), (3, 32768), (16, 4096))


def _request(model: str, gpu: str, engine: str, concurrency: int, context: int, weights: str = "bf16") -> SizingRequest:
    return SizingRequest(model=get_model(model), gpu=get_gpu(gpu), weights=weights, kv_dtype="bf16", context=context,
                         concurrency=concurrency, gpus=1, engine_profile=engine)  # fmt: skip


@pytest.mark.parametrize("model,gpu,engine", list(itertools.product(MODELS, GPUS, ENGINES)))
def test_fits_exactly_when_the_breakdown_is_within_the_usable_memory(model, gpu, engine):
    verdicts = set()
    for concurrency, context in LOADS:
        res = size(_request(model, gpu, engine, concurrency, context))
        mem = res.memory
        needed = sum(item.bytes for item in mem.breakdown if item.key != "free")
        assert needed == mem.total_bytes  # the bar's segments add up to the total the CLI prints
        assert (res.verdict == "fits") == (needed <= mem.gpu_memory_bytes), (concurrency, context, res.verdict, needed)
        verdicts.add(res.verdict)
    if gpu == "rtx-4090" and model != "gemma-3-12b-it":  # the loads reach both sides of the line on a 24 GB card, so both directions are exercised
        assert {"fits", "does_not_fit"} <= verdicts


def test_gguf_on_llama_cpp_too():
    for concurrency in (1, 8, 64):
        res = size(_request("llama-3.1-8b-instruct", "rtx-4090", "vllm", concurrency, 8192, weights="gguf-q4_k_m"))
        assert (res.verdict == "fits") == (res.memory.total_bytes <= res.memory.gpu_memory_bytes)


def test_the_reported_case_sglang_on_an_rtx_4090():
    """Four 8k requests of an 8B BF16 model fit SGLang's pool on a 4090: the bar no longer says more than the card."""
    res = size(_request("llama-3.1-8b-instruct", "rtx-4090", "sglang", 4, 8192))
    assert res.verdict == "fits"
    mem = res.memory
    parts = {item.key: item.bytes for item in mem.breakdown}
    assert mem.total_bytes <= mem.gpu_memory_bytes
    # SGLang's static share (weights + KV pool) and what it leaves (activations, graphs, workspaces) fill the free
    # memory before loading; the bar shows the requests' KV inside the share, the unused pool as free
    assert "held_back" not in parts and mem.held_back_bytes == 0
    assert parts["free"] == mem.gpu_memory_bytes - mem.total_bytes == mem.kv_budget_bytes - mem.kv_cache_bytes
    # what the share leaves, not the estimated peak of one step: SGLang's own 2,048-token chunk on a 24 GB card
    # fits in it (no warning); a larger one would not (tests/core/test_sizing_sglang_share_warning.py)
    assert parts["activations"] > mem.activation_bytes and mem.activation_over_share_bytes == 0


def test_vllm_shows_what_gpu_memory_utilization_holds_back(capsys):
    res = size(_request("llama-3.1-8b-instruct", "rtx-4090", "vllm", 1, 8192))
    mem = res.memory
    parts = {item.key: item.bytes for item in mem.breakdown}
    expected = mem.gpu_memory_bytes - mem.engine_budget_bytes - parts["cuda_context"]  # graphs inside the budget
    assert parts["held_back"] == mem.held_back_bytes == expected > 0
    assert mem.total_bytes == mem.weights_bytes + mem.kv_cache_bytes + mem.overhead_bytes + mem.held_back_bytes
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--gpu", "rtx-4090", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["held_back_bytes"] == expected and data["total_bytes"] == mem.total_bytes
