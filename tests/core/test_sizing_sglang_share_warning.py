"""SGLang's static memory share against one step's activations (issue #28): the Sizing side warns, in both
languages, when what ``--mem-fraction-static`` leaves outside the weights and KV pool is smaller than the sizing
core's estimate of one prefill step, and offers the share that leaves room."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size

WARN = "sizing.advice.sglang_share"


def _request(gpu: str, profile: str = "sglang", model: str = "qwen2.5-7b-instruct", weights: str = "bf16", **engine) -> SizingRequest:
    return SizingRequest(model=get_model(model), gpu=get_gpu(gpu), gpus=1, context=8192, concurrency=1, weights=weights,
                         engine_profile=profile, engine=EngineSettings(**engine))  # fmt: skip


GEMMA = {"model": "gemma-3-12b-it", "weights": "fp8"}  # a 262,144-token vocabulary: 2,048 rows of logits are large


def _share_warnings(res):
    return [a for a in res.advice if a.kind == "warning" and a.flags and a.flags.startswith("--mem-fraction-static")]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_4090_at_sglangs_default_share_is_warned(lang):
    """Gemma-3-12B in FP8 on a 4090: SGLang's default share keeps room for its own 2,048-token chunk by its rule of
    thumb (1.5 MiB a token), which a 262k-token vocabulary's logits outgrow."""
    res = size(_request("rtx-4090", **GEMMA), lang=lang)
    mem = res.memory
    assert mem.activation_over_share_bytes > 0
    assert mem.activation_over_share_bytes == mem.activation_bytes - next(b.bytes for b in mem.breakdown if b.key == "activations")
    (warning,) = _share_warnings(res)
    assert "--mem-fraction-static" in warning.text and "{" not in warning.text
    room = float(warning.flags.split()[-1])
    # the share offered leaves the step its room: sized again with it, nothing is over
    again = size(_request("rtx-4090", mem_fraction_static=room, **GEMMA), lang=lang)
    assert again.memory.activation_over_share_bytes == 0 and not _share_warnings(again)


def test_a_share_set_too_high_is_warned_as_set():
    res = size(_request("h100-sxm-80g", mem_fraction_static=0.99))
    (warning,) = _share_warnings(res)
    assert "as set" in warning.text


def test_sglangs_own_chunk_on_a_small_gpu_and_a_larger_one_set():
    """SGLang prefills 2,048 tokens a step on a 24 GB card when not told (server_args.py, every release): a 7B model
    at its defaults is not warned; told to take 8,192-token steps at the same default share, it is."""
    res = size(_request("rtx-4090"))
    assert res.memory.activation_over_share_bytes == 0 and not _share_warnings(res)
    assert "--chunked-prefill-size" not in (res.sglang_command or "")  # the default, not written out
    wide = size(_request("rtx-4090", max_num_batched_tokens=8192))
    assert wide.memory.activation_over_share_bytes > 0 and _share_warnings(wide)


def test_no_warning_where_the_share_leaves_room_or_for_vllm():
    assert not _share_warnings(size(_request("h100-sxm-80g")))
    vllm = size(_request("rtx-4090", profile="vllm"))
    assert vllm.memory.activation_over_share_bytes == 0 and not _share_warnings(vllm)


def test_sglangs_chunk_by_release():
    from advisor.sizing.sglang_pool import default_chunked_prefill_size

    assert default_chunked_prefill_size(24_564, "0.4.2") == 2048 and default_chunked_prefill_size(81_559, "0.4.2") == 8192
    assert default_chunked_prefill_size(196_592, "0.4.2") == 8192  # MI300X before #7054
    assert default_chunked_prefill_size(196_592, "0.4.8") == 16384
    assert default_chunked_prefill_size(46_068, "0.4.8") == 8192 and default_chunked_prefill_size(46_068) == 4096  # L40S
