"""The History page over a real SQLite file filled by real runs against the simulated server (loopback HTTP):
list, search and status filter, a failed run shown as failed, reopen into the result view, compare two runs
overlaid with the table of differences, export and delete. Kept short: one database for the module."""

import json

import pytest

from advisor.bench.runner import Runner
from advisor.bench.store import BenchStore
from advisor.domain.bench import BenchConfig
from advisor.sim.launcher import SimLauncher, SimLaunchSpec
from ui.pages.history import HistoryPage
from ui.workers import TaskRunner

MODEL = "qwen2.5-3b"


def _run(db, url, levels, label, requests=6):
    cfg = BenchConfig.model_validate({
        "endpoint": {"url": url, "model": MODEL, "timeout_s": 20, "read_timeout_s": 10},
        "workload": {"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": 16}},
        "schedule": {"kind": "fixed", "concurrency": levels, "requests": requests, "warmup_requests": 0},
        "label": label,
    })
    store = BenchStore(db)
    try:
        return Runner(cfg, store=store).run()["run_id"]
    finally:
        store.connection.close()


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("historyui") / "bench.sqlite3"
    with SimLauncher(SimLaunchSpec(model=MODEL, gpu="h100-sxm-80g", weights="bf16", time_scale=0.1)) as sim:
        ids = {"small": _run(path, sim.base_url, [1, 2], "small steps"),
               "big": _run(path, sim.base_url, [2, 4], "bigger steps")}
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


def _column(page, col):
    return [page.table.item(r, col).text() for r in range(page.table.rowCount())]


def test_lists_filters_and_shows_a_failed_run_as_failed(page, db, qtbot):
    _path, ids = db
    assert page.table.rowCount() == 3
    assert _column(page, 9) == ["closed port", "bigger steps", "small steps"]  # newest first
    statuses = dict(zip(_column(page, 9), _column(page, 2), strict=True))
    assert statuses["closed port"] == "failed"
    assert statuses["small steps"] != "failed"
    page.search.setText("bigger")
    assert _column(page, 9) == ["bigger steps"]
    page.search.setText("")
    page.status_filter.setCurrentIndex(page.status_filter.findData("failed"))
    assert _column(page, 9) == ["closed port"]
    assert "2 failed" in page.table.item(0, 2).toolTip() or "(2 failed)" in page.table.item(0, 2).toolTip()
    page.status_filter.setCurrentIndex(0)
    assert page.count.text() == "3 of 3 runs"


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
    assert "closed port" not in _column(page, 9) and page.table.rowCount() == 2
    assert page.errors == []
    # import the exported copy back
    page.ask_open_path = lambda: str(out)
    with qtbot.waitSignal(page.listed, timeout=10000):
        page.import_button.click()
    assert "closed port" in _column(page, 9)


def test_the_main_window_has_history_and_ab_tabs(main_window):
    from ui.pages.ab import AbPage

    titles = [main_window.tabs.tabText(i) for i in range(main_window.tabs.count())]
    assert "History" in titles[3] and titles[-1] == "Quantization A/B"
    assert isinstance(main_window.history_page, HistoryPage)
    assert isinstance(main_window.ab_page, AbPage)
    main_window.set_language("zh_CN")
    assert main_window.tabs.tabText(main_window.tabs.count() - 1) == "量化 A/B"
    assert main_window.history_page.title.text() == "压测历史"
