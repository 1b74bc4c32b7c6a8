"""Ground truth for measuring clients: the monotonic time each chunk of each response was handed to the
transport, kept in memory (bounded) and optionally appended to a JSONL file by a writer thread."""

from __future__ import annotations

import json
import math
import queue
import threading
from array import array
from collections import OrderedDict
from pathlib import Path
from typing import Any


class GroundTruth:
    """Per request: the monotonic time each chunk was handed to the transport, and what it carried."""

    def __init__(self, keep: int, path: Path | None) -> None:
        self.keep = keep
        self.records: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[dict[str, Any] | None] | None = None
        self._writer: threading.Thread | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._queue = queue.SimpleQueue()
            self._writer = threading.Thread(target=self._write_loop, args=(path,), name="sim-ground-truth", daemon=True)
            self._writer.start()

    def _write_loop(self, path: Path) -> None:
        assert self._queue is not None
        with path.open("a", encoding="utf-8") as fh:
            while True:
                record = self._queue.get()
                if record is None:
                    return
                fh.write(json.dumps(expand_record(record), ensure_ascii=False) + "\n")
                if self._queue.empty():
                    fh.flush()

    def add(self, record: dict[str, Any]) -> None:
        with self._lock:
            self.records[record["request_id"]] = record
            while len(self.records) > self.keep:
                self.records.popitem(last=False)

    def finish(self, record: dict[str, Any]) -> None:
        if self._queue is not None:
            self._queue.put(record)  # serialised by the writer thread, off the server's loop

    def get(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            rec = self.records.get(request_id)
            return expand_record(rec) if rec is not None else None

    def ids(self) -> list[str]:
        with self._lock:
            return list(self.records)

    def close(self) -> None:
        if self._queue is not None and self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout=5)


class ChunkLog:
    """The chunks of one response, stored compactly (~30 bytes each: soak tests send millions)."""

    KINDS = ("role", "content", "usage", "done", "error", "malformed", "body")
    __slots__ = ("t", "scheduled", "kind", "tokens", "size")

    def __init__(self) -> None:
        self.t = array("d")
        self.scheduled = array("d")  # NaN: not a token
        self.kind = bytearray()
        self.tokens = array("I")
        self.size = array("I")

    def append(self, t: float, kind: str, tokens: int, size: int, scheduled: float | None) -> None:
        self.t.append(t)
        self.scheduled.append(math.nan if scheduled is None else scheduled)
        self.kind.append(self.KINDS.index(kind))
        self.tokens.append(tokens)
        self.size.append(size)

    def as_dicts(self) -> list[dict[str, Any]]:
        out = []
        for i in range(len(self.kind)):  # the loop thread only appends, so the first len() rows are stable
            chunk: dict[str, Any] = {"t": self.t[i], "kind": self.KINDS[self.kind[i]], "tokens": self.tokens[i],
                                     "bytes": self.size[i]}
            if not math.isnan(self.scheduled[i]):
                chunk["scheduled_t"] = self.scheduled[i]
            out.append(chunk)
        return out


def expand_record(record: dict[str, Any]) -> dict[str, Any]:
    """A copy with each chunk as an object: t (monotonic send time), kind, tokens, bytes, scheduled_t."""
    out = dict(record)
    out["chunks"] = record["chunks"].as_dicts()
    return out
