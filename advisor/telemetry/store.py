"""SQLite ``SampleSink``: tables ``gpu_samples`` and ``server_samples``, keyed by ``run_id``.

The benchmark store (advisor/bench/store.py) owns the database file and the ``runs`` table; it hands
us its path or connection and we create our two tables in the same file. WAL mode lets the sampler
threads write while the benchmark writes and the UI reads.

Threads: each thread gets its own connection to the file (sqlite3 connections are not shareable by
default). For an in-memory database (no file), the one given connection is used under a lock and must
have been opened with ``check_same_thread=False``.

Each row keeps the columns one queries by (time, device, the main figures) plus the whole sample as
JSON in ``data``, so reading back gives exactly the sample that was written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from advisor.domain.telemetry import GpuSample, ServerSample
from advisor.telemetry.clock import to_wall_s

SCHEMA = """
CREATE TABLE IF NOT EXISTS gpu_samples (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    t_s REAL NOT NULL,
    wall_s REAL NOT NULL,
    source TEXT NOT NULL,
    simulated INTEGER NOT NULL,
    host TEXT,
    device_index TEXT NOT NULL,
    uuid TEXT,
    status TEXT NOT NULL,
    gpu_util_pct REAL,
    memory_used_bytes INTEGER,
    memory_total_bytes INTEGER,
    power_w REAL,
    energy_mj REAL,
    temperature_c REAL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS gpu_samples_run_t ON gpu_samples (run_id, t_s);
CREATE TABLE IF NOT EXISTS server_samples (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    t_s REAL NOT NULL,
    wall_s REAL NOT NULL,
    url TEXT NOT NULL,
    kind TEXT NOT NULL,
    ok INTEGER NOT NULL,
    simulated INTEGER NOT NULL,
    kv_cache_usage REAL,
    requests_running REAL,
    requests_waiting REAL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS server_samples_run_t ON server_samples (run_id, t_s);
"""


def _database_file(conn: sqlite3.Connection) -> str | None:
    for _, name, file in conn.execute("PRAGMA database_list"):
        if name == "main":
            return file or None  # "" for :memory: and temporary databases
    return None


class TelemetryStore:
    """``TelemetryStore(path)`` or ``TelemetryStore(existing_connection)``; ``TelemetryStore.reader(conn)`` for
    reading through a read-only connection."""

    def __init__(self, target: str | Path | sqlite3.Connection) -> None:
        self._lock = threading.Lock()
        self._local = threading.local()
        self._shared: sqlite3.Connection | None = None
        if isinstance(target, sqlite3.Connection):
            self._path = _database_file(target)
            if self._path is None:
                self._shared = target
            setup = target
        else:
            self._path = str(target)
            Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            setup = self._connection()
        with self._lock:
            if not setup.in_transaction:
                setup.execute("PRAGMA journal_mode=WAL")
            setup.executescript(SCHEMA)
            setup.commit()

    @classmethod
    def reader(cls, conn: sqlite3.Connection) -> TelemetryStore:
        """A store that only reads, through ``conn`` (e.g. ``advisor.bench.store.connect_read_only``): nothing is
        created or written and no other connection is opened (a writer's connection would set WAL mode and
        create the tables in the user's file). A table the file lacks reads as empty (a temporary table)."""
        store = cls.__new__(cls)
        store._lock = threading.Lock()
        store._local = threading.local()
        store._path = None
        store._shared = conn
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for statement in SCHEMA.split(";"):
            if "CREATE TABLE" not in statement:
                continue
            name = statement.split("EXISTS", 1)[1].split()[0]
            if name not in tables:
                conn.execute(statement.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE IF NOT EXISTS"))
        return store

    def _connection(self) -> sqlite3.Connection:
        if self._shared is not None:
            return self._shared
        conn = getattr(self._local, "conn", None)
        if conn is None:
            assert self._path is not None
            conn = sqlite3.connect(self._path, timeout=10.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across app crashes
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection (a shared connection belongs to its owner)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- SampleSink -----------------------------------------------------------------------------

    def add_gpu_samples(self, run_id: str, samples: Sequence[GpuSample]) -> None:
        rows = [
            (
                run_id, s.t_s, to_wall_s(s.t_s), s.source, int(s.simulated), s.host, s.index, s.uuid, s.status,
                s.gpu_util_pct, s.memory_used_bytes, s.memory_total_bytes, s.power_w, s.energy_mj,
                s.temperature_c, s.model_dump_json(),
            )
            for s in samples
        ]
        self._insert(
            "INSERT INTO gpu_samples (run_id, t_s, wall_s, source, simulated, host, device_index, uuid, status,"
            " gpu_util_pct, memory_used_bytes, memory_total_bytes, power_w, energy_mj, temperature_c, data)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )

    def add_server_samples(self, run_id: str, samples: Sequence[ServerSample]) -> None:
        rows = [
            (
                run_id, s.t_s, to_wall_s(s.t_s), s.url, s.kind, int(s.ok), int(s.simulated),
                s.gauges.get("kv_cache_usage"), s.gauges.get("requests_running"), s.gauges.get("requests_waiting"),
                s.model_dump_json(),
            )
            for s in samples
        ]
        self._insert(
            "INSERT INTO server_samples (run_id, t_s, wall_s, url, kind, ok, simulated, kv_cache_usage,"
            " requests_running, requests_waiting, data) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )

    def _insert(self, sql: str, rows: list[tuple]) -> None:
        if not rows:
            return
        with self._lock:
            conn = self._connection()
            with conn:  # one transaction per batch
                conn.executemany(sql, rows)

    # -- reading --------------------------------------------------------------------------------

    def gpu_samples(self, run_id: str, start_s: float | None = None, end_s: float | None = None) -> list[GpuSample]:
        sql, args = self._window("SELECT data FROM gpu_samples WHERE run_id = ?", run_id, start_s, end_s)
        return [GpuSample.model_validate_json(row[0]) for row in self._query(sql, args)]

    def server_samples(
        self, run_id: str, start_s: float | None = None, end_s: float | None = None
    ) -> list[ServerSample]:
        sql, args = self._window("SELECT data FROM server_samples WHERE run_id = ?", run_id, start_s, end_s)
        return [ServerSample.model_validate_json(row[0]) for row in self._query(sql, args)]

    def run_ids(self) -> list[str]:
        rows = self._query(
            "SELECT run_id FROM gpu_samples UNION SELECT run_id FROM server_samples ORDER BY run_id", []
        )
        return [r[0] for r in rows]

    def delete_run(self, run_id: str) -> None:
        with self._lock:
            conn = self._connection()
            with conn:
                conn.execute("DELETE FROM gpu_samples WHERE run_id = ?", (run_id,))
                conn.execute("DELETE FROM server_samples WHERE run_id = ?", (run_id,))

    @staticmethod
    def _window(sql: str, run_id: str, start_s: float | None, end_s: float | None) -> tuple[str, list]:
        args: list = [run_id]
        if start_s is not None:
            sql += " AND t_s >= ?"
            args.append(start_s)
        if end_s is not None:
            sql += " AND t_s <= ?"
            args.append(end_s)
        return sql + " ORDER BY t_s, id", args

    def _query(self, sql: str, args: list) -> list[tuple]:
        with self._lock:
            return self._connection().execute(sql, args).fetchall()
