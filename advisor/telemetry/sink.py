"""Where samples of a run go. The benchmark store implements (or delegates to) this protocol.

``advisor.telemetry.store.TelemetryStore`` is the SQLite implementation; ``MemorySink`` keeps
samples in lists (tests, a UI preview). Calls come from the sampler threads, in batches.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from advisor.domain.telemetry import GpuSample, ServerSample


@runtime_checkable
class SampleSink(Protocol):
    def add_gpu_samples(self, run_id: str, samples: Sequence[GpuSample]) -> None: ...

    def add_server_samples(self, run_id: str, samples: Sequence[ServerSample]) -> None: ...


class MemorySink:
    """Thread-safe in-memory sink."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.gpu: dict[str, list[GpuSample]] = {}
        self.server: dict[str, list[ServerSample]] = {}

    def add_gpu_samples(self, run_id: str, samples: Sequence[GpuSample]) -> None:
        with self._lock:
            self.gpu.setdefault(run_id, []).extend(samples)

    def add_server_samples(self, run_id: str, samples: Sequence[ServerSample]) -> None:
        with self._lock:
            self.server.setdefault(run_id, []).extend(samples)
