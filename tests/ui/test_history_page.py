"""The History page over a real SQLite file filled by real runs against the simulated server (loopback HTTP):
list, search and status filter, a failed run shown as failed, reopen into the result view, compare two runs
overlaid with the table of differences, export and delete, the "This project / All runs" scope. Kept short: one
database for the module. The last tests drive the main window: a run started on the Benchmark page is stored with
the open project, and History follows File → Save As / New / Open."""

import json

import pytest

from advisor.bench.history import RunHistory, project_key
from advisor.bench.runner import Runner
from advisor.bench.store import BenchStore
from advisor.domain.bench import BenchConfig
from advisor.sim.launcher import SimLauncher, SimLaunchSpec
from ui.pages.history import COL, HistoryPage
from ui.workers import TaskRunner

MODEL = "qwen2.5-3b"
PLAN_A = "/projects/Plan A.advisor.json"  # the key is the path; the file need not exist to list its runs
KEY_A = project_key(PLAN_A)


def _run(db, url, levels, label, requests=6, project_id=None):
    cfg = BenchConfig.model_validate({
        "endpoint": {"url": url, "model": MODEL, "timeout_s": 20, "read_timeout_s": 10},
        "workload": {"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": 16}},
        "schedule": {"kind": "fixed", "concurrency": levels, "requests": requests, "warmup_requests": 0},
        "label": label,
    })
    store = BenchStore(db)
    try:
        return Runner(cfg, store=store, project_id=project_id).run()["run_id"]
    finally:
        store.connection.close()


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("historyui") / "bench.sqlite3"
    with SimLauncher(SimLaunchSpec(model=MODEL, gpu="h100-sxm-80g", weights="bf16", time_scale=0.1)) as sim:
        ids = {"small": _run(path, sim.base_url, [1, 2], "small steps"),
               "big": _run(path, sim.base_url, [2, 4], "bigger steps"),
               "linked": _run(path, sim.base_url, [1], "plan a run", requests=3, project_id=KEY_A)}
    ids["dead"] = _run(path, "http://127.0.0.1:9", [1], "closed port", requests=2)
    return path, ids


@pytest.fixture
def page(qtbot, db):
    runner = TaskRunner()
    page = HistoryPage(runner, db_path=db[0])
    qtbot.addWidget(page)
    errors = []
    page.show_error = lambda title, text: errors.append(text)
    page.errors = errors
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.show()
    yield page
    runner.shutdown()


def _column(page, name):
    return [page.table.item(r, COL[name]).text() for r in range(page.table.rowCount())]


def test_lists_filters_and_shows_a_failed_run_as_failed(page, db, qtbot):
    _path, ids = db
    assert page.table.rowCount() == 4
    assert _column(page, "label") == ["closed port", "plan a run", "bigger steps", "small steps"]  # newest first
    statuses = dict(zip(_column(page, "label"), _column(page, "status"), strict=True))
    assert statuses["closed port"] == "failed"
    assert statuses["small steps"] != "failed"
    page.search.setText("bigger")
    assert _column(page, "label") == ["bigger steps"]
    page.search.setText("")
    page.status_filter.setCurrentIndex(page.status_filter.findData("failed"))
    assert _column(page, "label") == ["closed port"]
    tip = page.table.item(0, COL["status"]).toolTip()
    assert "2 failed" in tip or "(2 failed)" in tip
    page.status_filter.setCurrentIndex(0)
    assert page.count.text() == "4 of 4 runs"


def test_reopen_a_run_into_the_result_view(page, db, qtbot):
    _path, ids = db
    assert page.select(ids["small"])
    with qtbot.waitSignal(page.opened, timeout=5000):
        page.open_button.click()
    assert page.tabs.currentIndex() == 1
    view = page.result_view
    assert view.result is not None and view.result["run_id"] == ids["small"]
    assert view.table.rowCount() == 2


def test_compare_two_runs_overlaid_with_differences(page, db, qtbot):
    _path, ids = db
    page.set_checked([ids["small"], ids["big"]])
    assert page.compare_button.isEnabled()
    with qtbot.waitSignal(page.compared, timeout=10000):
        page.compare_button.click()
    assert page.tabs.currentIndex() == 2
    plot = page.compare_plot
    assert plot.comparison["levels"] == [1, 2, 4]
    x_small, y_small = plot.points("output_tokens_per_s", 0)  # the older run is the baseline (A)
    x_big, _ = plot.points("output_tokens_per_s", 1)
    assert list(x_small) == [1, 2] and list(x_big) == [2, 4] and all(v > 0 for v in y_small)
    assert plot.points("ttft_p50_ms", 2)[0].size == 0  # the unused slots are empty
    table = page.differences
    metrics = [table.item(r, 0).text() for r in range(table.rowCount())]
    concurrency = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert "TTFT P50" in metrics and "Status" in metrics
    assert "2" in concurrency and "4" not in concurrency  # only the level both runs measured
    assert table.columnCount() == 4
    assert "%" in table.item(metrics.index("TTFT P50"), 3).text()  # change vs the first run


