"""What benchmarking llama.cpp's OWN server found: the C++ ``llama-server`` (not llama-cpp-python), built from the
llama.cpp tree vendored in llama-cpp-python 0.3.36 and run with ``--metrics --parallel 2`` (2 slots of 1024 tokens)
on a tiny random-weight GGUF (tools/interop/run.sh, INTEROP_ENGINES=llama-server). Replayed without the engine: its
byte-exact transcripts (tests/fixtures/sse/llama_server_*), its /v1/models, /tokenize and /metrics answers
(tests/fixtures/llama_server/, tests/fixtures/metrics/llama_server_*_real.txt), served over real loopback HTTP by
tests/support/replay.py, read by the real probe, runner and report."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from advisor.bench import metrics, report
from advisor.bench import runner as runner_mod
from advisor.bench.client import StreamClient, Target, build_record
from advisor.bench.probe import one_request_at_a_time, probe
from advisor.bench.runner import Runner
from advisor.bench.session import _queue_reader
from advisor.domain.bench import BenchConfig
from tests.support.replay import ReplayServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SERVER = FIXTURES / "llama_server"
MODELS = (SERVER / "v1_models.json").read_bytes()
BUSY_METRICS = (FIXTURES / "metrics" / "llama_server_busy_real.txt").read_text(encoding="utf-8")


def tokenize(body: dict) -> tuple[int, dict]:
    """llama-server's POST /tokenize: {"content"} → token ids (the tiny model: about one per byte, plus BOS); any
    other body — vLLM's {"model", "prompt"}, which the bench tries first — → 200 with no tokens, as the real one did."""
    content = body.get("content")
    return 200, {"tokens": list(range(len(content.encode()) + 1)) if isinstance(content, str) else []}


class LlamaServer(ReplayServer):
    """Serves like ``llama-server --parallel SLOTS --metrics``: the real chat transcript, the real /v1/models and
    /tokenize answers, at most SLOTS streams at a time (the rest wait), and a /metrics text — the real one — whose
    ``requests_processing`` and ``requests_deferred`` follow the streams in flight."""

    def __init__(self, slots: int = 2, default: str = "llama_server_chat_real", **kw) -> None:
        super().__init__(default=default, gets={"/v1/models": (200, "application/json; charset=utf-8", MODELS)},
                         posts={"/tokenize": tokenize}, max_active=slots, **kw)  # fmt: skip
        self.slots = slots
        self.in_flight = 0
        self.deferred_seen: list[int] = []

    async def _post(self, path, body, writer):
        if path in self.posts:
            return await super()._post(path, body, writer)
        self.in_flight += 1
        try:
            return await super()._post(path, body, writer)
        finally:
            self.in_flight -= 1

    async def _get(self, path, writer):
        if path == "/metrics":
            running, deferred = min(self.in_flight, self.slots), max(0, self.in_flight - self.slots)
            self.deferred_seen.append(deferred)
            text = BUSY_METRICS.replace("llamacpp:requests_processing 2", f"llamacpp:requests_processing {running}")
            text = text.replace("llamacpp:requests_deferred 2", f"llamacpp:requests_deferred {deferred}")
            self.gets["/metrics"] = (200, "text/plain; version=0.0.4", text.encode())
        return await super()._get(path, writer)


def ramp_1_to_4(url: str, requests: int = 16) -> BenchConfig:
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "tiny"},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 12}},
        "schedule": {"kind": "ramp", "concurrency": [1], "max_concurrency": 4, "requests": requests},
    })  # fmt: skip


def _record(name: str, max_tokens: int = 12):
    async def go(url):
        client = StreamClient(url, "chat", read_timeout_s=5, timeout_s=10)
        try:
            return await client.send({"model": "tiny", "stream": True, "max_tokens": max_tokens})
        finally:
            await client.aclose()

    with ReplayServer(default=name, interval_ms=1) as srv:
        ex = asyncio.run(go(srv.url))
    return build_record(ex, seq=0, max_tokens=max_tokens, dialect="llamacpp")


