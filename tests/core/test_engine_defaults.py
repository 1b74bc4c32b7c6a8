"""Batch settings left open take what the engine itself picks on the GPU (vLLM's get_batch_defaults: 256 sequences
and 2048 tokens a step, 1024 and 8192 on GPUs with >= 70 GiB that are not A100s), in the overview, the catalog
table, the simulator and the CLI alike; a value the user gives is kept."""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sim.costs import setup_from_ids
from advisor.sizing import size
from advisor.sizing.fleet import catalog_table


def _req(gpu: str, **kw) -> SizingRequest:
    return SizingRequest(model=get_model("qwen2.5-3b"), gpu=get_gpu(gpu), context=1024, **kw)


@pytest.mark.parametrize(
    ("gpu", "seqs", "tokens"),
    [("h100-sxm-80g", 1024, 8192), ("h200-141g", 1024, 8192), ("a100-sxm-80g", 256, 2048), ("rtx-4090", 256, 2048)],
)
def test_open_batch_settings_follow_vllm_on_each_gpu(gpu, seqs, tokens):
    res = size(_req(gpu))
    assert (res.engine.max_num_seqs, res.engine.max_num_batched_tokens) == (seqs, tokens)
    assert res.request.engine.max_num_seqs is None  # the request is returned as asked
    setup = setup_from_ids("qwen2.5-3b", gpu, context=1024)
    assert (setup.limits.max_num_seqs, setup.limits.max_num_batched_tokens) == (seqs, tokens)


def test_a_value_the_user_gives_is_kept_and_the_other_stays_open():
    res = size(_req("h100-sxm-80g", engine=EngineSettings(max_num_seqs=64)))
    assert (res.engine.max_num_seqs, res.engine.max_num_batched_tokens) == (64, 8192)
    assert "--max-num-batched-tokens" not in (res.vllm_command or "")  # vLLM's own default: no flag needed
    mine = size(_req("rtx-4090", engine=EngineSettings(max_num_batched_tokens=8192)))
    assert "--max-num-batched-tokens 8192" in (mine.vllm_command or "")  # differs from vLLM's 2048 there


def test_a_thousand_users_on_an_h100_need_no_max_num_seqs_flag():
    """vLLM already runs 1024 sequences on an H100: the headline is not capped at 256 and nothing asks to raise it."""
    res = size(_req("h100-sxm-80g", concurrency=1000))
    assert res.memory.max_concurrency == 1024  # vLLM's cap there (the KV cache would hold more)
    assert not any(a.flags == "--max-num-seqs 1000" for a in res.advice)
    small = size(_req("rtx-4090", concurrency=1000))
    assert small.engine.max_num_seqs == 256 and small.memory.max_concurrency <= 256  # vLLM's cap on a 4090


def test_each_engine_profile_brings_its_own_defaults():
    res = size(_req("rtx-4090", engine_profile="sglang"))
    assert res.engine.max_num_seqs == 4096  # resources/engines/profiles.json


def test_the_catalog_table_uses_each_gpus_defaults():
    rows = {r.gpu_id: r for r in catalog_table(_req("rtx-4090", concurrency=1000))}
    assert rows["h100-sxm-80g"].max_concurrency > 256  # vLLM's 1024 there
    assert rows["rtx-4090"].max_concurrency <= 256


def test_advisor_calc_reports_the_defaults_it_used(capsys):
    from advisor.cli import main

    assert main(["calc", "--model", "qwen2.5-3b", "--gpu", "h100-sxm-80g", "--context", "1024", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["engine"]["max_num_seqs"], out["engine"]["max_num_batched_tokens"]) == (1024, 8192)
    assert main(["calc", "--model", "qwen2.5-3b", "--gpu", "h100-sxm-80g", "--context", "1024", "--max-num-seqs",
                 "32", "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["engine"]["max_num_seqs"] == 32


def test_defaults_sized_for_a_thousand_users_give_way_to_one_long_context():
    # Llama-3.3-70B in FP8 on one H100 at 6k: vLLM's H100 defaults (1,024 sequences, 8,192-token steps) reserve
    # ~2 GiB for the start-up profile's peak (an 8,192-token step; the dummy sampler run over 1,024 rows of logits)
    # and, since 0.21, its CUDA graphs, leaving 2,656 tokens of KV. The advice names the batch settings that serve
    # the one request asked for, and those settings really fit.
    req = SizingRequest(model=get_model("llama-3.3-70b-instruct"), gpu=get_gpu("h100-sxm-80g"), weights="fp8", context=6144)
    res = size(req, "en")
    assert not res.memory.fits and res.memory.weights_fit
    lean = [a for a in res.advice if a.flags and "--max-num-batched-tokens" in a.flags]
    assert len(lean) == 1 and lean[0].flags == "--max-num-seqs 1 --max-num-batched-tokens 2048", res.advice
    assert "1 request fits at 6k context" in lean[0].text
    applied = size(req.model_copy(update={"engine": EngineSettings(max_num_seqs=1, max_num_batched_tokens=2048)}), "en")
    assert applied.memory.fits and applied.memory.activation_bytes < res.memory.activation_bytes


def test_no_batch_advice_where_the_batch_is_already_lean_or_it_would_not_help():
    # already at the load's size: nothing to give back
    engine = EngineSettings(max_num_seqs=1, max_num_batched_tokens=2048)
    res = size(SizingRequest(model=get_model("llama-3.3-70b-instruct"), gpu=get_gpu("h100-sxm-80g"), context=32768, engine=engine), "en")
    assert not res.memory.fits
    assert not any(a.flags and "--max-num-batched-tokens" in a.flags for a in res.advice)
    # the weights alone do not fit (bf16 70B on one H100): batch settings cannot help
    res = size(SizingRequest(model=get_model("llama-3.3-70b-instruct"), gpu=get_gpu("h100-sxm-80g"), context=8192), "en")
    assert not res.memory.weights_fit
    assert not any(a.flags and "--max-num-batched-tokens" in a.flags for a in res.advice)


def test_the_command_starts_the_engine_the_estimate_describes():
    """The KV cache shown is what vLLM has left after reserving the sampler's logits for max_num_seqs sequences: a
    command that set --max-num-seqs to the load while the estimate kept the default would start a server with ~1 GiB
    more KV cache than the page says (the dummy sampler run over max_num_seqs rows of logits: advisor/sizing/vllm_profile.py)."""
    fits = size(_req("h100-sxm-80g", concurrency=32))
    assert fits.memory.fits and "--max-num-seqs" not in (fits.vllm_command or "")  # vLLM's default, as estimated
    mine = size(_req("h100-sxm-80g", concurrency=32, engine=EngineSettings(max_num_seqs=64)))
    assert "--max-num-seqs 64" in (mine.vllm_command or "")  # the user's cap, which the estimate used
    assert mine.memory.kv_tokens > fits.memory.kv_tokens  # fewer sequences' logits reserved: more KV cache
    more = size(_req("rtx-4090", concurrency=300))  # more than vLLM's 256 on a 4090: raise the cap, as advised
    assert more.memory.limited_by == "max_num_seqs" and "--max-num-seqs 300" in (more.vllm_command or "")
    assert any(a.flags == "--max-num-seqs 300" for a in more.advice)
