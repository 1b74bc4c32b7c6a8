"""Benchmark history over a real SQLite file, filled by real runs over loopback HTTP against the simulated server:
one run made in-process (as the app does), one by the `advisor bench` command line in a subprocess, one against a
closed port (every request fails), one stopped by the user, and one imported from another database."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bench.history import HistoryError, RunFilter, RunHistory, derive_status
from advisor.bench.runner import Runner
from advisor.bench.store import BenchStore
from advisor.cancel import CancelToken
from advisor.cli import main as cli_main
from advisor.domain.bench import BenchConfig
from advisor.sim.launcher import SimLauncher, SimLaunchSpec

ROOT = Path(__file__).resolve().parents[2]
MODEL = "qwen2.5-3b"


def _config(url, levels, *, prompt=64, output=16, requests=6, model=MODEL, label=""):
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": model, "timeout_s": 20, "read_timeout_s": 10},
        "workload": {"prompt_tokens": {"mean": prompt}, "output_tokens": {"mean": output}},
        "schedule": {"kind": "fixed", "concurrency": levels, "requests": requests, "warmup_requests": 0},
        "label": label,
    })


def _run(db, config, cancel=None, on_event=None, metrics_url=None):
    """One run into ``db``; with ``metrics_url``, the server's /metrics is sampled into the run (as the app does)."""
    from advisor.bench.run_telemetry import RunTelemetry

    store = BenchStore(db)
    telemetry = RunTelemetry(store.path, metrics_url, nvml=False).start() if metrics_url else None

    def events(ev):
        if telemetry is not None and ev.kind == "run_started" and ev.data.get("run_id"):
            telemetry.bind(ev.data["run_id"])
        if on_event is not None:
            on_event(ev)

    try:
        return Runner(config, store=store, cancel=cancel, on_event=events).run()
    finally:
        if telemetry is not None:
            telemetry.stop()
        store.connection.close()


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """One database with runs from several sources (built once: it costs real seconds)."""
    tmp = tmp_path_factory.mktemp("history")
    db = tmp / "bench.sqlite3"
    other = tmp / "other.sqlite3"
    with SimLauncher(SimLaunchSpec(model=MODEL, gpu="h100-sxm-80g", weights="bf16", time_scale=0.1)) as sim:
        ids = {}
        ids["app"] = _run(db, _config(sim.base_url, [1, 2], label="from the app"))["run_id"]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        p = subprocess.run(
            [sys.executable, "-m", "advisor", "bench", "--url", sim.base_url, "--model", MODEL, "--concurrency", "1,2",
             "--requests", "6", "--prompt-tokens", "256", "--max-tokens", "16", "--warmup", "0", "--db", str(db),
             "--json", "--quiet", "--label", "from the cli"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert p.stdout, p.stderr
        ids["cli"] = json.loads(p.stdout)["run_id"]
        ids["dead"] = _run(db, _config("http://127.0.0.1:9", [1], requests=3, label="closed port"))["run_id"]
        cancel = CancelToken()

        def stop_after_two(ev):
            if ev.kind == "record" and ev.data.seq >= 1:
                cancel.cancel()

        ids["stopped"] = _run(db, _config(sim.base_url, [1], requests=200, output=64, label="stopped"),
                              cancel=cancel, on_event=stop_after_two)["run_id"]
        ids["other"] = _run(other, _config(sim.base_url, [2, 4], prompt=64, requests=12, label="elsewhere"),
                            metrics_url=sim.base_url + "/metrics")["run_id"]
    with RunHistory(other) as h:
        exported = h.export(ids["other"])
    with RunHistory(db) as h:
        assert h.import_json(exported, source="gpu-server.json") == ids["other"]
    return db, ids, other


def test_lists_runs_from_every_source_newest_first(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        runs = h.list()
    by_id = {r.run_id: r for r in runs}
    assert set(ids.values()) <= set(by_id)
    assert [r.created_wall for r in runs] == sorted((r.created_wall for r in runs), reverse=True)
    app, cli = by_id[ids["app"]], by_id[ids["cli"]]
    # completed, or degraded when the runner judged a step short of its target concurrency; never failed
    assert app.status in ("completed", "degraded") and cli.status in ("completed", "degraded")
    assert app.requests_failed == 0 and cli.requests_failed == 0
    assert app.shape == "fixed" and app.levels == [1, 2] and app.requests_ok == 12
    assert cli.label == "from the cli" and cli.prompt_tokens == 256
    # the simulated server is recognised (dialect from the probe, or its labelled GPU telemetry)
    assert cli.simulated
    assert by_id[ids["other"]].imported_from == "gpu-server.json"
    assert by_id[ids["other"]].levels == [2, 4]
    # the simulated server's DCGM-style GPU figures came along with the exported run
    assert by_id[ids["other"]].gpu.endswith("(simulated)")


def test_a_run_where_every_request_failed_is_failed_not_completed(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        dead = h.summary(ids["dead"])
    assert dead.status == "failed"
    assert dead.requests_ok == 0 and dead.requests_failed == 3
    assert "3" in dead.status_reason


def test_a_run_the_user_stopped_is_stopped_and_keeps_its_requests(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        s = h.summary(ids["stopped"])
    assert s.status == "stopped"
    assert s.requests_ok >= 2


def test_filter_and_search(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        assert [r.run_id for r in h.list(RunFilter(status="failed"))] == [ids["dead"]]
        assert ids["cli"] in {r.run_id for r in h.list(RunFilter(text="cli"))}
        assert {r.run_id for r in h.list(RunFilter(text="from the"))} == {ids["app"], ids["cli"]}
        assert {r.run_id for r in h.list(RunFilter(target="127.0.0.1:9"))} == {ids["dead"]}
        assert h.list(RunFilter(model="no-such-model")) == []
        assert len(h.list(RunFilter(until="2000-01-01"))) == 0
        assert len(h.list(RunFilter.parse(["since=2000-01-01", "shape=fixed"]))) == len(h.list())
    with pytest.raises(HistoryError, match="Unknown filter"):
        RunFilter.parse(["colour=red"])
    with pytest.raises(HistoryError, match="date like"):
        RunFilter.parse(["since=yesterday"])
    with pytest.raises(HistoryError, match="Unknown status"):
        RunFilter.parse(["status=great"])


def test_export_json_and_csv_and_refuse_other_suffixes(filled, tmp_path):
    db, ids, _other = filled
    with RunHistory(db) as h:
        h.export_to(ids["app"][:-2], tmp_path / "run.json")  # a unique prefix is enough
        with pytest.raises(HistoryError, match="type more"):
            h.export_to("2", tmp_path / "x.json")
        h.export_to(ids["app"], tmp_path / "run.csv")
        with pytest.raises(HistoryError, match=r"\.json or \.csv"):
            h.export_to(ids["app"], tmp_path / "run.txt")
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["run_id"] == ids["app"] and len(data["requests"]) == 12 and len(data["steps"]) == 2
    assert data["summary"]["status"] in ("completed", "degraded")
    rows = (tmp_path / "run.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("seq,step,concurrency") and len(rows) == 13


def test_compare_aligns_runs_by_concurrency_with_a_table_of_differences(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        c = h.compare([ids["app"], ids["cli"], ids["other"]])
        statuses = [h.summary(r).status for r in (ids["app"], ids["cli"], ids["other"])]
        with pytest.raises(HistoryError, match="2 to 4"):
            h.compare([ids["app"]])
        with pytest.raises(HistoryError, match="twice"):
            h.compare([ids["app"], ids["app"]])
    assert c["levels"] == [1, 2, 4]
    assert len(c["series"]) == 3
    app, cli, other = c["series"]
    assert app["ttft_p50_ms"][2] is None and other["ttft_p50_ms"][0] is None  # not measured there
    assert all(v is not None for v in app["output_tokens_per_s"][:2])
    rows = {(d["metric"], d["concurrency"]): d for d in c["differences"]}
    # concurrency 2 is the only level every run measured
    assert ("ttft_p50_ms", 2) in rows and ("ttft_p50_ms", 1) not in rows
    ttft = rows[("ttft_p50_ms", 2)]
    assert ttft["change"][0] is None
    assert ttft["change"][1] == pytest.approx((ttft["values"][1] - ttft["values"][0]) / ttft["values"][0])
    # the app's run recorded no provenance (not known to be simulated), the other two were seen on the simulated
    # H100: figures side by side, none ranked best, and the notes say why
    assert ttft["best"] is None and any("none is marked best" in n for n in c["notes"])
    with RunHistory(db) as h:
        same = h.compare([ids["cli"], ids["other"]])  # same simulated GPU and model: ranked
    rows2 = {(d["metric"], d["concurrency"]): d for d in same["differences"]}
    ttft2, thr = rows2[("ttft_p50_ms", 2)], rows2[("output_tokens_per_s", 2)]
    assert ttft2["best"] == ttft2["values"].index(min(ttft2["values"]))  # lower latency is better
    assert thr["best"] == thr["values"].index(max(thr["values"]))  # higher throughput is better
    # the CLI run sent 256-token prompts, the others 64: the notes say the comparison is not like for like
    assert any("Prompt lengths differ" in n for n in c["notes"])
    assert rows[("status", None)]["values"] == statuses


def test_delete_removes_the_run_and_all_its_rows_in_one_go(filled, tmp_path):
    db, ids, _other = filled
    copy = tmp_path / "copy.sqlite3"
    src = sqlite3.connect(db)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    run_id = ids["cli"]
    with RunHistory(copy) as h:
        before = len(h.list())
        assert h.delete(run_id) == run_id
        assert len(h.list()) == before - 1
        with pytest.raises(HistoryError, match="No run"):
            h.delete(run_id)
    conn = sqlite3.connect(copy)
    for table in ("runs", "requests", "steps", "gpu_samples", "server_samples"):
        exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if exists:
            assert conn.execute(f"SELECT COUNT(*) FROM {table} WHERE run_id = ?", (run_id,)).fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM requests WHERE run_id = ?", (ids["app"],)).fetchone()[0] == 12
    conn.close()


def test_import_refuses_a_second_copy_and_a_wrong_file(filled):
    db, ids, _other = filled
    with RunHistory(db) as h:
        exported = h.export(ids["other"])
        with pytest.raises(HistoryError, match="already"):
            h.import_json(exported)
        with pytest.raises(HistoryError, match="not an exported"):
            h.import_json('{"hello": 1}')


def test_cli_list_filter_compare_and_errors(filled, capsys):
    db, ids, _other = filled
    assert cli_main(["history", "--db", str(db), "--json", "--filter", "status=failed"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["run_id"] for r in rows] == [ids["dead"]] and rows[0]["status"] == "failed"
    assert cli_main(["history", "--db", str(db), "--compare", ids["app"], ids["other"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["levels"] == [1, 2, 4]
    assert cli_main(["history", "--db", str(db), "--compare", ids["app"], ids["cli"]]) == 0
    table = capsys.readouterr().out
    assert "TTFT P50" in table and "Notes:" in table and "Prompt lengths differ (64 / 256 tokens)" in table
    assert cli_main(["history", "--db", str(db)]) == 0
    assert "failed" in capsys.readouterr().out
    assert cli_main(["history", "--db", str(db), "--show", "no-such-run"]) == 2
    assert "No run no-such-run" in capsys.readouterr().err
    assert cli_main(["history", "--db", str(db), "--filter", "status=great"]) == 2


@pytest.mark.parametrize(("stored", "ok", "failed", "result", "expected"), [
    ("completed", 0, 5, {}, "failed"),
    ("completed", 0, 0, {}, "failed"),
    ("completed", 10, 0, {}, "completed"),
    ("completed", 10, 0, None, "incomplete"),
    ("completed", 10, 0, {"incomplete": {"records_lost": 2}}, "incomplete"),
    ("completed", 10, 0, {"incomplete": None}, "completed"),  # what a clean run stores
    ("completed", 10, 0, {"incomplete": {"records_lost": 0, "result_not_in_db": 1}}, "incomplete"),
    ("completed", 10, 0, {"incomplete": {"records_in_journal": 3, "records_not_in_db": 3}}, "incomplete"),
    ("completed", 8, 2, {}, "degraded"),  # a run stored before the runner judged steps: 20 % > 5 %
    ("completed", 8, 2, {"steps": [{"status": "ok"}]}, "completed"),  # the runner judged it: trusted
    ("degraded", 8, 2, {}, "degraded"),
    ("cancelled", 3, 0, {}, "stopped"),
    ("cancelled", 0, 4, {}, "failed"),
    ("interrupted", 3, 0, None, "interrupted"),
    ("failed", 0, 0, {}, "failed"),
])
def test_derived_status_is_never_more_optimistic_than_the_measurements(stored, ok, failed, result, expected):
    status, reason = derive_status(stored, ok=ok, failed=failed, max_error_rate=0.05, result=result, steps=1)
    assert status == expected and reason


def test_listing_while_a_run_is_being_written(tmp_path):
    """The store's writer thread commits while the history reads (WAL): the live run is shown running."""
    db = tmp_path / "live.sqlite3"
    store = BenchStore(db)
    store.start_run(_config("http://127.0.0.1:9", [1]).model_dump_json(), label="live", url="http://x", model="m")
    try:
        with RunHistory(db) as h:
            (s,) = h.list()
            assert s.status == "running"
            with pytest.raises(HistoryError, match="still running"):
                h.delete(s.run_id)
    finally:
        store.finish_run("cancelled")
        store.connection.close()


def test_a_run_whose_process_died_is_interrupted(tmp_path):
    db = tmp_path / "dead.sqlite3"
    code = ("import os, sys; from advisor.bench.store import BenchStore; s = BenchStore(sys.argv[1]); "
            "s.start_run('{\"schedule\": {\"kind\": \"ramp\"}}', label='killed', url='http://x', model='m'); "
            "os._exit(9)")
    subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                   timeout=60)
    with RunHistory(db) as h:
        (s,) = h.list()
        assert s.status == "interrupted" and s.stored_status == "interrupted" and s.shape == "ramp"
        assert [r.run_id for r in h.list(RunFilter(status="interrupted"))] == [s.run_id]
        assert h.delete(s.run_id) == s.run_id  # an interrupted run can be deleted


def test_import_a_whole_database_with_its_gpu_figures(filled, tmp_path):
    _db, ids, other = filled
    fresh = tmp_path / "laptop.sqlite3"
    with RunHistory(fresh) as h:
        assert h.import_database(other) == [ids["other"]]
        assert h.import_database(other) == []  # already there: nothing twice
        memory = h.step_memory(ids["other"])
        with pytest.raises(HistoryError, match="own database"):
            h.import_database(fresh)
        with pytest.raises(HistoryError, match="not a file"):
            h.import_database(tmp_path / "missing.sqlite3")
    with RunHistory(other) as h:
        assert h.step_memory(ids["other"]) == memory  # the same figures as on the machine that ran it
    assert all(m["gpu_memory_peak_bytes"] and m["simulated"] for m in memory)
    assert all(m["kv_cache_usage_peak"] is not None for m in memory)


def test_runs_are_linked_to_their_project_and_old_databases_migrate(tmp_path, capsys):
    import sqlite3 as _sqlite

    from advisor.bench.history import project_key
    from advisor.bench.store import BenchStore as _Store

    db = tmp_path / "old.sqlite3"
    old = _sqlite.connect(db)  # a v1 database: no project_id column, one run
    old.executescript("CREATE TABLE runs (run_id TEXT PRIMARY KEY, label TEXT NOT NULL DEFAULT '', status TEXT NOT NULL,"
                      " created_wall REAL NOT NULL, anchor_monotonic REAL NOT NULL, anchor_wall REAL NOT NULL,"
                      " finished_wall REAL, pid INTEGER, host TEXT, url TEXT, model TEXT, config_json TEXT NOT NULL,"
                      " result_json TEXT);"
                      "INSERT INTO runs VALUES ('old-run', '', 'completed', 1.0, 0, 1.0, 2.0, 1, 'h', 'u', 'm', '{}', NULL);")
    old.commit()
    old.close()
    store = _Store(db)
    key = project_key(tmp_path / "p.advisor.json")
    new_id = store.start_run("{}", url="http://x", model="m", project_id=key)
    store.finish_run("cancelled")
    store.connection.close()
    assert cli_main(["history", "--db", str(db), "--json"]) == 0
    rows = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"old-run", new_id}  # no row lost
    assert rows["old-run"]["project_id"] is None and rows[new_id]["project_id"] == key
    assert cli_main(["history", "--db", str(db), "--json", "--project", str(tmp_path / "p.advisor.json")]) == 0
    assert [r["run_id"] for r in json.loads(capsys.readouterr().out)] == [new_id]


def test_an_unsaved_projects_runs_join_it_when_it_is_first_saved(tmp_path):
    import time as _time

    from advisor.bench.history import project_key, project_name
    from advisor.bench.store import BenchStore as _Store

    db = tmp_path / "bench.sqlite3"
    store = _Store(db)
    before = store.start_run("{}", model="before the session")
    store.finish_run("cancelled")
    _time.sleep(0.01)
    since = _time.time()

    def run(model, project_id=None):
        s = _Store(db)
        run_id = s.start_run("{}", model=model, project_id=project_id)
        s.finish_run("cancelled")
        s.connection.close()
        return run_id

    mine = [run("untitled 1"), run("untitled 2")]
    other_project = run("other project", project_key(tmp_path / "other.advisor.json"))
    terminal = run("advisor bench in a terminal")
    store.connection.execute("UPDATE runs SET pid = ? WHERE run_id = ?", (1, terminal))  # another process
    store.connection.commit()
    store.connection.close()
    key = project_key(tmp_path / "Plan A.advisor.json")
    with RunHistory(db) as h:
        assert h.adopt_runs(key, since_wall=since) == mine
        assert h.adopt_runs(key, since_wall=since) == []  # once
        linked = {r.run_id: r.project_id for r in h.list()}
        assert [r.run_id for r in h.list(RunFilter(project=key))] == mine[::-1]
    assert linked[before] is None and linked[terminal] is None
    assert linked[other_project] == project_key(tmp_path / "other.advisor.json")
    assert project_name(key) == "Plan A" and project_name(None) == ""


def test_a_degraded_step_is_not_compared_as_if_it_had_held_up():
    # run B's server died at concurrency 4: one quick answer out of eight must not make B "faster" there
    from advisor.bench.history import RunSummary, compare_runs
    from advisor.domain.bench import Percentiles, StepSummary

    def st(i: int, c: int, ttft: float, *, ok: int = 20, status: str = "ok") -> StepSummary:
        return StepSummary(step=i, concurrency=c, requests_ok=ok, requests_failed=20 - ok if status != "ok" else 0,
                           status=status, output_tokens_per_s=100.0 * c, ttft_ms=Percentiles(count=ok, p50=ttft, p99=ttft),
                           tpot_ms=Percentiles(count=ok, p50=20.0, p99=25.0), error_rate=0.0 if status == "ok" else 0.9)

    def run(rid: str, steps: list[StepSummary]) -> dict:
        summary = RunSummary(run_id=rid, status="completed", stored_status="completed", created_wall=0.0,
                             created="2026-12-03 00:00", levels=[s.concurrency for s in steps])
        return {"summary": summary, "config": {}, "steps": steps, "memory": []}

    a = run("A", [st(0, 1, 100.0), st(1, 4, 300.0)])
    b = run("B", [st(0, 1, 110.0), st(1, 4, 50.0, ok=2, status="degraded")])
    c = compare_runs([a, b])
    assert c["series"][1]["ttft_p50_ms"] == [110.0, None] and c["series"][1]["output_tokens_per_s"] == [100.0, None]
    assert c["series"][1]["error_rate"] == [0.0, 0.9]  # the failures are still there to see
    rows = {(d["metric"], d["concurrency"]): d for d in c["differences"]}
    assert ("ttft_p50_ms", 4) not in rows and rows[("ttft_p50_ms", 1)]["best"] == 0
    assert any("Run B at concurrency 4" in n and "not compared" in n for n in c["notes"])
