"""What benchmarking REAL engines found (make interop, tools/interop/drive_page.py; docs/measure.md "Against a real
server"), replayed without the engine: transcripts captured from llama-cpp-python 0.3.36 and vLLM 0.32 (CPU) are
served over real loopback HTTP by tests/support/replay.py, and the real engine (probe, runner, report) reads them."""

from __future__ import annotations

from advisor.bench import metrics, report
from advisor.bench.probe import one_request_at_a_time, probe
from advisor.bench.runner import Runner
from advisor.domain.bench import BenchConfig, Percentiles, StepSummary
from tests.support.replay import ReplayServer

# llama-cpp-python's own tokenize endpoint (POST {"input"} -> {"count"}): the one thing that tells it apart
LLAMACPP_PYTHON_POSTS = {"/extras/tokenize/count": lambda body: (200, {"count": max(1, len(str(body.get("input"))) // 4)})}


def ramp_1_to_4(url: str, **sections: object) -> BenchConfig:
    """The ramp the llama-cpp-python runs used: levels 1, 2, 4 (doubling), 8 requests a level, short prompts and answers
    (``sections``: further config sections, e.g. ``slo``)."""
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "m"},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 12}},
        "schedule": {"kind": "ramp", "concurrency": [1], "max_concurrency": 4, "requests": 8},
        **sections,
    })  # fmt: skip


class OneAtATime(ReplayServer):
    """Serves like llama-cpp-python: a request that arrives while another streams is answered with the real
    transcript of a stream that was cut off ([DONE] without a finish reason). (The real server cuts off the older
    stream; which of the two fails does not change the step's failure rate.)"""

    def __init__(self, **kw) -> None:
        super().__init__(routes={"/v1/chat/completions": self._pick}, owned_by="me", posts=LLAMACPP_PYTHON_POSTS,
                         interval_ms=1, **kw)  # fmt: skip
        self.active = 0

    def _pick(self, _body: bytes) -> str:
        return "llamacpp_python_chat_interrupted_real" if self.active > 1 else "llamacpp_python_chat_real"

    async def _stream(self, path, body, writer):
        self.active += 1
        try:
            return await super()._stream(path, body, writer)
        finally:
            self.active -= 1


def test_the_probe_names_llama_cpp_python_and_that_it_serves_one_request_at_a_time():
    """A real llama-cpp-python looked like 'openai (server: uvicorn (vLLM, SGLang or LMDeploy))'."""
    with ReplayServer(default="llamacpp_python_chat_real", owned_by="me", posts=LLAMACPP_PYTHON_POSTS,
                      interval_ms=0) as srv:  # fmt: skip
        result = probe(srv.url, "m")
    assert result.ok and result.dialect == "llamacpp"
    assert any("llama-cpp-python" in e for e in result.dialect_evidence), result.dialect_evidence
    assert not result.usage_in_stream and not result.metrics_endpoint
    assert one_request_at_a_time(result)
    with ReplayServer(default="vllm_cpu_chat_real", owned_by="vllm", interval_ms=0) as srv:
        vllm = probe(srv.url, "m")
    assert vllm.ok and vllm.dialect == "vllm" and not one_request_at_a_time(vllm)


def test_a_ramp_that_fails_at_concurrency_2_names_the_knee_and_the_failures():
    """Against llama-cpp-python 7 of 8 requests at concurrency 2 were cut off, the one that got through made
    'throughput grow', and the result said 'No knee up to concurrency 2: throughput still grows' and 'Does not meet
    TTFT p99 ≤ 2 s … not even at concurrency 1' (TTFT p99 was 241 ms: the error rate had broken it)."""
    with OneAtATime() as srv:
        cfg = ramp_1_to_4(srv.url, slo={"ttft_ms": 2000, "tpot_ms": 100, "percentile": 99})
        result = Runner(cfg).run()
    steps = result["steps"]
    assert [s["concurrency"] for s in steps][:1] == [1] and steps[0]["requests_failed"] == 0
    bad = [s for s in steps if s["error_rate"] > 0.05]
    assert bad, [(s["concurrency"], s["failures"]) for s in steps]
    assert any(k.startswith("truncated:done_without_finish_reason") for k in bad[0]["failures"])
    knee = result["knee"]
    assert knee["reason"] == "error_rate" and knee["concurrency"] == 1, knee
    assert "failed" in knee["message"] and "throughput still grows" not in knee["message"]
    result["slo"] = cfg.slo.model_dump(mode="json")
    verdict = report.slo_verdict(result)
    assert "the latency limits held" in verdict and "Does not meet" not in verdict, verdict
    notes = report.failure_notes(result)
    assert any("cut off" in n and f"At concurrency {bad[0]['concurrency']}" in n for n in notes), notes


