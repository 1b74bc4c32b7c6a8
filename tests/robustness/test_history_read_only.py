"""Issue #29 item 1: reading the history writes nothing. ``advisor history`` (list, --json, --show, --export,
--compare) and ``advisor bench --list`` leave the database folder byte for byte and mtime for mtime as it was:
a run whose process died is shown as "interrupted (not yet marked)" and a journal left by a locked database
stays where it is, both until the next command that writes (here ``history --delete``). A WAL database, an
older (v1) one, a missing one and an import source are read the same way."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from advisor.bench.store import BenchStore
from advisor.domain.bench import StepSummary

ROOT = Path(__file__).resolve().parents[2]


def _advisor(*args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


def _state(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file in the folder: its content hash and its mtime (a rewrite with the same bytes still shows)."""
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir()) if p.is_file()}


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _history_with_a_dead_run_and_a_journal(db: Path) -> tuple[str, str, Path]:
    """Two runs in a WAL database at rest: one completed, one left 'running' by a process that is gone, whose
    last step summary waits in a journal file (as a locked database leaves it)."""
    store = BenchStore(db)
    done = store.start_run("{}", model="done-model", url="http://127.0.0.1:1/v1")
    store.add_step(StepSummary(step=0, concurrency=1, requests_ok=1))
    store.finish_run("completed", json.dumps({"steps": []}))
    store.close()
    store = BenchStore(db)
    dead = store.start_run("{}", model="dead-model", url="http://127.0.0.1:1/v1")
    store.drain()
    with store._lock:
        store.connection.execute("UPDATE runs SET pid = ?, host = ? WHERE run_id = ?",
                                 (_dead_pid(), socket.gethostname(), dead))
        store.connection.commit()
    store.connection.close()
    journal = db.with_name(f"{db.name}.{dead}.journal.jsonl")
    step = StepSummary(step=0, concurrency=2, requests_ok=3)
    journal.write_text(json.dumps({"kind": "step", "row": [dead, 0, 2, step.model_dump_json()]}) + "\n")
    time.sleep(0.05)  # an mtime granularity apart from what follows
    return done, dead, journal


