"""Load shapes over real loopback HTTP: ramp with a real knee, SLO stop, faults, cancel, rate, soak, events."""

import itertools
import threading
import time

import pytest

from advisor.bench.runner import STAGGER_FIRST_S, CancelToken, EventQueue, Runner
from advisor.bench.store import BenchStore
from advisor.domain.bench import BenchConfig
from tests.support.replay import ReplayServer


def config(url, transport="raw", **schedule):
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "m", "read_timeout_s": 10, "timeout_s": 30, "transport": transport},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 16}},
        "schedule": {"warmup_requests": 1, **schedule},
    })


def test_ramp_stops_on_slo_breach():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=3, max_active=2) as srv:
        cfg = config(srv.url, kind="ramp", concurrency=[1, 2, 4, 8, 16], requests=16, min_requests_per_step=8)
        cfg.slo.ttft_ms = 25.0
        result = Runner(cfg).run()
    conc = [s["concurrency"] for s in result["steps"]]
    assert conc[-1] < 16 and conc[0] == 1
    assert result["steps"][-1]["stop_reason"] == "slo_ttft_ms"
    assert result["steps"][-1]["ttft_ms"]["p95"] > 25.0


FAULTS = ["vllm_chat_continuous_usage", "sglang_chat_preempted_done_without_finish", "empty_200", "http_429",
          "vllm_chat_error_midstream", "connection_closed_midstream", "tgi_chat", "llamacpp_chat_error_event"]


def test_every_fault_is_classified_counted_separately_and_the_run_continues(tmp_path):
    cycle = itertools.cycle(FAULTS)
    lock = threading.Lock()

    def pick(_body):
        with lock:
            return next(cycle)

    store = BenchStore(tmp_path / "b.sqlite3")
    with ReplayServer(default=pick, interval_ms=1) as srv:
        result = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=40, warmup_requests=0), store=store).run()
    (s,) = result["steps"]
    assert s["requests_ok"] + s["requests_failed"] == 40
    assert s["requests_ok"] == 10  # the two successful transcripts, 5 times each
    assert s["ttft_ms"]["count"] == 10 and s["e2e_ms"]["count"] == 10
    failures = s["failures"]
    assert failures["truncated:done_without_finish_reason"] == 5
    assert failures["empty:empty_body"] == 5
    assert failures["http_error:http_429"] == 5
    assert failures["stream_error:BadRequestError"] == 5
    assert failures["stream_error:server_error"] == 5
    assert sum(v for k, v in failures.items() if k.startswith("truncated:")) == 10
    records = store.records(result["run_id"])
    assert len(records) == 40 and store.run(result["run_id"])["status"] == "degraded"  # 75 % failed on purpose
    store.connection.close()


def test_cancel_stops_quickly_and_keeps_what_was_measured(tmp_path):
    store = BenchStore(tmp_path / "b.sqlite3")
    events = EventQueue()
    cancel = CancelToken()
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=40) as srv:
        runner = Runner(config(srv.url, kind="fixed", concurrency=[3], requests=1000, warmup_requests=0),
                        store=store, on_event=events, cancel=cancel)
        box = {}
        thread = threading.Thread(target=lambda: box.update(result=runner.run()))
        thread.start()
        # cancel once three answers are in, mid-way through the next ones (a fixed sleep made this depend on the
        # machine's load: under load fewer than three had finished when it fired)
        seen, answered = [], 0
        deadline = time.monotonic() + 30
        while answered < 3 and time.monotonic() < deadline:
            new = events.drain()
            seen += new
            answered += sum(e.kind == "record" and e.data.outcome == "ok" for e in new)
            time.sleep(0.02)
        assert answered >= 3, "no three answers within 30 s"
        time.sleep(0.2)  # the next streams are under way
        t_cancel = time.monotonic()
        cancel.cancel()
        thread.join(10)
        stopped_after = time.monotonic() - t_cancel
    assert not thread.is_alive() and stopped_after < 2.0
    result = box["result"]
    assert result["status"] == "stopped"
    records = store.records(result["run_id"])
    ok = [r for r in records if r.outcome == "ok"]
    cancelled = [r for r in records if r.outcome == "cancelled"]
    assert len(ok) >= 3 and 1 <= len(cancelled) <= 3
    assert result["steps"][0]["requests_ok"] == len(ok)
    assert store.run(result["run_id"])["status"] == "stopped"
    kinds = {e.kind for e in seen + events.drain()}
    assert {"run_started", "record", "progress", "step", "finished"} <= kinds
    store.connection.close()