def _step(c: int, thr: float, tpot_p95: float, ok: int = 50, failed: int = 0) -> StepSummary:
    return StepSummary(step=c, concurrency=c, requests_ok=ok, requests_failed=failed, output_tokens_per_s=thr,
                       error_rate=failed / (ok + failed), tpot_ms=Percentiles(count=ok, p95=tpot_p95, p99=tpot_p95),
                       ttft_ms=Percentiles(count=ok, p95=50.0, p99=50.0))  # fmt: skip


def test_a_latency_knee_before_the_failing_level_still_wins():
    steps = [_step(1, 30, 20), _step(2, 58, 21), _step(4, 60, 60), _step(8, 61, 200, ok=10, failed=40)]
    knee = metrics.find_knee(steps)
    assert knee.concurrency == 2 and knee.reason == "throughput_plateau_latency_inflation"
    # no latency knee before it: the failing level sets it; a failing first level sets none
    knee = metrics.find_knee([_step(1, 30, 20), _step(2, 58, 21), _step(4, 118, 22, ok=40, failed=10)])
    assert (knee.concurrency, knee.reason) == (2, "error_rate")
    assert knee.evidence["error_rate"] == 0.2
    assert metrics.find_knee([_step(1, 30, 20, ok=5, failed=5), _step(2, 58, 21)]).concurrency is None
    # the user's own limit is respected
    assert metrics.find_knee([_step(1, 30, 20), _step(2, 58, 21, ok=45, failed=5)], max_error_rate=0.2).concurrency is None


def test_a_server_that_dies_mid_ramp_is_neither_a_completed_run_nor_a_knee():
    """A real llama.cpp server killed in the ramp's second step: the page said 'completed' and 'Knee at concurrency 1:
    at 2, 50% of the requests failed' — the dead server passed for a load limit the ramp had found."""
    import threading

    srv = ReplayServer(default="llamacpp_python_chat_real", owned_by="me", interval_ms=2).__enter__()
    seen = {"ok": 0}
    killer = threading.Thread(target=srv.__exit__, args=(None, None, None), daemon=True)

    def on_event(ev) -> None:
        if ev.kind == "record" and ev.data.ok and not ev.data.warmup:
            seen["ok"] += 1
            if seen["ok"] == 10:  # in the second step (8 requests per step): the server goes away
                killer.start()

    cfg = ramp_1_to_4(srv.url)
    try:
        result = Runner(cfg, on_event=on_event).run()
    finally:
        if killer.ident is None:  # never started: the run ended before its 10th answer
            srv.__exit__(None, None, None)
        else:
            killer.join(10)
    steps = result["steps"]
    assert len(steps) == 2 and steps[0]["requests_failed"] == 0, [(s["concurrency"], s["failures"]) for s in steps]
    assert any(k.startswith("connect_error:") for k in steps[1]["failures"]), steps[1]["failures"]
    assert result["status"] == "degraded"
    assert result["knee"]["reason"] == "server_lost" and result["knee"]["concurrency"] is None
    assert "could no longer be reached" in result["knee"]["message"]
    assert any("could not be reached" in n for n in report.failure_notes(result))
    assert "completed" not in report.status_text(result)


def test_sub_millisecond_tokens_merged_by_a_punctual_client_are_not_client_bound():
    """llama.cpp on a CPU sends tokens 0.3–0.5 ms apart: reads merge them even when the client's loop is on time
    (lag p99 4 ms), and the step was called client-bound. With the loop late by 30 ms it still is."""
    from advisor.domain.bench import RequestRecord

    recs = [RequestRecord(seq=i, t_intended=0.0, t_start=0.0, t_end=0.1, outcome="ok", kernel_timestamps=True,
                          token_times=[0.01 + 0.0004 * k for k in range(10)], late_merged_tokens=4)
            for i in range(10)]  # fmt: skip
    punctual = metrics.judge_client([4.0] * 100, [], 0.1, recs)
    assert punctual.late_merged_fraction == 0.4 and not punctual.client_bound
    late = metrics.judge_client([30.0] * 100, [], 0.1, recs)
    assert late.client_bound and late.reasons == ["late_reads_merged_tokens"]


