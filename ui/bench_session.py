"""The bridge between the benchmark engine and the Benchmark page: run a load, drain its events at ≤10 Hz.

``BenchSession.start(config, ...)`` runs, in ONE background task (``TaskRunner``, the app's one way to run
work), ``advisor.bench.session.run_benchmark`` — the same entry point as ``advisor bench`` and the A/B: probe (a
failed probe stops before any load and is recorded as a failed run), tokenizer calibration, telemetry, the runner,
a typed ``RunResult``. Its events go to an ``EventQueue``; the GUI never touches the engine's objects while it
runs: a ``QTimer`` drains the queue into fixed-size ring buffers (``LiveBuffers``) and emits ``updated``; widgets
read the buffers. The live telemetry samplers reach the GPU panel through the ``telemetry`` event.

Where the load runs: in a thread of this process by default (``client_processes=1``), or split over spawned
client processes (``client_processes>1``, the engine's own process group). Measured in bench/gui_bench_lag.py
and docs/measure.md: the client stamps token arrivals with the kernel's receive time, so a busy GUI thread
does not move the timestamps; what it can do is delay reads until two tokens merge, which the runner counts.

One *sample request* per step streams its text beside the load so a newcomer sees tokens arrive; it is not
part of the measurement (not counted in any statistic) and is labelled so on the page.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from advisor.bench.live_rate import LiveRate
from advisor.bench.runner import BenchEvent, EventQueue
from advisor.cancel import CancelToken
from advisor.domain.bench import BenchConfig, ProbeResult, RequestRecord, StepSummary
from advisor.domain.run import SimSetup

_log = logging.getLogger(__name__)

DRAIN_MS = 250  # 4 Hz: a few refreshes per second are enough to watch, and leave the GIL to the load
RING = 2000  # points kept per live chart


class Ring:
    """A fixed-size ring of (x, y) points in numpy arrays: appends are O(1), the charts read views, no copies
    of Python tuples (a deque of tuples cost ~5 ms per chart per refresh to turn into an array)."""

    def __init__(self, size: int = RING) -> None:
        self.size = size
        self._x = np.empty(2 * size)
        self._y = np.empty(2 * size)
        self._start = 0
        self._n = 0
        self.version = 0  # bumps on every append: a chart redraws only when it changed

    def append(self, point: tuple[float, float]) -> None:
        end = self._start + self._n
        if end == len(self._x):  # compact: keep the newest size-1 points at the front
            keep = min(self._n, self.size - 1)
            self._x[:keep] = self._x[end - keep : end]
            self._y[:keep] = self._y[end - keep : end]
            self._start, self._n, end = 0, keep, keep
        self._x[end], self._y[end] = point
        if self._n < self.size:
            self._n += 1
        else:
            self._start += 1
        self.version += 1

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    def xy(self) -> tuple[np.ndarray, np.ndarray]:
        a, b = self._start, self._start + self._n
        return self._x[a:b], self._y[a:b]


@dataclass
class SampleText:
    """The sample request's text as it streams (written by its thread, read by the GUI under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    step: int = -1
    text: str = ""
    ttft_ms: float | None = None
    ttft_chars: int = 0  # where the first token ends in ``text``
    done: bool = False
    error: str | None = None
    not_sent: str = ""  # why no sample request was sent (shown instead of the text)

    def snapshot(self) -> tuple[int, str, float | None, int, bool, str | None]:
        with self.lock:
            return self.step, self.text, self.ttft_ms, self.ttft_chars, self.done, self.error


