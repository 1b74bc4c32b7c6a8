"""``run_benchmark``: the one entry point of a benchmark run, against the real simulated server over loopback.

Typed result and one status word per outcome (completed, stopped midway, a failing server), the stored result
is the RunResult's JSON, runs stored in the old dict shapes still open, and a bad API key is refused before any
request."""

from __future__ import annotations

import json
import threading

import pytest

from advisor.bench import report
from advisor.bench.runner import Runner
from advisor.bench.session import DEFINITIONS, run_benchmark
from advisor.bench.store import BenchStore
from advisor.bench.stored_result import result_from_stored
from advisor.cancel import CancelToken
from advisor.catalog import get_gpu, get_model
from advisor.domain.bench import BenchConfig, StepSummary
from advisor.domain.run import RunResult, RunStatus, SimSetup
from advisor.redact import SecretError
from advisor.sim.costs import build_setup
from advisor.sim.faults import FaultRates
from advisor.sim.server import SimServer, SimServerConfig

MODEL, GPU, SCALE = "qwen2.5-3b", "h100-sxm-80g", 0.2


def _server(**kw):
    setup = build_setup(get_model(MODEL), get_gpu(GPU), "bf16")
    return SimServer(SimServerConfig.from_setup(setup, time_scale=SCALE, **kw))


@pytest.fixture(scope="module")
def sim():
    with _server() as srv:
        yield srv


@pytest.fixture(scope="module")
def failing_sim():
    with _server(faults=FaultRates.parse("500:1.0")) as srv:  # every chat request: HTTP 500
        yield srv


def _config(url: str, *, requests: int = 4, levels=(1, 2), label: str = "") -> BenchConfig:
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": MODEL},
        "workload": {"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": 16}},
        "schedule": {"kind": "fixed", "concurrency": list(levels), "requests": requests, "warmup_requests": 1},
        "slo": {"ttft_ms": 5000},
        "label": label,
    })


def _setup() -> SimSetup:
    return SimSetup(model=MODEL, gpu=GPU, weights="bf16", gpus=1, time_scale=SCALE)


def _stored(db, run_id):
    store = BenchStore(db)
    try:
        return store.run(run_id)
    finally:
        store.connection.close()


def test_a_completed_run_is_typed_stored_as_its_json_and_reopens_with_its_setup(sim, tmp_path):
    db = tmp_path / "b.sqlite3"
    events: list[str] = []
    store = BenchStore(db)
    try:
        result = run_benchmark(_config(sim.base_url), store=store, telemetry=None, setup=_setup(),
                               on_event=lambda ev: events.append(ev.kind))
    finally:
        store.connection.close()
    assert isinstance(result, RunResult) and result.status is RunStatus.completed and result.exit_code == 0
    assert [s.concurrency for s in result.steps] == [1, 2]
    assert all(isinstance(s, StepSummary) and s.requests_ok == 4 and s.requests_failed == 0 for s in result.steps)
    assert result.requests_ok == 8 and result.knee is not None
    # what the CLI, the app and the A/B each used to add on their own, now in every result
    assert result.probe is not None and result.probe.ok and result.dialect == "simulated"
    assert result.definitions == DEFINITIONS and result.slo is not None and result.slo.ttft_ms == 5000
    assert result.workload is not None and result.workload.prompt_token_counts in ("tokenizer", "estimate")
    assert result.simulated is True and result.setup is not None and result.setup.gpu == GPU
    assert result.setup.workload is not None  # for the predicted curve
    prov = result.provenance
    assert (prov.simulated, prov.time_scale, prov.gpu, prov.engine) == (True, SCALE, GPU, "simulated")
    assert prov.prompt_tokens_mean == 64 and prov.output_tokens_mean == 16
    assert events[0] == "probe" and "run_started" in events and events[-1] == "finished"
    # the stored result is the model's JSON, the row's status the same word
    row = _stored(db, result.run_id)
    assert row["status"] == "completed"
    assert RunResult.model_validate(row["result"]) == result
    # reopened: the setup comes from the stored result (the label is empty: nothing to parse)
    loaded = report.load_result(result.run_id, db)
    assert loaded["setup"]["gpu"] == GPU and loaded["setup"]["time_scale"] == SCALE
    assert loaded["provenance"]["time_scale"] == SCALE and loaded["status"] == "completed"


