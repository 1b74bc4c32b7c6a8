"""Benchmark history: list, filter, summarise, delete, export, import and compare stored runs (Qt-free).

Reads the benchmark database through :class:`advisor.bench.store.BenchStore`'s public read API (``runs``,
``run``, ``steps``, ``export_json``, ``export_csv``) and adds, on the same SQLite file, the queries the History
page and ``advisor history`` need: per-run request counts, GPU names and peak memory from the telemetry tables,
deletion of a run with all its rows in one transaction, and importing a run exported on another machine (GPU
servers are often headless: the benchmark runs there, the comparison happens on a laptop).

Status of a run as shown to a user (:data:`STATUSES`), derived from what was stored — never more optimistic:

- ``running``      the process that writes it is still alive;
- ``completed``    finished, requests succeeded, failures within the run's ``max_error_rate``;
- ``stopped``      the user stopped it (stored ``cancelled``); what was measured is kept;
- ``interrupted``  the writing process died (crash, kill, power cut);
- ``failed``       stored as failed, or not a single measured request succeeded;
- ``degraded``     finished, but more requests failed than the run's ``max_error_rate`` allows;
- ``incomplete``   finished, but its results were not all stored (no result, or steps missing).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from advisor.atomic import write_text_atomic
from advisor.bench import metrics
from advisor.bench.provenance import step_at_real_speed, time_scale_of
from advisor.bench.store import BenchStore, connect
from advisor.domain.bench import RequestRecord, StepSummary
from advisor.i18n import tr

STATUSES = ("running", "completed", "stopped", "interrupted", "failed", "degraded", "incomplete")
SHAPES = ("single", "fixed", "ramp", "soak", "rate")
SIM_OWNER = "inference-advisor-simulated"

# The series a comparison overlays, in display order: (key, unit, lower_is_better)
COMPARE_METRICS: tuple[tuple[str, str, bool], ...] = (
    ("ttft_p50_ms", "ms", True),
    ("ttft_p99_ms", "ms", True),
    ("tpot_p50_ms", "ms", True),
    ("tpot_p99_ms", "ms", True),
    ("output_tokens_per_s", "tok/s", False),
    ("requests_per_s", "req/s", False),
    ("error_rate", "", True),
    ("gpu_memory_peak_bytes", "B", True),
    ("kv_cache_usage_peak", "", True),
)


class HistoryError(ValueError):
    """A history operation the user asked for cannot be done (unknown run, run still running, bad file)."""


class RunSummary(BaseModel):
    """One row of the history list (``advisor history --json``)."""

    run_id: str
    label: str = ""
    status: str = Field(description="one of STATUSES (derived; see the module docstring)")
    stored_status: str = Field(description="what the store says: running, completed, cancelled, failed, …")
    status_reason: str = ""
    created_wall: float
    created: str = Field(description="local date and time, YYYY-MM-DD HH:MM")
    finished_wall: float | None = None
    duration_s: float | None = None
    host: str | None = None
    url: str = ""
    model: str = ""
    api: str | None = None
    simulated: bool = Field(False, description="the target was the embedded simulated server")
    gpu: str | None = Field(None, description="GPU name(s) seen by telemetry during the run, if any")
    shape: str | None = Field(None, description="single | fixed | ramp | soak | rate")
    levels: list[int] = Field(default_factory=list, description="concurrency of each stored step")
    prompt_tokens: float | None = None
    output_tokens: float | None = None
    requests: int = 0
    requests_ok: int = 0
    requests_failed: int = 0
    requests_cancelled: int = 0
    steps: int = 0
    knee_concurrency: int | None = None
    knee_reason: str | None = None
    knee_message: str = ""
    peak_output_tokens_per_s: float | None = Field(
        None, description="at the simulated GPU's real speed for a time-scaled simulator run (see time_scale)"
    )
    time_scale: float | None = Field(
        None, description="the simulated server's time scale the run ran at (1: real time; None: a real server, or "
        "not recorded); speeds here are converted to real speed",
    )
    imported_from: str | None = None
    project_id: str | None = Field(None, description="the project the run was started from (project_key); None: none")


def project_key(path: str | Path) -> str:
    """The id a project's runs are stored under: its file's absolute path (``advisor bench --project FILE``,
    the app with that project open). Runs stored before projects were linked have none."""
    return "file:" + str(Path(path).expanduser().resolve())


def project_name(project_id: str | None) -> str:
    """A project's short name for a list: its file name without ``.advisor.json`` ('' for no project)."""
    if not project_id:
        return ""
    name = Path(project_id.removeprefix("file:")).name
    for suffix in (".advisor.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)] or name
    return name


@dataclass
class RunFilter:
    """All set fields must match. ``text`` (words, all must match) searches id, label, model, URL, GPU, host,
    status, load shape and date."""

    text: str = ""
    model: str = ""
    target: str = ""
    gpu: str = ""
    status: str = ""
    shape: str = ""
    since: str = ""  # YYYY-MM-DD (inclusive)
    until: str = ""  # YYYY-MM-DD (inclusive)
    project: str = ""  # a project_key: only that project's runs

    @classmethod
    def parse(cls, specs: Iterable[str]) -> RunFilter:
        """From ``key=value`` strings (``advisor history --filter model=qwen --filter status=failed``);
        a bare word is a search text."""
        flt = cls()
        for spec in specs:
            key, sep, value = spec.partition("=")
            key = key.strip().lower()
            if not sep:
                flt.text = (flt.text + " " + spec).strip()
                continue
            if key not in ("text", "model", "target", "gpu", "status", "shape", "since", "until"):
                raise HistoryError(tr("history.error.bad_filter_key", key=key,
                                      keys="text, model, target, gpu, status, shape, since, until"))
            setattr(flt, key, value.strip())
        flt.validate()
        return flt

    def validate(self) -> None:
        if self.status and self.status not in STATUSES:
            raise HistoryError(tr("history.error.bad_status", value=self.status, statuses=", ".join(STATUSES)))
        if self.shape and self.shape not in SHAPES:
            raise HistoryError(tr("history.error.bad_shape", value=self.shape, shapes=", ".join(SHAPES)))
        for name in ("since", "until"):
            value = getattr(self, name)
            if value:
                try:
                    time.strptime(value, "%Y-%m-%d")
                except ValueError:
                    raise HistoryError(tr("history.error.bad_date", field=name, value=value)) from None

    def matches(self, s: RunSummary) -> bool:
        def has(needle: str, *hay: str | None) -> bool:
            needle = needle.lower()
            return any(needle in (h or "").lower() for h in hay)

        if self.model and not has(self.model, s.model):
            return False
        if self.target and not has(self.target, s.url, "simulated" if s.simulated else "", s.host):
            return False
        if self.gpu and not has(self.gpu, s.gpu):
            return False
        if self.project and s.project_id != self.project:
            return False
        if self.status and s.status != self.status:
            return False
        if self.shape and s.shape != self.shape:
            return False
        day = s.created[:10]
        if self.since and day < self.since:
            return False
        if self.until and day > self.until:
            return False
        if self.text:
            for word in self.text.split():
                if not has(word, s.run_id, s.label, s.model, s.url, s.gpu, s.host, s.status, s.shape, s.created,
                           "simulated" if s.simulated else ""):
                    return False
        return True


def _table_exists(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _loads(text: str | None) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _incomplete(info: Any) -> bool:
    """The runner's ``incomplete`` report: something measured did not reach the database."""
    if not info:
        return False
    if isinstance(info, dict):
        keys = ("records_lost", "steps_lost", "records_not_in_db", "steps_not_in_db", "result_not_in_db")
        return any((info.get(k) or 0) > 0 for k in keys)
    return True


def derive_status(stored: str, *, ok: int, failed: int, max_error_rate: float, result: dict[str, Any] | None,
                  steps: int) -> tuple[str, str]:
    """The status a user sees, and why (see the module docstring). Never more optimistic than the store."""
    if stored == "running":
        return "running", tr("history.reason.running")
    if stored == "interrupted":
        return "interrupted", tr("history.reason.interrupted")
    if stored in ("cancelled", "stopped"):
        if ok == 0 and failed > 0:
            return "failed", tr("history.reason.all_failed", failed=failed)
        return "stopped", tr("history.reason.stopped")
    if stored == "failed" or ok == 0:
        if ok == 0 and failed:
            return "failed", tr("history.reason.all_failed", failed=failed)
        if ok == 0 and stored != "failed":
            return "failed", tr("history.reason.nothing_measured")
        return "failed", tr("history.reason.stored_failed")
    if result is None or _incomplete(result.get("incomplete")) or (ok + failed and steps == 0):
        return "incomplete", tr("history.reason.not_stored")
    if stored == "degraded":
        steps_list = [st for st in (result.get("steps") or []) if isinstance(st, dict)]
        short = [str(st.get("concurrency")) for st in steps_list if st.get("concurrency_shortfall")]
        bad = [str(st.get("concurrency")) for st in steps_list
               if st.get("status") in ("degraded", "failed") and not st.get("concurrency_shortfall")]
        if short and not bad:
            return "degraded", tr("history.reason.shortfall", levels=", ".join(short))
        return "degraded", tr("history.reason.degraded")
    if stored == "incomplete":
        return stored, tr("history.reason.incomplete")
    judged_by_runner = any("status" in s for s in (result.get("steps") or []) if isinstance(s, dict))
    rate = failed / max(1, ok + failed)
    if not judged_by_runner and rate > max_error_rate:  # runs stored before the runner judged its steps
        return "degraded", tr("history.reason.error_rate", rate=round(rate * 100, 1),
                              limit=round(max_error_rate * 100, 1))
    if failed:
        last = (result.get("steps") or [None])[-1]
        if isinstance(last, dict) and last.get("stop_reason") == "error_rate":  # a ramp that found its limit: say so
            return "completed", tr("history.reason.limit_found", concurrency=last.get("concurrency"),
                                   step_failed=last.get("requests_failed") or 0, failed=failed)  # fmt: skip
        return "completed", tr("history.reason.completed_with_failures", failed=failed)
    return "completed", tr("history.reason.completed")


class RunHistory:
    """The history of one benchmark database (default: the user's). Close it when done."""

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        """``read_only``: listing, showing, exporting and comparing write nothing (not even the marking of
        dead runs as interrupted, or the import of a journal: the next store opened for writing does those)."""
        self.store = BenchStore(path, read_only=read_only)
        self.path = self.store.path
        self.read_only = read_only

    def close(self) -> None:
        self.store.connection.close()

    def __enter__(self) -> RunHistory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- listing -------------------------------------------------------------------------------------
    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.store._lock:  # the store's reading connection is shared with its own reads
            return self.store.connection.execute(sql, args).fetchall()

    def list(self, flt: RunFilter | None = None) -> list[RunSummary]:
        """Every stored run, newest first, with the filter applied."""
        self.store.mark_interrupted()  # runs of dead processes become interrupted (read-only: shown so, below)
        dead = self.store.dead_runs()
        journals = self.store.pending_journals()
        rows = self._query(
            "SELECT run_id, label, status, created_wall, finished_wall, host, url, model, config_json, result_json,"
            " project_id FROM runs ORDER BY created_wall DESC")
        counts: dict[str, dict[str, int]] = {}
        for run_id, outcome, n in self._query(
                "SELECT run_id, outcome, COUNT(*) FROM requests WHERE warmup = 0 GROUP BY run_id, outcome"):
            counts.setdefault(run_id, {})[outcome] = n
        steps: dict[str, list[tuple[int, str]]] = {}
        for run_id, conc, summary in self._query(
                "SELECT run_id, concurrency, summary_json FROM steps ORDER BY run_id, step"):
            steps.setdefault(run_id, []).append((conc, summary))
        gpus = self._gpu_names()
        imported = {k.removeprefix("imported:"): v for k, v in self._query(
            "SELECT key, value FROM meta WHERE key LIKE 'imported:%'")}
        for key, value in self._query("SELECT key, value FROM meta WHERE key LIKE 'gpu:%'"):
            info = _loads(value) or {}
            gpus.setdefault(key.removeprefix("gpu:"), (str(info.get("name") or "GPU"), bool(info.get("simulated"))))
        out = [self._summary(row, counts.get(row[0], {}), steps.get(row[0], []), gpus.get(row[0]),
                             imported.get(row[0]), dead=row[0] in dead, journal=journals.get(row[0]))
               for row in rows]
        if flt is not None:
            flt.validate()
            out = [s for s in out if flt.matches(s)]
        return out

    def _gpu_names(self, run_id: str | None = None) -> dict[str, tuple[str, bool]]:
        if not _table_exists(self.store.connection, "gpu_samples"):
            return {}
        sql = ("SELECT run_id, json_extract(data, '$.name'), MAX(simulated), COUNT(DISTINCT device_index)"
               " FROM gpu_samples")
        args: tuple[Any, ...] = ()
        if run_id is not None:
            sql += " WHERE run_id = ?"
            args = (run_id,)
        sql += " GROUP BY run_id, json_extract(data, '$.name')"
        names: dict[str, list[tuple[str, bool]]] = {}
        for rid, name, simulated, devices in self._query(sql, args):
            label = f"{devices} × {name or 'GPU'}" if devices and devices > 1 else (name or "GPU")
            names.setdefault(rid, []).append((label, bool(simulated)))
        return {rid: (", ".join(n for n, _ in items), any(s for _, s in items)) for rid, items in names.items()}

    def _summary(self, row: tuple[Any, ...], counts: dict[str, int], steps: list[tuple[int, str]],
                 gpu: tuple[str, bool] | None, imported: str | None = None, *, dead: bool = False,
                 journal: Path | None = None) -> RunSummary:
        run_id, label, stored, created, finished, host, url, model, config_json, result_json, project_id = row
        config = _loads(config_json) or {}
        result = _loads(result_json)
        schedule = config.get("schedule") or {}
        workload = config.get("workload") or {}
        slo = config.get("slo") or {}
        ok = counts.get("ok", 0)
        cancelled = counts.get("cancelled", 0)
        failed = sum(n for k, n in counts.items() if k not in ("ok", "cancelled"))
        parsed: list[StepSummary] = []
        for _conc, text in steps:
            try:
                parsed.append(StepSummary.model_validate_json(text))
            except ValueError:
                continue
        status, reason = derive_status(
            stored, ok=ok, failed=failed, max_error_rate=float(slo.get("max_error_rate", 0.05) or 0.0),
            result=result if isinstance(result, dict) else None, steps=len(parsed))
        if dead and stored == "running":  # its process is gone; a read-only listing does not mark it
            status, reason = "interrupted", tr("history.reason.interrupted_unmarked")
        if journal is not None:  # part of what it measured waits in a journal the next write imports
            reason = f"{reason} {tr('history.reason.pending_journal', path=str(journal))}"
        knee = (result or {}).get("knee") if isinstance(result, dict) else None
        if not knee and len(parsed) >= 2 and schedule.get("kind") in ("ramp", "fixed"):
            knee = metrics.find_knee(parsed).model_dump(mode="json")
        knee = knee or {}
        dialect = (result or {}).get("dialect") if isinstance(result, dict) else None
        scale = time_scale_of(result if isinstance(result, dict) else None, config, label or "")
        simulated = bool(dialect == "simulated" or (gpu and gpu[1]) or scale is not None)
        peak = max((s.output_tokens_per_s for s in parsed), default=None)
        return RunSummary(
            run_id=run_id, label=label or "", status=status, stored_status=stored, status_reason=reason,
            created_wall=created, created=time.strftime("%Y-%m-%d %H:%M", time.localtime(created)),
            finished_wall=finished, duration_s=(finished - created) if finished else None, host=host,
            url=url or "", model=model or "", api=(config.get("endpoint") or {}).get("api"), simulated=simulated,
            gpu=(gpu[0] + (" (simulated)" if gpu[1] else "")) if gpu else None, shape=schedule.get("kind"),
            levels=[s.concurrency for s in parsed],
            prompt_tokens=(workload.get("prompt_tokens") or {}).get("mean"),
            output_tokens=(workload.get("output_tokens") or {}).get("mean"),
            requests=ok + failed + cancelled, requests_ok=ok, requests_failed=failed, requests_cancelled=cancelled,
            steps=len(parsed), knee_concurrency=knee.get("concurrency"), knee_reason=knee.get("reason"),
            knee_message=knee.get("message") or "",
            peak_output_tokens_per_s=peak * scale if peak is not None and scale else peak, time_scale=scale,
            imported_from=imported, project_id=project_id,
        )

    def summary(self, run_id: str) -> RunSummary:
        for s in self.list():
            if s.run_id == run_id:
                return s
        raise HistoryError(tr("history.error.unknown_run", run_id=run_id))

    def resolve(self, run_id: str) -> str:
        """A full run id from a unique prefix (ids are long; users type the start)."""
        ids = [r[0] for r in self._query("SELECT run_id FROM runs WHERE run_id LIKE ? || '%'", (run_id,))]
        if run_id in ids:
            return run_id
        if len(ids) == 1:
            return ids[0]
        if not ids:
            raise HistoryError(tr("history.error.unknown_run", run_id=run_id))
        raise HistoryError(tr("history.error.ambiguous_run", run_id=run_id, count=len(ids)))

    # ---- one run -------------------------------------------------------------------------------------
    def detail(self, run_id: str) -> dict[str, Any]:
        """Everything a result view shows: summary, the stored result and config, steps, GPU memory per step."""
        run_id = self.resolve(run_id)
        run = self.store.run(run_id)
        assert run is not None
        steps = self.store.steps(run_id)
        memory = self.step_memory(run_id, steps)
        return {
            "summary": self.summary(run_id).model_dump(mode="json"),
            "config": run["config"],
            "result": run["result"],
            "steps": [s.model_dump(mode="json") for s in steps],
            "step_memory": memory,
            "quality": self.quality([run_id]),
        }

    def steps(self, run_id: str) -> list[StepSummary]:
        return self.store.steps(self.resolve(run_id))

    def records(self, run_id: str) -> list[RequestRecord]:
        return self.store.records(self.resolve(run_id))

    def step_memory(self, run_id: str, steps: Sequence[StepSummary] | None = None) -> list[dict[str, Any]]:
        """Per step: peak GPU memory used (summed over devices) and peak KV-cache usage, from telemetry.

        A step shorter than the sampling period may hold no sample: then the sample nearest to it (at most 2 s
        away) stands in, and ``nearest_sample`` says so."""
        steps = self.store.steps(run_id) if steps is None else steps
        conn = self.store.connection
        has_gpu = _table_exists(conn, "gpu_samples")
        has_server = _table_exists(conn, "server_samples")
        out = []
        for s in steps:
            entry: dict[str, Any] = {"step": s.step, "concurrency": s.concurrency, "gpu_memory_peak_bytes": None,
                                     "gpu_memory_total_bytes": None, "kv_cache_usage_peak": None, "simulated": False,
                                     "nearest_sample": False}
            lo, hi = s.window_start_s, s.window_end_s
            if lo is not None and hi is not None:
                if has_gpu:
                    rows = self._query(
                        "SELECT device_index, MAX(memory_used_bytes), MAX(memory_total_bytes), MAX(simulated)"
                        " FROM gpu_samples WHERE run_id = ? AND t_s >= ? AND t_s <= ? AND memory_used_bytes IS NOT NULL"
                        " GROUP BY device_index", (run_id, lo, hi))
                    if not rows:  # a step shorter than the sampling period: the sample nearest to it
                        rows = self._nearest(
                            "SELECT device_index, memory_used_bytes, memory_total_bytes, simulated, t_s FROM gpu_samples"
                            " WHERE run_id = ? AND t_s >= ? AND t_s <= ? AND memory_used_bytes IS NOT NULL",
                            run_id, lo, hi)
                        entry["nearest_sample"] = bool(rows)
                    if rows:
                        entry["gpu_memory_peak_bytes"] = sum(r[1] or 0 for r in rows)
                        entry["gpu_memory_total_bytes"] = sum(r[2] or 0 for r in rows) or None
                        entry["simulated"] = any(r[3] for r in rows)
                if has_server:
                    row = self._query("SELECT MAX(kv_cache_usage), MAX(simulated) FROM server_samples WHERE run_id = ?"
                                      " AND t_s >= ? AND t_s <= ?", (run_id, lo, hi))
                    if not row or row[0][0] is None:
                        near = self._nearest(
                            "SELECT url, kv_cache_usage, simulated, t_s FROM server_samples WHERE run_id = ?"
                            " AND t_s >= ? AND t_s <= ? AND kv_cache_usage IS NOT NULL", run_id, lo, hi)
                        row = [(max(r[1] for r in near), max(r[2] for r in near))] if near else None
                    if row and row[0][0] is not None:
                        entry["kv_cache_usage_peak"] = row[0][0]
                        entry["simulated"] = entry["simulated"] or bool(row[0][1])
            out.append(entry)
        imported = self._meta(f"step_memory:{run_id}")
        if imported and not any(e["gpu_memory_peak_bytes"] or e["kv_cache_usage_peak"] for e in out):
            by_step = {m.get("step"): m for m in imported if isinstance(m, dict)}
            for entry in out:  # the run came from another machine: its samples stayed there, its figures came along
                m = by_step.get(entry["step"]) or {}
                for key in ("gpu_memory_peak_bytes", "gpu_memory_total_bytes", "kv_cache_usage_peak", "simulated",
                            "nearest_sample"):
                    if m.get(key) is not None:
                        entry[key] = m[key]
        return out

    def _nearest(self, sql: str, run_id: str, lo: float, hi: float, reach_s: float = 2.0) -> list[tuple[Any, ...]]:
        """Per source (first column), the sample nearest to the window [lo, hi], at most ``reach_s`` outside it;
        ``sql`` selects the source first and the time last, filtered by run id and a time range."""
        mid = (lo + hi) / 2
        best: dict[Any, tuple[Any, ...]] = {}
        for r in self._query(sql, (run_id, lo - reach_s, hi + reach_s)):
            if r[0] not in best or abs(r[-1] - mid) < abs(best[r[0]][-1] - mid):
                best[r[0]] = r
        return list(best.values())

    def _meta(self, key: str) -> Any:
        row = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return _loads(row[0][0]) if row else None

    # ---- delete / export / import --------------------------------------------------------------------
    def adopt_runs(self, project_id: str, *, since_wall: float, pid: int | None = None) -> list[str]:
        """Link to ``project_id`` the runs with no project that this process (``pid``, default: this one) on this
        host started at or after ``since_wall``: what an unsaved project measured, when it is first saved.
        Runs of other processes (``advisor bench`` in a terminal), imported runs and other projects' runs keep
        their link. Returns the ids linked, oldest first."""
        import os
        import socket

        conn = connect(self.path)
        try:
            with conn:
                ids = [r[0] for r in conn.execute(
                    "SELECT run_id FROM runs WHERE project_id IS NULL AND pid = ? AND host = ? AND created_wall >= ?"
                    " ORDER BY created_wall", (os.getpid() if pid is None else pid, socket.gethostname(), since_wall))]
                conn.executemany("UPDATE runs SET project_id = ? WHERE run_id = ? AND project_id IS NULL",
                                 [(project_id, run_id) for run_id in ids])
        finally:
            conn.close()
        return ids

    def delete(self, run_id: str) -> str:
        """Delete a run and its requests, steps and telemetry in one transaction. Returns the full id."""
        run_id = self.resolve(run_id)
        if self.summary(run_id).status == "running":
            raise HistoryError(tr("history.error.delete_running", run_id=run_id))
        conn = connect(self.path)
        try:
            with conn:
                for table in ("requests", "steps", "gpu_samples", "server_samples"):
                    if _table_exists(conn, table):
                        conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))  # noqa: S608 - fixed names
                conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
                conn.execute("DELETE FROM meta WHERE key IN (?, ?, ?)",
                             ("imported:" + run_id, "step_memory:" + run_id, "gpu:" + run_id))
        finally:
            conn.close()
        return run_id

    def export(self, run_id: str, fmt: str = "json") -> str:
        run_id = self.resolve(run_id)
        if fmt == "csv":
            return self.store.export_csv(run_id)
        if fmt != "json":
            raise HistoryError(tr("history.error.bad_format", value=fmt))
        data = json.loads(self.store.export_json(run_id))
        data["summary"] = self.summary(run_id).model_dump(mode="json")
        data["step_memory"] = self.step_memory(run_id)
        return json.dumps(data, ensure_ascii=False, indent=2)

    def export_to(self, run_id: str, path: str | Path) -> str:
        """Write JSON or CSV (by the file's suffix) atomically; returns the full run id."""
        suffix = Path(path).suffix.lower()
        if suffix not in (".json", ".csv"):
            raise HistoryError(tr("history.error.bad_suffix", path=str(path)))
        run_id = self.resolve(run_id)
        write_text_atomic(path, self.export(run_id, suffix[1:]))
        return run_id

    def import_json(self, text: str | bytes, *, source: str = "") -> str:
        """Add a run exported by :meth:`export` (or ``advisor bench --export``) on another machine.

        The run keeps its id, host, times, steps and requests; a run already present is refused.
        """
        from advisor.safe_json import JsonInputError, loads

        try:
            data = loads(text, source=source or "the import")  # bounded: size, depth, NaN, huge numbers
        except JsonInputError as exc:
            raise HistoryError(str(exc)) from None
        try:
            run_id = data["run_id"]
            config = data["config"]
            steps = [StepSummary.model_validate(s) for s in data.get("steps") or []]
            records = [RequestRecord.model_validate(r) for r in data.get("requests") or []]
        except (ValueError, KeyError, TypeError) as exc:
            raise HistoryError(tr("history.error.bad_import", error=str(exc)[:200])) from None
        if self._query("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)):
            raise HistoryError(tr("history.error.already_there", run_id=run_id))
        status = data.get("status") or "completed"
        if status == "running":
            status = "interrupted"  # its process is on another machine: never shown as live
        conn = connect(self.path)
        try:
            with conn:
                conn.execute(
                    "INSERT INTO runs(run_id, label, status, created_wall, anchor_monotonic, anchor_wall, finished_wall,"
                    " pid, host, url, model, config_json, result_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (run_id, data.get("label") or "", status, data.get("created_wall") or time.time(),
                     data.get("anchor_monotonic") or 0.0, data.get("anchor_wall") or 0.0, data.get("finished_wall"),
                     None, (data.get("summary") or {}).get("host") or "imported", data.get("url") or "",
                     data.get("model") or "", json.dumps(config, ensure_ascii=False),
                     json.dumps(data["result"], ensure_ascii=False) if data.get("result") else None))
                meta = [("imported:" + run_id, source or "file")]
                if isinstance(data.get("step_memory"), list):
                    meta.append(("step_memory:" + run_id, json.dumps(data["step_memory"])))
                gpu = (data.get("summary") or {}).get("gpu")
                if gpu:
                    simulated = gpu.endswith(" (simulated)")
                    meta.append(("gpu:" + run_id, json.dumps({"name": gpu.removesuffix(" (simulated)"),
                                                              "simulated": simulated})))
                conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", meta)
                conn.executemany("INSERT INTO steps VALUES (?,?,?,?)",
                                 [(run_id, s.step, s.concurrency, s.model_dump_json()) for s in steps])
                conn.executemany(
                    "INSERT INTO requests VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    [(run_id, r.seq, r.step, r.concurrency, int(r.warmup), r.outcome, r.error_class, r.t_start,
                      r.ttft_ms, r.tpot_ms, r.e2e_ms, r.output_tokens, r.model_dump_json()) for r in records])
        finally:
            conn.close()
        return run_id

    def import_database(self, path: str | Path) -> list[str]:
        """Every run of another benchmark database (e.g. copied from a GPU server) that is not here yet,
        with its GPU memory and KV-cache figures per step. Returns the ids imported."""
        src = Path(path)
        if not src.is_file():
            raise HistoryError(tr("history.cli.bad_file", path=str(src), error="not a file"))
        if src.resolve() == Path(self.path).resolve():
            raise HistoryError(tr("history.error.same_database", path=str(src)))
        import tempfile

        from advisor.bench.store import NewerDatabaseError, check_schema, open_read_only

        # The source is only ever read: copied through a read-only connection into a scratch database, and the
        # copy (not the source) is brought up to this schema. A read-only source works; a newer one is refused.
        scratch = tempfile.TemporaryDirectory(prefix="advisor-import-")
        try:
            check_schema(src)
            copy = Path(scratch.name) / "source.sqlite3"
            reader = open_read_only(src)
            try:
                writer = sqlite3.connect(copy)
                reader.backup(writer)
                writer.close()
            finally:
                reader.close()
            other = RunHistory(copy)
        except NewerDatabaseError as exc:
            scratch.cleanup()
            raise HistoryError(str(exc)) from None
        except sqlite3.DatabaseError as exc:
            scratch.cleanup()
            raise HistoryError(tr("history.error.bad_database_import", path=str(src), error=str(exc))) from None
        done = []
        try:
            here = {r[0] for r in self._query("SELECT run_id FROM runs")}
            for summary in other.list():
                if summary.run_id in here or summary.status == "running":
                    continue
                done.append(self.import_json(other.export(summary.run_id), source=src.name))
        finally:
            other.close()
            scratch.cleanup()
        return done

    # ---- compare -------------------------------------------------------------------------------------
    def compare(self, run_ids: Sequence[str]) -> dict[str, Any]:
        """2–4 runs on the same axes. See :func:`compare_runs` for the shape of the answer."""
        if not 2 <= len(run_ids) <= 4:
            raise HistoryError(tr("history.error.compare_count", count=len(run_ids)))
        ids = [self.resolve(r) for r in run_ids]
        if len(set(ids)) != len(ids):
            raise HistoryError(tr("history.error.compare_twice"))
        runs = []
        for rid in ids:
            run = self.store.run(rid)
            assert run is not None
            steps = self.store.steps(rid)
            runs.append({"summary": self.summary(rid), "config": run["config"], "steps": steps,
                         "memory": self.step_memory(rid, steps)})
        out = compare_runs(runs)
        out["quality"] = self.quality(ids)
        return out

    def quality(self, run_ids: Sequence[str]) -> list[dict[str, Any]]:
        """Scored quantization A/Bs stored with any of these runs (advisor.bench.quality.history)."""
        from advisor.bench.quality.history import quality_for_runs

        with self.store._lock:
            return quality_for_runs(self.store.connection, list(run_ids))


