"""Benchmark history in SQLite (WAL): runs, per-request records, step summaries. Nothing measured is lost.

Crash safety: records are committed as they finish, in small batches, by one writer thread (WAL with
``synchronous=NORMAL``: a killed process loses nothing committed; only a power cut can lose the last
moments). A run is created with status ``running`` and its process id; a run still ``running`` whose
process is gone is shown as ``interrupted`` (and marked so on the next open).

Nothing finished is lost silently: a batch the database refuses (locked longer than the busy wait by another
process, an I/O error) is retried with backoff for ``RETRY_BUDGET_S``, then appended to a journal file next to
the database (``bench.sqlite3.<run_id>.journal.jsonl``, imported back on the next open); every such event is a
*problem* (``problems``, ``on_problem``) that the runner shows live and puts in the result, with
:meth:`accounting` saying where each record went. A full disk stops the load (``stop_load``): what was measured
is kept in memory and printed.

Telemetry shares the database: ``store.path`` and ``run_id`` identify the run; open your own connection with
:func:`connect` (WAL lets several connections read while one writes). ``store.connection`` is the reading
connection of this object's thread.
"""

from __future__ import annotations

import contextlib
import csv
import errno
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
from advisor.redact import csv_cell, redact

SCHEMA_VERSION = 2  # 2: runs.project_id
DB_NAME = "bench.sqlite3"
RETRY_BUDGET_S = 15.0  # how long a refused batch is retried before it goes to the journal
RETRY_FIRST_S = 0.1
RETRY_MAX_S = 2.0
WRITER_BUSY_MS = 1000  # the writer's own busy wait per attempt (the retries do the rest)


def disk_full_at(path: str | os.PathLike[str], exc: BaseException | None = None) -> bool:
    """The disk holding ``path`` is full: the error says so, or it is a bare "disk I/O error" (SQLite's word when
    it cannot create the WAL's ``-shm``/``-wal`` files) and the folder has next to no space left. Said as a full
    disk, not as a damaged database that should be moved aside."""
    if exc is not None and _problem_kind(exc) == "disk_full":
        return True
    folder = os.path.dirname(os.path.abspath(os.fspath(path))) or "."
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs (Windows), or the folder is gone
        return False
    return st.f_bavail * st.f_frsize < 256 * 1024


def _problem_kind(exc: BaseException) -> str:
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if name == "SQLITE_FULL" or "disk is full" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        return "disk_full"
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text or "busy" in text:
        return "database_locked"
    return "io_error"

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


class NewerDatabaseError(sqlite3.DatabaseError):
    """The database was written by a newer version of the app: refused, and left as it is."""


def _uri(path: str | os.PathLike[str], query: str) -> str:
    from urllib.parse import quote

    return "file:" + quote(os.path.abspath(os.fspath(path))) + "?" + query


def _wal_at_rest(path: str | os.PathLike[str]) -> bool:
    """A WAL-mode database with no ``-wal`` file beside it: nothing is writing it and everything is in the main
    file. (Its header's read/write versions are 2 in WAL mode.)

    The ``-wal`` file is looked at first, and the header read only when there is none: closing any descriptor of
    the file releases every POSIX lock this process holds on it, its live SQLite connections' too (SQLite's
    "how to corrupt a database", 2.2), and a connection of ours in WAL mode always has a ``-wal`` file beside it.
    Read regardless, another process's reader took itself for the last one and checkpointed the WAL away under our
    writer, whose later commits no other process saw."""
    if os.path.exists(os.fspath(path) + "-wal"):
        return False
    try:
        with open(path, "rb") as fh:
            header = fh.read(20)
    except OSError:
        return False
    return header[:16] == b"SQLite format 3\x00" and header[18:20] == b"\x02\x02"