def test_stopped_midway_is_one_word_stopped_and_keeps_what_was_measured(sim, tmp_path):
    db = tmp_path / "b.sqlite3"
    cancel = CancelToken()
    seen = threading.Event()
    records: list[int] = []

    def on_event(ev):
        if ev.kind == "record" and not ev.data.warmup:
            records.append(1)
            if len(records) >= 3:
                seen.set()

    store = BenchStore(db)
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("r", run_benchmark(
        _config(sim.base_url, requests=2000, levels=(2,)), store=store, telemetry=None, cancel=cancel,
        on_event=on_event)))
    thread.start()
    try:
        assert seen.wait(60), "no request finished within 60 s"
        cancel.cancel()
        thread.join(30)
    finally:
        store.connection.close()
    assert not thread.is_alive()
    result = box["r"]
    assert result.status is RunStatus.stopped and result.exit_code == 130
    (step,) = result.steps
    assert step.requests_ok >= 3 and step.requests_ok < 2000
    assert _stored(db, result.run_id)["status"] == "stopped"


def test_a_failing_server_stops_at_the_probe_and_without_probe_fails_the_load(failing_sim, tmp_path):
    db = tmp_path / "b.sqlite3"
    store = BenchStore(db)
    try:
        probed = run_benchmark(_config(failing_sim.base_url), store=store, telemetry=None)
        unprobed = run_benchmark(_config(failing_sim.base_url, levels=(1,)), store=store, telemetry=None, probe=False)
    finally:
        store.connection.close()
    assert probed.status is RunStatus.failed and probed.stop_reason == "probe_failed" and probed.exit_code == 3
    assert probed.steps == [] and probed.error_kind == "probe" and probed.probe is not None
    assert "No load was sent" in (probed.error or "") and probed.message
    assert _stored(db, probed.run_id)["status"] == "failed"
    assert unprobed.status is RunStatus.failed and unprobed.exit_code == 4 and unprobed.probe is None
    (step,) = unprobed.steps
    assert step.requests_ok == 0 and step.requests_failed == 4 and list(step.failures) == ["http_error:http_500"]
    # without a probe our simulator still says what it is (/debug/stats): its scale is its own, never assumed
    assert unprobed.provenance.simulated is True and unprobed.provenance.time_scale == unprobed.setup.time_scale
    assert unprobed.setup.gpu == "h100-sxm-80g"


def test_a_key_that_would_inject_a_header_is_refused_before_any_request(sim):
    with pytest.raises(SecretError, match="line break"):
        run_benchmark(_config(sim.base_url), store=None, telemetry=None, api_key="sk-abc\r\nX-Evil: 1")
    with pytest.raises(SecretError, match="non-ASCII"):
        run_benchmark(_config(sim.base_url), store=None, telemetry=None, api_key="sk-ключ")


OLD_CLI_RESULT = {  # what `advisor bench` stored before RunResult (a stop: "cancelled"; no slo, setup, provenance)
    "run_id": None, "status": "cancelled", "stop_reason": None, "url": "http://127.0.0.1:9/v1", "model": MODEL,
    "api": "chat", "schedule": "fixed", "dialect": "simulated",
    "steps": [{"step": 0, "concurrency": 2, "requests_ok": 5, "requests_failed": 0, "requests_cancelled": 2,
               "output_tokens_per_s": 100.0, "ttft_ms": {"count": 5, "p50": 40.0, "p99": 50.0},
               "a_field_of_an_older_version": 1}],
    "knee": {"concurrency": None, "reason": "too_few_steps", "message": ""},
    "requests_ok": 5, "requests_failed": 0, "concurrency_shortfall": [], "store_problems": [], "incomplete": None,
    "exit_code": 130, "definitions": {"ttft_ms": "old words"}, "probe": {"dialect": "simulated", "ok": True},
    "workload": {"prompt_tokens": {"kind": "fixed", "mean": 64}, "output_tokens": {"kind": "fixed", "mean": 16},
                 "dataset": None, "language": "en", "ignore_eos": False, "seed": 0, "prompt_token_counts": "estimate"},
    "telemetry": {"gpu_samples": 0}, "a_key_nobody_declared": "kept",
}