def test_export_and_delete(page, db, qtbot, tmp_path):
    _path, ids = db
    out = tmp_path / "run.json"
    page.ask_save_path = lambda suggested: str(out)
    assert page.select(ids["dead"])
    page.export_button.click()
    assert json.loads(out.read_text(encoding="utf-8"))["run_id"] == ids["dead"]
    asked = []
    page.confirm = lambda text: asked.append(text) or True
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.delete_button.click()
    assert ids["dead"] in asked[0]
    assert "closed port" not in _column(page, "label") and page.table.rowCount() == 3
    assert page.errors == []
    # import the exported copy back
    page.ask_open_path = lambda: str(out)
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.import_button.click()
    assert "closed port" in _column(page, "label")


def test_the_main_window_has_history_and_ab_tabs(main_window):
    from ui.pages.ab import AbPage

    titles = [main_window.tabs.tabText(i) for i in range(main_window.tabs.count())]
    assert "History" in titles[3] and titles[-1] == "Quantization A/B"
    assert isinstance(main_window.history_page, HistoryPage)
    assert isinstance(main_window.ab_page, AbPage)
    main_window.set_language("zh_CN")
    assert main_window.tabs.tabText(main_window.tabs.count() - 1) == "量化 A/B"
    assert main_window.history_page.title.text() == "压测历史"


def test_this_project_scope_marks_and_defaults(page, db, qtbot):
    _path, ids = db
    project_item = page.scope.model().item(0)
    assert page.current_scope() == "all" and not project_item.isEnabled()  # no saved project open
    assert page.scope.itemText(0) == "This project (not saved yet)"
    assert dict(zip(_column(page, "label"), _column(page, "project"), strict=True))["plan a run"] == "Plan A"

    page.set_project(KEY_A)  # File → Open of Plan A: its runs by default, marked
    assert page.current_scope() == "project" and project_item.isEnabled()
    assert page.scope.itemText(0) == "This project (Plan A)"
    assert _column(page, "label") == ["plan a run"] and _column(page, "project") == ["● Plan A"]
    assert page.table.item(0, COL["project"]).font().bold()
    assert PLAN_A in page.table.item(0, COL["project"]).toolTip()
    assert page.count.text() == "1 of 4 runs"

    page.scope.setCurrentIndex(1)  # All runs: everything, the project's run still marked
    marks = dict(zip(_column(page, "label"), _column(page, "project"), strict=True))
    assert marks == {"closed port": "–", "plan a run": "● Plan A", "bigger steps": "–", "small steps": "–"}
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.refresh()
    assert page.current_scope() == "all"  # the user's pick survives a reload ...
    page.set_project(KEY_A)
    assert page.current_scope() == "all"  # ... and saving again under the same name

    page.set_project(project_key("/projects/empty.advisor.json"))  # a project without runs: all runs
    assert page.current_scope() == "all" and page.table.rowCount() == 4
    assert "● Plan A" not in _column(page, "project") and "Plan A" in _column(page, "project")
    page.set_project(KEY_A)
    assert page.current_scope() == "project"
    page.set_project(None)  # File → New
    assert page.current_scope() == "all" and not project_item.isEnabled()


def test_the_scope_in_chinese(page, db):
    from advisor import i18n

    page.set_project(KEY_A)
    i18n.set_language("zh_CN")
    page.retranslate()
    assert page.scope.itemText(0) == "本项目（Plan A）" and page.scope.itemText(1) == "全部测试"
    assert page.table.horizontalHeaderItem(COL["project"]).text() == "项目"
    page.set_project(None)
    assert page.scope.itemText(0) == "本项目（尚未保存）"


def _bench_run(qtbot, bench):
    with qtbot.waitSignal(bench.run_finished, timeout=90_000) as done:
        assert bench.start_run()
    result = done.args[0]
    assert result["status"] == "completed", result
    return result["run_id"]


def _project_ids(run_ids):
    with RunHistory() as history:
        by_id = {r.run_id: r.project_id for r in history.list()}
    return [by_id[i] for i in run_ids]


