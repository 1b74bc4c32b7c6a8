"""The benchmark store: round trip, exports, and a real kill -9 in the middle of a run."""

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from advisor.bench.store import BenchStore, connect
from advisor.domain.bench import RequestRecord, StepSummary
from tests.support.replay import ReplayServer

ROOT = Path(__file__).resolve().parents[2]


def _rec(seq, outcome="ok"):
    return RequestRecord(seq=seq, outcome=outcome, t_intended=10.0, t_start=10.0, t_first_token=10.1,
                         t_last_token=10.5, t_end=10.5, token_times=[10.1, 10.5], output_tokens=2,
                         output_tokens_source="usage", finish_reason="stop")


def test_round_trip_exports_and_default_location(tmp_path):
    store = BenchStore()  # the user data dir (redirected to tmp by conftest)
    assert store.path.parent.exists() and "advisor" in str(store.path)
    run_id = store.start_run('{"endpoint": {"url": "http://x"}}', label="t", url="http://x", model="m")
    for i in range(5):
        store.add_record(_rec(i, "ok" if i < 4 else "truncated"))
    store.add_step(StepSummary(step=0, concurrency=2, requests_ok=4, requests_failed=1))
    store.flush()
    # committed already: another connection sees them before the run ends
    other = connect(store.path)
    assert other.execute("SELECT COUNT(*) FROM requests WHERE run_id = ?", (run_id,)).fetchone()[0] == 5
    other.close()
    store.finish_run("completed", '{"ok": true}')
    assert [r.seq for r in store.records(run_id)] == [0, 1, 2, 3, 4]
    assert store.steps(run_id)[0].requests_failed == 1
    exported = json.loads(store.export_json(run_id))
    assert exported["status"] == "completed" and len(exported["requests"]) == 5 and exported["result"] == {"ok": True}
    rows = list(csv.DictReader(io.StringIO(store.export_csv(run_id))))
    assert len(rows) == 5 and rows[4]["outcome"] == "truncated"
    assert float(rows[0]["ttft_ms"]) == 100.0
    # the wall-clock anchor lines monotonic times up with Unix time
    assert abs(float(rows[0]["start_unix_s"]) - (store.anchor[1] + 10.0 - store.anchor[0])) < 1e-3
    assert store.runs()[0]["requests"] == 5
    assert sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.connection.close()


def test_kill_minus_9_keeps_finished_records_and_marks_the_run_interrupted(tmp_path):
    db = tmp_path / "bench.sqlite3"
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=15) as srv:
        proc = subprocess.Popen(
            [sys.executable, "-m", "advisor", "bench", "--url", srv.url, "--model", "m", "--concurrency", "2",
             "--requests", "400", "--no-probe", "--quiet", "--db", str(db)],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            count = 0
            while time.monotonic() < deadline:
                time.sleep(0.2)
                if db.exists():
                    try:
                        conn = sqlite3.connect(db, timeout=5)
                        count = conn.execute("SELECT COUNT(*) FROM requests WHERE warmup = 0").fetchone()[0]
                        conn.close()
                    except sqlite3.OperationalError:
                        count = 0
                if count >= 6:
                    break
            assert count >= 6, proc.stderr.read().decode() if proc.poll() is not None else "no records in time"
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.communicate(timeout=10)
        served = len(srv.served)
    store = BenchStore(db)
    (run,) = store.runs()
    assert run["status"] == "interrupted"
    records = store.records(run["run_id"])
    assert len(records) >= count
    # at most the in-flight requests (2 workers) can be missing from what the server finished serving
    assert len(records) >= served - 2 - 1
    assert all(r.outcome == "ok" and r.token_times for r in records)
    store.connection.close()


def test_reopening_the_database_in_the_same_process_keeps_its_locks(tmp_path):
    """POSIX locks belong to the process: reading the file's header with a plain open()/close() while this process
    holds connections dropped all of their locks (SQLite's "how to corrupt a database", 2.2). Another process's
    reader then took itself for the last connection and checkpointed the WAL away under the live writer, whose
    later commits no other process could see: `advisor bench` stored nothing visible for ~30 s whenever History
    (or a test) read the database while the run's writer thread opened its own connection."""
    store = BenchStore(tmp_path / "b.sqlite3")
    run_id = store.start_run("{}")
    for i in range(3):
        store.add_record(_rec(i))
    store.flush()
    connect(store.path).close()  # what the writer thread and History do: open the file again in this process
    count = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('SELECT COUNT(*) FROM requests').fetchone()[0])"
    seen = subprocess.run([sys.executable, "-c", count, str(store.path)], capture_output=True, text=True, check=True)
    assert seen.stdout.strip() == "3"  # another process read and closed its connection
    for i in range(3, 6):
        store.add_record(_rec(i))
    store.flush()
    seen = subprocess.run([sys.executable, "-c", count, str(store.path)], capture_output=True, text=True, check=True)
    assert seen.stdout.strip() == "6", "the records committed after another process read the file are not visible"
    store.finish_run("completed", "{}")
    assert len(store.records(run_id)) == 6
    store.connection.close()