def test_the_probe_names_llama_server_not_llama_cpp_python():
    """Live: 'Server: llamacpp dialect; usage in stream: yes; per-chunk usage: no; /metrics: yes; tokenize: llamacpp'.
    owned_by "llamacpp" names it; its /tokenize (not llama-cpp-python's /extras/tokenize/count) says it is the C++
    server, which serves requests side by side in slots — so it is not treated as one-request-at-a-time."""
    with LlamaServer(interval_ms=0) as srv:
        result = probe(srv.url, "tiny")
    assert result.ok and result.model_ok and result.dialect == "llamacpp"
    assert result.dialect_evidence == ["/v1/models owned_by=llamacpp"]
    assert result.usage_in_stream and not result.continuous_usage and result.done_marker
    assert result.metrics_endpoint and result.tokenize_endpoint == "llamacpp"
    assert not one_request_at_a_time(result)
    models = json.loads(MODELS)
    assert models["data"][0]["owned_by"] == "llamacpp" and models["data"][0]["meta"]["n_ctx"] == 1024


def test_usage_timings_and_unicode_replacement_tokens_count_exactly():
    """llama-server sends every token as its own chunk — U+FFFD where a byte token does not complete a character,
    never an empty delta (vLLM and llama-cpp-python send "") — so 12 chunks are 12 tokens, and usage says 12."""
    rec = _record("llama_server_chat_real")
    assert rec.ok and rec.answer_events == 12 and rec.output_tokens == 12 and rec.output_tokens_source == "usage"
    assert rec.prompt_tokens == 55 and rec.itl_ms()[1]  # one token per chunk: the gaps are per-token ITL


def test_without_usage_the_servers_own_timings_count_the_answer():
    """Without stream_options.include_usage llama-server sends no usage at all, only llama.cpp's ``timings`` on the
    finishing chunk. Its predicted_n is the exact count; it was ignored (the count came from max_tokens, and an
    answer that stopped on its own would have been an estimate from its text)."""
    rec = _record("llama_server_chat_no_usage_real")
    assert rec.ok and rec.output_tokens == 12 and rec.output_tokens_source == "timings"
    assert rec.prompt_tokens == 1 + 54  # prompt_n + cache_n: the prompt was served from the slot's cache
    assert "no_usage" in rec.anomalies
    # a stop on EOS, no usage: timings.predicted_n, not the text's estimate
    from advisor.bench.protocol import SseParser

    p = SseParser()
    p.feed(b'data: {"choices":[{"index":0,"delta":{"content":"\xef\xbf\xbd"}}]}\n\n'
           b'data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'
           b'data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],'
           b'"timings":{"prompt_n":9,"cache_n":0,"predicted_n":2}}\n\ndata: [DONE]\n\n', 1.0)
    from advisor.bench.client import _Exchange

    rec = build_record(_Exchange(t_intended=0.0, t_start=0.5, status=200, result=p.finish(1.0), complete=True), seq=0,
                       max_tokens=64)  # fmt: skip
    assert (rec.output_tokens, rec.output_tokens_source, rec.prompt_tokens) == (2, "timings", 9)


def test_a_server_killed_mid_answer_is_a_lost_connection_on_every_transport():
    """llama-server killed (SIGKILL) mid-stream: its kernel closed the socket cleanly, without the chunked body's
    last chunk. The default transport called that 'closed_without_finish_reason' (a server that ended its stream
    early), h11 and httpx 'connection_lost' — and only the latter counts towards a lost server."""
    rec = _record("llama_server_chat_killed_real", max_tokens=900)
    assert (rec.outcome, rec.error_class, rec.answer_events) == ("truncated", "connection_lost", 5)
    assert "truncated:connection_lost" in metrics.SERVER_LOST_CLASSES


