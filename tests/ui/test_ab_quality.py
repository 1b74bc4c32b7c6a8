"""The scored Quantization A/B on the page: the built-in samples against two simulated servers (B answers a
known share wrong), the accuracy per side, interval, verdict and sample-size line shown, disagreements first,
both languages; and the sample-size hint beside the drop field before any run. The EvalScope task field with and
without the [eval] extra: both forms here in every run, and the real one in `make test-eval` (the extra installed)."""

import pytest

from advisor.bench.quality.report import compare_scores
from advisor.bench.quality.samples import builtin_samples
from advisor.i18n import set_language
from tests.ui.ab_page_helpers import ab_pages, run_to_result, sim_specs, simulated_sides
from ui.pages.history import HistoryPage
from ui.widgets.ab_quality import AbQualityPanel


@pytest.fixture
def page(qtbot, tmp_path):
    """A Quantization A/B page on its own, with its own worker and database (tests/ui/ab_page_helpers.py)."""
    with ab_pages(qtbot, tmp_path) as make:
        yield make()


def test_sample_size_hint_follows_the_drop(page):
    opts = page.quality_options
    assert "3.0-point drop" in opts.hint.text() and "about 870 samples" in opts.hint.text()
    opts.drop.setValue(5.0)  # (1.959964·√0.1 + 0.841621·√0.0975)² / 0.05² = 311.6
    assert "5.0-point drop" in opts.hint.text() and "about 312 samples" in opts.hint.text()
    assert opts.overrides() == {"quality_drop": 0.05}
    opts.builtin.setChecked(True)
    assert opts.overrides()["samples"] == "builtin" and opts.overrides()["answers"] is None
    if opts.has_evalscope:  # the [eval] extra: a task field whose name goes into the A/B
        opts.task.setText("gsm8k")
        assert opts.overrides()["task"] == "gsm8k" and opts.overrides()["task_limit"] == 50
    else:  # without it the page says what installing it adds
        assert not opts.task_missing.isHidden() and opts.task.isHidden()
        assert "pip install 'inference-advisor[eval]'" in opts.task_missing.text()
    set_language("zh_CN")
    page.retranslate()
    assert opts.builtin.text() == "用内置样本评分" and "约需 312 条样本" in opts.hint.text()
    assert opts.has_evalscope or "标准评测集" in opts.task_missing.text()


@pytest.mark.parametrize("extra", [True, False], ids=["with-eval-extra", "without-eval-extra"])
def test_the_task_field_with_and_without_the_extra(qtbot, monkeypatch, extra):
    import ui.widgets.ab_quality as widget
    from ui.widgets.ab_quality import AbQualityOptions

    monkeypatch.setattr(widget, "available", lambda: extra)
    opts = AbQualityOptions()
    qtbot.addWidget(opts)
    opts.show()
    opts.task.setText(" cmmlu ")
    opts.task_limit.setValue(200)
    if extra:  # a task field whose name and limit go into the A/B's config
        assert opts.task.isVisible() and opts.task_limit.isVisible() and not opts.task_missing.isVisible()
        assert opts.overrides()["task"] == "cmmlu" and opts.overrides()["task_limit"] == 200
    else:  # no field; the line saying what installing the extra adds, in both languages
        assert not opts.task.isVisible() and opts.task_missing.isVisible()
        assert "task" not in opts.overrides()
        assert "pip install 'inference-advisor[eval]'" in opts.task_missing.text()
        set_language("zh_CN")
        opts.retranslate()
        assert "标准评测集" in opts.task_missing.text() and "inference-advisor[eval]" in opts.task_missing.text()