@dataclass
class LiveBuffers:
    """What the live widgets draw; only the GUI thread writes these (in the drain slot)."""

    t0: float | None = None
    ttft: Ring = field(default_factory=Ring)  # (t_s, ttft_ms) per request
    itl_p50: Ring = field(default_factory=Ring)
    itl_p99: Ring = field(default_factory=Ring)
    tok_s: Ring = field(default_factory=Ring)
    active: Ring = field(default_factory=Ring)
    target: Ring = field(default_factory=Ring)
    errors: Ring = field(default_factory=Ring)
    recent_itl: deque[float] = field(default_factory=lambda: deque(maxlen=4000))
    # the runner's cumulative token count over time: the live output rate (advisor.bench.live_rate)
    token_rate: LiveRate = field(default_factory=LiveRate)
    records: int = 0
    ok: int = 0
    failed: int = 0
    steps: list[StepSummary] = field(default_factory=list)
    step: int = 0
    concurrency: int = 0
    in_flight: int = 0
    step_done: int = 0
    progress: dict[str, Any] = field(default_factory=dict)

    def clear(self) -> None:
        """Every buffer back to empty (a new run), in place: the live widgets keep this object."""
        fresh = LiveBuffers()
        for f in fields(self):
            setattr(self, f.name, getattr(fresh, f.name))


