"""The Quantization A/B page end to end: "Start two simulated servers" launches BF16 and AWQ-INT4 `advisor sim`
child processes, the A/B runs over real loopback HTTP in a worker thread, the speed table, answer pairs, figures and
verdict appear, both load runs land in the history (with the open project), and stopping the page stops the
servers."""

import pytest

from advisor.bench.history import RunHistory, project_key
from ui.pages.ab import AbPage
from ui.widgets.ab_sims import select
from ui.workers import TaskRunner


@pytest.fixture
def page(qtbot, tmp_path):
    runner = TaskRunner()
    page = AbPage(runner, db_path=tmp_path / "bench.sqlite3")
    qtbot.addWidget(page)
    errors = []
    page.show_error = lambda title, text: errors.append(text)
    page.errors = errors
    page.show()
    yield page
    page.stop()
    runner.shutdown()


def test_two_simulated_servers_then_the_ab_with_its_evidence(page, qtbot, tmp_path):
    assert select(page.sims.model, "qwen2.5-7b-instruct") and select(page.sims.gpu, "l4")
    with qtbot.waitSignal(page.sims_ready, timeout=60000):
        page.sims.button.click()
    assert page.sides["A"]["label"].text() == "bf16" and page.sides["B"]["label"].text() == "awq-int4"
    assert page.sides["A"]["url"].text().startswith("http://127.0.0.1:")
    launchers = list(page.sims.launchers)
    page.answers.setValue(3)
    page.requests.setValue(6)
    page.concurrency.setText("1,2")
    page.max_tokens.setValue(24)
    page.project_id = project_key(tmp_path / "quant.advisor.json")  # what the window sets for an open project
    with qtbot.waitSignal(page.finished, timeout=120000) as blocker:
        assert page.start()
        assert not page.run_button.isEnabled() and page.stop_button.isEnabled()
    result = blocker.args[0]
    assert result.status == "completed" and page.errors == []
    assert page.run_button.isEnabled() and not page.stop_button.isEnabled()
    assert page.speed.rowCount() == 2 and page.pairs.rowCount() == 3
    # the simulated servers run at the simulated GPU's own speed: one user's TPOT is the predictor's, not a
    # quarter of it (the page ran them at ×0.25 and showed 11 ms for a ~45 ms token)
    from advisor.domain.sim import LengthDistribution, SimWorkload
    from advisor.sim.costs import setup_from_ids
    from advisor.sim.predict import simulate_concurrency

    setup = setup_from_ids("qwen2.5-7b-instruct", "l4", "bf16")
    one = simulate_concurrency(setup.costs, setup.limits, SimWorkload(prompt=LengthDistribution.fixed(64),
                               output=LengthDistribution.fixed(24)), 1)  # fmt: skip
    assert result.levels[0].a_tpot_p50_ms == pytest.approx(one.tpot_ms.p50, rel=0.35)
    assert page.speed.item(0, 3).text().endswith("×") and float(page.speed.item(0, 3).text()[:-1]) > 1.2
    assert page.pairs.item(0, 1).text() and page.pairs.item(0, 5).text() == "yes"  # same seed: same placeholder text
    assert not page.badge.isHidden()
    assert "B produces" in page.verdict.text() and "Simulated" in page.verdict.text()
    assert "difflib" in page.figures.text()
    assert page.copy_markdown().startswith("# Quantization A/B")
    with RunHistory(tmp_path / "bench.sqlite3") as h:
        runs = sorted(h.list(), key=lambda r: r.label)
    assert [r.label for r in runs] == ["A/B · A · bf16", "A/B · B · awq-int4"]
    assert {r.project_id for r in runs} == {page.project_id}  # both sides stored with the open project
    page.stop()
    assert page.sims.launchers == [] and all(not launcher.running for launcher in launchers)


def test_bad_input_is_a_message_not_a_run(page):
    page.sides["A"]["url"].setText("http://127.0.0.1:8000")
    page.sides["A"]["model"].setText("m")
    assert not page.start()
    assert "model id of B" in page.errors[-1]
    page.sides["B"]["model"].setText("m")  # B's URL left empty: the same server as A
    assert not page.start()
    assert "same server and model" in page.errors[-1]
    page.sides["B"]["url"].setText("http://127.0.0.1:8000")
    page.sides["B"]["model"].setText("m-awq")
    page.concurrency.setText("1,x")
    assert not page.start()
    assert "whole numbers" in page.errors[-1]
    page.concurrency.setText("1")
    page.sides["B"]["url"].setText("ftp://nowhere")
    assert not page.start()
    assert "http://" in page.errors[-1]


def test_a_server_that_is_not_there_is_reported(page, qtbot):
    for name in ("A", "B"):
        page.sides[name]["url"].setText("http://127.0.0.1:9")
    page.sides["A"]["model"].setText("m")
    page.sides["B"]["model"].setText("m-awq")
    with qtbot.waitSignal(page.failed, timeout=30000) as blocker:
        page.start()
    assert "cannot reach http://127.0.0.1:9" in blocker.args[0]
    assert "cannot reach" in page.progress.text() and page.run_button.isEnabled()


def test_chinese(page):
    from advisor import i18n

    i18n.set_language("zh_CN")
    page.retranslate()
    assert page.run_button.text() == "开始 A/B" and page.side_boxes["A"].title().startswith("A · 基线")
