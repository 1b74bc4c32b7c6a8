"""ResultView: the step table with the knee highlighted, the verdict, client-bound warning, measured vs predicted
curve and Markdown; reopening a stored run by id (what the History page does)."""

from __future__ import annotations

import json

from PySide6.QtGui import QGuiApplication

from advisor import run_prediction
from advisor.bench import report
from advisor.bench.store import BenchStore
from tests.core.test_bench_report import lost_at, result, step


def test_result_view_shows_knee_verdict_and_client_note(qtbot):
    from ui.widgets.bench_result import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.shown):
        assert view.show_result(result(simulated=True))
    assert view.table.rowCount() == 5
    assert view.knee_row() == 2
    assert view.table.item(2, 8).text() == "◀ knee"
    assert view.table.item(4, 8).text() == "client-bound"
    assert view.table.item(2, 0).background().color() != view.table.item(1, 0).background().color()
    assert "up to concurrency 4" in view.verdict.text()
    assert not view.client_note.isHidden() and "more client processes" in view.client_note.text()
    assert not view.simulated_badge.isHidden()
    assert len(view.m_ttft.getData()[0]) == 5 and view.knee_lines[0].isVisible()
    md = view.copy_markdown()
    assert QGuiApplication.clipboard().text() == md and "◀ knee" in md


def test_measured_vs_predicted(qtbot):
    from ui.widgets.bench_result import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result())
    assert view.p_thr.getData()[0] is None or len(view.p_thr.getData()[0]) == 0
    prediction = run_prediction.predicted_curve("qwen2.5-7b-instruct", "h100-sxm-80g", levels=[1, 2, 4])
    with qtbot.waitSignal(view.prediction_shown):
        view.set_prediction(prediction)
    assert len(view.p_thr.getData()[0]) == 3 and "predictor" in view.plot_caption.text()


def test_a_step_during_which_the_server_died_is_not_drawn_as_a_point_of_the_curve(qtbot):
    from advisor import i18n
    from ui.widgets.bench_result import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result(steps=[step(1, 300, 20, 50), step(2, 400, 22, 95), lost_at(4, ok=1)]))
    # the table keeps every step; the curve stops where the measurement stopped, and says why
    assert view.table.rowCount() == 3
    for curve in (view.m_ttft, view.m_thr):  # drawn on a log axis: x is log10(concurrency)
        assert [round(10**x) for x in curve.getData()[0]] == [1, 2]
    assert "Concurrency 4 is not drawn" in view.plot_caption.text() and "1 of 4 requests" in view.plot_caption.text()
    i18n.set_language("zh_CN")
    try:
        view.show_result(result(steps=[step(1, 300, 20, 50), lost_at(2, ok=1)]))
        assert "并发 2 未画出" in view.plot_caption.text()
    finally:
        i18n.set_language("en")
    # a run that ended well draws every step and says nothing about it
    view.show_result(result())
    assert len(view.m_ttft.getData()[0]) == 5 and "not drawn" not in view.plot_caption.text()


def test_reopen_a_stored_run_by_id_and_an_unknown_one(qtbot, tmp_path):
    from ui.widgets.bench_result import ResultView
    from ui.workers import TaskRunner

    db = tmp_path / "bench.sqlite3"
    store = BenchStore(db)
    run_id = store.start_run(
        json.dumps(
            {
                "slo": {"ttft_ms": 2000, "tpot_ms": 100, "percentile": 99},
                "workload": {"prompt_tokens": {"mean": 256}, "output_tokens": {"mean": 128}},
            }
        ),
        label=report.sim_label("qwen2.5-7b-instruct", "h100-sxm-80g", None, 1),
        url="http://127.0.0.1:1",
        model="qwen2.5-7b-instruct",
    )
    r = result()
    r.pop("slo")
    store.finish_run("completed", json.dumps(r))
    store.close()
    runner = TaskRunner()
    view = ResultView(runner, db_path=db)
    qtbot.addWidget(view)
    try:
        with qtbot.waitSignal(view.prediction_shown, timeout=60_000):
            assert view.show_result(run_id)  # a simulated run: the predicted curve is computed for its setup
        assert view.table.rowCount() == 5 and "up to concurrency 4" in view.verdict.text()
        assert len(view.p_ttft.getData()[0]) == 5
        assert not view.show_result("20990101-000000-nope")
        assert "No run 20990101-000000-nope" in view.status.text()
    finally:
        runner.shutdown()


def test_dynamic_translation_keys_exist():
    """Keys this page builds at run time (f-strings), which tests/core/test_i18n.py cannot see."""
    from advisor import i18n
    from advisor.bench.presets import PRESETS
    from ui.pages.benchmark import SHAPES
    from ui.widgets.bench_result import COLUMNS
    from ui.widgets.gpu_panel import FIELDS

    keys = [f"bench.page.shape.{s}" for s in SHAPES] + [f"bench.result.col.{c}" for c in COLUMNS]
    keys += [f"bench.gpu.{f}" for f in FIELDS] + [f"bench.report.status.{s}" for s in report.FINAL_STATUSES]
    keys += [f"bench.report.client_reason.{r}" for r in report._CLIENT_REASONS]
    keys += [f"bench.page.sim.{k}" for k in ("model", "gpu", "weights", "gpus", "speed")]
    keys += [f"bench.page.{k}" for k in ("url", "api_key", "exporter")]
    keys += [f"bench.page.w.{k}" for k in ("preset", "prompt", "output", "file", "shape", "concurrency",
                                             "max_concurrency", "requests", "duration", "rate", "ttft_slo",
                                             "tpot_slo", "client_processes")]  # fmt: skip
    keys += [f"bench.preset.{p}.{w}" for p in PRESETS for w in ("name", "desc")]
    for lang in i18n.LANGUAGES:
        missing = [k for k in keys if k not in i18n.catalog(lang)]
        assert missing == [], lang


def test_a_step_with_too_many_failures_is_drawn_hollow_and_said_so(qtbot):
    """A degraded step (more failures than the run allows) keeps its point — it did measure something — but hollow,
    with a caption: its latency covers only the requests that finished, so it must not read like a clean point."""
    from advisor import i18n
    from ui.widgets.bench_result import ResultView

    bad = step(4, 900, 30, 180)
    bad.update(requests_ok=12, requests_failed=8, error_rate=0.4, status="degraded")
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result(steps=[step(1, 300, 20, 50), step(2, 400, 22, 95), bad]))
    for curve in (view.m_ttft, view.m_tpot, view.m_thr):
        brushes = [spot.brush().color().alpha() for spot in curve.scatter.points()]
        assert brushes[:2] != [0, 0] and brushes[2] == 0  # filled, filled, hollow
    assert "Hollow points (concurrency 4)" in view.plot_caption.text()
    i18n.set_language("zh_CN")
    try:
        view.show_result(result(steps=[step(1, 300, 20, 50), bad]))
        assert "空心点（并发 4）" in view.plot_caption.text()
    finally:
        i18n.set_language("en")
    view.show_result(result())  # a clean run: every point filled, nothing said
    assert all(spot.brush().color().alpha() > 0 for spot in view.m_ttft.scatter.points())
    assert "Hollow" not in view.plot_caption.text()
