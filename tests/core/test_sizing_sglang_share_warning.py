"""SGLang's static memory share against one step's activations (issue #28): the Sizing side warns, in both
languages, when what ``--mem-fraction-static`` leaves outside the weights and KV pool is smaller than the sizing
core's estimate of one prefill step, and offers the share that leaves room."""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size

WARN = "sizing.advice.sglang_share"


def _request(gpu: str, profile: str = "sglang", **engine) -> SizingRequest:
    return SizingRequest(model=get_model("qwen2.5-7b-instruct"), gpu=get_gpu(gpu), gpus=1, context=8192, concurrency=1,
                         engine_profile=profile, engine=EngineSettings(**engine))  # fmt: skip


def _share_warnings(res):
    return [a for a in res.advice if a.kind == "warning" and a.flags and a.flags.startswith("--mem-fraction-static")]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_4090_at_sglangs_default_share_is_warned(lang):
    res = size(_request("rtx-4090"), lang=lang)
    mem = res.memory
    assert mem.activation_over_share_bytes > 0
    assert mem.activation_over_share_bytes == mem.activation_bytes - next(b.bytes for b in mem.breakdown if b.key == "activations")
    (warning,) = _share_warnings(res)
    assert "--mem-fraction-static" in warning.text and "{" not in warning.text
    room = float(warning.flags.split()[-1])
    # the share offered leaves the step its room: sized again with it, nothing is over
    again = size(_request("rtx-4090", mem_fraction_static=room), lang=lang)
    assert again.memory.activation_over_share_bytes == 0 and not _share_warnings(again)


def test_a_share_set_too_high_is_warned_as_set():
    res = size(_request("h100-sxm-80g", mem_fraction_static=0.99))
    (warning,) = _share_warnings(res)
    assert "as set" in warning.text


def test_no_warning_where_the_share_leaves_room_or_for_vllm():
    assert not _share_warnings(size(_request("h100-sxm-80g")))
    vllm = size(_request("rtx-4090", profile="vllm"))
    assert vllm.memory.activation_over_share_bytes == 0 and not _share_warnings(vllm)
