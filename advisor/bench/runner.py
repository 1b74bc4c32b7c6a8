"""Load shapes: single-request baseline, fixed concurrency (count or duration), step ramp with stop conditions,
soak, open-loop request rate. Asyncio inside, sync at the edge: :meth:`Runner.run` blocks its thread.

The runner takes a :class:`CancelToken` and an event callback (plain Python, no Qt). Events — ``run_started``,
``progress``, ``record``, ``step``, ``finished`` — are delivered on the runner's thread; a UI passes an
:class:`EventQueue` and drains it at its own pace. Cancel takes effect within 50 ms: in-flight requests are
closed and recorded as ``cancelled``; everything finished so far is kept (and already committed).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import queue
import random
import sqlite3
import time
import uuid
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from advisor.bench import metrics
from advisor.bench.client import RequestFailed, StreamClient, _Exchange, build_record
from advisor.bench.protocol import LIVE_TOKENS, chat_body, completions_body
from advisor.bench.run_config import ramp_step_requests, run_levels, step_requests
from advisor.bench.store import BenchStore
from advisor.bench.workload import Prompt, PromptSource
from advisor.cancel import CancelToken
from advisor.domain.bench import (
    SHORTFALL_FRACTION,
    BenchConfig,
    Knee,
    RequestRecord,
    StepStatus,
    StepSummary,
)
from advisor.i18n import tr

monotonic = time.monotonic
STABLE_TOLERANCE = 0.10  # a ramp step is stable when the halves' median TPOT/E2E agree within 10 %
# A worker whose request could not reach the server waits before the next: 50 ms doubling to 2 s, jittered
# (an outage must not turn into tens of thousands of connection errors a second).
BACKOFF_FIRST_S = 0.05
BACKOFF_MAX_S = 2.0
# A step ends when nothing but unreachable answers came back for this long (and for at least one request per
# stream): the server stopped or crashed, and backing off per request would keep a dead run going for minutes.
SERVER_GONE_S = 10.0
QUEUE_SAMPLE_S = 1.0  # how often the server's waiting requests are read from its /metrics during a step
STAGGER_MAX_S = 2.0  # a step's first requests are spread over one request's duration, at most this long
# A closed-loop step (or soak) with --duration stops sending at the duration; requests still in flight then get a
# grace to finish — a quarter of the duration, at most 30 s (k6's gracefulStop is 30 s) — and are cancelled and
# counted as cancelled after it. Without it one slow answer held a "--soak 3s" for its whole --timeout (600 s).
DURATION_GRACE_FRACTION = 0.25
DURATION_GRACE_MAX_S = 30.0
# ... and over this long when no request has finished yet to time one (a first step with --warmup 0): started
# together, 16 streams' prefills collided (server-side TTFT 15 → 39 ms on a real vLLM, issue #27)
STAGGER_FIRST_S = 0.5
# A ramp step runs long enough for this many readings of the server's /metrics queue (one a second) before it may
# end as stable or at its request count: steps of 0.7–3 s got none, and a noisy short step was called a knee.
MIN_STEP_SCRAPES = 3
_UNREACHABLE = frozenset({"connect_error"})


RETRY_AFTER_CAP_S = 60.0  # the longest Retry-After honoured at once (a server asking for an hour gets a minute)
RATE_LIMIT_FIRST_S = 0.5  # a 429 without Retry-After: back off from this, doubling up to the cap


def _unreachable(rec: RequestRecord) -> bool:
    """The request never reached a server that answered (refused, reset before any byte, connect timeout)."""
    return rec.outcome in _UNREACHABLE or (rec.outcome == "truncated" and rec.error_class == "no_response") or \
        (rec.outcome == "timeout" and rec.error_class == "connect_timeout")


@contextlib.contextmanager
def quiet_gc() -> Iterator[None]:
    """Keep the cyclic garbage collector from pausing the event loop mid-step.

    A full collection over a heap of records takes tens of milliseconds — long enough to delay reads past the
    next token and merge two tokens into one read. Objects alive at the start are frozen out of collection,
    and young-generation thresholds raised; collection runs again when the context ends.
    """
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


# ``advisor bench`` exit codes (also in docs/benchmark.md and ``advisor bench --help``). 0 only when the run
# completed with its requests succeeding and everything measured is stored.
EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_PROBE_FAILED = 3
EXIT_FAILED = 4
EXIT_DEGRADED = 5
EXIT_INCOMPLETE = 6
EXIT_CANCELLED = 130


def step_status(summary: StepSummary, max_error_rate: float) -> StepStatus:
    measured = summary.requests_ok + summary.requests_failed
    if measured == 0:
        return "cancelled" if summary.requests_cancelled else "failed"
    if summary.requests_ok == 0:
        return "failed"
    if summary.requests_ok / measured < 1 - max_error_rate or summary.concurrency_shortfall:
        return "degraded"
    return "ok"


def run_status(steps: list[StepSummary], *, ramp: bool = False) -> str:
    """completed / degraded / failed from the step statuses. A ramp that stopped because its last step's error
    rate crossed the limit found the server's limit: that step alone does not degrade the run — unless the server
    was lost there (refused or dropped connections: it stopped or crashed, ``metrics.server_lost``)."""
    if not steps or not any(s.requests_ok for s in steps):
        return "failed"
    limit_found = steps[-1].stop_reason == "error_rate" and not metrics.server_lost(steps[-1])
    judged = steps[:-1] if ramp and len(steps) > 1 and limit_found else steps
    if any(s.status in ("degraded", "failed") for s in judged):
        return "degraded"
    return "completed"


def exit_code(result: dict[str, Any]) -> int:
    status = result.get("status")
    if status in ("stopped", "cancelled"):  # "cancelled": a result stored before RunStatus
        return EXIT_CANCELLED
    if result.get("incomplete"):
        return EXIT_INCOMPLETE
    if status == "failed":
        return EXIT_FAILED
    if status == "degraded":
        return EXIT_DEGRADED
    return EXIT_OK


def _timestamps(steps: list[StepSummary]) -> str | None:
    timed = [s.client.kernel_timestamps for s in steps if s.requests_ok]
    if not timed:
        return None
    return "kernel" if all(timed) else ("event_loop" if not any(timed) else "mixed")


@dataclass(slots=True)
class BenchEvent:
    kind: str  # run_started | progress | record | step | store_problem | finished
    data: Any


class EventQueue:
    """A thread-safe queue of BenchEvents: pass it as ``on_event``; the consumer calls ``drain()``."""

    def __init__(self, maxsize: int = 0) -> None:
        self._q: queue.Queue[BenchEvent] = queue.Queue(maxsize)

    def __call__(self, event: BenchEvent) -> None:
        self._q.put(event)

    def drain(self, limit: int = 10_000) -> list[BenchEvent]:
        out = []
        for _ in range(limit):
            try:
                out.append(self._q.get_nowait())
            except queue.Empty:
                break
        return out


@dataclass
class _Step:
    index: int
    concurrency: int
    acc: metrics.StepAccumulator = field(default_factory=metrics.StepAccumulator)
    lateness_ms: array = field(default_factory=lambda: array("d"))
    queue_samples: list[float] = field(default_factory=list)
    worker_lags: list[float] = field(default_factory=list)
    worker_cpu: list[float] = field(default_factory=list)  # CPU seconds of each client process in the step
    t0: float = 0.0
    t1: float = 0.0
    cpu0: float = 0.0
    cpu1: float = 0.0
    stop_reason: str | None = None
    closed: bool = False  # a closed-loop step (its target concurrency is held by workers)
    stagger_s: float = 0.0
    min_duration_s: float = 0.0  # a ramp step goes on until this long (and its minimum requests) before it ends
    min_requests: int | None = None  # a ramp step's minimum request count (None: not a ramp step)
    workers_lost: int = 0
    warmup_records: list[RequestRecord] = field(default_factory=list)
    spans: list[tuple[float, float]] | None = None  # each worker's (first start, last end), in-process steps
    last_issue: float | None = None  # when the step's last request was sent
    unreachable_streak: int = 0  # unreachable answers in a row, over all streams
    last_reachable: float = 0.0  # when a request last reached the server (or the step began)
    arrivals_not_sent: int = 0  # open loop: arrivals dropped at the duration's end before they got a slot


def steady_concurrency(spans: list[tuple[float, float]], target: int, last_issue: float | None) -> float | None:
    """Mean number of streams at work between the moment the last worker sent its first request (every stream
    running) and the last request sent (no worker quits before it: a worker stops only once the step's
    requests are all issued, its time is up or it is stable). Each span is a worker's (first start, end).
    A closed loop that keeps its workers holds ``target`` here; a worker that died early shows as a shortfall.
    None when the window is empty (a step of about ``target`` requests)."""
    if last_issue is None or not spans:
        return None
    a = max(lo for lo, _ in spans) if len(spans) >= target else min(lo for lo, _ in spans)
    b = last_issue
    if b - a <= 1e-6:
        return None
    busy = sum(max(0.0, min(b, hi) - max(a, lo)) for lo, hi in spans)
    return round(busy / (b - a), 3)



@dataclass(frozen=True)
class RunClock:
    """The time a run is measured on and the event loop its waits run on. The default is the real one: the project
    clock (``time.monotonic``, as every record and telemetry sample) and a fresh asyncio loop. A test passes a
    virtual clock whose loop moves time on at once whenever every task waits, so a run of minutes takes
    milliseconds and every timestamp is exact (``tests/support/virtual_clock.py``)."""

    now: Callable[[], float] = time.monotonic
    cpu: Callable[[], float] = time.process_time  # the runner's CPU time, for the client-bound judgement
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None


class RequestClient(Protocol):
    """What the runner sends its requests through: :class:`StreamClient` over real HTTP, or a test's fake. ``send``
    returns the exchange's raw facts; when its task is cancelled (the user stopped the run) it returns what was
    measured with ``cancelled`` set instead of raising, as the real transports do."""

    async def send(self, body: dict[str, Any] | bytes, *, t_intended: float | None = None,
                   headers: dict[str, str] | None = None, max_tokens: int | None = None) -> _Exchange: ...

    async def aclose(self) -> None: ...


ClientFactory = Callable[[BenchConfig, "str | None", int], RequestClient]


def stream_client(config: BenchConfig, api_key: str | None, max_connections: int) -> RequestClient:
    """The real client for a run's endpoint (the transport it names, connections for its highest level)."""
    ep = config.endpoint
    return StreamClient(ep.url, ep.api, api_key=api_key, transport=ep.transport, max_connections=max_connections,
                        timeout_s=ep.timeout_s, read_timeout_s=ep.read_timeout_s)