def test_open_loop_rate_sends_on_schedule_with_a_cap():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=1) as srv:
        cfg = config(srv.url, kind="rate", rate=40.0, requests=40, max_concurrency=8, warmup_requests=0)
        runner = Runner(cfg)
        result = runner.run()
    (s,) = result["steps"]
    assert s["requests_ok"] == 40 and s["target_rate"] == 40.0
    assert 15 < s["requests_per_s"] < 80  # Poisson: about 40/s over a one-second window
    intended = sorted(r.t_intended for r in runner.records)
    assert intended[-1] - intended[0] == pytest.approx(39 / 40, rel=0.6)
    assert s["client"]["send_delay_p99_ms"] is not None


def test_soak_reports_drift_windows():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=2) as srv:
        result = Runner(config(srv.url, kind="soak", concurrency=[2], duration_s=2.0, window_s=0.4)).run()
    drift = result["drift"]
    ttft = next(s for s in drift["series"] if s["metric"] == "ttft_p50_ms")
    assert len(ttft["windows"]) >= 4
    assert ttft["slope_per_min"] is not None and ttft["ci95"] is not None
    assert result["steps"][0]["stop_reason"] == "duration"


STALL_S = 0.04  # the consumer blocks the event loop this long on every record of the second step


@pytest.mark.parametrize(("transport", "reason"), [("raw", "late_reads_merged_tokens"), ("raw-loop", "event_loop_lag")])
def test_a_step_where_the_client_stalls_is_flagged_and_never_called_a_knee(transport, reason):
    # The consumer blocks the event loop on every record of the second step (what a slow UI callback would do).
    # Every assertion holds however loaded the machine: load only adds lag. Whether the unstalled first step
    # is clean depends on the machine (a loaded one lags > 5 ms by itself and is rightly distrusted), so it is
    # only compared with the stalled one here; the clean verdict on fixed samples is test_client_health_flags.
    def slow_consumer(event):
        if event.kind == "record" and event.data.step == 1:
            time.sleep(STALL_S)

    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=3, max_active=1) as srv:
        result = Runner(config(srv.url, transport, kind="fixed", concurrency=[1, 4], requests=16),
                        on_event=slow_consumer).run()
    first, second = result["steps"]
    assert second["client"]["client_bound"] and reason in second["client"]["reasons"], second["client"]
    # each 40 ms block delays the 10 ms lag probe by at least 30 ms; 16 blocks are far more than 1 % of samples
    assert second["client"]["loop_lag_p99_ms"] >= (STALL_S - 0.01) * 1e3 * 0.95
    assert second["client"]["loop_lag_p99_ms"] > first["client"]["loop_lag_p99_ms"]
    assert second["client"]["kernel_timestamps"] == (transport == "raw")
    if transport == "raw":  # 3 ms apart, one segment each: a 40 ms block merges several into one read
        assert second["client"]["late_merged_fraction"] > 0.01
    assert result["knee"]["concurrency"] is None and result["knee"]["reason"] == "client_bound"


class BurstServer:
    """A server that sends its answer in bursts by design: ``per_segment`` token events in one write (one TCP
    segment), ``gap_s`` apart — what a server with a stream interval, or one whose batch step emits several
    tokens, does. A client that reads a burst late merges nothing that was sent apart."""

    def __init__(self, segments: int = 4, per_segment: int = 8, gap_s: float = 0.04) -> None:
        self.segments, self.per_segment, self.gap_s = segments, per_segment, gap_s
        self.writes = 0
        self._loop = None
        self._thread = None
        self.port = 0
        self._ready = threading.Event()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(10)
        return self

    def __exit__(self, *exc):
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self):
        import asyncio

        loop = self._loop = asyncio.new_event_loop()
        server = loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            server.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    def _event(self, delta, n, finish=None):
        import json

        chunk = {"id": "b", "object": "chat.completion.chunk", "model": "m",
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                 "usage": {"prompt_tokens": 8, "completion_tokens": n, "total_tokens": 8 + n}}
        return b"data: " + json.dumps(chunk).encode() + b"\n\n"

    async def _handle(self, reader, writer):
        import asyncio

        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                n = 0
                for seg in range(self.segments):
                    await asyncio.sleep(self.gap_s)
                    body = self._event({"role": "assistant", "content": ""}, 0) if seg == 0 else b""
                    for _ in range(self.per_segment):
                        n += 1
                        last = n == self.segments * self.per_segment
                        body += self._event({"content": " tok"}, n, "length" if last else None)
                    if last:
                        body += b"data: [DONE]\n\n"
                    writer.write(b"%x\r\n%s\r\n" % (len(body), body) + (b"0\r\n\r\n" if last else b""))
                    self.writes += 1
                    await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


