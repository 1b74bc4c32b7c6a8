"""Issue #29 item 14: an answer the server sent before the request was fully sent is not a success (its
"TTFT" would be our socket buffer's), on every transport; every transport asks for ``Accept-Encoding:
identity``, and a server that compresses anyway is decoded (gzip, deflate) or said to be unreadable — never
"not an LLM server"."""

from __future__ import annotations

import asyncio
import json
import zlib

import pytest

from advisor.bench.client import StreamClient, build_record
from tests.robustness.hostile import HostileServer, Reply, chunk, good, sse
from tests.robustness.test_hostile_server import one

TRANSPORTS = ["raw", "raw-loop", "raw-h11", "httpx"]
BIG = 24 * 2**20  # more than loopback's socket buffers hold: the send lasts until the server reads it


def _send_big(url: str, transport: str):
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * BIG}], "max_tokens": 8,
                       "stream": True}).encode()

    async def go():
        # generous bounds: the honest server reads and parses 24 MiB first, which took over 10 s on a loaded 2-core CI box
        client = StreamClient(url, "chat", transport=transport, read_timeout_s=45, timeout_s=90)
        try:
            return await client.send(body, max_tokens=8)
        finally:
            await client.aclose()

    return build_record(asyncio.run(go()), seq=0, max_tokens=8)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_answer_sent_before_the_request_was_read_is_not_a_success(transport):
    with HostileServer(early=good(), early_hold_s=0.5) as srv:
        rec = _send_big(srv.url, transport)
    assert rec.outcome == "invalid" and rec.error_class == "early_response", \
        (rec.outcome, rec.error_class, rec.ttft_ms, rec.error_message)
    assert "before the request was fully sent" in (rec.error_message or "")


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_server_that_reads_a_large_request_first_is_measured(transport):
    # the same large request to an honest server: answered after it was read, so a success
    with HostileServer() as srv:
        rec = _send_big(srv.url, transport)
    assert rec.ok, (rec.outcome, rec.error_class, rec.error_message)


def _compressed(coding: str) -> Reply:
    wbits = {"gzip": 31, "deflate": 15, "raw-deflate": -15}[coding]
    comp = zlib.compressobj(6, zlib.DEFLATED, wbits)
    events = sse(*[chunk({"content": f"t{i} "}) for i in range(3)], chunk({"content": "end"}, finish="stop"),
                 {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 4}})
    pieces = [comp.compress(e) + comp.flush(zlib.Z_SYNC_FLUSH) for e in events]  # streamed, one event a piece
    pieces[-1] += comp.flush()
    name = "deflate" if coding == "raw-deflate" else coding
    return Reply(pieces, headers=(f"Content-Encoding: {name}",), pause_s=0.01)


@pytest.mark.parametrize("coding", ["gzip", "deflate", "raw-deflate"])
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_compressed_answer_sent_anyway_is_decoded(transport, coding):
    with HostileServer(lambda p, b: _compressed(coding)) as srv:
        rec = one(srv.url, transport=transport)
    assert rec.ok, (rec.outcome, rec.error_class, rec.error_message)
    assert rec.output_tokens == 4 and len(rec.token_times) == 4


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_encoding_no_transport_reads_is_said(transport):
    reply = Reply(good().pieces, headers=("Content-Encoding: br",))
    with HostileServer(lambda p, b: reply) as srv:
        rec = one(srv.url, transport=transport)
    assert (rec.outcome, rec.error_class) == ("invalid", "unsupported_content_encoding"), \
        (rec.outcome, rec.error_class, rec.error_message)
    assert "br" in (rec.error_message or "") and "Accept-Encoding: identity" in (rec.error_message or "")


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_every_transport_asks_for_identity(transport):
    with HostileServer() as srv:
        rec = one(srv.url, transport=transport)
        heads = list(srv.heads)
    assert rec.ok
    assert heads and all("accept-encoding: identity" in h.lower() for h in heads), heads
