"""The simulated server validates request bodies: a malformed field is an OpenAI-style 400, never a 500."""

from __future__ import annotations

import httpx
import pytest

from advisor.sim.engine import EngineLimits
from advisor.sim.server import SimServer, SimServerConfig


class _Costs:
    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read):
        return 0.002


@pytest.fixture(scope="module")
def server():
    config = SimServerConfig(model_name="sim", costs=_Costs(), limits=EngineLimits(kv_blocks=500), max_model_len=4096)
    with SimServer(config) as srv:
        yield srv


@pytest.mark.parametrize(
    "body",
    [
        {"model": "sim", "messages": [{"role": "user", "content": "hi"}], "stream": True, "stream_options": "x"},
        {"model": "sim", "messages": [{"role": "user", "content": "hi"}], "stream_options": [1]},
        {"model": "sim", "messages": ["hi"]},
        {"model": "sim", "messages": [1, 2]},
    ],
)
def test_malformed_fields_are_a_400_with_an_openai_error(server, body):
    resp = httpx.post(server.base_url + "/v1/chat/completions", json=body, timeout=10)
    assert resp.status_code == 400  # issue #13 item 8: was HTTP 500 with a traceback
    error = resp.json()["error"]
    assert error["type"] == "BadRequestError" and ("stream_options" in error["message"] or "messages" in error["message"])


def test_a_valid_request_still_streams(server):
    body = {"model": "sim", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 3, "stream": True,
            "stream_options": {"include_usage": True}}  # fmt: skip
    with httpx.stream("POST", server.base_url + "/v1/chat/completions", json=body, timeout=10) as resp:
        text = resp.read().decode()
    assert resp.status_code == 200 and '"usage"' in text and "[DONE]" in text


@pytest.mark.parametrize(
    "raw",
    [
        b'{"model": "sim", "messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # RecursionError before
        b'{"model": "sim", "max_tokens": ' + b"9" * 5000 + b', "messages": [{"role": "user", "content": "x"}]}',
        b'{"model": "sim", "temperature": NaN, "messages": [{"role": "user", "content": "x"}]}',
        b"\xff\xfe{}",
    ],
)
def test_hostile_bodies_are_a_400(server, raw):
    resp = httpx.post(server.base_url + "/v1/chat/completions", content=raw, timeout=10,
                      headers={"content-type": "application/json"})  # fmt: skip
    assert resp.status_code == 400 and resp.json()["error"]["type"] == "BadRequestError"
