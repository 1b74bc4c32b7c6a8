"""Scored A/B results stored beside the two load runs, in the benchmark database (History).

Its own table, ``ab_quality``, created on first use with ``CREATE TABLE IF NOT EXISTS``: an older database
opens unchanged and gains the table the first time a scored A/B is saved or read (no column of ``runs``
changes, so the runs' own schema and its migrations are untouched). One row per scored A/B: the two run ids,
the headline figures as columns (for listing) and the whole :class:`QualityResult` as JSON.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from advisor.bench.quality.report import QualityResult

if TYPE_CHECKING:
    from advisor.bench.ab import AbResult

_TABLE = """
CREATE TABLE IF NOT EXISTS ab_quality (
    quality_id TEXT PRIMARY KEY,
    created_wall REAL NOT NULL,
    a_run_id TEXT,                 -- the load runs of the same A/B (runs.run_id); kept if a run is deleted
    b_run_id TEXT,
    a_label TEXT NOT NULL DEFAULT '',
    b_label TEXT NOT NULL DEFAULT '',
    samples INTEGER NOT NULL,      -- scored samples both sides answered
    a_accuracy REAL,
    b_accuracy REAL,
    difference REAL,               -- B - A
    ci_low REAL,
    ci_high REAL,
    simulated INTEGER NOT NULL DEFAULT 0,
    result_json TEXT NOT NULL      -- QualityResult
);
CREATE INDEX IF NOT EXISTS ab_quality_a ON ab_quality(a_run_id);
CREATE INDEX IF NOT EXISTS ab_quality_b ON ab_quality(b_run_id);
"""


def ensure_table(conn: sqlite3.Connection) -> None:
    conn.executescript(_TABLE)


def save_quality(path: str | Path | None, result: AbResult) -> str:
    """Store the scored part of an A/B with its two run ids; returns the new quality id."""
    from advisor.bench.store import connect

    q = result.quality
    if q is None:
        raise ValueError("this A/B has no scored samples")
    quality_id = uuid.uuid4().hex[:12]
    conn = connect(path)
    try:
        ensure_table(conn)
        with conn:
            conn.execute(
                "INSERT INTO ab_quality VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (quality_id, time.time(), result.a.run_id, result.b.run_id, result.a.label or result.a.model,
                 result.b.label or result.b.model, q.compared, q.a_accuracy, q.b_accuracy, q.difference, q.ci_low,
                 q.ci_high, int(q.simulated), q.model_dump_json()),
            )
    finally:
        conn.close()
    return quality_id


def _row(row: tuple[Any, ...]) -> dict[str, Any]:
    keys = ("quality_id", "created_wall", "a_run_id", "b_run_id", "a_label", "b_label", "samples", "a_accuracy",
            "b_accuracy", "difference", "ci_low", "ci_high", "simulated")
    out = dict(zip(keys, row[:-1], strict=True))
    out["simulated"] = bool(out["simulated"])
    out["result"] = QualityResult.model_validate(json.loads(row[-1])).model_dump(mode="json")
    return out


def quality_for_runs(conn: sqlite3.Connection, run_ids: list[str]) -> list[dict[str, Any]]:
    """Stored scored A/Bs that include any of these runs (newest first). Reads only: a database without the
    table has none (a read-only listing must not create it)."""
    if not run_ids or conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ab_quality'"
                                   " UNION ALL SELECT 1 FROM sqlite_temp_master WHERE name = 'ab_quality'"
                                   ).fetchone() is None:
        return []
    marks = ",".join("?" * len(run_ids))
    rows = conn.execute(f"SELECT * FROM ab_quality WHERE a_run_id IN ({marks}) OR b_run_id IN ({marks}) "
                        "ORDER BY created_wall DESC", [*run_ids, *run_ids]).fetchall()
    return [_row(r) for r in rows]


def load_quality(path: str | Path | None, quality_id: str) -> dict[str, Any] | None:
    from advisor.bench.store import connect

    conn = connect(path)
    try:
        ensure_table(conn)
        row = conn.execute("SELECT * FROM ab_quality WHERE quality_id = ?", (quality_id,)).fetchone()
        return _row(row) if row else None
    finally:
        conn.close()