def open_read_only(path: str | os.PathLike[str], *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection that cannot write ``path`` nor anything beside it.

    ``mode=ro`` alone is not enough for a WAL database: SQLite creates ``-wal`` and ``-shm`` files next to it
    and, being read-only, cannot remove them. So a WAL database at rest (no ``-wal`` file: no writer now) is
    read as ``immutable``, as is one in a folder we may not write; a database with a live writer is read
    through its existing WAL files. Raises ``sqlite3.Error`` for a file that is not there or not a database."""
    if not os.path.isfile(path):
        raise sqlite3.OperationalError(f"no such file: {path}")
    if _wal_at_rest(path):
        try:
            conn = sqlite3.connect(_uri(path, "mode=ro&immutable=1"), uri=True, check_same_thread=check_same_thread)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            pass  # a writer started a moment ago: read through its WAL below
    try:
        conn = sqlite3.connect(_uri(path, "mode=ro"), uri=True, timeout=10.0, check_same_thread=check_same_thread)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn = sqlite3.connect(_uri(path, "mode=ro&immutable=1"), uri=True, check_same_thread=check_same_thread)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn


def stored_schema_version(path: str | os.PathLike[str]) -> int | None:
    """The schema version a database file says it has (None: a new or empty file, or no version row), read
    without writing anything."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return None
    conn = open_read_only(path)
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
            return None
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    finally:
        conn.close()
    try:
        return int(row[0]) if row else None
    except (TypeError, ValueError):
        return None


def check_schema(path: str | os.PathLike[str]) -> None:
    """Refuse a database written by a newer version before anything is written to it (a migration "down"
    would lose what the newer version keeps, and its later records would not fit)."""
    version = stored_schema_version(path)
    if version is not None and version > SCHEMA_VERSION:
        from advisor.i18n import tr

        raise NewerDatabaseError(tr("store.newer_schema", path=str(path), version=version, ours=SCHEMA_VERSION))


def _writable(path: str) -> bool:
    import stat

    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    return os.access(path, os.W_OK) and bool(st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def connect(path: str | os.PathLike[str] | None = None, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection configured for this database (WAL, busy timeout, foreign keys). Creates the schema.

    A database from a newer version is refused (:class:`NewerDatabaseError`) untouched; a read-only file is
    opened read-only (listing works, writing says so), never made writable."""
    path = str(path or default_path())
    check_schema(path)
    if not _writable(path):
        conn = open_read_only(path, check_same_thread=check_same_thread)
        conn.execute("PRAGMA busy_timeout=10000")
        return conn
    conn = sqlite3.connect(path, timeout=10.0, check_same_thread=check_same_thread)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.executescript(_SCHEMA)
    _migrate(conn)
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    conn.commit()
    return conn


def connect_read_only(path: str | os.PathLike[str] | None = None, *,
                      check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection for reading only: nothing is created, migrated or written, and no file appears beside the
    database. A database from a newer version is refused (:class:`NewerDatabaseError`); a missing one reads as
    empty (an in-memory database with this schema, the file is not created); an older one is read through
    temporary views that add this schema's columns (``runs.project_id``)."""
    path = str(path or default_path())

    def empty() -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", check_same_thread=check_same_thread)
        conn.executescript(_SCHEMA)
        conn.execute("ALTER TABLE runs ADD COLUMN project_id TEXT")
        return conn

    if not os.path.exists(path):
        return empty()
    check_schema(path)
    conn = open_read_only(path, check_same_thread=check_same_thread)
    conn.execute("PRAGMA busy_timeout=10000")
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "runs" not in tables:  # an empty file, or one no run was ever written to
        conn.close()
        return empty()
    for statement in _SCHEMA.split(";"):  # a table the file lacks reads as empty (a temp table, not written)
        name = statement.split("EXISTS", 1)[1].split()[0] if "CREATE TABLE" in statement else None
        if name and name not in tables:
            conn.execute(statement.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE"))
    cols = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    if "project_id" not in cols:  # a v1 database: read as v2 without migrating it (temp objects win over main)
        conn.execute("CREATE TEMP VIEW runs AS SELECT *, NULL AS project_id FROM main.runs")
    return conn


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring an older database up to this schema in place; no row is ever dropped.

    v1 → v2: ``runs.project_id`` (the project a run was started from; NULL = no project, as for every older
    run)."""
    cols = {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    if "project_id" not in cols:
        try:
            conn.execute("ALTER TABLE runs ADD COLUMN project_id TEXT")
        except sqlite3.OperationalError as exc:  # another connection added it a moment ago
            if "duplicate column" not in str(exc).lower():
                raise
    conn.execute("CREATE INDEX IF NOT EXISTS runs_project ON runs(project_id)")
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


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
    # server text (an error message that echoes the API key) is redacted before it is stored
    return (run_id, r.seq, r.step, r.concurrency, int(r.warmup), r.outcome, redact(r.error_class), r.t_start,
            r.ttft_ms, r.tpot_ms, r.e2e_ms, r.output_tokens, redact(r.model_dump_json()))


class BenchStore:
    """The benchmark database. ``start_run`` → ``add_record``/``add_step`` (any thread) → ``finish_run``."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, retry_budget_s: float = RETRY_BUDGET_S,
                 read_only: bool = False) -> None:
        """``read_only``: for listing and reading: nothing is created, marked, imported or migrated (a run whose
        process died reads as ``interrupted``; its journal is imported by the next store opened for writing)."""
        self.path = Path(path) if path else default_path()
        self.retry_budget_s = retry_budget_s
        self.read_only = read_only
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # usable from any thread (the CLI creates the store, the runner thread writes the run row, a UI reads);
        # every use goes through self._lock
        self.connection = (connect_read_only if read_only else connect)(self.path, check_same_thread=False)
        self._lock = threading.RLock()
        self.run_id: str | None = None
        self.anchor: tuple[float, float] | None = None
        self._queue: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._error: BaseException | None = None
        self.problems: list[dict[str, Any]] = []
        self.on_problem: Any = None  # called from the writer thread with each problem dict
        self.stop_load = False  # set when nothing more can be kept (a full disk)
        self.journal_path: Path | None = None
        self._counts = dict.fromkeys(("records_queued", "records_in_db", "records_in_journal", "records_lost",
                                      "steps_queued", "steps_in_db", "steps_in_journal", "steps_lost"), 0)
        # None until finish_run has tried to write the run's final row; then whether that row is in the database
        self._result_in_db: bool | None = None
        self._spilling = False
        if not read_only:
            self.mark_interrupted()
            with contextlib.suppress(sqlite3.Error, OSError, ValueError):
                self.recover_journals()

    # ---- writing -------------------------------------------------------------------------------------
    def start_run(self, config_json: str, *, label: str = "", url: str = "", model: str = "",
                  project_id: str | None = None) -> str:
        """Create the run row (committed at once) and start the writer thread. Returns the run id.
        ``project_id``: the project the run belongs to (``Project.id``), None for none."""
        before = time.monotonic()
        wall = time.time()
        after = time.monotonic()
        self.anchor = ((before + after) / 2, wall)
        self.run_id = time.strftime("%Y%m%d-%H%M%S", time.localtime(wall)) + "-" + uuid.uuid4().hex[:6]
        with self._lock:
            self.connection.execute(
                "INSERT INTO runs(run_id, label, status, created_wall, anchor_monotonic, anchor_wall, pid, host, url,"
                " model, config_json, project_id) VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.run_id, redact(label), wall, self.anchor[0], wall, os.getpid(), socket.gethostname(),
                 redact(url), redact(model), redact(config_json), project_id or None),
            )
            self.connection.commit()
        self.journal_path = self.path.with_name(f"{self.path.name}.{self.run_id}.journal.jsonl")
        self._writer = threading.Thread(target=self._write_loop, name="bench-store-writer", daemon=True)
        self._writer.start()
        return self.run_id

    def add_record(self, record: RequestRecord) -> None:
        self._counts["records_queued"] += 1
        self._queue.put(("record", record))

    def add_step(self, summary: StepSummary) -> None:
        self._counts["steps_queued"] += 1
        self._queue.put(("step", summary))

    def accounting(self) -> dict[str, Any]:
        """Where every record and step summary went: the database, the journal file, or nowhere (lost).

        ``result_not_in_db`` is 1 only once :meth:`finish_run` has tried to write the run's final row and the
        database refused it; before that attempt (the result being written is the one this accounting goes
        into) it is 0 — the result cannot report on its own write."""
        c = dict(self._counts)
        c["records_not_in_db"] = c["records_in_journal"] + c["records_lost"]
        c["steps_not_in_db"] = c["steps_in_journal"] + c["steps_lost"]
        c["result_not_in_db"] = 1 if self._result_in_db is False else 0
        c["journal"] = str(self.journal_path) if self.journal_path and self.journal_path.exists() else None
        return c

    def _problem(self, kind: str, exc: BaseException | str, *, records: int = 0, steps: int = 0,
                 where: str = "db") -> None:
        from advisor.i18n import tr

        problem = {"kind": kind, "error": redact(str(exc))[:300], "records": records, "steps": steps, "where": where,
                   "wall": time.time(), "stop_load": kind == "disk_full",
                   "message": tr(f"bench.store.{kind}", path=str(self.path),
                                 journal=str(self.journal_path or ""), records=records, steps=steps)}
        if kind == "disk_full":
            self.stop_load = True
        self.problems.append(problem)
        if self.on_problem is not None:
            with contextlib.suppress(Exception):
                self.on_problem(problem)

    def drain(self, timeout: float = 60.0) -> None:
        """Stop the writer after everything queued is committed (or journalled)."""
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout)
            self._writer = None

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until everything queued so far is committed."""
        done = threading.Event()
        self._queue.put(("flush", done))
        done.wait(timeout)

    def finish_run(self, status: str, result_json: str | None = None) -> None:
        """Write the run's final row. If the database refuses it (after retries) it goes to the journal."""
        self.drain()
        row = (status, time.time(), redact(result_json), self.run_id)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE runs SET status = ?, finished_wall = ?, result_json = ? WHERE run_id = ?", row)
            conn.commit()

        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute(f"PRAGMA busy_timeout={WRITER_BUSY_MS}")
            exc = self._retry(lambda: write(self.connection), budget=self.retry_budget_s if not self.stop_load else 0.0)
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute("PRAGMA busy_timeout=10000")
        if exc is None:
            self._result_in_db = True
            return
        self._result_in_db = False
        try:
            self._journal([{"kind": "run", "run_id": self.run_id, "row": list(row)}])
            self._problem(_problem_kind(exc), exc, where="journal")
        except OSError as jexc:
            self._problem(_problem_kind(jexc), jexc, where="lost")

    def _retry(self, fn: Any, budget: float) -> BaseException | None:
        """Run ``fn`` until it succeeds or ``budget`` seconds are spent (backoff 0.1 s doubling to 2 s).
        A full disk is not retried for long: it does not clear by waiting."""
        deadline = time.monotonic() + budget
        delay = RETRY_FIRST_S
        while True:
            try:
                fn()
                return None
            except (sqlite3.Error, OSError) as exc:
                kind = _problem_kind(exc)
                left = deadline - time.monotonic()
                if left <= 0 or kind == "disk_full":
                    return exc
                time.sleep(min(delay, left))
                delay = min(RETRY_MAX_S, delay * 2)

    def _journal(self, entries: list[dict[str, Any]]) -> None:
        """Append entries to the run's journal file (JSON lines, fsynced). Raises OSError (e.g. disk full)."""
        assert self.journal_path is not None
        data = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        with open(self.journal_path, "a", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    def _write_loop(self) -> None:
        run_id = self.run_id
        conn: sqlite3.Connection | None = None
        try:
            conn = connect(self.path)
            conn.execute(f"PRAGMA busy_timeout={WRITER_BUSY_MS}")
        except (sqlite3.Error, OSError) as exc:
            conn = None
            self._problem(_problem_kind(exc), exc)
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
                    steps.append((run_id, s.step, s.concurrency, redact(s.model_dump_json())))
                elif entry[0] == "flush":
                    flushes.append(entry[1])
            if records or steps:
                self._store_batch(conn, records, steps)
            for ev in flushes:
                ev.set()
            if stop:
                break
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    def _store_batch(self, conn: sqlite3.Connection | None, records: list[tuple[Any, ...]],
                     steps: list[tuple[Any, ...]]) -> None:
        def commit() -> None:
            if conn is None:
                raise sqlite3.OperationalError("the benchmark database could not be opened")
            try:
                if records:
                    conn.executemany("INSERT OR REPLACE INTO requests VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", records)
                if steps:
                    conn.executemany("INSERT OR REPLACE INTO steps VALUES (?,?,?,?)", steps)
                conn.commit()
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.rollback()
                raise

        # once spilling, one quick try per batch (the run must not wait 15 s for every batch)
        exc = self._retry(commit, budget=0.0 if self._spilling or self.stop_load else self.retry_budget_s)
        if exc is None:
            self._counts["records_in_db"] += len(records)
            self._counts["steps_in_db"] += len(steps)
            self._spilling = False
            return
        kind = _problem_kind(exc)
        first = not self._spilling
        self._spilling = True
        try:
            self._journal([{"kind": "record", "row": list(r)} for r in records]
                          + [{"kind": "step", "row": list(s)} for s in steps])
            self._counts["records_in_journal"] += len(records)
            self._counts["steps_in_journal"] += len(steps)
            if first or kind == "disk_full":
                self._problem(kind, exc, records=len(records), steps=len(steps), where="journal")
        except OSError as jexc:
            self._counts["records_lost"] += len(records)
            self._counts["steps_lost"] += len(steps)
            if first or not self.stop_load:
                self._problem(_problem_kind(jexc) if kind != "disk_full" else kind, jexc, records=len(records),
                              steps=len(steps), where="lost")

    def recover_journals(self) -> int:
        """Import journal files left next to the database (a run whose store was locked or full), then delete
        them. Returns the number of entries imported."""
        imported = 0
        for journal in sorted(self.path.parent.glob(f"{self.path.name}.*.journal.jsonl")):
            if self.journal_path is not None and journal == self.journal_path:
                continue
            run_id = journal.name[len(self.path.name) + 1: -len(".journal.jsonl")]
            with self._lock:
                status = self.connection.execute("SELECT status, pid FROM runs WHERE run_id = ?", (run_id,)).fetchone()
                if status is not None and status[0] == "running" and _pid_alive(status[1]):
                    continue  # its run is still going
                n = 0
                for line in journal.read_text(encoding="utf-8").splitlines():
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue  # a line cut by a crash
                    kind, row = entry.get("kind"), entry.get("row")
                    if kind == "record" and isinstance(row, list) and len(row) == 13:
                        self.connection.execute("INSERT OR REPLACE INTO requests VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", row)
                    elif kind == "step" and isinstance(row, list) and len(row) == 4:
                        self.connection.execute("INSERT OR REPLACE INTO steps VALUES (?,?,?,?)", row)
                    elif kind == "run" and isinstance(row, list) and len(row) == 4:
                        self.connection.execute(
                            "UPDATE runs SET status = ?, finished_wall = ?, result_json = ? WHERE run_id = ?", row)
                    else:
                        continue
                    n += 1
                self.connection.commit()
            journal.unlink()
            imported += n
        return imported

    def close(self) -> None:
        if self._writer is not None:
            self.finish_run("interrupted")
        with self._lock:
            self.connection.close()

    # ---- reading -------------------------------------------------------------------------------------
    def dead_runs(self) -> set[str]:
        """Runs stored as 'running' whose process (on this host) no longer exists: interrupted, whether or not
        they are marked so yet. Read only."""
        with self._lock:
            rows = self.connection.execute("SELECT run_id, pid, host FROM runs WHERE status = 'running'").fetchall()
        here = socket.gethostname()
        return {rid for rid, pid, host in rows if host == here and rid != self.run_id and not _pid_alive(pid)}

    def pending_journals(self) -> dict[str, Path]:
        """Journal files beside the database not imported yet (run id -> file). Read only."""
        out = {}
        for journal in sorted(self.path.parent.glob(f"{self.path.name}.*.journal.jsonl")):
            if self.journal_path is None or journal != self.journal_path:
                out[journal.name[len(self.path.name) + 1: -len(".journal.jsonl")]] = journal
        return out

    def mark_interrupted(self) -> int:
        """Runs left 'running' by a process that no longer exists become 'interrupted' (a read-only store only
        counts them: its readers show them as interrupted)."""
        dead = self.dead_runs()
        if self.read_only:
            return len(dead)
        with self._lock:
            try:
                for rid in dead:
                    self.connection.execute("UPDATE runs SET status = 'interrupted' WHERE run_id = ?", (rid,))
                if dead:
                    self.connection.commit()
            except sqlite3.OperationalError:  # a read-only database: the readers show such runs as interrupted
                self.connection.rollback()
            return len(dead)

    def runs(self) -> list[dict[str, Any]]:
        self.mark_interrupted()
        dead = self.dead_runs()  # a read-only store: computed on read
        with self._lock:
            rows = self.connection.execute(
                "SELECT r.run_id, r.label, r.status, r.created_wall, r.finished_wall, r.url, r.model,"
                " (SELECT COUNT(*) FROM requests q WHERE q.run_id = r.run_id), r.project_id FROM runs r"
                " ORDER BY r.created_wall DESC"
            ).fetchall()
        keys = ("run_id", "label", "status", "created_wall", "finished_wall", "url", "model", "requests", "project_id")
        out = [dict(zip(keys, row, strict=True)) for row in rows]
        for run in out:
            if run["run_id"] in dead:
                run["status"] = "interrupted"
        return out

    def run(self, run_id: str) -> dict[str, Any] | None:
        self.mark_interrupted()
        dead = self.dead_runs()
        with self._lock:
            row = self.connection.execute(
                "SELECT run_id, label, status, created_wall, anchor_monotonic, anchor_wall, finished_wall, url, model,"
                " config_json, result_json, project_id FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        keys = ("run_id", "label", "status", "created_wall", "anchor_monotonic", "anchor_wall", "finished_wall", "url",
                "model", "config", "result", "project_id")
        out = dict(zip(keys, row, strict=True))
        out["config"] = json.loads(out["config"])
        out["result"] = json.loads(out["result"]) if out["result"] else None
        if run_id in dead:
            out["status"] = "interrupted"
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
        return json.dumps(redact(run), ensure_ascii=False, indent=2)  # a database from before redaction too

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
            w.writerow([csv_cell(v) for v in [r.seq, r.step, r.concurrency, int(r.warmup), r.outcome, r.error_class or "", r.status or "",
                        f"{r.t_start + offset:.6f}", _fmt(r.ttft_ms), _fmt(r.ttfa_ms), _fmt(r.tpot_ms), _fmt(r.e2e_ms),
                        r.output_tokens if r.output_tokens is not None else "", r.output_tokens_source or "",
                        r.prompt_tokens if r.prompt_tokens is not None else "", r.finish_reason or "",
                        ";".join(r.anomalies)]])  # server text: one door into a cell
        return buf.getvalue()


def _fmt(v: float | None) -> str:
    return "" if v is None else f"{v:.3f}"