# ---- the result's own accounting --------------------------------------------------------------------------


def _advisor(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_clean_run_against_the_simulator_is_stored_complete(tmp_path):
    """The stored result used to carry incomplete.result_not_in_db=1 (accounted before its own write), so every
    run looked incomplete unless the history guessed. A clean run has no incomplete block, here and stored."""
    from advisor.sim.launcher import SimLauncher, SimLaunchSpec

    db = tmp_path / "bench.sqlite3"
    with SimLauncher(SimLaunchSpec(model="qwen2.5-3b", gpu="h100-sxm-80g", weights="bf16", time_scale=0.05)) as sim:
        p = _advisor("bench", "--url", sim.base_url, "--model", "qwen2.5-3b", "--concurrency", "1,2",
                     "--requests", "6", "--max-tokens", "8", "--prompt-tokens", "32", "--json", "--db", str(db),
                     "--no-telemetry")
    assert p.returncode == 0, p.stderr[-2000:]
    result = json.loads(p.stdout)
    assert result["status"] == "completed" and result["incomplete"] is None and result["exit_code"] == 0
    stored = json.loads(sqlite3.connect(db).execute("SELECT result_json FROM runs WHERE run_id = ?",
                                                    (result["run_id"],)).fetchone()[0])
    assert stored["incomplete"] is None and stored["store_problems"] == []
    h = _advisor("history", "--db", str(db), "--json")
    assert h.returncode == 0, h.stderr
    (row,) = json.loads(h.stdout)
    assert row["run_id"] == result["run_id"] and row["status"] == "completed", row


def test_a_result_the_database_refuses_still_says_so(tmp_path, monkeypatch):
    """Everything measured reached the database, then the run's own row could not be written (locked past the
    retries): the returned result says result_not_in_db=1 (exit 6); the journal brings it in on the next open."""
    import threading

    from advisor.bench.runner import Runner
    from advisor.domain.bench import BenchConfig

    db = tmp_path / "bench.sqlite3"
    store = BenchStore(db, retry_budget_s=0.2)
    real_drain = store.drain
    release = threading.Event()

    def drain_then_lock(timeout=60.0):
        real_drain(timeout)
        if release.is_set() or getattr(drain_then_lock, "done", False):
            return
        drain_then_lock.done = True
        locked = threading.Event()

        def hold():
            conn = sqlite3.connect(str(db), timeout=1)
            conn.execute("BEGIN EXCLUSIVE")
            locked.set()
            release.wait(10)
            conn.rollback()
            conn.close()

        threading.Thread(target=hold, daemon=True).start()
        assert locked.wait(5)

    monkeypatch.setattr(store, "drain", drain_then_lock)
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=1) as srv:
        cfg = BenchConfig.model_validate({
            "endpoint": {"url": srv.url, "model": "m", "read_timeout_s": 5, "timeout_s": 10},
            "workload": {"prompt_tokens": {"mean": 16}, "output_tokens": {"mean": 8}},
            "schedule": {"kind": "fixed", "concurrency": [2], "requests": 6, "warmup_requests": 0},
        })
        result = Runner(cfg, store=store).run()
    release.set()
    inc = result["incomplete"]
    assert inc is not None and inc["result_not_in_db"] == 1 and inc["records_not_in_db"] == 0, inc
    assert result["exit_code"] == 6 and inc["journal"]
    store.connection.close()
    # the run row went to the journal (imported on the next open once this process is gone), holding the
    # result as it was written: complete, because every record and step had reached the database
    entries = [json.loads(line) for line in Path(inc["journal"]).read_text(encoding="utf-8").splitlines()]
    (run_row,) = [e["row"] for e in entries if e["kind"] == "run"]
    assert run_row[0] == "completed" and json.loads(run_row[2])["incomplete"] is None
    assert len(BenchStore(db).records(result["run_id"])) == 6