def test_a_server_that_sends_tokens_in_bursts_is_not_the_clients_fault():
    # The consumer blocks the loop 10 ms on every record, so reads come late (loop lag p99 well over 1 ms),
    # but each late read holds one burst of 8 tokens that the server wrote as one segment, 40 ms from the next:
    # the kernel stamps are exact and nothing the server sent apart was merged. Not client-bound.
    def busy_consumer(event):
        if event.kind == "record":
            time.sleep(0.01)

    with BurstServer() as srv:
        result = Runner(config(srv.url, "raw", kind="fixed", concurrency=[1, 4], requests=12),
                        on_event=busy_consumer).run()
    for step in result["steps"]:
        assert step["requests_ok"] == 12 and step["output_tokens"] == 12 * 32, step
        client = step["client"]
        assert client["kernel_timestamps"] and client["loop_lag_p99_ms"] > 1.0, client
        assert client["late_merged_fraction"] == 0.0 and not client["client_bound"], client
    # the bursts are seen as what they are: 8 tokens per read, ITL mostly zero inside a burst
    assert result["knee"]["reason"] != "client_bound"


def test_streams_split_over_client_processes(tmp_path):
    store = BenchStore(tmp_path / "b.sqlite3")
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=2) as srv:
        cfg = config(srv.url, kind="fixed", concurrency=[2, 6], requests=18, client_processes=2)
        runner = Runner(cfg, store=store)
        result = runner.run()
        served = len(srv.served)
    assert [s["requests_ok"] for s in result["steps"]] == [18, 18]
    assert served == 1 + 36  # warm-up in the parent, the rest in the two client processes
    records = store.records(result["run_id"])
    assert len(records) == 37 and len({r.request_id for r in records}) == 37
    assert {r.client_process for r in records if not r.warmup} == {0, 1}
    assert {r.client_process for r in records if r.warmup} == {None}
    assert {r.concurrency for r in records if r.step == 1} == {6}
    assert all(r.kernel_timestamps for r in records)
    assert result["steps"][1]["client"]["loop_lag_p99_ms"] is not None
    store.connection.close()


def test_cancel_reaches_the_client_processes(tmp_path):
    store = BenchStore(tmp_path / "b.sqlite3")
    cancel = CancelToken()
    # the stop comes once 6 requests have finished: counted from the runner's record events (with a store the
    # runner keeps no records in memory, so waiting on runner.records waited out the whole 30 s every time)
    finished = []
    six_done = threading.Event()

    def on_event(ev):
        if ev.kind == "record" and ev.data.outcome == "ok":
            finished.append(ev.data)
            if len(finished) >= 6:
                six_done.set()

    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=40) as srv:
        runner = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=1000, warmup_requests=0,
                               client_processes=2), store=store, cancel=cancel, on_event=on_event)
        box = {}
        thread = threading.Thread(target=lambda: box.update(result=runner.run()))
        thread.start()
        six_done.wait(30)
        cancel.cancel()
        thread.join(20)
    assert not thread.is_alive()
    result = box["result"]
    assert result["status"] == "stopped"
    outcomes = [r.outcome for r in store.records(result["run_id"])]
    assert outcomes.count("ok") >= 6 and 1 <= outcomes.count("cancelled") <= 4
    store.connection.close()


def test_ramp_steps_end_when_stable_long_before_their_maximum():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=2) as srv:
        result = Runner(config(srv.url, kind="ramp", concurrency=[1, 2], requests=400, min_requests_per_step=8)).run()
    for s in result["steps"]:
        assert s["stop_reason"] == "stable"
        assert 8 <= s["requests_ok"] < 100


def test_open_loop_rate_over_client_processes():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=1) as srv:
        cfg = config(srv.url, kind="rate", rate=40.0, requests=40, max_concurrency=8, warmup_requests=0,
                     client_processes=2)
        runner = Runner(cfg)
        result = runner.run()
    (s,) = result["steps"]
    assert s["requests_ok"] == 40 and s["target_rate"] == 40.0
    assert {r.client_process for r in runner.records} == {0, 1}
    intended = sorted(r.t_intended for r in runner.records)
    assert 0.3 < intended[-1] - intended[0] < 3.0  # two Poisson streams of 20/s each: about one second
    assert s["client"]["send_delay_p99_ms"] is not None


