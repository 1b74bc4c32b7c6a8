"""Benchmark history in SQLite (WAL): runs, per-request records, step summaries. Nothing measured is lost.

Crash safety: records are committed as they finish, in small batches, by one writer thread (WAL with
``synchronous=NORMAL``: a killed process loses nothing committed; only a power cut can lose the last
moments). A run is created with status ``running`` and its process id; a run still ``running`` whose
process is gone is shown as ``interrupted`` (and marked so on the next open).

Telemetry shares the database: ``store.path`` and ``run_id`` identify the run; open your own connection with
:func:`connect` (WAL lets several connections read while one writes). ``store.connection`` is the reading
connection of this object's thread.
"""

from __future__ import annotations

import csv
import io
import json
import os
import queue
import socket
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from advisor import paths
from advisor.domain.bench import RequestRecord, StepSummary

SCHEMA_VERSION = 1
DB_NAME = "bench.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    label TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,              -- running | completed | cancelled | failed | interrupted
    created_wall REAL NOT NULL,        -- time.time() at start
    anchor_monotonic REAL NOT NULL,    -- time.monotonic() at the same instant as anchor_wall
    anchor_wall REAL NOT NULL,
    finished_wall REAL,
    pid INTEGER,
    host TEXT,
    url TEXT,
    model TEXT,
    config_json TEXT NOT NULL,
    result_json TEXT
);
CREATE TABLE IF NOT EXISTS requests (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    step INTEGER NOT NULL,
    concurrency INTEGER NOT NULL,
    warmup INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    error_class TEXT,
    t_start REAL NOT NULL,
    ttft_ms REAL,
    tpot_ms REAL,
    e2e_ms REAL,
    output_tokens INTEGER,
    record_json TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE INDEX IF NOT EXISTS requests_step ON requests(run_id, step);
CREATE TABLE IF NOT EXISTS steps (
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    concurrency INTEGER NOT NULL,
    summary_json TEXT NOT NULL,
    PRIMARY KEY (run_id, step)
);
"""


def default_path() -> Path:
    return paths.data_dir() / DB_NAME


def connect(path: str | os.PathLike[str] | None = None, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection configured for this database (WAL, busy timeout, foreign keys). Creates the schema."""
    conn = sqlite3.connect(str(path or default_path()), timeout=10.0, check_same_thread=check_same_thread)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.executescript(_SCHEMA)
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    conn.commit()
    return conn


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _record_row(run_id: str, r: RequestRecord) -> tuple[Any, ...]:
    return (run_id, r.seq, r.step, r.concurrency, int(r.warmup), r.outcome, r.error_class, r.t_start,
            r.ttft_ms, r.tpot_ms, r.e2e_ms, r.output_tokens, r.model_dump_json())


class BenchStore:
    """The benchmark database. ``start_run`` → ``add_record``/``add_step`` (any thread) → ``finish_run``."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # usable from any thread (the CLI creates the store, the runner thread writes the run row, a UI reads);
        # every use goes through self._lock
        self.connection = connect(self.path, check_same_thread=False)
        self._lock = threading.RLock()
        self.run_id: str | None = None
        self.anchor: tuple[float, float] | None = None
        self._queue: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._error: BaseException | None = None
        self.mark_interrupted()

    # ---- writing -------------------------------------------------------------------------------------
    def start_run(self, config_json: str, *, label: str = "", url: str = "", model: str = "") -> str:
        """Create the run row (committed at once) and start the writer thread. Returns the run id."""
        before = time.monotonic()
        wall = time.time()
        after = time.monotonic()
        self.anchor = ((before + after) / 2, wall)
        self.run_id = time.strftime("%Y%m%d-%H%M%S", time.localtime(wall)) + "-" + uuid.uuid4().hex[:6]
        with self._lock:
            self.connection.execute(
                "INSERT INTO runs(run_id, label, status, created_wall, anchor_monotonic, anchor_wall, pid, host, url,"
                " model, config_json) VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.run_id, label, wall, self.anchor[0], wall, os.getpid(), socket.gethostname(), url, model,
                 config_json),
            )
            self.connection.commit()
        self._writer = threading.Thread(target=self._write_loop, name="bench-store-writer", daemon=True)
        self._writer.start()
        return self.run_id

    def add_record(self, record: RequestRecord) -> None:
        self._queue.put(("record", record))

    def add_step(self, summary: StepSummary) -> None:
        self._queue.put(("step", summary))

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until everything queued so far is committed."""
        done = threading.Event()
        self._queue.put(("flush", done))
        done.wait(timeout)

    def finish_run(self, status: str, result_json: str | None = None) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(30)
            self._writer = None
        with self._lock:
            self.connection.execute(
                "UPDATE runs SET status = ?, finished_wall = ?, result_json = ? WHERE run_id = ?",
                (status, time.time(), result_json, self.run_id),
            )
            self.connection.commit()

    def _write_loop(self) -> None:
        conn = connect(self.path)
        run_id = self.run_id
        try:
            while True:
                item = self._queue.get()
                batch = [item]
                while len(batch) < 256:  # take whatever else is waiting: one commit per batch
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = False
                flushes = []
                records, steps = [], []
                for entry in batch:
                    if entry is None:
                        stop = True
                    elif entry[0] == "record":
                        records.append(_record_row(run_id, entry[1]))  # type: ignore[arg-type]
                    elif entry[0] == "step":
                        s: StepSummary = entry[1]
                        steps.append((run_id, s.step, s.concurrency, s.model_dump_json()))
                    elif entry[0] == "flush":
                        flushes.append(entry[1])
                if records:
                    conn.executemany("INSERT OR REPLACE INTO requests VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", records)
                if steps:
                    conn.executemany("INSERT OR REPLACE INTO steps VALUES (?,?,?,?)", steps)
                if records or steps:
                    conn.commit()
                for ev in flushes:
                    ev.set()
                if stop:
                    return
        except BaseException as exc:  # keep the run going; the error is reported at finish
            self._error = exc
        finally:
            conn.close()

    def close(self) -> None:
        if self._writer is not None:
            self.finish_run("interrupted")
        with self._lock:
            self.connection.close()

    # ---- reading -------------------------------------------------------------------------------------
    def mark_interrupted(self) -> int:
        """Runs left 'running' by a process that no longer exists become 'interrupted'."""
        with self._lock:
            rows = self.connection.execute("SELECT run_id, pid, host FROM runs WHERE status = 'running'").fetchall()
            here = socket.gethostname()
            dead = [rid for rid, pid, host in rows
                    if host == here and rid != self.run_id and not _pid_alive(pid)]
            for rid in dead:
                self.connection.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = ?", (rid,))
            if dead:
                self.connection.commit()
            return len(dead)

    def runs(self) -> list[dict[str, Any]]:
        self.mark_interrupted()
        with self._lock:
            rows = self.connection.execute(
                "SELECT r.run_id, r.label, r.status, r.created_wall, r.finished_wall, r.url, r.model,"
                " (SELECT COUNT(*) FROM requests q WHERE q.run_id = r.run_id) FROM runs r ORDER BY r.created_wall DESC"
            ).fetchall()
        keys = ("run_id", "label", "status", "created_wall", "finished_wall", "url", "model", "requests")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def run(self, run_id: str) -> dict[str, Any] | None:
        self.mark_interrupted()
        with self._lock:
            row = self.connection.execute(
                "SELECT run_id, label, status, created_wall, anchor_monotonic, anchor_wall, finished_wall, url, model,"
                " config_json, result_json FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        keys = ("run_id", "label", "status", "created_wall", "anchor_monotonic", "anchor_wall", "finished_wall", "url",
                "model", "config", "result")
        out = dict(zip(keys, row, strict=True))
        out["config"] = json.loads(out["config"])
        out["result"] = json.loads(out["result"]) if out["result"] else None
        return out

    def records(self, run_id: str) -> list[RequestRecord]:
        with self._lock:
            rows = self.connection.execute("SELECT record_json FROM requests WHERE run_id = ? ORDER BY seq",
                                           (run_id,)).fetchall()
        return [RequestRecord.model_validate_json(row[0]) for row in rows]

    def steps(self, run_id: str) -> list[StepSummary]:
        with self._lock:
            rows = self.connection.execute("SELECT summary_json FROM steps WHERE run_id = ? ORDER BY step",
                                           (run_id,)).fetchall()
        return [StepSummary.model_validate_json(row[0]) for row in rows]

    def export_json(self, run_id: str) -> str:
        run = self.run(run_id)
        if run is None:
            raise KeyError(run_id)
        run["steps"] = [s.model_dump(mode="json") for s in self.steps(run_id)]
        run["requests"] = [r.model_dump(mode="json") for r in self.records(run_id)]
        return json.dumps(run, ensure_ascii=False, indent=2)

    def export_csv(self, run_id: str) -> str:
        """One row per request; times relative to the run's wall-clock anchor (Unix seconds)."""
        run = self.run(run_id)
        if run is None:
            raise KeyError(run_id)
        offset = run["anchor_wall"] - run["anchor_monotonic"]
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["seq", "step", "concurrency", "warmup", "outcome", "error_class", "status", "start_unix_s",
                    "ttft_ms", "ttfa_ms", "tpot_ms", "e2e_ms", "output_tokens", "output_tokens_source", "prompt_tokens",
                    "finish_reason", "anomalies"])
        for r in self.records(run_id):
            w.writerow([r.seq, r.step, r.concurrency, int(r.warmup), r.outcome, r.error_class or "", r.status or "",
                        f"{r.t_start + offset:.6f}", _fmt(r.ttft_ms), _fmt(r.ttfa_ms), _fmt(r.tpot_ms), _fmt(r.e2e_ms),
                        r.output_tokens if r.output_tokens is not None else "", r.output_tokens_source or "",
                        r.prompt_tokens if r.prompt_tokens is not None else "", r.finish_reason or "",
                        ";".join(r.anomalies)])
        return buf.getvalue()


def _fmt(v: float | None) -> str:
    return "" if v is None else f"{v:.3f}"
