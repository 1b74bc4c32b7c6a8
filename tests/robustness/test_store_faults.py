"""The store never loses a finished record silently: a database locked past the busy wait, a full disk, a
database that cannot be opened. Real SQLite throughout; the full disk is SQLite's own SQLITE_FULL (a page
limit on the writer's connection) and, where this machine allows it, a real 1 MiB tmpfs."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

import advisor.bench.store as store_mod
from advisor.bench.runner import Runner
from advisor.bench.store import BenchStore, _problem_kind
from advisor.domain.bench import BenchConfig
from tests.robustness.hostile import HostileServer, Reply, good
from tests.support.small_disk import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]


def cfg(url: str, requests: int = 40, concurrency: int = 4) -> BenchConfig:
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "m", "read_timeout_s": 5, "timeout_s": 10},
        "workload": {"prompt_tokens": {"mean": 16}, "output_tokens": {"mean": 8}},
        "schedule": {"kind": "fixed", "concurrency": [concurrency], "requests": requests, "warmup_requests": 0},
    })


def _hold_lock(db: Path, seconds: float, started: threading.Event) -> None:
    conn = sqlite3.connect(str(db), timeout=1)
    conn.execute("BEGIN EXCLUSIVE")
    started.set()
    time.sleep(seconds)
    conn.rollback()
    conn.close()


def test_a_database_locked_past_the_busy_wait_spills_to_the_journal_and_says_so(tmp_path):
    db = tmp_path / "bench.sqlite3"
    BenchStore(db).connection.close()  # create it
    events = []
    started = threading.Event()

    def on_event(event):
        events.append(event)
        if event.kind == "record" and not started.is_set():  # lock the database once the load is running
            threading.Thread(target=_hold_lock, args=(db, 2.5, started), daemon=True).start()
            started.wait(5)

    with HostileServer(lambda p, b: Reply(good().pieces, pause_s=0.01)) as srv:
        store = BenchStore(db, retry_budget_s=0.3)
        result = Runner(cfg(srv.url), store=store, on_event=on_event).run()
        store.connection.close()
    problems = [e.data for e in events if e.kind == "store_problem"]
    assert problems and problems[0]["kind"] == "database_locked"  # said live
    assert result["store_problems"] and result["store_problems"][0]["kind"] == "database_locked"
    inc = result["incomplete"]
    assert inc is not None and inc["records_in_journal"] > 0 and inc["records_lost"] == 0
    assert inc["records_in_db"] + inc["records_in_journal"] == 40
    assert result["exit_code"] == 6
    journal = Path(inc["journal"])
    assert journal.exists()
    # the next open imports the journal: every record is in the database, nothing lost
    again = BenchStore(db)
    assert len(again.records(result["run_id"])) == 40
    assert again.run(result["run_id"])["status"] == result["status"]
    assert again.steps(result["run_id"])
    assert not journal.exists()
    again.connection.close()


def _page_limited_connect(limit_pages: int):
    real = store_mod.connect

    def connect(path=None, *, check_same_thread=True):
        conn = real(path, check_same_thread=check_same_thread)
        conn.execute(f"PRAGMA max_page_count={limit_pages}")
        return conn

    return connect


def test_disk_full_mid_run_stops_the_load_keeps_the_measurements_and_fails_loudly(tmp_path, monkeypatch):
    db = tmp_path / "bench.sqlite3"
    BenchStore(db).connection.close()
    pages = sqlite3.connect(db).execute("PRAGMA page_count").fetchone()[0]
    # SQLite itself answers SQLITE_FULL ("database or disk is full") once the file would grow past this
    monkeypatch.setattr(store_mod, "connect", _page_limited_connect(pages + 2))
    events = []
    with HostileServer(lambda p, b: Reply(good(8).pieces, pause_s=0.002)) as srv:
        store = BenchStore(db, retry_budget_s=0.2)
        runner = Runner(cfg(srv.url, requests=2000, concurrency=4), store=store, on_event=events.append)
        t = time.monotonic()
        result = runner.run()
        store.connection.close()
    assert time.monotonic() - t < 30
    assert result["stop_reason"] == "disk_full"
    (step,) = result["steps"]
    measured = step["requests_ok"] + step["requests_failed"] + step["requests_cancelled"]
    assert 0 < measured < 2000  # the load stopped early
    assert step["requests_ok"] > 0  # and what was measured is in the result
    assert result["incomplete"]["reason"] == "disk_full" and result["exit_code"] == 6
    assert any(e.kind == "store_problem" and e.data["kind"] == "disk_full" for e in events)


def test_disk_full_from_the_cli_prints_the_json_and_exits_6(tmp_path):
    with small_tmpfs(tmp_path / "small") as mnt:
        db = mnt / "bench.sqlite3"
        with HostileServer(lambda p, b: Reply(good(64).pieces)) as srv:
            p = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m",
                                "--concurrency", "8", "--requests", "100000", "--max-tokens", "64", "--json",
                                "--db", str(db), "--quiet", "--no-telemetry"],
                               cwd=ROOT, capture_output=True, text=True, timeout=120,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 6, p.stderr[-2000:]
        data = json.loads(p.stdout)
        assert data["stop_reason"] == "disk_full" and data["steps"][0]["requests_ok"] > 0
        assert "disk" in p.stderr and "Traceback" not in p.stderr


def test_problem_kinds():
    assert _problem_kind(OSError(errno.ENOSPC, "No space left on device")) == "disk_full"
    assert _problem_kind(sqlite3.OperationalError("database or disk is full")) == "disk_full"
    assert _problem_kind(sqlite3.OperationalError("database is locked")) == "database_locked"
    assert _problem_kind(sqlite3.OperationalError("disk I/O error")) == "io_error"


@pytest.mark.parametrize("kind", ["folder", "not_a_database", "locked"])
def test_an_unusable_db_is_one_clear_message(tmp_path, kind):
    if kind == "folder":
        db = tmp_path / "folder"
        db.mkdir()
    elif kind == "not_a_database":
        db = tmp_path / "junk.sqlite3"
        db.write_bytes(b"this is not a database" * 100)
    else:
        db = tmp_path / "bench.sqlite3"
        BenchStore(db).connection.close()
    holder = None
    if kind == "locked":
        holder = sqlite3.connect(str(db))
        holder.execute("BEGIN EXCLUSIVE")
    try:
        p = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", "http://127.0.0.1:9", "--model", "m",
                            "--no-probe", "--db", str(db), "--requests", "1"],
                           cwd=ROOT, capture_output=True, text=True, timeout=90,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        if holder is not None:
            holder.rollback()
            holder.close()
    assert p.returncode in (2, 6), p.stderr
    assert "Traceback" not in p.stderr and str(db) in p.stderr


def test_a_journal_line_cut_by_a_crash_is_skipped(tmp_path):
    db = tmp_path / "bench.sqlite3"
    s = BenchStore(db)
    run_id = s.start_run("{}")
    s.finish_run("completed")
    s.connection.close()
    journal = db.with_name(f"{db.name}.{run_id}.journal.jsonl")
    row = [run_id, 0, 0, 1, 0, "ok", None, 1.0, 1.0, 1.0, 2.0, 3,
           json.dumps({"seq": 0, "t_intended": 1.0, "t_start": 1.0, "request_id": str(uuid.uuid4())})]
    journal.write_text(json.dumps({"kind": "record", "row": row}) + "\n" + '{"kind": "rec', encoding="utf-8")
    again = BenchStore(db)
    assert [r.seq for r in again.records(run_id)] == [0]
    assert not journal.exists()
    again.connection.close()


def test_disk_full_at_the_start_sends_no_load_and_says_why(tmp_path, monkeypatch):
    db = tmp_path / "bench.sqlite3"
    BenchStore(db).connection.close()
    pages = sqlite3.connect(db).execute("PRAGMA page_count").fetchone()[0]
    monkeypatch.setattr(store_mod, "connect", _page_limited_connect(pages))  # not one page more
    with HostileServer() as srv:
        store = BenchStore(db)
        config = cfg(srv.url).model_copy(update={"label": "x" * 20_000})  # the run row needs new pages
        events = []
        result = Runner(config, store=store, on_event=events.append).run()
        store.connection.close()
        posts = srv.posts()
    assert posts == 0
    assert result["status"] == "failed" and result["stop_reason"] == "store_unavailable"
    assert result["exit_code"] == 6 and result["store_problems"][0]["kind"] == "disk_full"
    assert any(e.kind == "store_problem" for e in events) and events[-1].kind == "finished"
