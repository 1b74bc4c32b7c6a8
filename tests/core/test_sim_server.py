"""The simulated server over real loopback HTTP: the openai client, raw SSE, metrics, faults, ground truth."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter

import httpx
import openai
import pytest
from prometheus_client.parser import text_string_to_metric_families

from advisor.sim.engine import EngineLimits
from advisor.sim.faults import FaultRates
from advisor.sim.server import OWNED_BY, SimServer, SimServerConfig
from tests.support.virtual_sim import virtual_sim

MODEL = "sim-7b"


class StepCosts:
    """Fixed, easy-to-check step times: prefill 20 ms + 0.01 ms per token, decode 8 ms + 0.1 ms per sequence."""

    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read):
        prefill = 0.020 + 0.00001 * prefill_tokens if prefill_tokens else 0.0
        return max(prefill, 0.008 + 0.0001 * decode_seqs)


def make_config(**kw) -> SimServerConfig:
    base = dict(model_name=MODEL, costs=StepCosts(), limits=EngineLimits(kv_blocks=2000), max_model_len=8192,
                aliases=("org/sim-7b",))
    base.update(kw)
    return SimServerConfig(**base)


@pytest.fixture(scope="module")
def server():
    with SimServer(make_config(time_scale=0.5)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server):
    with openai.OpenAI(base_url=server.base_url + "/v1", api_key="unused", max_retries=0) as c:
        yield c


def _sse_events(raw: bytes) -> list[str]:
    return [block for block in raw.decode().split("\n\n") if block.strip()]


def test_models_are_labelled_simulated(client, server):
    models = client.models.list().data
    assert [m.id for m in models] == [MODEL, "org/sim-7b"]
    assert all(m.owned_by == OWNED_BY for m in models)
    resp = httpx.get(server.base_url + "/health")
    assert resp.status_code == 200 and resp.headers["x-inference-advisor-simulated"] == "true"


def test_openai_chat_stream_matches_the_server_record(client, server):
    sent = time.monotonic()
    stream = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Explain KV cache " * 20}], max_tokens=24, stream=True,
        stream_options={"include_usage": True},
    )
    pieces, arrivals, usage, rid, finish = [], [], None, None, None
    for chunk in stream:
        rid = chunk.id
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
            arrivals.append(time.monotonic())
        if chunk.choices and chunk.choices[0].finish_reason:
            finish = chunk.choices[0].finish_reason
        if chunk.usage:
            usage = chunk.usage
    assert usage is not None and usage.completion_tokens == len(pieces) == 24
    assert finish == "length"
    truth = server.ground_truth(rid)
    assert truth["outcome"] == "ok" and truth["completion_tokens"] == 24
    assert truth["prompt_tokens"] == usage.prompt_tokens
    content = [c for c in truth["chunks"] if c["kind"] == "content"]
    assert len(content) == 24
    assert [c["kind"] for c in truth["chunks"]][-2:] == ["usage", "done"]
    # Same process, same monotonic clock: each piece arrives after the server handed it to the transport.
    for chunk, arrived in zip(content, arrivals, strict=True):
        assert chunk["t"] <= arrived
    assert sent <= truth["received_t"] <= content[0]["t"]
    # Never sent before the engine's schedule (how late a loaded machine sends them is bench/sim_server_capacity.py's
    # measure; the pacing itself is exact on the virtual clock: test_chunks_leave_on_the_engine_schedule).
    assert min(c["t"] - c["scheduled_t"] for c in content) > -0.001
    gaps = [b["scheduled_t"] - a["scheduled_t"] for a, b in zip(content, content[1:], strict=False)]
    assert all(g == pytest.approx(0.5 * 0.0081, rel=0.05) for g in gaps)  # one decode step, time scale 0.5


def test_chunks_leave_on_the_engine_schedule(monkeypatch):
    # The real-time pacing on a virtual clock (tests/support/virtual_sim.py): each token's chunk is handed to the
    # transport when its decode step ends — one step (8 ms + 0.1 ms per sequence) × time scale 0.5 apart, exactly,
    # whatever the load of the machine running the test.
    body = {"model": MODEL, "prompt": "Explain KV cache " * 20, "max_tokens": 24, "stream": True}
    with virtual_sim(make_config(time_scale=0.5), monkeypatch) as sim:
        status, sent = sim.post("/v1/completions", body)
    assert status == 200
    times = [s.t for s in sent for line in s.data_lines() if line.startswith("data: {") and '"text"' in line]
    assert len(times) == 24
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps == pytest.approx([0.5 * 0.0081] * 23, rel=1e-6)


def test_openai_completions_stream_and_plain(client, server):
    pieces, usage, rid = [], None, None
    for c in client.completions.create(model="org/sim-7b", prompt="hello world", max_tokens=7, stream=True,
                                       stream_options={"include_usage": True}):
        rid = c.id
        if c.choices:
            pieces.append(c.choices[0].text)
        if c.usage:
            usage = c.usage
    assert len(pieces) == 7 and usage.completion_tokens == 7
    truth = server.ground_truth(rid)
    assert truth["prompt_tokens"] == usage.prompt_tokens and truth["completion_tokens"] == 7
    assert sum(c["tokens"] for c in truth["chunks"]) == 7
    plain = client.completions.create(model=MODEL, prompt="hello world", max_tokens=7)
    assert plain.usage.completion_tokens == 7 and plain.choices[0].text == "".join(pieces)  # deterministic text
    chat = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}], max_completion_tokens=5)
    assert chat.usage.completion_tokens == 5 and chat.choices[0].finish_reason == "length"
    truth = server.ground_truth(chat.id)
    assert [c["kind"] for c in truth["chunks"]] == ["body"]


def test_chinese_prompt_gets_chinese_text(client):
    resp = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "请介绍连续批处理"}], max_tokens=12)
    text = resp.choices[0].message.content
    assert sum("\u4e00" <= ch <= "\u9fff" for ch in text) >= 8


def test_raw_sse_format_and_done(server):
    body = {"model": MODEL, "messages": [{"role": "user", "content": "x"}], "max_tokens": 3, "stream": True,
            "stream_options": {"include_usage": True, "continuous_usage_stats": True}}
    resp = httpx.post(server.base_url + "/v1/chat/completions", json=body, headers={"X-Request-Id": "abc-1"})
    assert resp.headers["content-type"].startswith("text/event-stream")
    assert resp.headers["x-request-id"] == "abc-1"
    events = _sse_events(resp.content)
    assert events[-1] == "data: [DONE]"
    objs = [json.loads(e.removeprefix("data: ")) for e in events[:-1]]
    assert objs[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert [o["usage"]["completion_tokens"] for o in objs[1:4]] == [1, 2, 3]
    assert objs[-1]["choices"] == [] and objs[-1]["usage"]["completion_tokens"] == 3
    truth = httpx.get(server.base_url + "/debug/ground-truth", params={"request_id": "abc-1"}).json()
    assert truth["clock"] == "time.monotonic" and len(truth["chunks"]) == len(events)


def test_errors_look_like_vllm(client, server):
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="gpt-4", messages=[{"role": "user", "content": "x"}], max_tokens=2)
    with pytest.raises(openai.BadRequestError, match="maximum context length"):
        client.completions.create(model=MODEL, prompt="x", max_tokens=9000)
    resp = httpx.post(server.base_url + "/v1/completions", content=b"{not json")
    assert resp.status_code == 400 and "error" in resp.json()


def test_metrics_use_vllm_and_dcgm_names(client, server):
    client.completions.create(model=MODEL, prompt="warm up the counters", max_tokens=4)
    text = httpx.get(server.base_url + "/metrics").text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name in ("vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
                 "vllm:time_to_first_token_seconds", "vllm:e2e_request_latency_seconds", "vllm:generation_tokens",
                 "vllm:prompt_tokens", "vllm:num_preemptions", "vllm:inter_token_latency_seconds",
                 "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_POWER_USAGE"):
        assert name in families, name
    gen = [s for s in families["vllm:generation_tokens"].samples if s.name == "vllm:generation_tokens_total"]
    assert gen[0].value >= 4 and gen[0].labels == {"model_name": MODEL, "engine": "0"}
    fb_used = families["DCGM_FI_DEV_FB_USED"].samples[0]
    fb_free = families["DCGM_FI_DEV_FB_FREE"].samples[0]
    assert fb_used.labels["simulated"] == "true"
    assert fb_used.value / (fb_used.value + fb_free.value) > 0.85  # vLLM pre-allocates ~90 % at start


def test_concurrent_streams_share_the_batch(server):
    async def one(client: httpx.AsyncClient, i: int) -> tuple[int, str]:
        body = {"model": MODEL, "prompt": f"request {i}", "max_tokens": 120, "stream": True}
        n = 0
        async with client.stream("POST", server.base_url + "/v1/completions", json=body) as resp:
            rid = resp.headers["x-request-id"]
            async for line in resp.aiter_lines():
                if line.startswith("data: {"):
                    n += 1
        return n, rid

    async def main() -> tuple[list[tuple[int, str]], float]:
        async with httpx.AsyncClient(timeout=30) as client:
            tasks = [asyncio.create_task(one(client, i)) for i in range(16)]
            running = 0.0
            while not all(t.done() for t in tasks):  # the most requests /metrics saw batched together
                gauge = _gauge(await client.get(server.base_url + "/metrics"), "vllm:num_requests_running")
                running = max(running, gauge)
                await asyncio.sleep(0.02)
            return await asyncio.gather(*tasks), running

    answers, running = asyncio.run(main())
    assert [n for n, _ in answers] == [120] * 16
    # Which decode step made each token is in the server's record (the step's scheduled end): streams that share
    # the batch have tokens from the same steps. Counted there, not from /metrics polled every 20 ms, which on a
    # loaded machine could miss the batch (the gauge read 1 once at load 20).
    per_step = Counter(c["scheduled_t"] for _, rid in answers for c in server.ground_truth(rid)["chunks"]
                       if c["kind"] == "content")
    batched = max(per_step.values())
    assert batched >= 4, batched
    assert 1 <= running <= batched  # the gauge reads what the engine ran, never more


def _gauge(resp: httpx.Response, name: str) -> float:
    for fam in text_string_to_metric_families(resp.text):
        if fam.name == name:
            return fam.samples[0].value
    raise AssertionError(name)


def test_client_disconnect_frees_the_engine(server):
    body = {"model": MODEL, "prompt": "long", "max_tokens": 4000, "stream": True}
    with httpx.stream("POST", server.base_url + "/v1/completions", json=body) as resp:
        for line in resp.iter_lines():
            if line.startswith("data: {"):
                break
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and server.stats()["running"]:
        time.sleep(0.02)
    assert server.stats()["running"] == 0


# ------------------------------------------------------------------------------------------------ faults
def _stream_lines(server, fault: str, max_tokens: int = 6) -> tuple[list[str], Exception | None]:
    body = {"model": MODEL, "prompt": "fault", "max_tokens": max_tokens, "stream": True}
    lines: list[str] = []
    try:
        with httpx.stream("POST", server.base_url + "/v1/completions", json=body, headers={"X-Sim-Fault": fault}) as r:
            for line in r.iter_lines():
                if line:
                    lines.append(line)
    except httpx.HTTPError as exc:
        return lines, exc
    return lines, None


@pytest.mark.parametrize("status", [401, 404, 429, 500, 503])
def test_status_faults(server, status):
    resp = httpx.post(server.base_url + "/v1/completions", json={"model": MODEL, "prompt": "x", "max_tokens": 2},
                      headers={"X-Sim-Fault": str(status)})
    assert resp.status_code == status
    assert resp.json()["error"]["code"] == status
    if status in (429, 503):
        assert resp.headers["retry-after"] == "1"


def test_fault_in_body_field(server):
    resp = httpx.post(server.base_url + "/v1/completions",
                      json={"model": MODEL, "prompt": "x", "max_tokens": 2, "sim_fault": "429"})
    assert resp.status_code == 429


def test_reset_mid_stream(server):
    lines, error = _stream_lines(server, "reset_after=3")
    assert isinstance(error, httpx.RemoteProtocolError)
    assert len([ln for ln in lines if ln.startswith("data: {")]) == 3
    assert "data: [DONE]" not in lines


def test_stall_then_resume(monkeypatch):
    # On a virtual clock (tests/support/virtual_sim.py): the server's own send times, exact, whatever the load of
    # the machine running the test (over loopback, a busy 2-core box delayed the backlog past the bound below)
    body = {"model": MODEL, "prompt": "x", "max_tokens": 5, "stream": True}
    with virtual_sim(make_config(time_scale=0.5), monkeypatch) as sim:
        status, sent = sim.post("/v1/completions", body, headers={"X-Sim-Fault": "stall=0.3@2"})
    assert status == 200
    times = [s.t for s in sent for line in s.data_lines() if line.startswith("data: {")]
    assert len(times) == 5
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps[1] >= 0.28 and max(gaps[2:]) < 0.1  # the backlog follows at once


def test_malformed_chunk_then_normal(server):
    lines, error = _stream_lines(server, "malformed_after=2")
    assert error is None and lines[-1] == "data: [DONE]"
    bad = []
    for ln in lines[:-1]:
        try:
            json.loads(ln.removeprefix("data: "))
        except json.JSONDecodeError:
            bad.append(ln)
    assert len(bad) == 1
    assert len(lines) == 6 + 1 + 1


def test_error_events_in_three_dialects(server):
    vllm, _ = _stream_lines(server, "error_after=2,dialect=vllm")
    assert json.loads(vllm[-2].removeprefix("data: "))["error"]["code"] == 500 and vllm[-1] == "data: [DONE]"
    tgi, _ = _stream_lines(server, "error_after=2,dialect=tgi")
    assert tgi[-1].startswith("data:{") and json.loads(tgi[-1][5:])["error_type"] == "generation"
    llama, _ = _stream_lines(server, "error_after=1,dialect=llamacpp")
    assert llama[-1].startswith("error: ") and json.loads(llama[-1][7:])["type"] == "server_error"
    assert len([ln for ln in llama if ln.startswith("data: {")]) == 1


def test_bad_fault_spec_is_a_400(server):
    resp = httpx.post(server.base_url + "/v1/completions", json={"model": MODEL, "prompt": "x", "max_tokens": 2},
                      headers={"X-Sim-Fault": "explode=1"})
    assert resp.status_code == 400 and "unknown fault" in resp.json()["error"]["message"]


def test_fault_rates_and_ground_truth_file(tmp_path):
    path = tmp_path / "truth.jsonl"
    cfg = make_config(time_scale=0.2, faults=FaultRates.parse("429:0.5,reset=1:0.5", seed=3), ground_truth_path=path)
    statuses = []
    with SimServer(cfg) as srv:
        for _ in range(20):
            try:
                r = httpx.post(srv.base_url + "/v1/completions",
                               json={"model": MODEL, "prompt": "x", "max_tokens": 3, "stream": True})
                statuses.append(r.status_code)
            except httpx.RemoteProtocolError:
                statuses.append("reset")
    assert set(statuses) == {429, "reset"}
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 20
    assert {r["outcome"] for r in records} == {"http_429", "reset"}
    assert all(r["fault_source"] == "rate" for r in records)


def test_api_key_required_when_set():
    with SimServer(make_config(api_key="sekret")) as srv:
        assert httpx.get(srv.base_url + "/v1/models").status_code == 401
        ok = httpx.get(srv.base_url + "/v1/models", headers={"Authorization": "Bearer sekret"})
        assert ok.status_code == 200


def test_time_scale_speeds_up(monkeypatch):
    # On the virtual clock: 1 prefill step (20 ms + 0.01 ms per token) and 99 decode steps (8.1 ms) are 0.82 s of
    # simulated GPU time; time scale 0.1 serves them in a tenth of it, exactly (over loopback, a loaded machine only
    # adds to the wall time, so no wall-time bound could tell a working time scale from a late one)
    with virtual_sim(make_config(time_scale=0.1), monkeypatch) as sim:
        start = sim.clock.now()
        status, sent = sim.post("/v1/completions", {"model": MODEL, "prompt": "x", "max_tokens": 100})
    assert status == 200 and json.loads(b"".join(s.body for s in sent))["usage"]["completion_tokens"] == 100
    assert sent[-1].t - start == pytest.approx(0.1 * (0.020 + 99 * 0.0081), rel=0.01)


def test_stop_frees_the_port():
    srv = SimServer(make_config(time_scale=0.1)).start()
    port = srv.port
    r = httpx.post(srv.base_url + "/v1/completions", json={"model": MODEL, "prompt": "x", "max_tokens": 10})
    assert r.json()["usage"]["completion_tokens"] == 10
    srv.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/health")


def test_chunks_reach_a_keep_alive_client_without_delay(server):
    """Regression: without TCP_NODELAY, a chunk written while the headers await a delayed ACK sits ~20–40 ms.

    Measured with Nagle on (the socket made without IPPROTO_TCP): every request after the first on a connection waited
    28–37 ms, against 0.1–0.2 ms with it off. A loaded machine can hold any one chunk past the bound below, so the
    second fastest of seven is bounded: Nagle delays six in seven (all but the first), so it still fails; the load
    would have to delay six of seven (the median, bounded before, needed only four)."""
    import socket

    body = json.dumps({"model": MODEL, "prompt": "x " * 50, "max_tokens": 3, "stream": True}).encode()
    head = f"POST /v1/completions HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    delays = []
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        for _ in range(7):  # the same connection each time
            sock.sendall(head.encode() + body)
            buf, first_seen = b"", None
            while b"[DONE]" not in buf:
                buf += sock.recv(65536)
                if first_seen is None and b'"text"' in buf:
                    first_seen = time.monotonic()
            rid = next(ln for ln in buf.split(b"\r\n") if ln.startswith(b"x-request-id")).split(b": ")[1].decode()
            first_sent = next(c["t"] for c in server.ground_truth(rid)["chunks"] if c["kind"] == "content")
            delays.append(first_seen - first_sent)
    assert min(delays) >= 0 and sorted(delays)[1] < 0.015, delays  # Nagle + delayed ACK would add 20–40 ms


@pytest.mark.parametrize(
    ("fault", "check"),
    [
        ("reset_after=1", "reset"),
        ("error_after=1", "500"),
        ("malformed_after=1", "malformed"),
        ("stall=0.2", "slow"),
    ],
)
def test_faults_on_non_streaming_requests(server, fault, check):
    body = {"model": MODEL, "prompt": "x", "max_tokens": 4}
    started = time.monotonic()
    try:
        resp = httpx.post(server.base_url + "/v1/completions", json=body, headers={"X-Sim-Fault": fault})
    except httpx.RemoteProtocolError:
        assert check == "reset"
        return
    assert check != "reset"
    if check == "500":
        assert resp.status_code == 500 and resp.json()["error"]["code"] == 500
    elif check == "malformed":
        with pytest.raises(json.JSONDecodeError):
            json.loads(resp.content)
    else:
        assert resp.status_code == 200 and time.monotonic() - started >= 0.2


def test_preempted_streams_resume_and_finish():
    # 40 blocks × 16 = 640 tokens of KV for 6 requests of 100 + 200 tokens: some must be preempted.
    cfg = make_config(limits=EngineLimits(kv_blocks=40), max_model_len=640, time_scale=0.05)
    with SimServer(cfg) as srv:

        async def one(client: httpx.AsyncClient, i: int) -> tuple[int, str]:
            body = {"model": MODEL, "prompt": "word " * 95, "max_tokens": 200, "stream": True,
                    "stream_options": {"include_usage": True}}
            n, rid = 0, ""
            async with client.stream("POST", srv.base_url + "/v1/completions", json=body) as resp:
                rid = resp.headers["x-request-id"]
                async for line in resp.aiter_lines():
                    if line.startswith("data: {") and '"text": "' in line:
                        n += 1
            return n, rid

        async def main() -> list[tuple[int, str]]:
            async with httpx.AsyncClient(timeout=60) as client:
                return await asyncio.gather(*(one(client, i) for i in range(6)))

        results = asyncio.run(main())
        assert [n for n, _ in results] == [200] * 6
        records = [srv.ground_truth(rid) for _, rid in results]
        assert sum(r["preemptions"] for r in records) > 0
        assert all(r["outcome"] == "ok" and r["completion_tokens"] == 200 for r in records)
        metrics = {f.name: f for f in text_string_to_metric_families(httpx.get(srv.base_url + "/metrics").text)}
        assert metrics["vllm:num_preemptions"].samples[0].value > 0


def test_stop_cuts_open_streams_promptly():
    import threading

    srv = SimServer(make_config()).start()
    outcome: list[object] = []

    def client() -> None:
        body = {"model": MODEL, "prompt": "x", "max_tokens": 5000, "stream": True}
        try:
            with httpx.stream("POST", srv.base_url + "/v1/completions", json=body, timeout=30) as resp:
                for _ in resp.iter_lines():
                    pass
            outcome.append("completed")
        except httpx.RemoteProtocolError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=client)
    thread.start()
    deadline = time.monotonic() + 5
    while srv.stats()["chunks_sent"] < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    srv.stop()
    assert time.monotonic() - started < 1.5
    thread.join(5)
    assert isinstance(outcome[0], httpx.RemoteProtocolError)