def test_a_server_lost_in_the_first_step_is_said_so():
    dead = StepSummary(step=0, concurrency=1, requests_ok=4, requests_failed=4, error_rate=0.5,
                       failures={"connect_error:ConnectionRefusedError": 2, "truncated:connection_lost": 1,
                                 "truncated:no_response": 1})  # fmt: skip
    knee = metrics.find_knee([dead])
    assert knee.reason == "server_lost" and knee.concurrency is None
    # failures of a live server (cut-off answers) are not a lost server
    assert not metrics.server_lost(dead.model_copy(update={"failures": {"truncated:done_without_finish_reason": 4}}))


def test_history_says_a_ramp_found_its_limit_not_that_failures_were_within_it(tmp_path):
    """History said 'Finished; 7 request(s) failed, within the run's error-rate limit' for the llama-cpp-python ramp
    whose last step had 88 % failures (the limit the ramp found)."""
    from advisor.bench.history import RunHistory
    from advisor.bench.store import BenchStore

    with OneAtATime() as srv:
        cfg = ramp_1_to_4(srv.url)
        store = BenchStore(tmp_path / "b.sqlite3")
        result = Runner(cfg, store=store).run()
        store.close()
    assert result["status"] == "completed" and result["steps"][-1]["stop_reason"] == "error_rate"
    with RunHistory(tmp_path / "b.sqlite3") as history:
        run = history.list()[0]
    assert run.status == "completed"
    assert "the limit it found" in run.status_reason and "within" not in run.status_reason, run.status_reason


def test_an_answer_of_undecodable_bytes_is_a_failed_answer_not_a_failing_server():
    """vLLM (CPU) with a random-weight model streamed a whole answer as empty deltas (its tokens never formed a
    character), with per-chunk usage up to 48 and finish_reason "length". At 1 of 8 requests it set 'Knee at 1: the
    server stopped answering reliably'."""
    from advisor.bench.client import _Exchange, build_record
    from advisor.bench.protocol import SseParser

    p = SseParser()
    body = b'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}],"usage":null}\n\n'
    for k in range(1, 5):
        fr = '"length"' if k == 4 else "null"
        body += (b'data: {"choices":[{"index":0,"delta":{"content":""},"finish_reason":%s}],'
                 b'"usage":{"prompt_tokens":9,"completion_tokens":%d,"total_tokens":%d}}\n\n' % (fr.encode(), k, 9 + k))
    body += b'data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}\n\ndata: [DONE]\n\n'
    p.feed(body, 1.0)
    rec = build_record(_Exchange(t_intended=0.0, t_start=0.5, status=200, result=p.finish(1.0), complete=True), seq=0)
    assert (rec.outcome, rec.error_class) == ("empty", "no_text")
    steps = [_step(1, 30, 20), _step(2, 58, 21, ok=7, failed=1)]
    steps[1].failures = {"empty:no_text": 1}
    knee = metrics.find_knee(steps)
    assert knee.reason != "error_rate", knee
    from advisor.domain.bench import SloConfig

    assert metrics.slo_breach(steps[1], SloConfig()) is None  # the ramp goes on
    steps[1].failures = {"empty:no_tokens": 1}  # no finish reason, no usage: a cut-off answer (llama-cpp-python)
    assert metrics.find_knee(steps).reason == "error_rate"


def test_a_server_gone_for_good_ends_the_step_and_the_run(monkeypatch):
    """Each refused connection backs off up to 2 s: a killed server at 64 requests per step kept a ramp going for
    about two minutes. Now a step whose every stream met only refusals for SERVER_GONE_S ends, and no further level
    is tried."""
    import socket
    import time

    from advisor.bench import runner as runner_mod

    monkeypatch.setattr(runner_mod, "SERVER_GONE_S", 0.5)
    with socket.socket() as s:  # a port with nobody listening: every connection is refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = BenchConfig.model_validate({
        "endpoint": {"url": f"http://127.0.0.1:{port}", "model": "m"},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 12}},
        "schedule": {"kind": "fixed", "concurrency": [2, 4], "requests": 500, "warmup_requests": 0},
    })  # fmt: skip
    t0 = time.monotonic()
    result = Runner(cfg, dialect="openai").run()
    took = time.monotonic() - t0
    assert took < 10, took  # 500 backed-off requests would take minutes
    steps = result["steps"]
    assert len(steps) == 1 and steps[0]["stop_reason"] == "server_lost", [(s["concurrency"], s["stop_reason"]) for s in steps]
    assert steps[0]["requests_ok"] == 0 and steps[0]["requests_failed"] >= 2
    assert result["status"] == "failed"
    assert result["knee"]["concurrency"] is None
