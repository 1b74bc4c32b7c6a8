"""Every dialect transcript, replayed over a real loopback socket with its original chunking, parses as expected."""

import asyncio

import pytest

from advisor.bench.client import StreamClient, build_record
from advisor.bench.protocol import SseParser, estimate_tokens, guess_dialect
from tests.support.replay import ReplayServer, Transcript, all_transcripts

NAMES = all_transcripts()


def _replay(name: str, transport: str):
    tr = Transcript.load(name)
    api = tr.meta.get("api", "chat")
    max_tokens = (tr.meta.get("request") or {}).get("max_tokens", 64)

    async def go(url):
        client = StreamClient(url, api, transport=transport, read_timeout_s=5, timeout_s=10)
        try:
            ex = await client.send({"model": "m", "stream": True})
        finally:
            await client.aclose()
        return ex

    with ReplayServer(default=name) as srv:
        ex = asyncio.run(go(srv.url))
        send_times = srv.served[0].send_times
    dialect, _ = guess_dialect(ex.result)
    rec = build_record(ex, seq=0, max_tokens=max_tokens, dialect=dialect)
    return tr, ex, rec, send_times


def test_there_is_a_transcript_for_every_dialect():
    dialects = {Transcript.load(n).meta["dialect"] for n in NAMES}
    assert {"vllm", "sglang", "llamacpp", "ollama", "tgi", "lmdeploy"} <= dialects
    for name in NAMES:
        assert Transcript.load(name).meta["source"], name


@pytest.mark.parametrize("transport", ["raw", "raw-loop", "raw-h11", "httpx"])
@pytest.mark.parametrize("name", NAMES)
def test_transcript_replay(name, transport):
    tr, ex, rec, send_times = _replay(name, transport)
    expect = tr.meta["expect"]
    assert rec.outcome == expect["outcome"], (rec.outcome, rec.error_class, rec.error_message)
    r = ex.result
    for key in ("finish_reason", "error_class", "answer_events", "reasoning_events", "output_tokens",
                "output_tokens_source", "tokens_per_event", "dialect"):
        if key in expect:
            assert getattr(rec, key) == expect[key], key
    for key in ("done", "usage_seen", "reasoning_field", "keepalives"):
        if key in expect:
            assert getattr(r, key) == expect[key], key
    for anomaly in expect.get("anomalies", []):
        assert anomaly in rec.anomalies
    if "first_answer_index" in expect:
        assert rec.t_first_answer == rec.token_times[expect["first_answer_index"]]
        assert rec.t_first_token < rec.t_first_answer
    # never a success without tokens and a finish reason
    if rec.outcome == "ok":
        assert rec.token_times and rec.finish_reason
    # every token time is after the server wrote the bytes that carried it, and they are in order
    if rec.token_times and send_times:
        assert rec.token_times == sorted(rec.token_times)
        assert rec.token_times[0] >= send_times[0]
        assert rec.t_start <= rec.t_send <= rec.t_headers <= rec.token_times[0]


def test_events_in_one_read_share_an_arrival_time_and_split_events_wait_for_their_end():
    tr, ex, rec, send_times = _replay("coalesced_and_split_chunks", "raw")
    times = rec.token_times
    assert len(times) == 4
    assert times[0] == times[1]  # "x" and "y" arrived in the same read
    assert times[2] > times[1]
    # event "z" was split over two writes: it counts when its second half arrived
    assert times[2] >= send_times[2]


def test_parser_handles_crlf_comments_and_byte_by_byte_feeding():
    tr = Transcript.load("tgi_chat")
    body = tr.body.replace(b"\n", b"\r\n")
    p = SseParser()
    for i, b in enumerate(body):
        p.feed(bytes([b]), float(i))
    r = p.finish()
    assert r.answer_events == 5 and r.done and r.keepalives == 1 and r.finish_reason == "stop"
    assert r.data_prefix_space is False


def test_parser_flushes_an_unterminated_last_event():
    p = SseParser()
    p.feed(b'data: {"choices":[{"delta":{"content":"a"},"finish_reason":"stop"}]}', 1.0)
    r = p.finish(2.0)
    assert r.answer_events == 1 and r.finish_reason == "stop" and r.token_times == [2.0]


def test_estimate_knows_chinese_and_english_differ():
    en = estimate_tokens("The quick brown fox jumps over the lazy dog")
    zh = estimate_tokens("敏捷的棕色狐狸跳过了懒狗")
    assert 7 <= en <= 12
    assert 7 <= zh <= 12
    assert estimate_tokens("") == 0


@pytest.mark.parametrize("transport", ["raw", "raw-loop"])
def test_a_keepalive_connection_closed_by_the_server_is_retried_once(transport):
    async def go(url):
        client = StreamClient(url, transport=transport, read_timeout_s=5)
        try:
            return [await client.send({"model": "m"}) for _ in range(3)]
        finally:
            await client.aclose()

    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=0, drop_reused=True) as srv:
        exchanges = asyncio.run(go(srv.url))
    records = [build_record(ex, seq=i) for i, ex in enumerate(exchanges)]
    assert [r.outcome for r in records] == ["ok", "ok", "ok"]


def test_a_malformed_chunk_fails_the_request():
    p = SseParser()
    p.feed(b'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices": [{"delta": {"content": "\n\n'
           b'data: {"choices":[{"delta":{"content":"b"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n', 1.0)
    from advisor.bench.client import _Exchange

    ex = _Exchange(t_intended=0.0, t_start=0.0, status=200, result=p.finish(1.0), complete=True)
    rec = build_record(ex, seq=0)
    assert rec.outcome == "invalid" and rec.error_class == "malformed_chunk"


@pytest.mark.parametrize(
    ("name", "owned_by", "dialect", "reasoning"),
    [("tgi_chat", "replay", "tgi", None), ("ollama_chat_reasoning", "replay", "ollama", "reasoning"),
     ("llamacpp_chat_reasoning", "replay", "llamacpp", "reasoning_content"),
     ("vllm_chat_continuous_usage", "vllm", "vllm", None)],
)
def test_probe_reports_dialect_and_features(name, owned_by, dialect, reasoning):
    from advisor.bench.probe import probe

    metrics = (200, "text/plain", b"# HELP vllm:num_requests_waiting x\n# TYPE vllm:num_requests_waiting gauge\n")
    with ReplayServer(default=name, owned_by=owned_by, gets={"/metrics": metrics}, interval_ms=0) as srv:
        result = probe(srv.url, "m")
    assert result.ok and result.dialect == dialect
    assert result.reasoning_field == reasoning
    assert result.metrics_endpoint and result.tokenize_endpoint is None
    expect = Transcript.load(name).meta["expect"]
    assert result.continuous_usage == (expect.get("tokens_per_event") is not None)


def test_sse_event_error_and_a_non_streamed_json_answer():
    p = SseParser()
    p.feed(b'data: {"choices":[{"delta":{"content":"a"}}]}\n\nevent: error\ndata: {"message": "overloaded"}\n\n', 1.0)
    r = p.finish(1.0)
    assert r.error == "overloaded" and r.answer_events == 1
    from advisor.bench.client import _Exchange

    p = SseParser()
    p.feed(b'{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi'
           b' there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}', 2.0)
    ex = _Exchange(t_intended=0.0, t_start=1.0, status=200, result=p.finish(2.0), complete=True)
    rec = build_record(ex, seq=0)
    assert rec.outcome == "ok" and rec.output_tokens == 2 and "not_streamed" in rec.anomalies
    assert rec.ttft_ms == rec.e2e_ms == pytest.approx(1000)