def test_an_old_shape_stored_run_still_opens(tmp_path):
    """A row written by the old CLI path, its status word and setup as they were (setup only in the label)."""
    db = tmp_path / "b.sqlite3"
    label = report.sim_label(MODEL, GPU, "bf16", 1, 0.1)
    config = _config("http://127.0.0.1:9/v1", label=label)
    store = BenchStore(db)
    run_id = store.start_run(config.model_dump_json(), label=label, url=config.endpoint.url, model=MODEL)
    store.finish_run("cancelled", json.dumps({**OLD_CLI_RESULT, "run_id": run_id}))
    store.connection.close()
    row = _stored(db, run_id)
    result = result_from_stored(row)
    assert result.status is RunStatus.stopped and result.exit_code == 130
    assert result.steps[0].requests_ok == 5 and result.steps[0].ttft_ms.p50 == 40.0
    assert result.slo is not None and result.slo.ttft_ms == 5000  # from the stored config
    assert result.setup is not None and (result.setup.gpu, result.setup.time_scale) == (GPU, 0.1)
    assert result.provenance.time_scale == 0.1 and result.provenance.simulated is True
    assert result.model_dump()["a_key_nobody_declared"] == "kept"  # nothing stored is dropped unread
    loaded = report.load_result(run_id, db)
    assert loaded["status"] == "stopped" and loaded["setup"]["model"] == MODEL
    assert loaded["steps"][0]["concurrency"] == 2


def test_an_old_app_row_with_a_six_part_label_has_no_time_scale_and_an_unknown_value_is_dropped(tmp_path):
    db = tmp_path / "b.sqlite3"
    label = "simulated · 模拟 · qwen2.5-3b · l4 · - · 1"  # before the time scale was recorded
    config = _config("http://127.0.0.1:9/v1", label=label)
    store = BenchStore(db)
    run_id = store.start_run(config.model_dump_json(), label=label, url=config.endpoint.url, model=MODEL)
    old = {**OLD_CLI_RESULT, "status": "stopped", "knee": {"concurrency": "not a number"}, "run_id": run_id}
    store.finish_run("cancelled", json.dumps(old))
    store.connection.close()
    result = result_from_stored(_stored(db, run_id))
    assert result.status is RunStatus.stopped and result.knee is None
    assert result.setup is not None and result.setup.weights is None and result.provenance.time_scale is None


def test_every_key_the_runner_returns_is_a_declared_field():
    """RunResult allows extra keys so none is lost; this keeps the engine's keys typed."""
    config = _config("http://127.0.0.1:9/v1")
    raw = Runner(config).result("completed")
    soak = Runner(config.model_copy(update={"schedule": config.schedule.model_copy(update={"kind": "soak"})}))
    keys = set(raw) | set(soak.result("completed"))
    assert keys <= set(RunResult.model_fields), keys - set(RunResult.model_fields)


def test_a_bug_in_the_engine_is_a_failed_result_that_says_so_not_a_traceback(sim, tmp_path, monkeypatch):
    async def broken(self):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(Runner, "_main", broken)
    db = tmp_path / "b.sqlite3"
    store = BenchStore(db)
    try:
        result = run_benchmark(_config(sim.base_url), store=store, telemetry=None)
    finally:
        store.connection.close()
    assert result.status is RunStatus.failed and result.error_kind == "internal" and result.exit_code == 1
    assert "engine bug" in result.error
    row = _stored(db, result.run_id)
    assert row["status"] == "failed" and "engine bug" in row["result"]["error"]