def _step_values(step: StepSummary, memory: dict[str, Any] | None, scale: float | None = None) -> dict[str, float | None]:
    # A degraded step (failures above the run's limit, a server that stopped answering, a concurrency shortfall)
    # did not measure its load: its few answers must not read as "faster" beside a run that held up. Its error
    # rate is still compared. A time-scaled simulator run is compared at the simulated GPU's real speed.
    if scale and scale != 1.0:
        step = StepSummary.model_validate(step_at_real_speed(step.model_dump(mode="json"), scale))
    measured = step.requests_ok > 0 and step.status == "ok"
    return {
        "ttft_p50_ms": step.ttft_ms.p50 if measured else None,
        "ttft_p99_ms": step.ttft_ms.p99 if measured else None,
        "tpot_p50_ms": step.tpot_ms.p50 if measured else None,
        "tpot_p99_ms": step.tpot_ms.p99 if measured else None,
        "output_tokens_per_s": step.output_tokens_per_s if measured else None,
        "requests_per_s": step.requests_per_s if measured else None,
        "error_rate": step.error_rate,
        "gpu_memory_peak_bytes": (memory or {}).get("gpu_memory_peak_bytes"),
        "kv_cache_usage_peak": (memory or {}).get("kv_cache_usage_peak"),
    }