def test_scored_ab_on_the_page(page, qtbot):
    with simulated_sides(page, sim_specs(b_answer_error_rate=0.3), labels=True):
        page.requests.setValue(4)
        page.concurrency.setText("1")
        page.quality_options.builtin.setChecked(True)
        assert page.quality_panel.isHidden()
        result = run_to_result(page, qtbot)
    assert result.status == "completed" and page.errors == []
    panel = page.quality_panel
    assert not panel.isHidden()
    assert "A 96.7 % (29/30) · B 70.0 % (21/30)" in panel.headline.text()
    assert "B − A -26.7 points" in panel.headline.text() and "McNemar p = 0.00781" in panel.headline.text()
    assert panel.verdict.text().startswith("B answers worse than A")
    assert "Simulated" in panel.simulated.text() and not panel.simulated.isHidden()
    assert panel.table.rowCount() == 30
    assert panel.table.item(0, 3).text().startswith("right") and panel.table.item(0, 4).text().startswith("wrong")
    assert panel.table.item(8, 4).text().startswith("right")  # after the 8 disagreements: agreement
    assert page.pairs.rowCount() == 30  # every built-in sample answered, not the 8-prompt default
    # History → Compare of the two load runs shows the stored scored A/B
    history = HistoryPage(page.runner, db_path=page.db_path)
    qtbot.addWidget(history)
    with qtbot.waitSignal(history.listed, timeout=10000):
        history.show()
    history.set_checked([result.a.run_id, result.b.run_id])
    with qtbot.waitSignal(history.compared, timeout=10000):
        history.compare_button.click()
    assert "awq-int4 vs bf16 on 30 samples: 70.0 % vs 96.7 %" in history.compare_plot.caption.text()
    # opening either run of the A/B alone in History says the scored result it was part of
    assert history.quality_note.isHidden()
    assert history.open_run(result.a.run_id) and not history.quality_note.isHidden()
    assert history.quality_note.text().startswith("Answer quality (scored): awq-int4 vs bf16 on 30 samples: "
                                                  "70.0 % vs 96.7 %") and "a significant drop" in history.quality_note.text()
    set_language("zh_CN")
    history.retranslate()
    assert "awq-int4 对比 bf16，30 条样本" in history.quality_note.text() and "显著下降" in history.quality_note.text()
    page.retranslate()
    assert panel.title.text() == "回答质量（评分）" and panel.verdict.text().startswith("B 的回答比 A 差")
    assert "正确率：A 96.7 %" in panel.headline.text()


def test_too_small_run_is_a_warning(qtbot):
    class Ans:
        def __init__(self, text):
            self.ok, self.text = True, text

    samples = list(builtin_samples("en"))[:10]
    answers = [Ans(s.reference or f"The answer is {s.answer}" if s.scorer != "json" else "{}") for s in samples]
    q = compare_scores(samples, answers, answers)
    panel = AbQualityPanel()
    qtbot.addWidget(panel)
    panel.show_quality(q)
    assert q.too_small and "Too few samples to tell" in panel.size_line.text() and panel.size_line.styleSheet()
    assert panel.verdict.text().startswith("No significant difference")
    panel.show_quality(None)
    assert panel.isHidden()


def test_an_evalscope_task_shows_its_answered_samples_per_side(page):
    """What the run's worker reports while EvalScope answers (advisor.bench.ab's task_answered events) is the
    page's progress line, in both languages."""
    from advisor.bench.ab import AbEvent

    page._events.append(AbEvent("phase", {"side": "A+B", "phase": "task", "task": "gsm8k", "limit": 50}))
    page._drain()
    assert page.progress.text() == "EvalScope task gsm8k on A, then B (50 samples per subset) …"
    page._events.append(AbEvent("task_answered", {"side": "B", "done": 12, "task": "gsm8k", "limit": 50}))
    page._drain()
    assert page.progress.text() == "EvalScope task gsm8k, side B: 12 samples answered (at most 50 per subset) …"
    set_language("zh_CN")
    page._events.append(AbEvent("task_answered", {"side": "B", "done": 13, "task": "gsm8k", "limit": 50}))
    page._drain()
    assert "B 侧：已回答 13 条样本" in page.progress.text()


def test_a_scored_sample_file_is_answered_whole(page, tmp_path):
    """A newcomer's own 200 prompts with references: choosing the file sets "Prompts answered" to 200, so all of
    them are scored (not the first 8, the default for plain prompts); a plain prompt file leaves it alone."""
    import json

    scored = tmp_path / "mine.jsonl"
    scored.write_text("\n".join(json.dumps({"prompt": f"What is {i} + {i}?", "reference": str(2 * i)})
                                for i in range(200)), encoding="utf-8")
    plain = tmp_path / "plain.jsonl"
    plain.write_text("\n".join(json.dumps({"prompt": f"Tell me about {i}"}) for i in range(50)), encoding="utf-8")
    assert page.answers.value() == 8
    page.prompts.setText(str(plain))
    page.prompts.editingFinished.emit()
    assert page.answers.value() == 8
    page.prompts.setText(str(scored))
    page.prompts.editingFinished.emit()
    assert page.answers.value() == 200
    for name in "AB":
        page.sides[name]["url"].setText(f"http://127.0.0.1:9/{name}")
        page.sides[name]["model"].setText("m")
    config = page.config()
    assert config is not None and config.answers == 200
    from advisor.bench.ab import load_scored

    assert len(load_scored(config)) == 200
    page.answers.setValue(20)  # lowered by hand for a quick look: kept while the file stays the same
    page.prompts.editingFinished.emit()
    assert page.answers.value() == 20
    assert page.ab_section().answers == 20