def start_stagger_s(stagger: bool, concurrency: int, requests: int | None, e2e_hint_s: float | None) -> float:
    """Over how long a closed-loop step's first requests are spread: one request's duration (``e2e_hint_s``, from
    the warm-up or the previous step; ``STAGGER_FIRST_S`` before any), at most ``STAGGER_MAX_S``; 0 when stagger is
    off, for one stream, or for a step of fewer than three requests per stream (it would never reach its
    concurrency)."""
    if not stagger or concurrency <= 1 or (requests is not None and requests < 3 * concurrency):
        return 0.0
    return min(STAGGER_MAX_S, e2e_hint_s) if e2e_hint_s else STAGGER_FIRST_S


def _measured_for(st: _Step, now: float) -> float:
    """How long the step has been measured: its reported window so far (its first request's start to its latest
    request's end), or from the step's own start before any request has finished. The minimum duration counts on
    the window itself, so the window a step reports is never shorter than its minimum: the first send lags the
    step's start, and the latest end is stamped a little before the check reads the clock (on a loaded 2-core
    machine a one-stream step reported 3.99 s against its 4 s minimum)."""
    acc = st.acc
    if acc.t_first is None or acc.t_last is None:
        return now - st.t0
    return acc.t_last - acc.t_first

class Runner:
    def __init__(self, config: BenchConfig, *, store: BenchStore | None = None,
                 on_event: Callable[[BenchEvent], None] | None = None, cancel: CancelToken | None = None,
                 api_key: str | None = None, prompts: PromptSource | None = None,
                 server_queue: Callable[[], float | None] | None = None, dialect: str | None = None,
                 progress_interval_s: float = 0.25, keep_records: bool | None = None,
                 project_id: str | None = None,
                 finalize: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 clock: RunClock | None = None, client_factory: ClientFactory | None = None) -> None:
        """``keep_records``: keep every record in ``self.records`` (default: only without a store — with one,
        records are streamed to disk and memory stays bounded however long the run). ``finalize``: turns the
        result into the one that is stored and returned (``advisor.bench.session`` makes it a ``RunResult``).
        ``clock`` and ``client_factory``: the time the run is measured on and what its requests go through —
        real time and real HTTP (:class:`StreamClient`) unless a test passes a virtual clock and a fake."""
        self.config = config
        self.clock = clock or RunClock()
        self.client_factory = client_factory or stream_client
        self.store = store
        self.project_id = project_id  # stored with the run: History's "this project" (see history.project_key)
        self.on_event = on_event
        self.cancel = cancel or CancelToken()
        self._api_key = api_key
        self.prompts = prompts or PromptSource(config.workload)
        self.server_queue = server_queue
        self.dialect = dialect
        self.progress_interval_s = progress_interval_s
        self._live_tokens = [0]  # token-bearing events received by this process (advisor.bench.protocol.LIVE_TOKENS)
        self._worker_tokens = 0  # those of worker processes' finished requests
        self.steps: list[StepSummary] = []
        self.records: list[RequestRecord] = []
        self.keep_records = store is None if keep_records is None else keep_records
        self.run_id: str | None = None
        self._e2e_hint_s: float | None = None  # one request's duration, from the warm-up or the last step
        self._hold_until = 0.0  # no request before this (monotonic): the server's Retry-After, or a 429 backoff
        self._rate_limited = 0  # 429s in a row
        self.stop_reason: str | None = None  # why the load stopped early (disk_full, store_unavailable, …)
        self.client_process: int | None = None  # set in a spawned client process
        self._seq = 0
        # event-loop lag samples (time, ms) as two compact columns, pruned at each step's end
        self._lag_t = array("d")
        self._lag_v = array("d")
        self._in_flight = 0
        self._last_progress = 0.0
        self._current: _Step | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._group: _ProcessGroup | None = None
        self._soak: _Step | None = None
        self.client_errors: list[str] = []
        self.finalize = finalize
        self.last_result: dict[str, Any] | None = None  # the result as stored, even when run() raised

    # ---- public --------------------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        """Run the whole schedule; returns the result (the ``advisor bench --json`` object).

        ``status`` is honest: ``completed`` only when every step met the success threshold (1 −
        ``slo.max_error_rate``) at its concurrency; ``degraded`` when some step did not; ``failed`` when no
        request succeeded; ``stopped`` when the user stopped it. ``incomplete`` (None when nothing is missing)
        says what the store could not keep; ``exit_code`` is what ``advisor bench`` exits with.
        """
        status = "failed"
        cfg = self.config
        if self.store is not None:
            self.store.on_problem = self._store_problem
            try:
                self.run_id = self.store.start_run(cfg.model_dump_json(), label=cfg.label, url=cfg.endpoint.url,
                                                   model=cfg.endpoint.model, project_id=self.project_id)
            except (sqlite3.Error, OSError) as exc:  # a full disk or a locked database before the first request
                return self._unstored(exc)
        self._emit("run_started", {"run_id": self.run_id, "anchor": self.store.anchor if self.store else None})
        try:
            with quiet_gc(), asyncio.Runner(loop_factory=self.clock.loop_factory) as loop:
                loop.run(self._main())
            status = "stopped" if self.cancel.cancelled and self.stop_reason is None else "completed"
        finally:
            result = self.result(status)
            if self.finalize is not None:
                result = self.finalize(result)
            self.last_result = result
            if self.store is not None:
                # every record and step committed (or journalled) first, so the stored result counts them all;
                # the stored result says nothing about its own write (it is in the database if it can be read)
                self.store.drain()
                self._store_accounting(result)
                self.store.finish_run(result["status"], json.dumps(result, ensure_ascii=False, default=str))
                self._store_accounting(result)  # the returned result also says if the run row went to the journal
            self._emit("finished", result)
        return result

    def _unstored(self, exc: BaseException) -> dict[str, Any]:
        """The run could not even be recorded: no load is sent; the result says why (exit 6)."""
        from advisor.bench.store import _problem_kind

        assert self.store is not None
        kind = _problem_kind(exc)
        problem = {"kind": kind, "error": str(exc)[:300], "records": 0, "steps": 0, "where": "start",
                   "stop_load": True, "message": tr("bench.store.unavailable", path=str(self.store.path), error=exc)}
        self.store.problems.append(problem)
        self._emit("store_problem", problem)
        self.stop_reason = "store_unavailable"
        result = self.result("failed")
        result["store_problems"] = [problem]
        result["incomplete"] = {"reason": kind, "result_not_in_db": 1}
        result["exit_code"] = exit_code(result)
        self._emit("finished", result)
        return result

    def _store_problem(self, problem: dict[str, Any]) -> None:
        """From the store's writer thread: shown live; a disk that is full stops the load (nothing more can be
        kept), a database that stays locked does not (records go to the journal file)."""
        self._emit("store_problem", problem)
        if problem.get("stop_load") and self.stop_reason is None:
            self.stop_reason = problem.get("kind") or "store_unavailable"
            self.cancel.cancel()

    def _store_accounting(self, result: dict[str, Any]) -> None:
        assert self.store is not None
        acc = self.store.accounting()
        result["store_problems"] = list(self.store.problems)
        missing = {k: v for k, v in acc.items() if k.endswith(("_not_in_db", "_lost")) and v}
        result["incomplete"] = ({**acc, "reason": self.stop_reason or (self.store.problems[-1]["kind"]
                                                                        if self.store.problems else None)}
                                if missing or self.stop_reason else None)
        result["exit_code"] = exit_code(result)

    def result(self, status: str) -> dict[str, Any]:
        cfg = self.config
        knee = metrics.find_knee(self.steps, cfg.slo.max_error_rate) if cfg.schedule.kind in ("ramp", "fixed") else Knee(
            reason="not_applicable", message=tr("bench.knee.not_applicable"))
        if status == "completed":
            status = run_status(self.steps, ramp=cfg.schedule.kind == "ramp")
        if self.stop_reason is not None:
            status = "failed" if not any(s.requests_ok for s in self.steps) else "degraded"
        out: dict[str, Any] = {
            "run_id": self.run_id,
            "status": status,
            "stop_reason": self.stop_reason,
            "url": cfg.endpoint.url,
            "model": cfg.endpoint.model,
            "api": cfg.endpoint.api,
            "schedule": cfg.schedule.kind,
            "dialect": self.dialect,
            "steps": [s.model_dump(mode="json") for s in self.steps],
            "knee": knee.model_dump(mode="json"),
            "requests_ok": sum(s.requests_ok for s in self.steps),
            "requests_failed": sum(s.requests_failed for s in self.steps),
            "concurrency_shortfall": [s.concurrency for s in self.steps if s.concurrency_shortfall],
            "client_errors": list(self.client_errors),
            # kernel receive timestamps (Linux, plain HTTP, SO_TIMESTAMPNS) or the event loop's time
            "timestamps": _timestamps(self.steps),
            "store_problems": [],
            "incomplete": None,
        }
        if cfg.schedule.kind == "soak":
            out["drift"] = self._drift().model_dump(mode="json")
        out["exit_code"] = exit_code(out)
        return out

    def _drift(self) -> Any:
        if self._soak is not None and self._soak.acc.rows is not None:
            return metrics.drift_rows(self._soak.acc.rows, self.config.schedule.window_s)
        return metrics.drift([r for r in self.records if r.outcome != "cancelled"], self.config.schedule.window_s)

    # ---- plumbing ------------------------------------------------------------------------------------
    def _emit(self, kind: str, data: Any) -> None:
        if self.on_event is not None:
            try:
                self.on_event(BenchEvent(kind, data))
            except Exception:  # a broken consumer must not stop a measurement
                pass

    def _progress(self, force: bool = False) -> None:
        now = self.clock.now()
        if not force and now - self._last_progress < self.progress_interval_s:
            return
        self._last_progress = now
        st = self._current
        if st is None:
            return
        acc = st.acc
        ok = acc.ok_seen
        self._emit("progress", {"step": st.index, "concurrency": st.concurrency, "done": acc.done, "ok": ok,
                                "failed": acc.measured - ok, "in_flight": self._in_flight,
                                "elapsed_s": round(now - st.t0, 3), "total_requests": self._seq,
                                # every token-bearing event received so far, counted as it arrived (warm-up
                                # included): the live throughput is its rate over a window
                                "output_tokens": self._live_tokens[0] + self._worker_tokens, "t": now})

    async def _progress_ticker(self) -> None:
        """A progress event at least every interval, so live figures move while long answers stream and no
        request starts or ends."""
        while True:
            await asyncio.sleep(self.progress_interval_s)
            self._progress()

    async def _lag_monitor(self) -> None:
        """Event-loop lag: how late a 10 ms sleep wakes up. A busy loop timestamps bytes late."""
        interval = 0.01
        while True:
            t = self.clock.now()
            await asyncio.sleep(interval)
            self._lag_t.append(t)
            self._lag_v.append(max(0.0, (self.clock.now() - t - interval) * 1e3))

    async def _queue_monitor(self) -> None:
        while True:
            await asyncio.sleep(QUEUE_SAMPLE_S)
            if self.server_queue is None:
                return
            try:
                value = await asyncio.to_thread(self.server_queue)
            except Exception:
                value = None
            if value is not None and self._current is not None:
                self._current.queue_samples.append(value)

    async def _cancel_watch(self) -> None:
        while not self.cancel.cancelled:
            await asyncio.sleep(0.05)
        for task in list(self._tasks):
            task.cancel()

    def _note_rate_limit(self, rec: RequestRecord) -> None:
        """A 429 (or a 503 with Retry-After) holds every stream of this runner — one target host — until the
        time the server asked for (capped), or an exponential backoff when it did not say: rate limiting is
        honoured, not answered with a flood of requests."""
        if rec.status == 429 or (rec.status == 503 and rec.retry_after_s is not None):
            self._rate_limited += 1
            if rec.retry_after_s is not None:
                pause = min(RETRY_AFTER_CAP_S, rec.retry_after_s)
            else:
                pause = min(RETRY_AFTER_CAP_S, RATE_LIMIT_FIRST_S * 2 ** min(self._rate_limited - 1, 16))
            self._hold_until = max(self._hold_until, self.clock.now() + pause)
        elif rec.ok:
            self._rate_limited = 0

    async def _rate_limit_wait(self, deadline: float | None) -> None:
        """Wait out a Retry-After hold (never past the step's deadline, never after a cancel)."""
        while not self.cancel.cancelled:
            until = self._hold_until if deadline is None else min(self._hold_until, deadline)
            left = until - self.clock.now()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 0.25))

    def _body(self, prompt: Prompt) -> bytes:
        cfg = self.config
        ep = cfg.endpoint
        if ep.api == "chat":
            body = chat_body(ep.model, prompt.as_messages(), prompt.max_tokens, ignore_eos=cfg.workload.ignore_eos,
                             extra=ep.extra_body)
        else:
            body = completions_body(ep.model, prompt.as_text(), prompt.max_tokens, ignore_eos=cfg.workload.ignore_eos,
                                    extra=ep.extra_body)
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    async def _one(self, client: RequestClient, step: _Step, *, warmup: bool = False, t_intended: float | None = None) -> RequestRecord:
        prompt = next(self.prompts)
        seq = self._seq
        self._seq += 1
        # A UUID: servers log it, the simulator keys its ground truth by it, and llama-cpp-python's server answers
        # an empty HTTP 400 to any X-Request-Id that is not a UUID (found by `make interop`).
        request_id = str(uuid.uuid4())
        self._in_flight += 1
        # sampled here, once this request is on its way: a closed-loop worker's next request is counted (after
        # the previous one's record a sample would read one short of the concurrency held)
        self._progress()
        t0 = self.clock.now()
        try:
            ex = await client.send(self._body(prompt), t_intended=t_intended, headers={"X-Request-Id": request_id},
                                   max_tokens=prompt.max_tokens)
        except Exception as exc:  # noqa: BLE001 - a client bug fails this request, never the worker
            ex = _Exchange(t_intended=t_intended or t0, t_start=t0, t_end=self.clock.now(),
                           failure=RequestFailed("invalid", "client_error", f"{type(exc).__name__}: {exc}"[:200]))
        finally:
            self._in_flight -= 1
        try:
            rec = build_record(ex, seq=seq, step=-1 if warmup else step.index, concurrency=step.concurrency,
                               warmup=warmup, prompt_tokens_target=prompt.prompt_tokens, max_tokens=prompt.max_tokens,
                               dialect=self.dialect, request_id=request_id)
        except Exception as exc:  # noqa: BLE001
            bad = _Exchange(t_intended=ex.t_intended, t_start=ex.t_start, t_end=ex.t_end, status=ex.status,
                            failure=RequestFailed("invalid", "client_error", f"{type(exc).__name__}: {exc}"[:200]))
            rec = build_record(bad, seq=seq, step=-1 if warmup else step.index, concurrency=step.concurrency,
                               warmup=warmup, max_tokens=prompt.max_tokens, request_id=request_id)
        rec.client_process = self.client_process
        self._note_rate_limit(rec)
        if self.cancel.cancelled and rec.outcome != "ok":
            rec.outcome = "cancelled"
        step.acc.add(rec)
        if warmup:
            step.warmup_records.append(rec)
        if self.keep_records:
            self.records.append(rec)
        if self.store is not None:
            self.store.add_record(rec)
        self._emit("record", rec)
        return rec

    def _begin(self, index: int, concurrency: int, *, rows: bool = False) -> _Step:
        now = self.clock.now()
        st = _Step(index, concurrency, t0=now, cpu0=self.clock.cpu(), last_reachable=now,
                   acc=metrics.StepAccumulator(self.config.slo, keep_rows=rows))
        self._current = st
        self._progress(force=True)
        return st

    def _end(self, st: _Step, target_rate: float | None = None) -> StepSummary:
        st.t1 = self.clock.now()
        st.cpu1 = self.clock.cpu()
        lags = self._lags_since(st.t0, st.t1) + st.worker_lags
        self._prune_lags(st.t1)
        wall = max(1e-9, st.t1 - st.t0)
        cpu = (st.cpu1 - st.cpu0) / wall
        if st.worker_cpu:  # the busiest client process decides
            cpu = max([cpu] + [c / wall for c in st.worker_cpu])
        client = metrics.judge_client(lags, st.lateness_ms, cpu, token_stats=st.acc.token_stats())
        summary = st.acc.summary(step=st.index, concurrency=st.concurrency, client=client, target_rate=target_rate)
        if st.queue_samples:
            summary.server_queue = sum(st.queue_samples) / len(st.queue_samples)
        summary.stop_reason = st.stop_reason
        summary.arrivals_not_sent = st.arrivals_not_sent
        summary.start_stagger_s = round(st.stagger_s, 4)
        if self.server_queue is not None:
            summary.server_scrapes = len(st.queue_samples)
        if st.min_requests is not None:  # a ramp step: its minimums, and whether it ran them (cancel cuts it short)
            summary.min_requests = st.min_requests
            summary.min_duration_s = round(st.min_duration_s, 3)
            summary.long_enough = summary.requests_ok + summary.requests_failed >= st.min_requests and \
                summary.duration_s >= st.min_duration_s
        if st.workers_lost:
            summary.concurrency_shortfall = True
        if st.closed and st.stop_reason != "cancelled" and st.spans is not None:
            summary.steady_concurrency = steady_concurrency(st.spans, st.concurrency, st.last_issue)
            if summary.steady_concurrency is not None:
                summary.concurrency_shortfall = summary.steady_concurrency < SHORTFALL_FRACTION * st.concurrency
            if st.workers_lost:
                summary.concurrency_shortfall = True
        summary.status = step_status(summary, self.config.slo.max_error_rate)
        if st.acc.e2e:
            self._e2e_hint_s = sorted(st.acc.e2e)[len(st.acc.e2e) // 2] / 1e3
        self.steps.append(summary)
        if self.store is not None:
            self.store.add_step(summary)
        self._progress(force=True)
        self._emit("step", summary)
        return summary

    # ---- shapes --------------------------------------------------------------------------------------
    async def _main(self) -> None:
        cfg = self.config
        sch = cfg.schedule
        levels = self._levels()
        client = self.client_factory(cfg, self._api_key, max(levels + [sch.max_concurrency if sch.kind == "rate" else 1]))
        LIVE_TOKENS.set(self._live_tokens)  # the tasks made from here on count their tokens into it
        helpers = [asyncio.create_task(self._lag_monitor()), asyncio.create_task(self._cancel_watch()),
                   asyncio.create_task(self._progress_ticker())]
        if self.server_queue is not None:
            helpers.append(asyncio.create_task(self._queue_monitor()))
        if sch.client_processes > 1:
            self._group = await asyncio.to_thread(_ProcessGroup, self, sch.client_processes)
        try:
            if sch.warmup_requests and not self.cancel.cancelled:
                await self._closed(client, self._begin(-1, min(sch.warmup_requests, levels[0])),
                                   requests=sch.warmup_requests, warmup=True)
            if sch.kind == "rate":
                await self._open_loop(client)
            elif sch.kind == "soak":
                st = self._begin(0, levels[0], rows=True)
                self._soak = st
                await self._closed(client, st, requests=None, duration=sch.duration_s or 60.0)
                self._end(st)
            else:
                for i, c in enumerate(levels):
                    if self.cancel.cancelled:
                        break
                    st = self._begin(i, c)
                    if sch.kind == "ramp":  # the step sizes the time-left estimate reads too (run_config)
                        st.min_requests, max_req = ramp_step_requests(sch, c)
                        st.min_duration_s = self._min_step_s()
                        await self._closed(client, st, requests=max_req, duration=sch.duration_s,
                                           stable_after=st.min_requests, min_duration=st.min_duration_s)
                    else:
                        await self._closed(client, st, requests=step_requests(sch, c), duration=sch.duration_s)
                    summary = self._end(st)
                    if st.stop_reason == "server_lost":
                        break  # no further level can be measured against a server that is gone
                    if sch.kind == "ramp":
                        # an SLO or error breach, or a confirmed knee (a dip the next step contradicts goes on)
                        breach = metrics.ramp_stop(self.steps, cfg.slo, continue_past_knee=sch.continue_past_knee)
                        if breach:
                            summary.stop_reason = breach
                            if self.store is not None:
                                self.store.add_step(summary)
                            break
        finally:
            for task in helpers:
                task.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            await client.aclose()
            if self._group is not None:
                await asyncio.to_thread(self._group.close)
                self._group = None

    def _min_step_s(self) -> float:
        """How long a ramp step runs at least: as set (``min_step_s``), else long enough for ``MIN_STEP_SCRAPES``
        readings of the server's queue when its /metrics is read (one more second for the first), else no minimum."""
        set_s = self.config.schedule.min_step_s
        if set_s is not None:
            return set_s
        return (MIN_STEP_SCRAPES + 1) * QUEUE_SAMPLE_S if self.server_queue is not None else 0.0

    def _levels(self) -> list[int]:
        return run_levels(self.config.schedule)

    async def _closed(self, client: RequestClient, st: _Step, *, requests: int | None, duration: float | None = None,
                      warmup: bool = False, stable_after: int | None = None, min_duration: float = 0.0) -> None:
        """Closed loop: ``st.concurrency`` workers, each sending its next request when the last one ends. With
        ``min_duration`` the step neither ends as stable nor at ``requests`` before it has run that long (the
        request count is a floor then, not a cap); ``duration`` still caps it."""
        if self._group is not None and not warmup:
            await self._closed_in_processes(st, requests=requests, duration=duration)
            return
        deadline = st.t0 + duration if duration else None
        issued = 0
        stable = False
        next_check = stable_after or 0
        check_every = max(4, st.concurrency // 4)  # the check sorts the step's records: not after every request
        st.closed = not warmup
        # Spread the first requests over one request's duration (from the warm-up or the previous step): started
        # together, equal-length requests would stay in lock-step waves of prefills for the whole step.
        # A step of fewer than three requests per stream is too short to stagger: it would never reach its
        # concurrency. It then starts together, and says so (start_stagger_s = 0).
        if not warmup:
            st.stagger_s = start_stagger_s(self.config.schedule.stagger, st.concurrency, requests, self._e2e_hint_s)
        gap = st.stagger_s / st.concurrency
        rng = random.Random(self.config.workload.seed * 7 + st.index)

        spans: list[tuple[float, float]] = []

        # every stream's first request is its own: a staggered stream that starts late finds it waiting, instead
        # of early streams taking it (the step would then never reach its concurrency)
        issued = min(st.concurrency, requests) if requests is not None else 0

        async def worker(i: int) -> None:
            nonlocal issued, stable, next_check
            if requests is not None and i >= requests:
                return
            if gap and i:
                await asyncio.sleep(gap * i)
            failures = 0
            first: float | None = None
            try:
                while not self.cancel.cancelled and not stable and st.stop_reason != "server_lost":
                    if first is not None:
                        if requests is not None and issued >= requests and _measured_for(st, self.clock.now()) >= min_duration:
                            return
                        issued += 1
                    await self._rate_limit_wait(deadline)
                    if deadline is not None and self.clock.now() >= deadline or self.cancel.cancelled:
                        return
                    st.last_issue = self.clock.now()
                    rec = await self._one(client, st, warmup=warmup)
                    if first is None:
                        first = rec.t_start
                    if _unreachable(rec):  # back off (bounded, jittered): an outage is not a flood of errors
                        failures += 1
                        st.unreachable_streak += 1
                        if st.unreachable_streak >= st.concurrency and self.clock.now() - st.last_reachable >= SERVER_GONE_S:
                            st.stop_reason = "server_lost"  # every stream ends; the run stops after this step
                            return
                        pause = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** min(failures - 1, 16))
                        pause *= rng.uniform(0.5, 1.0)
                        if deadline is not None:
                            pause = min(pause, max(0.0, deadline - self.clock.now()))
                        await asyncio.sleep(pause)
                    else:
                        failures = 0
                        st.unreachable_streak = 0
                        st.last_reachable = self.clock.now()
                    if stable_after and not stable and st.acc.done >= next_check:
                        next_check = st.acc.done + check_every
                        if _measured_for(st, self.clock.now()) >= min_duration and self._is_stable(st.acc.stability):
                            stable = True
                            st.stop_reason = "stable"
            finally:
                if first is not None:
                    spans.append((first, self.clock.now()))

        tasks = [asyncio.create_task(worker(i)) for i in range(st.concurrency)]
        self._tasks.update(tasks)
        try:
            if deadline is not None and duration:
                # --duration is a time limit: past the deadline and its grace, requests in flight are cancelled
                # (recorded as such; a cancelled exchange returns its record, and the stream then ends)
                grace = min(DURATION_GRACE_MAX_S, DURATION_GRACE_FRACTION * duration)
                _, late = await asyncio.wait(tasks, timeout=max(0.0, deadline + grace - self.clock.now()))
                for task in late:
                    task.cancel()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            self._tasks.difference_update(tasks)
        st.workers_lost = sum(1 for o in outcomes if isinstance(o, Exception))
        st.spans = spans
        if warmup:
            done = sorted(r.e2e_ms for r in st.warmup_records if r.ok and r.e2e_ms is not None)
            if done:
                self._e2e_hint_s = done[len(done) // 2] / 1e3
        if st.stop_reason is None and not warmup:
            st.stop_reason = "cancelled" if self.cancel.cancelled else ("duration" if deadline else "requests")

    async def _closed_in_processes(self, st: _Step, *, requests: int | None, duration: float | None) -> None:
        """The step's streams split over the client processes."""
        assert self._group is not None
        k = min(len(self._group.conns), st.concurrency)
        shares = [st.concurrency // k + (1 if i < st.concurrency % k else 0) for i in range(k)]
        req_shares = [requests // k + (1 if i < requests % k else 0) for i in range(k)] if requests else [None] * k
        await self._in_processes(st, [("closed", st.index, shares[i], req_shares[i], duration) for i in range(k)])
        st.stop_reason = "cancelled" if self.cancel.cancelled else ("duration" if duration else "requests")

    async def _in_processes(self, st: _Step, commands: list[tuple[Any, ...]]) -> None:
        """Send one command per client process; take their records as they finish, until each says done."""
        group = self._group
        assert group is not None
        for i, cmd in enumerate(commands):
            group.conns[i].send(cmd)
        pending = set(range(len(commands)))
        cancel_sent = False
        while pending:
            if self.cancel.cancelled and not cancel_sent:
                group.cancel.set()
                cancel_sent = True
            items = await asyncio.to_thread(group.get_batch, 0.05)
            for kind, index, payload in items:
                if kind == "record":
                    rec = RequestRecord.model_validate_json(payload)
                    rec.concurrency = st.concurrency  # the process ran a share; the step is the whole
                    rec.seq = self._seq
                    self._seq += 1
                    if self.cancel.cancelled and rec.outcome != "ok":
                        rec.outcome = "cancelled"
                    st.acc.add(rec)
                    self._worker_tokens += len(rec.token_times)  # another process's tokens, counted as it ends
                    if self.keep_records:
                        self.records.append(rec)
                    if self.store is not None:
                        self.store.add_record(rec)
                    self._emit("record", rec)
                    self._progress()
                elif kind == "done":
                    lags, cpu_s, lateness = payload
                    st.worker_lags.extend(lags)
                    st.worker_cpu.append(cpu_s)
                    st.lateness_ms.extend(lateness)
                    pending.discard(index)
                elif kind == "error":  # its streams are lost for this step: flagged, the others go on
                    st.workers_lost += 1
                    self.client_errors.append(f"client process {index}: {payload}"[:300])
                    pending.discard(index)
            if not items:
                for index in list(pending):
                    if not group.procs[index].is_alive():  # died without a word (killed, out of memory)
                        st.workers_lost += 1
                        self.client_errors.append(f"client process {index} exited ({group.procs[index].exitcode})")
                        pending.discard(index)

    @staticmethod
    def _is_stable(values: Any) -> bool:
        """The halves' median TPOT (else E2E) of the successes so far agree within STABLE_TOLERANCE."""
        if len(values) < 8:
            return False
        half = len(values) // 2

        def median(vals: Any) -> float | None:
            vals = sorted(vals)
            return vals[len(vals) // 2] if vals else None

        a, b = median(values[:half]), median(values[half:])
        return a is not None and b is not None and a > 0 and abs(b - a) / a <= STABLE_TOLERANCE

    def _lags_since(self, t0: float, t1: float | None = None) -> list[float]:
        return [v for t, v in zip(self._lag_t, self._lag_v, strict=False) if t >= t0 and (t1 is None or t <= t1)]

    def _prune_lags(self, before: float) -> None:
        keep = [i for i, t in enumerate(self._lag_t) if t > before]
        self._lag_t = array("d", (self._lag_t[i] for i in keep))
        self._lag_v = array("d", (self._lag_v[i] for i in keep))

    async def _open_loop(self, client: RequestClient) -> None:
        """Open loop: arrivals at ``rate`` per second (gamma inter-arrivals; shape 1 = Poisson), capped in flight."""
        sch = self.config.schedule
        rate = sch.rate or 1.0
        st = self._begin(0, sch.max_concurrency)
        total = sch.requests if sch.requests else (None if sch.duration_s else 100)
        if self._group is not None:
            # superposed Poisson streams are Poisson: each process takes rate/k, cap/k and its share of requests
            k = len(self._group.conns)
            await self._in_processes(st, [
                ("rate", 0, rate / k, max(1, -(-sch.max_concurrency // k)),
                 None if total is None else total // k + (1 if i < total % k else 0), sch.duration_s)
                for i in range(k)
            ])
        else:
            await self._arrivals(client, st, rate=rate, cap=sch.max_concurrency, total=total,
                                 duration=sch.duration_s, seed=self.config.workload.seed + 1)
        st.stop_reason = "cancelled" if self.cancel.cancelled else ("duration" if sch.duration_s else "requests")
        self._end(st, target_rate=rate)

    async def _arrivals(self, client: RequestClient, st: _Step, *, rate: float, cap: int, total: int | None,
                        duration: float | None, seed: int) -> None:
        rng = random.Random(seed)
        slots = asyncio.Semaphore(cap)
        deadline = st.t0 + duration if duration else None
        pending: set[asyncio.Task[Any]] = set()
        t_next = self.clock.now()
        sent = 0

        unsent = 0

        async def fire(t_intended: float) -> None:
            nonlocal unsent
            unsent += 1
            try:
                await self._rate_limit_wait(deadline)
                await slots.acquire()
            finally:
                unsent -= 1
            try:
                await self._one(client, st, t_intended=t_intended)
            finally:
                slots.release()

        while not self.cancel.cancelled:
            if total is not None and sent >= total:
                break
            if deadline is not None and t_next >= deadline:
                break
            delay = t_next - self.clock.now()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.cancel.cancelled:
                break
            st.lateness_ms.append(max(0.0, (self.clock.now() - t_next) * 1e3))
            task = asyncio.create_task(fire(t_next))
            pending.add(task)
            self._tasks.add(task)
            task.add_done_callback(pending.discard)
            task.add_done_callback(self._tasks.discard)
            sent += 1
            burst = self.config.schedule.burstiness
            t_next += rng.gammavariate(burst, 1.0 / (rate * burst))
        if pending and deadline is not None and not self.cancel.cancelled:
            # --duration is a time limit, not a backlog to drain: at the deadline, requests in flight are cancelled
            # (recorded as such) and arrivals still waiting for a slot are dropped (counted, never sent)
            await asyncio.wait(set(pending), timeout=max(0.0, deadline - self.clock.now()))
            if pending:
                dropped = unsent
                for task in list(pending):
                    task.cancel()
                st.arrivals_not_sent += dropped
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)


class _ProcessGroup:
    """Client processes for one run (spawned, so they never inherit the caller's threads or Qt state).

    Each runs :func:`_client_process`: its own event loop, client and prompt source; the parent sends a command
    down a pipe — ("closed", step, concurrency, requests, duration) or ("rate", step, rate, cap, requests,
    duration) — and reads ("record" | "done" | "error", index, payload) from one queue: records of a process
    arrive before its "done" because both travel the same queue.
    The API key goes to the children through the spawn pipe, never through a file or the environment.
    """

    def __init__(self, runner: Runner, k: int) -> None:
        import multiprocessing as mp
        import os

        ctx = mp.get_context("spawn")
        self.cancel = ctx.Event()
        self.results: Any = ctx.Queue()
        self.conns: list[Any] = []
        self.procs: list[Any] = []
        config_json = runner.config.model_dump_json()
        for i in range(k):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_client_process, name=f"bench-client-{i}", daemon=True,
                               args=(config_json, runner._api_key, child, self.results, self.cancel, i,
                                     runner.prompts.per_token, runner.run_id or "bench", runner.dialect,
                                     os.getpid()))
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        for conn in self.conns:  # wait until every process has imported and is ready
            if not conn.poll(60) or conn.recv() != "ready":
                self.close()
                raise RuntimeError("a client process did not start")

    def get_batch(self, timeout: float) -> list[tuple[str, int, Any]]:
        items = []
        try:
            items.append(self.results.get(timeout=timeout))
            while len(items) < 512:
                items.append(self.results.get_nowait())
        except queue.Empty:
            pass
        return items

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.terminate()
                proc.join(5)
        for conn in self.conns:
            conn.close()
        self.results.close()
        self.results.join_thread()


def die_with_parent(parent_pid: int) -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux ``PR_SET_PDEATHSIG``). Returns False
    where that is not available; :func:`_client_process` also watches ``os.getppid()`` (every system)."""
    import os
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        if libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent_pid:  # the parent died before the call: nobody will send the signal
        os._exit(1)
    return True


PARENT_WATCH_S = 0.5


def _client_process(config_json: str, api_key: str | None, conn: Any, results: Any, cancel_event: Any, index: int,
                    per_token: float, run_id: str, dialect: str | None,
                    parent_pid: int | None = None) -> None:  # pragma: no cover - subprocess
    import os

    if parent_pid is not None:
        die_with_parent(parent_pid)
    config = BenchConfig.model_validate_json(config_json)
    workload = config.workload.model_copy(update={"seed": config.workload.seed + 7919 * (index + 1)})
    prompts = PromptSource(workload)
    prompts.per_token = per_token
    token = CancelToken()

    def forward(event: BenchEvent) -> None:
        if event.kind == "record":
            results.put(("record", index, event.data.model_dump_json()))

    runner = Runner(config, on_event=forward, cancel=token, api_key=api_key, prompts=prompts, dialect=dialect)
    runner.run_id = run_id
    runner.client_process = index

    async def main() -> None:
        sch = config.schedule
        client = StreamClient(config.endpoint.url, config.endpoint.api, api_key=api_key,
                              transport=config.endpoint.transport,
                              max_connections=max(sch.concurrency + [sch.max_concurrency]),
                              timeout_s=config.endpoint.timeout_s, read_timeout_s=config.endpoint.read_timeout_s)
        helpers = [asyncio.create_task(runner._lag_monitor())]

        async def watch_cancel() -> None:
            while not cancel_event.is_set():
                await asyncio.sleep(0.05)
            token.cancel()
            for task in list(runner._tasks):
                task.cancel()

        async def watch_parent() -> None:
            # the parent was killed (kill -9): stop sending load at once (PR_SET_PDEATHSIG does it on Linux;
            # this covers other systems and a parent whose spawning thread is still alive)
            while parent_pid is None or os.getppid() == parent_pid:
                await asyncio.sleep(PARENT_WATCH_S)
            os._exit(1)

        helpers.append(asyncio.create_task(watch_cancel()))
        helpers.append(asyncio.create_task(watch_parent()))
        conn.send("ready")
        try:
            while True:
                cmd = await asyncio.to_thread(conn.recv)
                if cmd is None:
                    return
                kind, step, *spec = cmd
                st = _Step(step, 0, t0=monotonic(), cpu0=time.process_time())
                try:
                    if kind == "closed":
                        st.concurrency, requests, duration = spec
                        await runner._closed(client, st, requests=requests, duration=duration)
                    else:
                        rate, cap, total, duration = spec
                        st.concurrency = cap
                        await runner._arrivals(client, st, rate=rate, cap=cap, total=total, duration=duration,
                                               seed=config.workload.seed + 1 + index)
                except Exception as exc:  # reported to the parent, which fails the run loudly
                    results.put(("error", index, repr(exc)))
                    return
                lags = runner._lags_since(st.t0)
                runner._prune_lags(monotonic())
                results.put(("done", index, (lags, time.process_time() - st.cpu0, list(st.lateness_ms))))
        finally:
            for task in helpers:
                task.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            await client.aclose()

    with quiet_gc():
        asyncio.run(main())

