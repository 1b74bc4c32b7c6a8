"""Session-14 polish on real widgets (#26, #30 leftovers): the Benchmark page's Live tab before any run, the A/B
page's EvalScope subset and prompt-template fields (saved in the project, handed to the CLI's core path), and the
zh word for a benchmark (GLOSSARY: 压测) in the load-test messages."""

from __future__ import annotations

import json

import pytest

from advisor.domain.project import Project
from advisor.i18n import catalog, set_language, tr
from advisor.project import load_project, save_project
from tests.ui.ab_page_helpers import (
    eval_ab_pages,
    record_compare_task,
    run_to_result,
    simulated_sides,
)


# -- the Benchmark page's Live tab -------------------------------------------------------------------------------
def test_live_tab_reads_not_started_before_any_run_in_both_languages(benchmark_page):
    live = benchmark_page.live
    try:
        for lang, word in (("en", "Not started"), ("zh_CN", "尚未开始")):
            set_language(lang)
            benchmark_page.retranslate()
            text = live.step_label.text()
            assert text == tr("bench.live.not_started") and word in text
            assert "–" not in text and "1 / 1" not in text and "1 of 1" not in text  # no run: no step, no level
    finally:
        set_language("en")
        benchmark_page.retranslate()


def test_live_tab_shows_the_step_once_a_run_has_levels(benchmark_page):
    """The not-started line gives way to the step line as soon as the page hands the view a run's levels."""
    benchmark_page._levels = [1, 4]
    benchmark_page.live.reset([1, 4], 0.0)
    benchmark_page._refresh_live()
    assert benchmark_page.live.step_label.text().startswith("Step 1 of 2")


# -- the A/B page's EvalScope subset and template ----------------------------------------------------------------
@pytest.fixture
def pages(qtbot, tmp_path, monkeypatch):
    with eval_ab_pages(qtbot, tmp_path, monkeypatch) as make:
        yield make


def test_subset_and_template_fields_follow_the_task_and_both_languages(pages):
    page = pages()
    opts = page.quality_options
    assert opts.subset.isVisible() and opts.template.isVisible()
    assert not opts.subset.isEnabled() and not opts.template.isEnabled()  # no task: nothing to narrow or reword
    opts.task.setText("ceval")
    assert opts.subset.isEnabled() and opts.template.isEnabled()
    assert opts.subset_label.text() == "Subset" and opts.template_label.text() == "Prompt template"
    assert "--task-subset" in opts.subset.toolTip() and "--task-template" in opts.template.toolTip()
    set_language("zh_CN")
    page.retranslate()
    assert opts.subset_label.text() == "子集" and opts.template_label.text() == "提示词模板"
    opts.subset.setText("high_school_physics")
    opts.template.setText("{question}")
    over = opts.overrides()
    assert over["task_subset"] == "high_school_physics" and over["task_prompt_template"] == "{question}"
    opts.task.setText("")  # no task: subset and template are kept on the page but not sent
    assert "task_subset" not in opts.overrides() and not opts.subset.isEnabled()


def test_a_local_copy_is_checked_for_the_subset_named(pages, tmp_path):
    """general_qa reads <subset>_test.jsonl from a folder: the field checks the subset named, as the run does."""
    page = pages()
    opts, field = page.quality_options, page.quality_options.dataset
    folder = tmp_path / "qa"
    folder.mkdir()
    (folder / "arith_test.jsonl").write_text(json.dumps({"query": "2+2?", "response": "4"}) + "\n", encoding="utf-8")
    opts.task.setText("general_qa")
    field.edit.setText(str(folder))
    assert not field.note.isHidden() and "default_test.jsonl" in field.note.text()
    opts.subset.setText("arith")
    assert field.note.isHidden()


def test_subset_and_template_are_saved_and_an_old_project_opens(pages, tmp_path):
    page = pages()
    opts = page.quality_options
    changed = []
    page.inputs_changed.connect(lambda *_: changed.append(1))
    opts.task.setText("ceval")
    opts.subset.setText("high_school_physics")
    opts.template.setText("{question}")
    assert not changed  # programmatic text is not a user edit
    opts.subset.textEdited.emit("high_school_physics")
    assert changed  # a user's edit marks the project modified
    path = tmp_path / "mine.advisor.json"
    save_project(Project(ab=page.ab_section()), path)
    saved = json.loads(path.read_text(encoding="utf-8"))["ab"]
    assert saved["task_subset"] == "high_school_physics" and saved["task_prompt_template"] == "{question}"
    other = pages()
    other.apply_project(load_project(path))
    assert other.quality_options.subset.text() == "high_school_physics"
    assert other.quality_options.template.text() == "{question}"
    for key in ("task_subset", "task_prompt_template"):  # saved before the fields existed: opens, both empty
        del saved[key]
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), "ab": saved}), encoding="utf-8")
    other.apply_project(load_project(path))
    assert other.quality_options.subset.text() == "" and other.quality_options.template.text() == ""


def test_the_run_hands_subset_and_template_to_the_core_function(pages, tmp_path, qtbot, monkeypatch):
    """The page's worker → run_ab → compare_task, the function `advisor ab --task-subset --task-template` reaches:
    both arrive as the fields hold them. Only compare_task (where EvalScope would start) is replaced."""
    seen = record_compare_task(monkeypatch)
    page = pages()
    with simulated_sides(page):
        page.answers.setValue(1)
        page.requests.setValue(2)
        page.concurrency.setText("1")
        opts = page.quality_options
        opts.task.setText("general_qa")
        opts.task_limit.setValue(2)
        opts.subset.setText(" arith ")
        opts.template.setText("Q: {query}")
        result = run_to_result(page, qtbot)
    assert page.errors == [] and result.status == "completed"
    assert seen["task"] == "general_qa" and seen["subset"] == "arith" and seen["prompt_template"] == "Q: {query}"
    assert result.config.task_subset == "arith" and result.config.task_prompt_template == "Q: {query}"


# -- the glossary's word for a benchmark ---------------------------------------------------------------------------
def test_zh_load_test_messages_say_ya_ce_as_the_glossary_does():
    """GLOSSARY: stress / load test = 压测. 基准测试 crept into the store, CLI and history messages."""
    zh = catalog("zh_CN")
    stale = sorted(k for k, v in zh.items() if "基准测试" in v)
    assert stale == []
    assert "压测数据库" in zh["bench.store.io_error"] and "压测内部错误" in zh["bench.cli.internal_error"]


def test_subset_and_template_are_absent_without_the_extra(qtbot, monkeypatch):
    import ui.widgets.ab_quality as widget
    from ui.widgets.ab_quality import AbQualityOptions

    monkeypatch.setattr(widget, "available", lambda: False)
    opts = AbQualityOptions()
    qtbot.addWidget(opts)
    opts.show()
    assert not opts.subset.isVisible() and not opts.template.isVisible() and opts.task_missing.isVisible()
    opts.task.setText("ceval")  # hidden fields send nothing: no task goes out without the extra
    opts.subset.setText("x")
    assert "task_subset" not in opts.overrides()