def test_runs_from_the_benchmark_page_follow_the_open_project(qtbot, main_window, messages, tmp_path, monkeypatch):
    """Untitled: a run with no project; the first Save As takes it in; a run with the project open is linked at
    once; File → New unlinks later runs; File → Open switches History back to the project's runs. The memo's
    evidence prefers the project's runs."""
    from ui.pages.wizard import measured_evidence

    bench, history = main_window.benchmark_page, main_window.history_page
    bench.sim_model.setCurrentIndex(bench.sim_model.findData("qwen2.5-7b-instruct"))
    bench.sim_gpu.setCurrentIndex(bench.sim_gpu.findData("h100-sxm-80g"))
    bench.sim_speed.setValue(0.05)
    with qtbot.waitSignal(bench.probed, timeout=30_000):
        bench.toggle_sim()
    bench.prompt_mean.setValue(32)
    bench.output_mean.setValue(8)
    bench.shape_box.setCurrentIndex(bench.shape_box.findData("fixed"))
    bench.concurrency.setValue(1)
    bench.requests.setValue(3)
    bench.sample_check.setChecked(False)

    untitled = _bench_run(qtbot, bench)
    assert _project_ids([untitled]) == [None] and messages.errors == []  # no project: no link, nothing said

    path = tmp_path / "Plan B.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    with qtbot.waitSignal(history.adopted, timeout=10_000) as adopted:
        assert main_window.save_project_as()
    assert adopted.args[0] == [untitled]  # made before the first save: now the project's
    key = project_key(path)
    assert bench.project_id == key and main_window.ab_page.project_id == key
    linked = _bench_run(qtbot, bench)
    assert _project_ids([untitled, linked]) == [key, key]

    main_window.new_project()
    assert bench.project_id is None and history.project_id is None
    later = _bench_run(qtbot, bench)

    assert main_window.open_project(path)  # Open is no first save: the later run stays unlinked
    with qtbot.waitSignal(history.listed, timeout=10_000):
        main_window.tabs.setCurrentWidget(history)
    assert _project_ids([untitled, linked, later]) == [key, key, None]
    assert history.current_scope() == "project"
    assert {r.run_id for r in history.shown_runs} == {untitled, linked}
    assert set(_column(history, "project")) == {"● Plan B"}
    history.scope.setCurrentIndex(1)
    assert dict(zip((r.run_id for r in history.shown_runs), _column(history, "project"), strict=False))[later] == "–"

    answers = {"model": "qwen2.5-7b-instruct"}
    assert {e.run_id for e in measured_evidence(answers, project_path=path)} == {untitled, linked}
    assert measured_evidence(answers)[0].run_id == later  # no project: the latest runs of the model
    other = tmp_path / "other.advisor.json"
    assert measured_evidence(answers, project_path=other)[0].run_id == later  # a project without runs: the same
    main_window.new_project()
    assert history.current_scope() == "all"


def test_the_selection_follows_the_run_when_runs_are_added(page, db, qtbot):
    # an A/B added two runs while a run was selected: Open/Export/Delete silently pointed at another run
    path, ids = db
    assert page.select(ids["small"])
    assert page.current().run_id == ids["small"]
    with SimLauncher(SimLaunchSpec(model=MODEL, gpu="h100-sxm-80g", weights="bf16", time_scale=0.1)) as sim:
        _run(path, sim.base_url, [1], "newer run one", requests=2)
        _run(path, sim.base_url, [1], "newer run two", requests=2)
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.refresh()
    assert page.current() is not None and page.current().run_id == ids["small"]
    row = page.table.selectionModel().selectedRows()[0].row()
    assert page.table.item(row, COL["label"]).text() == "small steps"


def test_one_ticked_run_enables_the_single_run_actions(page, db, qtbot):
    _path, ids = db
    page.table.clearSelection()
    page._update_buttons()
    assert not page.open_button.isEnabled()
    page.set_checked([ids["big"]])
    assert page.open_button.isEnabled() and page.export_button.isEnabled() and page.delete_button.isEnabled()
    assert page.current().run_id == ids["big"]


def test_a_comparison_exports_as_markdown_and_csv(page, db, qtbot, tmp_path):
    _path, ids = db
    page.set_checked([ids["small"], ids["big"]])
    with qtbot.waitSignal(page.compared, timeout=10000):
        page.compare_button.click()
    assert page.export_compare_button.isEnabled()
    for name in ("cmp.md", "cmp.csv"):
        out = tmp_path / name
        page.ask_save_path = lambda suggested, out=out: str(out)
        page.export_compare_button.click()
        text = out.read_text(encoding="utf-8")
        assert ids["small"] in text and ids["big"] in text
    assert (tmp_path / "cmp.md").read_text(encoding="utf-8").startswith("# Benchmark runs compared")
    assert (tmp_path / "cmp.csv").read_text(encoding="utf-8").splitlines()[0].startswith("Metric")
    page.ask_save_path = lambda suggested: str(tmp_path / "cmp.docx")
    page.export_compare_button.click()
    assert page.errors and ".md" in page.errors[-1]