def test_the_default_ramp_stops_once_the_step_after_the_knee_confirms_it():
    # End to end over loopback, measured once (no retries): the knee rule and the stop rule themselves are tested
    # as pure functions over recorded steps in test_knee_rule.py. This server streams one request at a time, so
    # from 1 to 2 streams throughput stays flat while the second stream waits a whole request (TTFT ≫ 1.5×): the
    # knee is at 1, the step at 4 confirms it, and the ramp stops there instead of going on to 16. Tokens come
    # 20 ms apart so that a loaded 2-core machine's late wake-ups (a few ms) stay well inside the 15 % the rule
    # allows between steps.
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=20, max_active=1) as srv:
        cfg = config(srv.url, kind="ramp", max_concurrency=16, requests=16, min_requests_per_step=8)
        cfg.slo.max_error_rate = 1.0
        result = Runner(cfg).run()
    steps = result["steps"]
    assert [s["concurrency"] for s in steps] == [1, 2, 4], result["knee"]
    assert steps[-1]["stop_reason"] == "past_knee"
    knee = result["knee"]
    assert knee["concurrency"] == 1 and knee["confirmed"] is True
    assert knee["evidence"]["step_concurrency"] == 2 and knee["evidence"]["confirmed_by_concurrency"] == 4
    assert steps[1]["ttft_ms"]["p50"] > 3 * steps[0]["ttft_ms"]["p50"]
    # each ramp step says the minimums it had to run (no /metrics read here: no minimum duration)
    assert all(s["min_requests"] == 8 and s["min_duration_s"] == 0 and s["long_enough"] for s in steps)
    assert all(s["server_scrapes"] is None for s in steps)


def test_steps_start_staggered_and_say_so():
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=3) as srv:
        spread = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=16)).run()
        together = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=16, stagger=False)).run()
        short = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=4)).run()
        # no request finished yet to time one (--warmup 0): still spread, over a short interval, not all at once
        first = Runner(config(srv.url, kind="fixed", concurrency=[4], requests=16, warmup_requests=0)).run()
    assert spread["steps"][0]["start_stagger_s"] > 0
    assert first["steps"][0]["start_stagger_s"] == STAGGER_FIRST_S
    assert together["steps"][0]["start_stagger_s"] == 0 and short["steps"][0]["start_stagger_s"] == 0
    for r in (spread, together):
        step = r["steps"][0]
        assert step["requests_ok"] == 16 and not step["concurrency_shortfall"], step["steady_concurrency"]


def test_progress_reports_the_requests_really_in_flight():
    # A closed loop of 4 holds 4 requests in flight; progress sampled as a request ended read 3 (the UI added 1).
    events = EventQueue()
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=3) as srv:
        Runner(config(srv.url, kind="fixed", concurrency=[4], requests=40, warmup_requests=0, stagger=False),
               on_event=events, progress_interval_s=0.0).run()
    progress = [e.data for e in events.drain() if e.kind == "progress" and e.data["step"] == 0]
    inside = [p["in_flight"] for p in progress if 4 <= p["total_requests"] <= 36]  # all four workers running
    assert len(inside) >= 20
    assert max(inside) == 4 and min(inside) >= 3
    assert sorted(inside)[len(inside) // 2] == 4  # the typical sample is the concurrency held, not one short


def test_a_ramp_step_runs_long_enough_for_a_few_server_queue_readings_and_says_so():
    # Against a real vLLM, ramp steps of 0.7–3 s got no reading of the server's queue (/metrics is read once a
    # second). Where the queue is read, a ramp step now runs at least 4 s — its request count a floor, not a cap —
    # and its summary says its minimums and how many readings it got.
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=1) as srv:
        cfg = config(srv.url, kind="ramp", max_concurrency=1, requests=8, min_requests_per_step=4)
        result = Runner(cfg, server_queue=lambda: 0.0).run()
    (s,) = result["steps"]
    assert s["min_duration_s"] == 4.0 and s["min_requests"] == 4 and s["long_enough"] is True
    assert s["duration_s"] >= 4.0 and s["requests_ok"] > 8
    assert s["server_scrapes"] >= 3 and s["server_queue"] == 0.0
