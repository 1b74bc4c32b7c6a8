"""The core's field-level validation messages read in the language asked for: our own checks (sizing request,
GPU spec, model spec) and pydantic's built-in ones (bounds, types), never pydantic's English in a Chinese sentence."""

import re

import pytest
from pydantic import ValidationError

from advisor import catalog, i18n
from advisor.domain.gpu import GiB, GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.validation import validation_message

CJK = re.compile(r"[\u4e00-\u9fff]")
PYDANTIC_ENGLISH = re.compile(r"Input should|Value error|Field required|must be|is beyond|cannot exceed|give the")


@pytest.fixture
def chinese():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language("en")


def _message(build) -> str:
    with pytest.raises(ValidationError) as info:
        build()
    return validation_message(info.value)


def _cases():
    model, gpu = catalog.load_models()[0], catalog.load_gpus()[0]
    spec, arch = gpu.model_dump(), model.model_dump()
    return [
        lambda: SizingRequest(model=model, gpu=gpu, context=8192, shared_prefix_tokens=9000),
        lambda: SizingRequest(model=model, gpu=gpu, context=8),
        lambda: SizingRequest(model=model, gpu=gpu, concurrency=0),
        lambda: SizingRequest(model=model, gpu=gpu, gpus=128),
        lambda: SizingRequest(model=model, gpu=gpu, context=1024, output_tokens=4096),
        lambda: EngineSettings(max_num_seqs=0),
        lambda: EngineSettings(gpu_memory_utilization="most"),
        lambda: GpuSpec(**{**spec, "memory_bytes": 1000}),
        lambda: GpuSpec(**{**spec, "bandwidth_bytes_per_s": 5}),
        lambda: GpuSpec(**{**spec, "usable_memory_bytes": spec["memory_bytes"] + GiB}),
        lambda: ModelSpec(**{**arch, "num_kv_heads": arch["num_attention_heads"] + 1}),
        lambda: ModelSpec(**{**arch, "layer_types": ["full"] * (arch["num_layers"] + 1)}),
    ]


def test_every_message_reads_in_chinese(chinese):
    for build in _cases():
        text = _message(build)
        for line in text.splitlines():
            assert CJK.search(line) and not PYDANTIC_ENGLISH.search(line), line


def test_english_messages_keep_their_words():
    texts = [_message(build) for build in _cases()]
    assert texts[0] == ("input: the shared prefix (shared_prefix_tokens 9000) is part of the prompt: give at most the "
                        "prompt length (7680 tokens)")  # fmt: skip
    assert texts[1] == "context: context length must be at least 16 tokens (got 8)"
    assert texts[5] == "max_num_seqs: must be at least 1 (got 0)"
    assert not any(CJK.search(t) for t in texts)