def _change(base: float | None, value: float | None) -> float | None:
    if base is None or value is None or base == 0:
        return None
    return (value - base) / abs(base)


def compare_runs(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Align runs by concurrency. Each input: ``summary`` (RunSummary), ``config``, ``steps``, ``memory``.

    Returns ``runs`` (summaries), ``levels`` (union of concurrencies), ``series`` (per run, per metric, one
    value or None per level), ``differences`` (rows: ``metric``, ``concurrency`` (None for whole-run rows),
    ``values`` per run, ``change`` vs the first run as a fraction, ``best`` index) and ``notes`` (why a
    comparison may be unfair: different workloads, APIs, shapes; missing telemetry).
    """
    levels = sorted({s.concurrency for r in runs for s in r["steps"] if s.step >= 0})
    series: list[dict[str, list[float | None]]] = []
    for r in runs:
        by_conc: dict[int, dict[str, float | None]] = {}
        mem = {m["step"]: m for m in r["memory"]}
        for s in sorted(r["steps"], key=lambda s: s.step):
            # a repeated level: the later step
            by_conc[s.concurrency] = _step_values(s, mem.get(s.step), r["summary"].time_scale)
        series.append({key: [by_conc.get(c, {}).get(key) for c in levels] for key, _u, _b in COMPARE_METRICS})
    differences: list[dict[str, Any]] = []

    def row(metric: str, concurrency: int | None, values: list[Any], lower_better: bool | None) -> None:
        base = values[0]
        numeric = [v for v in values if isinstance(v, int | float)]
        best = None
        if ranked and lower_better is not None and len(numeric) >= 2 and len(set(numeric)) > 1:
            target = min(numeric) if lower_better else max(numeric)
            best = values.index(target)
        differences.append({
            "metric": metric, "concurrency": concurrency, "values": values,
            "change": [None if i == 0 or not isinstance(v, int | float) or not isinstance(base, int | float)
                       else _change(base, v) for i, v in enumerate(values)],
            "best": best,
        })

    summaries: list[RunSummary] = [r["summary"] for r in runs]
    # Runs of different provenance are shown side by side but never ranked: a simulated run against a real one,
    # runs at different simulator time scales, or on different GPUs or models measure different things.
    # An unrecorded value (None) is not known to differ; two recorded values that differ are.
    ranked = len({s.simulated for s in summaries}) == 1 and all(
        len({v for s in summaries if (v := getattr(s, key)) is not None}) <= 1 for key in ("time_scale", "gpu", "model"))
    row("status", None, [s.status for s in summaries], None)
    row("knee_concurrency", None, [s.knee_concurrency for s in summaries], False)
    row("peak_output_tokens_per_s", None, [s.peak_output_tokens_per_s for s in summaries], False)
    peaks = [max((m["gpu_memory_peak_bytes"] for m in r["memory"] if m["gpu_memory_peak_bytes"]), default=None)
             for r in runs]
    row("gpu_memory_peak_bytes", None, peaks, True)
    shared = [i for i, c in enumerate(levels) if all(ser["ttft_p50_ms"][i] is not None or
                                                      ser["output_tokens_per_s"][i] is not None for ser in series)]
    for i in shared:
        for key, _unit, lower in COMPARE_METRICS:
            values = [ser[key][i] for ser in series]
            if all(v is None for v in values):
                continue
            row(key, levels[i], values, lower)
    notes: list[str] = []

    def differs(getter: Any, key: str) -> None:
        vals = [getter(r) for r in runs]
        if len({json.dumps(v, sort_keys=True, default=str) for v in vals}) > 1:
            shown = ["-" if v is None else (f"{v:g}" if isinstance(v, float) else str(v)) for v in vals]
            notes.append(tr(f"history.compare.note.{key}", values=" / ".join(shown)))

    differs(lambda r: ((r["config"].get("workload") or {}).get("prompt_tokens") or {}).get("mean"), "prompt_tokens")
    differs(lambda r: ((r["config"].get("workload") or {}).get("output_tokens") or {}).get("mean"), "output_tokens")
    differs(lambda r: (r["config"].get("workload") or {}).get("dataset"), "dataset")
    differs(lambda r: (r["config"].get("endpoint") or {}).get("api"), "api")
    differs(lambda r: r["summary"].shape, "shape")
    if not shared:
        notes.append(tr("history.compare.note.no_shared_levels"))
    missing = [s.run_id for s, p in zip(summaries, peaks, strict=True) if p is None]
    if missing and len(missing) < len(runs):
        notes.append(tr("history.compare.note.no_memory", runs=", ".join(missing)))
    if any(s.simulated for s in summaries):
        notes.append(tr("history.compare.note.simulated"))
    differs(lambda r: r["summary"].time_scale, "time_scale")
    differs(lambda r: r["summary"].gpu, "gpu")
    differs(lambda r: r["summary"].model, "model")
    if any(s.time_scale not in (None, 1.0) for s in summaries):
        notes.append(tr("history.compare.note.real_speed"))
    if not ranked:
        notes.append(tr("history.compare.note.not_ranked"))
    for s in summaries:
        if s.status in ("failed", "degraded", "incomplete", "interrupted"):
            notes.append(tr("history.compare.note.status", run_id=s.run_id, status=tr(f"history.status.{s.status}")))
    for s, r in zip(summaries, runs, strict=True):
        skipped = sorted({st.concurrency for st in r["steps"] if st.requests_ok > 0 and st.status != "ok"})
        if skipped:
            notes.append(tr("history.compare.note.steps_not_compared", run_id=s.run_id,
                            levels=", ".join(str(c) for c in skipped)))  # fmt: skip
    return {
        "runs": [s.model_dump(mode="json") for s in summaries],
        "levels": levels,
        "metrics": [{"key": k, "unit": u, "lower_is_better": b} for k, u, b in COMPARE_METRICS],
        "series": series,
        "differences": differences,
        "notes": notes,
    }