class BenchSession(QObject):
    """One benchmark at a time. Signals are delivered on the GUI thread."""

    started = Signal(str)  # run id ("" when not stored)
    updated = Signal()  # buffers changed (≤10 Hz)
    probe_done = Signal(object)  # ProbeResult
    finished = Signal(object)  # the result dict (status completed / stopped / failed …)
    failed = Signal(str)  # a message for the user (probe failure, the engine raised)

    def __init__(self, runner: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = runner
        self.buffers = LiveBuffers()
        self.sample = SampleText()
        self.events: EventQueue | None = None
        self.probe: ProbeResult | None = None  # this run's probe (decides whether a sample request may be sent)
        self.setup: SimSetup | None = None
        self.telemetry: Any = None
        self.token: CancelToken | None = None
        self.handle: Any = None
        self.run_id: str | None = None
        self.config: BenchConfig | None = None
        self.schedule_total_steps = 0
        self.drain_cost_ms: deque[float] = deque(maxlen=600)
        self._timer = QTimer(self)
        self._timer.setInterval(DRAIN_MS)
        self._timer.timeout.connect(self.drain)
        self._sample_thread: threading.Thread | None = None
        self._sample_url: str | None = None
        self._sample_key: str | None = None
        self._sample_body: dict[str, Any] | None = None

    # ---------------------------------------------------------------------------------------- control
    @property
    def running(self) -> bool:
        return self.handle is not None

    @property
    def simulated(self) -> bool:
        """This run's server is our simulated one (started here, or found by the probe): its answers are generated
        placeholder text, and the sample answer says so."""
        return self.setup is not None or (self.probe is not None and self.probe.dialect == "simulated")

    def start(
        self,
        config: BenchConfig,
        *,
        api_key: str | None = None,
        prompts: Any = None,
        db_path: Any = None,
        nvml: bool = True,
        exporter_url: str | None = None,
        sample_text: bool = True,
        setup: SimSetup | None = None,
        probe_first: bool = True,
        project_id: str | None = None,
        ca_bundle: str | None = None,
        client_cert: tuple[str, str | None] | None = None,
    ) -> None:
        """``project_id``: the open project the run is stored with (History's "this project"); None: none.
        ``setup``: what the embedded simulated server models (stored with the result). ``ca_bundle``: CA
        certificates trusted beside the system store (``run_benchmark``'s, as ``advisor bench --ca-bundle``).
        ``client_cert``: (certificate, key file or None) presented to a server that asks (``--client-cert``)."""
        if self.running:
            raise RuntimeError("a benchmark is already running")
        self.buffers.clear()
        self.sample = SampleText()
        self.probe = None
        self.setup = setup  # the embedded simulated server's setup (None: a server by URL, whatever it is)
        self.config = config
        self.events = EventQueue()
        token = CancelToken()
        self.token = token
        self.run_id = None
        self._sample_key = api_key
        self._sample_url = config.endpoint.url if sample_text else None
        from advisor.bench.store import default_path

        db = db_path or default_path()

        def work(task_token: CancelToken) -> dict[str, Any]:
            return _run(config, token, task_token, self.events, api_key, prompts, db, nvml, exporter_url, setup, self,
                        probe_first, project_id, ca_bundle, client_cert)  # fmt: skip

        self.handle = self.tasks.submit(work, on_result=self._on_result, on_error=self._on_error)
        self._timer.start()

    def stop(self) -> None:
        """Ends the run within a second; everything measured so far is kept (and already stored)."""
        if self.token is not None:
            self.token.cancel()

    # ------------------------------------------------------------------------------------------ drain
    def drain(self) -> None:
        if self.events is None:
            return
        t = time.perf_counter()
        events = self.events.drain()
        if events:
            self._apply(events)
            self.updated.emit()
        elif self.running:
            self.updated.emit()  # clocks and telemetry move even between records
        self.drain_cost_ms.append((time.perf_counter() - t) * 1e3)

    def _apply(self, events: list[BenchEvent]) -> None:
        for ev in events:
            try:
                self._apply_one(ev)
            except Exception:  # one odd event must not cost the others (or the live view)
                _log.exception("benchmark event %s could not be shown", ev.kind)
        self._roll()

    def _apply_one(self, ev: BenchEvent) -> None:
        b = self.buffers
        if ev.kind == "record":
            self._add_record(ev.data)
        elif ev.kind == "progress":
            d = ev.data
            b.progress = d
            if d.get("output_tokens") is not None and d.get("t") is not None:
                b.token_rate.add(float(d["t"]), int(d["output_tokens"]))
            if d.get("step", -1) >= 0:
                if d["step"] != b.step or b.concurrency != d["concurrency"]:
                    b.step = d["step"]
                    b.concurrency = d["concurrency"]
                    self._start_sample(d["step"])
                b.in_flight = d.get("in_flight", 0)  # the engine samples once a request is on its way
                b.step_done = d.get("done", 0)
                now = time.monotonic()
                b.t0 = b.t0 if b.t0 is not None else now
                b.active.append((now - b.t0, float(b.in_flight)))
                b.target.append((now - b.t0, float(d["concurrency"])))
        elif ev.kind == "step":
            b.steps.append(ev.data)
        elif ev.kind == "run_started":
            self.run_id = ev.data.get("run_id")
            self.started.emit(self.run_id or "")
        elif ev.kind == "probe":
            self.probe = ev.data
            self.probe_done.emit(ev.data)

    def _add_record(self, rec: RequestRecord) -> None:
        b = self.buffers
        if b.t0 is None:
            b.t0 = rec.t_start
        b.records += 1
        if rec.warmup:
            return
        if rec.ok:
            b.ok += 1
        elif rec.outcome != "cancelled":
            b.failed += 1
            b.errors.append(((rec.t_end or rec.t_start) - b.t0, 1.0))
        if rec.ttft_ms is not None:
            b.ttft.append((rec.t_first_token - b.t0, rec.ttft_ms))  # type: ignore[operator]
        gaps, _exact = rec.itl_ms()
        b.recent_itl.extend(gaps)

    def _roll(self) -> None:
        """Rolling figures over the last 5 s of tokens: ITL p50/p99 and output tokens per second."""
        b = self.buffers
        if b.t0 is None:
            return
        now = time.monotonic()
        x = now - b.t0
        if (rate := b.token_rate.rate()) is not None:
            b.tok_s.append((x, rate))
        if b.recent_itl:
            vals = sorted(b.recent_itl)
            b.itl_p50.append((x, vals[len(vals) // 2]))
            b.itl_p99.append((x, vals[min(len(vals) - 1, int(len(vals) * 0.99))]))
            # keep the rolling window short: drop the older half when full
            if len(b.recent_itl) == b.recent_itl.maxlen:
                for _ in range(len(b.recent_itl) // 2):
                    b.recent_itl.popleft()

    # --------------------------------------------------------------------------------- sample request
    def _start_sample(self, step: int) -> None:
        if not self._sample_url or self.config is None or self.token is None or self.token.cancelled:
            return
        if self._sample_thread is not None and self._sample_thread.is_alive():
            return
        from advisor.bench.probe import one_request_at_a_time

        if one_request_at_a_time(self.probe):  # the extra request would cut off (or queue behind) a measured one
            from advisor.i18n import tr

            self.sample = SampleText(step=step, done=True, not_sent=tr("bench.live.sample_one_at_a_time"))
            return
        sample = SampleText(step=step)
        self.sample = sample
        config, key, token = self.config, self._sample_key, self.token
        self._sample_thread = threading.Thread(target=_stream_sample, args=(config, key, sample, token),
                                               name="bench-sample", daemon=True)  # fmt: skip
        self._sample_thread.start()

    # ---------------------------------------------------------------------------------------- results
    def _finish(self) -> None:
        self._timer.stop()
        self.drain()
        self.handle = None
        if self._sample_thread is not None:
            self._sample_thread.join(2.0)
            self._sample_thread = None

    def _on_result(self, result: dict[str, Any]) -> None:
        self._finish()
        if result.get("status") == "failed" and result.get("error"):
            self.failed.emit(result["error"])
        self.finished.emit(result)

    def _on_error(self, exc: BaseException) -> None:
        self._finish()
        self.failed.emit(str(exc) or type(exc).__name__)

    def shutdown(self) -> None:
        self.stop()
        self._timer.stop()


# ------------------------------------------------------------------------------------------ the work
def _run(config: BenchConfig, token: CancelToken, task_token: CancelToken, events: EventQueue,
         api_key: str | None, prompts: Any, db: Any, nvml: bool, exporter_url: str | None, setup: SimSetup | None,
         session: BenchSession, probe_first: bool, project_id: str | None = None,
         ca_bundle: str | None = None,
         client_cert: tuple[str, str | None] | None = None) -> dict[str, Any]:  # fmt: skip
    """Background thread: the run is ``advisor.bench.session.run_benchmark``'s, as for ``advisor bench``; this only
    links the app's quit to the run's cancel token and hands the events to the page's queue. Never touches a
    widget."""
    from advisor.bench.session import TelemetryOptions, run_benchmark
    from advisor.bench.store import BenchStore

    # the app's quit cancels the task token: cancel the run too
    watcher_stop = threading.Event()

    def watch() -> None:
        while not watcher_stop.wait(0.05):
            if task_token.cancelled:
                token.cancel()
                return

    threading.Thread(target=watch, daemon=True, name="bench-cancel-watch").start()

    def on_event(event: BenchEvent) -> None:
        if event.kind == "telemetry":  # the live samplers: the GPU panel reads their ring buffers
            session.telemetry = event.data
        events(event)

    store = BenchStore(db)
    try:
        result = run_benchmark(config, store=store, telemetry=TelemetryOptions(nvml=nvml, exporter_url=exporter_url),
                               cancel=token, on_event=on_event, api_key=api_key, probe=probe_first, prompts=prompts,
                               setup=setup, project_id=project_id, ca_bundle=ca_bundle,
                               client_cert=client_cert[0] if client_cert else None,
                               client_key=client_cert[1] if client_cert else None)  # fmt: skip
        return result.as_dict()
    finally:
        store.close()
        watcher_stop.set()


def _stream_sample(config: BenchConfig, api_key: str | None, sample: SampleText, token: CancelToken) -> None:
    """One streamed request beside the load, for the page to show its text (not measured). The request, the
    key check and the stream parsing are the core's (``advisor.bench.sample_answer``); this keeps the text and
    when its first piece came."""
    from advisor.bench.sample_answer import stream_answer

    t0 = time.monotonic()

    def on_text(piece: str) -> None:
        with sample.lock:
            if sample.ttft_ms is None:
                sample.ttft_ms = (time.monotonic() - t0) * 1e3
                sample.ttft_chars = len(piece)
            sample.text += piece

    try:
        error = stream_answer(config, api_key, on_text=on_text, cancel=token)
    except Exception as exc:  # noqa: BLE001 - shown next to the text (a refused key says why)
        error = str(exc) or type(exc).__name__
    with sample.lock:
        sample.error = error
        sample.done = True