def test_a_ramp_whose_server_is_killed_while_streams_are_cut_off_is_a_lost_server_not_a_limit():
    """Live: killed in the concurrency-4 step, the step's failures were 2 × cut off mid-answer, 2 × no response, 2 ×
    refused. With the cut-off answers read as 'ended without a finish reason' a kill that caught more streams
    mid-answer than it refused would have passed for the load limit the ramp found, and the run for completed."""
    from advisor.domain.bench import StepSummary

    def step(failures: dict[str, int]) -> StepSummary:
        failed = sum(failures.values())
        return StepSummary(step=2, concurrency=4, requests_ok=10, requests_failed=failed, failures=failures,
                           error_rate=failed / (10 + failed), stop_reason="error_rate", status="degraded")  # fmt: skip

    ok = StepSummary(step=0, concurrency=1, requests_ok=16, status="ok", stop_reason="stable")
    killed = step({"truncated:connection_lost": 4, "truncated:no_response": 1, "connect_error:ConnectionRefusedError": 1})
    assert metrics.server_lost(killed)
    assert runner_mod.run_status([ok, killed], ramp=True) == "degraded"
    # what the same kill gave before: a server that 'ended its answers early' at 4 — the limit the ramp found
    before = step({"truncated:closed_without_finish_reason": 4, "truncated:no_response": 1,
                   "connect_error:ConnectionRefusedError": 1})  # fmt: skip
    assert not metrics.server_lost(before) and runner_mod.run_status([ok, before], ramp=True) == "completed"


def test_with_two_slots_the_knee_is_at_two_read_from_the_servers_queue(monkeypatch):
    """Live (--parallel 2, -t 1): at concurrency 4 the server's /metrics said requests_deferred 2 on average and TTFT
    p50 went from 5 ms to 170 ms. llama-server's llamacpp:* metrics were not read at all, so the knee could only come
    from latency; now its deferred requests are the server queue, and the knee is at 2: the slots were full."""
    monkeypatch.setattr(runner_mod, "QUEUE_SAMPLE_S", 0.05)
    monkeypatch.setattr(metrics, "CLIENT_LAG_P99_MS", 1e9)  # this machine's load is not what is tested here
    with LlamaServer(interval_ms=4) as srv:
        result = Runner(ramp_1_to_4(srv.url), server_queue=_queue_reader(Target.parse(srv.url).root + "/metrics")).run()
        seen = list(srv.deferred_seen)
    steps = {s["concurrency"]: s for s in result["steps"]}
    assert set(steps) >= {1, 2, 4}, list(steps)
    assert all(s["requests_failed"] == 0 for s in steps.values())
    assert max(seen) == 2 and steps[4]["server_queue"] >= 1.0 and steps[1]["server_queue"] < 0.5, (
        [(c, s["server_queue"]) for c, s in steps.items()])
    knee = result["knee"]
    assert (knee["concurrency"], knee["reason"]) == (2, "server_queueing"), knee
    message, evidence = report.knee_text(result)
    assert "waiting in the server's queue" in message and any("waiting at the server" in e for e in evidence), evidence


def test_a_prompt_longer_than_a_slot_says_why_every_request_failed():
    """Live: --prompt-tokens 1200 against 2 slots of 1024 tokens (-c 2048 --parallel 2): every request was an HTTP
    400 and the run said only 'Failed: 0 requests succeeded, 6 failed' and '6 × the server answered with an HTTP
    error (http_error:http_400)'. The server's reason is now in the step's failure note."""
    cfg = BenchConfig.model_validate({
        "endpoint": {"url": "http://127.0.0.1:1", "model": "tiny"},
        "workload": {"prompt_tokens": {"mean": 1200}, "output_tokens": {"mean": 32}},
        "schedule": {"kind": "fixed", "concurrency": [2], "requests": 6, "warmup_requests": 0},
    })  # fmt: skip
    with ReplayServer(default="llama_server_chat_too_long_real", interval_ms=0) as srv:
        cfg.endpoint.url = srv.url
        result = Runner(cfg, dialect="llamacpp").run()
    step = result["steps"][0]
    assert step["failures"] == {"http_error:http_400": 6} and result["status"] == "failed"
    said = step["failure_messages"]["http_error:http_400"]
    assert said.startswith("request (3124 tokens) exceeds the available context size (1024 tokens)"), said
    (note,) = report.failure_notes(result)
    assert "exceeds the available context size (1024 tokens)" in note and "http_error:http_400" in note, note
    # a refused connection is the client's own error, not words of the server (live, after a kill: "— the server
    # said: “[Errno 111] Connect call failed …”")
    refused = {"concurrency": 1, "requests_ok": 15, "requests_failed": 1,
               "failures": {"connect_error:ConnectionRefusedError": 1},
               "failure_messages": {"connect_error:ConnectionRefusedError": "[Errno 111] Connect call failed"}}
    (note,) = report.failure_notes({"steps": [refused]})
    assert "Errno" not in note and "could not be reached" in note, note
