"""Telemetry recorded with a benchmark run: the local GPUs (NVML) and the server's own ``/metrics``.

Both samplers stamp samples with the project clock (``time.monotonic()``), the clock request records use, and
write them to the run's SQLite database (``gpu_samples`` / ``server_samples`` keyed by run id) while the run is
bound. At the end the run summary gets the derived figures per step: peak/mean memory, KV cache usage, energy
per output token, clock throttling, and the notes that say what the numbers mean.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from advisor.domain.telemetry import GpuSample, ServerSample, StepWindow, TelemetrySummary
from advisor.i18n import tr
from advisor.telemetry.derived import summarize
from advisor.telemetry.sampler import GpuSampler, ServerSampler
from advisor.telemetry.sink import MemorySink
from advisor.telemetry.store import TelemetryStore

_log = logging.getLogger(__name__)


class RunTelemetry:
    """Start before the run, ``bind(run_id)`` when the run has an id, ``stop()`` after, then ``summary(steps)``."""

    def __init__(
        self,
        db_path: str | Path | None,
        metrics_url: str | None,
        *,
        nvml: bool = True,
        gpu_period_s: float = 0.5,
        server_period_s: float = 1.0,
    ) -> None:
        self.store = TelemetryStore(db_path) if db_path else None
        self.memory = MemorySink() if self.store is None else None
        sink = self.store or self.memory
        self.gpu = GpuSampler(period_s=gpu_period_s, sink=sink) if nvml else None
        self.server = ServerSampler([metrics_url], period_s=server_period_s, sink=sink) if metrics_url else None
        self.run_id: str | None = None
        self._stopped = False

    def _samplers(self) -> list[Any]:
        return [s for s in (self.gpu, self.server) if s is not None]

    def start(self) -> RunTelemetry:
        for sampler in self._samplers():
            sampler.start()
        return self

    def bind(self, run_id: str) -> None:
        self.run_id = run_id
        for sampler in self._samplers():
            sampler.bind_run(run_id)

    def stop(self) -> None:
        """Idempotent: a second call (the run's end, then its cleanup) takes no second final reading."""
        if self._stopped:
            return
        self._stopped = True
        for sampler in self._samplers():
            sampler.stop()  # flushes what is pending to the sink

    def samples(self) -> tuple[list[GpuSample], list[ServerSample]]:
        """Everything recorded for the bound run (from the database when there is one)."""
        if self.run_id is None:
            gpu = list(self.gpu.history()) if self.gpu else []
            if self.server:
                gpu += self.server.gpu_history()
            return gpu, list(self.server.history()) if self.server else []
        if self.store is not None:
            return self.store.gpu_samples(self.run_id), self.store.server_samples(self.run_id)
        assert self.memory is not None
        return list(self.memory.gpu.get(self.run_id, [])), list(self.memory.server.get(self.run_id, []))

    def summary(self, steps: Sequence[dict[str, Any]]) -> TelemetrySummary:
        windows = [
            StepWindow(
                label=str(s.get("concurrency") or s.get("target_rate") or s["step"]),
                start_s=s["window_start_s"],
                end_s=s["window_end_s"],
                output_tokens=s.get("output_tokens") or 0,
            )
            for s in steps
            if s.get("window_start_s") is not None and s.get("window_end_s") is not None
        ]
        gpu, server = self.samples()
        return summarize(gpu, server, windows)

    def report(self, steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The run result's ``telemetry`` object: summary, sample counts, GPU state and sampling cost."""
        gpu, server = self.samples()
        out: dict[str, Any] = self.summary(steps).model_dump(mode="json")
        # notes are i18n keys inside the summary; the result carries their text and short ids, never raw keys
        keys = [str(k) for k in out.get("notes") or []]
        out["notes"] = [tr(k) for k in keys]
        out["note_ids"] = [k.rsplit(".", 1)[-1] for k in keys]
        out["gpu_samples"] = len(gpu)
        out["server_samples"] = len(server)
        out["nvml_state"] = self.gpu.reader.open().state if self.gpu else None
        out["sampling_cost"] = {
            s.name: {"mean_tick_ms": round(st.mean_tick_ms, 3), "cpu_share": round(st.busy_share, 4)}
            for s in self._samplers()
            for st in [s.stats()]
        }
        return out
