"""Issue #29 items 1 and 17: a database from a newer version is refused and left byte-for-byte as it was;
``history --import`` only reads its source (a read-only source works); corrupt, folder and read-only
databases give a message, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bench.store import SCHEMA_VERSION, BenchStore
from tests.robustness.hostile import HostileServer

ROOT = Path(__file__).resolve().parents[2]


def _advisor(*args, timeout=90):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def _db_with_a_run(path: Path) -> str:
    with HostileServer() as srv:
        proc = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", "2", "--warmup", "0", "--no-probe",
                        "--no-telemetry", "--db", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["run_id"]


def _make_newer(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")  # one file, so "untouched" is one checksum
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 5),))
    conn.execute("ALTER TABLE runs ADD COLUMN from_the_future TEXT")
    conn.commit()
    conn.close()


def test_a_newer_database_is_refused_and_left_untouched(tmp_path):
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "bench.sqlite3"
    _db_with_a_run(db)
    _make_newer(db)
    before = _digest(folder)
    for args in (["history", "--db", str(db)], ["history", "--db", str(db), "--json"],
                 ["bench", "--list", "--db", str(db)]):
        proc = _advisor(*args)
        assert proc.returncode != 0, (args, proc.stdout)
        assert "newer version" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    with HostileServer() as srv:
        proc = _advisor("bench", "--url", srv.url, "--model", "m", "--requests", "2", "--warmup", "0", "--no-probe",
                        "--no-telemetry", "--db", str(db))
        assert srv.posts() == 0
    assert "newer version" in proc.stderr and proc.returncode != 0
    assert _digest(folder) == before  # byte for byte, and no journal or WAL left beside it
    with pytest.raises(sqlite3.DatabaseError, match="newer version"):
        BenchStore(db)


def test_import_only_reads_its_source_and_a_read_only_source_works(tmp_path):
    src_dir = tmp_path / "src"
    src_dir.mkdir()
    src = src_dir / "other.sqlite3"
    run_id = _db_with_a_run(src)
    conn = sqlite3.connect(src)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")  # an older source: not migrated
    conn.commit()
    conn.close()
    src.chmod(0o444)
    src_dir.chmod(0o555)
    try:
        before = _digest(src_dir)
        proc = _advisor("history", "--db", str(tmp_path / "here.sqlite3"), "--import", str(src), "--json")
        after = _digest(src_dir)
    finally:
        src_dir.chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["imported"] == [run_id]
    assert after == before


def test_import_of_a_newer_database_is_refused(tmp_path):
    src = tmp_path / "other.sqlite3"
    _db_with_a_run(src)
    _make_newer(src)
    before = _digest(tmp_path)
    proc = _advisor("history", "--db", str(tmp_path / "here" / "h.sqlite3"), "--import", str(src))
    assert proc.returncode != 0 and "newer version" in proc.stderr and "Traceback" not in proc.stderr
    assert {k: v for k, v in _digest(tmp_path).items() if k.startswith("other")} == \
        {k: v for k, v in before.items() if k.startswith("other")}


@pytest.mark.parametrize("kind", ["corrupt", "folder", "read_only"])
def test_history_on_a_bad_database_says_why(tmp_path, kind):
    db = tmp_path / "bench.sqlite3"
    if kind == "corrupt":
        db.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    elif kind == "folder":
        db.mkdir()
    else:
        _db_with_a_run(db)
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.close()
        db.chmod(0o444)
    proc = _advisor("history", "--db", str(db))
    assert "Traceback" not in proc.stderr, proc.stderr
    if kind == "read_only":  # listing a read-only history works
        assert proc.returncode == 0, proc.stderr
        assert "completed" in proc.stdout.lower() or "m" in proc.stdout
    else:
        assert proc.returncode != 0 and str(db) in proc.stderr