def test_reading_the_history_writes_nothing_until_a_command_writes(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    done, dead, journal = _history_with_a_dead_run_and_a_journal(db)
    assert not Path(f"{db}-wal").exists()  # a WAL database at rest: mode=ro alone would create -wal and -shm
    before = _state(folder)
    listing = _advisor("history", "--db", str(db))
    as_json = _advisor("history", "--db", str(db), "--json")
    shown = _advisor("history", "--db", str(db), "--show", dead, "--json")
    exported = _advisor("history", "--db", str(db), "--export", done)
    compared = _advisor("history", "--db", str(db), "--compare", done, dead, "--json")
    bench_list = _advisor("bench", "--list", "--db", str(db), "--json")
    after = _state(folder)
    for proc in (listing, as_json, shown, exported, compared, bench_list):
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert after == before  # no byte, no mtime, no -wal/-shm file changed or added; the journal is still there

    assert "interrupted (not yet marked)" in listing.stdout
    row = {r["run_id"]: r for r in json.loads(as_json.stdout)}[dead]
    assert (row["status"], row["stored_status"]) == ("interrupted", "running")
    assert "not yet" in row["status_reason"].lower() or "marked" in row["status_reason"]
    assert str(journal) in row["status_reason"]  # said, not imported
    assert {r["run_id"]: r["status"] for r in json.loads(bench_list.stdout)}[dead] == "interrupted"

    # the next command that writes marks the dead run and imports its journal
    deleted = _advisor("history", "--db", str(db), "--delete", done)
    assert deleted.returncode == 0, deleted.stderr
    assert not journal.exists()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT status FROM runs WHERE run_id = ?", (dead,)).fetchone() == ("interrupted",)
        assert conn.execute("SELECT concurrency FROM steps WHERE run_id = ?", (dead,)).fetchall() == [(2,)]
    finally:
        conn.close()
    row = {r["run_id"]: r for r in json.loads(_advisor("history", "--db", str(db), "--json").stdout)}[dead]
    assert (row["status"], row["stored_status"]) == ("interrupted", "interrupted")


def test_listing_a_missing_database_creates_nothing(tmp_path):
    db = tmp_path / "not" / "there" / "bench.sqlite3"
    proc = _advisor("history", "--db", str(db), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []
    assert not (tmp_path / "not").exists()


def test_an_older_database_is_listed_without_being_migrated(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    conn = sqlite3.connect(db)  # a v1 database: no runs.project_id, journal_mode DELETE
    conn.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema_version', '1');
        CREATE TABLE runs (run_id TEXT PRIMARY KEY, label TEXT NOT NULL DEFAULT '', status TEXT NOT NULL,
            created_wall REAL NOT NULL, anchor_monotonic REAL NOT NULL, anchor_wall REAL NOT NULL,
            finished_wall REAL, pid INTEGER, host TEXT, url TEXT, model TEXT, config_json TEXT NOT NULL,
            result_json TEXT);
        CREATE TABLE requests (run_id TEXT NOT NULL, seq INTEGER NOT NULL, step INTEGER NOT NULL,
            concurrency INTEGER NOT NULL, warmup INTEGER NOT NULL, outcome TEXT NOT NULL, error_class TEXT,
            t_start REAL NOT NULL, ttft_ms REAL, tpot_ms REAL, e2e_ms REAL, output_tokens INTEGER,
            record_json TEXT NOT NULL, PRIMARY KEY (run_id, seq));
        CREATE TABLE steps (run_id TEXT NOT NULL, step INTEGER NOT NULL, concurrency INTEGER NOT NULL,
            summary_json TEXT NOT NULL, PRIMARY KEY (run_id, step));
    """)
    conn.execute("INSERT INTO runs(run_id, status, created_wall, anchor_monotonic, anchor_wall, finished_wall,"
                 " config_json, model, url) VALUES ('old-run', 'completed', 1.7e9, 0, 1.7e9, 1.7e9, '{}', 'old', 'u')")
    conn.commit()
    conn.close()
    before = _state(folder)
    proc = _advisor("history", "--db", str(db), "--json")
    assert proc.returncode == 0, proc.stderr
    assert [r["run_id"] for r in json.loads(proc.stdout)] == ["old-run"]
    assert _state(folder) == before


def test_import_of_a_wal_source_in_a_writable_folder_leaves_it_as_it_was(tmp_path):
    src_dir = tmp_path / "src"
    src_dir.mkdir()
    src = src_dir / "other.sqlite3"
    done, _dead, journal = _history_with_a_dead_run_and_a_journal(src)
    journal.unlink()
    src.chmod(0o444)  # a read-only source file in a folder we may write: works, and nothing appears beside it
    before = _state(src_dir)
    proc = _advisor("history", "--db", str(tmp_path / "here.sqlite3"), "--import", str(src), "--json")
    assert proc.returncode == 0, proc.stderr
    assert done in json.loads(proc.stdout)["imported"]
    assert _state(src_dir) == before


def test_a_newer_wal_database_is_refused_with_nothing_written_beside_it(tmp_path):
    # mode=ro alone on a WAL database leaves -wal and -shm files behind: "untouched" means the folder too
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    _history_with_a_dead_run_and_a_journal(db)[2].unlink()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    assert not Path(f"{db}-wal").exists()
    before = _state(folder)
    for args in (["history", "--db", str(db)], ["bench", "--list", "--db", str(db)],
                 ["bench", "--url", "http://127.0.0.1:9/v1", "--model", "m", "--no-probe", "--db", str(db)],
                 ["history", "--db", str(tmp_path / "here.sqlite3"), "--import", str(db)]):
        proc = _advisor(*args)
        assert proc.returncode != 0 and "newer version" in proc.stderr and "Traceback" not in proc.stderr, \
            (args, proc.stderr)
    assert _state(folder) == before
