"""Background sampling: one thread per source, a fixed period, bounded ring buffers, an optional sink.

- ``GpuSampler`` reads NVML (recommended period 0.25–0.5 s: NVML's own utilisation window is ~1/6 s
  to 1 s depending on the GPU, so faster sampling only repeats values).
- ``ServerSampler`` scrapes one or more ``/metrics`` URLs (recommended period 1 s; servers update
  their gauges about once a second).

Each sample is stamped with ``clock.now_s()`` — the clock the benchmark stamps requests with — so a
sample and a request can be placed on one time axis. Samples go to a ``deque(maxlen=…)`` that the UI
reads (it never blocks the sampler) and, while a run is bound with ``bind_run(run_id)``, to the
``SampleSink`` in batches (one write per ``flush_every_s``, and on unbind/stop).

A bound run always gets a reading at both ends, however short it is and however busy the machine: binding
wakes the sampler for a reading at once (not at the next period), and ``stop()`` takes one final reading
while the run is still bound (bounded by ``FINAL_READING_TIMEOUT_S``). Without them a run shorter than the
period (e.g. 0.3 s at a 1 s period) was stored with no sample at all whenever its one reading raced the
binding and lost (``tests/core/test_telemetry_sampler.py``).

The samplers measure their own cost (``stats()``): time per tick and the share of one CPU they use.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from advisor.domain.telemetry import GpuSample, ServerSample
from advisor.telemetry.clock import now_s
from advisor.telemetry.nvml import NvmlReader
from advisor.telemetry.prometheus import PrometheusScraper
from advisor.telemetry.sink import SampleSink

_log = logging.getLogger(__name__)

MIN_PERIOD_S = 0.05
MAX_PERIOD_S = 60.0
FINAL_READING_TIMEOUT_S = 1.0  # the most one end-of-run /metrics scrape may add to stop()


def check_period(period_s: float) -> float:
    if not (MIN_PERIOD_S <= period_s <= MAX_PERIOD_S):
        raise ValueError(
            f"sampling period must be between {MIN_PERIOD_S} and {MAX_PERIOD_S} seconds, got {period_s!r} "
            "(NVML: 0.25–0.5 s is enough; /metrics: 1 s)"
        )
    return float(period_s)


@dataclass(frozen=True)
class SamplerStats:
    """What sampling costs: ``busy_share`` is the share of one CPU core the sampler thread used."""

    ticks: int
    mean_tick_ms: float
    max_tick_ms: float
    cpu_s: float
    wall_s: float

    @property
    def busy_share(self) -> float:
        return self.cpu_s / self.wall_s if self.wall_s > 0 else 0.0


class _PeriodicSampler:
    """A daemon thread calling ``_tick`` every ``period_s`` on a drift-free schedule."""

    name = "sampler"

    def __init__(self, period_s: float, maxlen: int, sink: SampleSink | None, flush_every_s: float) -> None:
        self.period_s = check_period(period_s)
        self._sink = sink
        self._flush_every_s = flush_every_s
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()  # set by bind_run (a reading now) and stop()
        self._thread: threading.Thread | None = None
        self._run_id: str | None = None
        self._pending: list = []
        self._last_flush = 0.0
        self._ticks = 0
        self._tick_total_s = 0.0
        self._tick_max_s = 0.0
        self._cpu_s = 0.0
        self._started_at: float | None = None
        self._stopped_at: float | None = None
        self.buffer: deque = deque(maxlen=maxlen)
        self.on_samples: Callable[[list], None] | None = None  # e.g. put into the UI's queue

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"{self.name} already started")
        self._stop.clear()
        self._started_at = now_s()
        self._thread = threading.Thread(target=self._loop, name=f"advisor-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop within one tick, take the bound run's final reading, flush pending samples to the sink, release
        the source."""
        self._stop.set()
        self._wake.set()
        idle = True
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                _log.warning("%s did not stop within %.1f s", self.name, timeout_s)
                idle = False  # still inside a reading: the source is not ours to use from this thread
        self._thread = None
        if idle and self._run_id is not None:
            self._final_reading()
        self._stopped_at = now_s()
        self.flush()
        self._close_source()

    def _final_reading(self) -> None:
        """One last reading for the bound run, on the caller's thread (the sampler thread has ended)."""
        try:
            samples = self._tick(final=True)
        except Exception:  # the run's evidence is what was already sampled
            _log.exception("%s: final reading failed", self.name)
            return
        self._accept(samples)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- run binding ----------------------------------------------------------------------------

    def bind_run(self, run_id: str | None) -> None:
        """Samples from now on belong to ``run_id`` and go to the sink (None: live display only). Binding a run
        wakes the sampler for a reading at once: the run's start is sampled even when it is shorter than the
        period. Cheap: the reading is taken on the sampler's own thread, never the caller's."""
        self.flush()
        with self._lock:
            self._run_id = run_id
        if run_id is not None:
            self._wake.set()

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
            run_id = self._run_id
            self._last_flush = now_s()
        if pending and run_id is not None and self._sink is not None:
            try:
                self._write(run_id, pending)
            except Exception:  # a failing store must not kill telemetry; the samples stay in the buffer
                _log.exception("%s: writing %d samples to the store failed", self.name, len(pending))

    # -- readers (any thread) -------------------------------------------------------------------

    def history(self) -> list:
        with self._lock:
            return list(self.buffer)

    def stats(self) -> SamplerStats:
        with self._lock:
            ticks = self._ticks
            mean = self._tick_total_s / ticks * 1000.0 if ticks else 0.0
            end = self._stopped_at if self._thread is None and self._stopped_at else now_s()
            wall = end - self._started_at if self._started_at is not None else 0.0
            return SamplerStats(ticks, mean, self._tick_max_s * 1000.0, self._cpu_s, wall)

    # -- the thread -----------------------------------------------------------------------------

    def _loop(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            self._wake.clear()  # a bind during this tick wakes the loop again: its reading comes after the bind
            cpu0 = time.thread_time()
            t0 = time.perf_counter()
            try:
                samples = self._tick()
            except Exception:  # never let one bad reading end the sampling
                _log.exception("%s tick failed", self.name)
                samples = []
            elapsed = time.perf_counter() - t0
            cpu = time.thread_time() - cpu0
            with self._lock:
                self._ticks += 1
                self._tick_total_s += elapsed
                self._tick_max_s = max(self._tick_max_s, elapsed)
                self._cpu_s += cpu
            due = self._accept(samples)
            if due:
                self.flush()
            next_at += self.period_s
            delay = next_at - time.monotonic()
            if delay < 0:  # overran (slow scrape): skip the missed ticks instead of bursting
                next_at = time.monotonic()
                delay = 0.0
            if self._wake.wait(delay) and not self._stop.is_set():
                next_at = time.monotonic()  # woken by bind_run: read now, and the period counts from here

    def _accept(self, samples: list) -> bool:
        """Keep one reading: the ring buffer, and the bound run's pending batch (decided once, under the lock,
        for everything the reading returned). Returns whether a flush is due."""
        with self._lock:
            self.buffer.extend(samples)
            if self._run_id is not None and self._sink is not None:
                self._pending.extend(samples)
            self._accept_extra()
            due = now_s() - self._last_flush >= self._flush_every_s
        if samples and self.on_samples is not None:
            try:
                self.on_samples(samples)
            except Exception:
                _log.exception("%s: on_samples callback failed", self.name)
        return due

    def _accept_extra(self) -> None:
        """Subclasses keep other readings of the same tick here (the lock is held)."""

    def _tick(self, final: bool = False) -> list:
        """One reading. ``final``: the end-of-run reading, taken on the stopping thread with a short timeout."""
        raise NotImplementedError

    def _write(self, run_id: str, samples: list) -> None:
        raise NotImplementedError

    def _close_source(self) -> None:
        pass


class GpuSampler(_PeriodicSampler):
    """NVML sampling of every local GPU. ``reader.events`` keeps 'gpu_lost' events."""

    name = "gpu-sampler"

    def __init__(
        self,
        reader: NvmlReader | None = None,
        *,
        period_s: float = 0.5,
        maxlen: int = 7200,
        sink: SampleSink | None = None,
        flush_every_s: float = 2.0,
    ) -> None:
        super().__init__(period_s, maxlen, sink, flush_every_s)
        self.reader = reader or NvmlReader()

    def _tick(self, final: bool = False) -> list[GpuSample]:
        return self.reader.read()  # a local driver call: fast either way

    def _write(self, run_id: str, samples: list) -> None:
        assert self._sink is not None
        self._sink.add_gpu_samples(run_id, samples)

    def _close_source(self) -> None:
        self.reader.close()

    def latest(self) -> list[GpuSample]:
        """The most recent sample of each device (for a live panel)."""
        latest: dict[str, GpuSample] = {}
        for sample in self.history():
            latest[sample.index] = sample
        return list(latest.values())


class ServerSampler(_PeriodicSampler):
    """Scrapes ``/metrics`` URLs; exporter GPU readings are kept apart in ``gpu_buffer``."""

    name = "server-sampler"

    def __init__(
        self,
        urls: Sequence[str],
        *,
        period_s: float = 1.0,
        timeout_s: float | None = None,
        maxlen: int = 3600,
        sink: SampleSink | None = None,
        flush_every_s: float = 2.0,
    ) -> None:
        super().__init__(period_s, maxlen, sink, flush_every_s)
        # A scrape must end before the next one is due.
        timeout = timeout_s if timeout_s is not None else max(0.2, min(2.0, self.period_s * 0.8))
        self.scrapers = [PrometheusScraper(url, timeout_s=timeout) for url in urls]
        self.gpu_buffer: deque[GpuSample] = deque(maxlen=maxlen)
        self._pending_gpus: list[GpuSample] = []
        self._tick_gpus: list[GpuSample] = []  # exporter GPUs of the reading being accepted

    def _tick(self, final: bool = False) -> list[ServerSample]:
        servers: list[ServerSample] = []
        gpus: list[GpuSample] = []
        for scraper in self.scrapers:
            result = scraper.scrape(timeout_s=min(FINAL_READING_TIMEOUT_S, scraper.timeout_s) if final else None)
            servers.append(result.server)
            gpus.extend(result.gpus)
        self._tick_gpus = gpus  # only the thread taking readings writes it; _accept reads it right after
        return servers

    def _accept_extra(self) -> None:
        # the server and exporter GPU samples of one scrape belong to the same run (or both to none): deciding
        # in _tick and again in _accept let a bind in between store one without the other
        gpus, self._tick_gpus = self._tick_gpus, []
        self.gpu_buffer.extend(gpus)
        if self._run_id is not None and self._sink is not None:
            self._pending_gpus.extend(gpus)

    def flush(self) -> None:
        with self._lock:
            gpus, self._pending_gpus = self._pending_gpus, []
            run_id = self._run_id
        if gpus and run_id is not None and self._sink is not None:
            try:
                self._sink.add_gpu_samples(run_id, gpus)
            except Exception:
                _log.exception("%s: writing exporter GPU samples failed", self.name)
        super().flush()

    def _write(self, run_id: str, samples: list) -> None:
        assert self._sink is not None
        self._sink.add_server_samples(run_id, samples)

    def _close_source(self) -> None:
        for scraper in self.scrapers:
            scraper.close()

    def gpu_history(self) -> list[GpuSample]:
        with self._lock:
            return list(self.gpu_buffer)
