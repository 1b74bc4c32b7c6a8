"""Issue #30: the judge on the Quantization A/B page. A rubric sample file against two simulated servers, a judge
on loopback named on the page: both sides' rubric answers are scored by it with the key typed on the page, the
page says who judged, the judge's prompt is shown on request (both languages), and the project file keeps the
judge's URL (without credentials) and model, never its key."""

from __future__ import annotations

import json

import pytest

from advisor.domain.project import Project
from advisor.i18n import set_language
from tests.support.judge_server import RUBRIC, JudgeHandler, judge_server
from tests.ui.ab_page_helpers import ab_pages, run_to_result, simulated_sides

KEY = "sk-page-judge-SECRET-42"


@pytest.fixture
def page(qtbot, tmp_path):
    """A Quantization A/B page on its own, with its own worker and database (tests/ui/ab_page_helpers.py)."""
    with ab_pages(qtbot, tmp_path) as make:
        yield make()


def test_the_page_runs_an_ab_with_a_judge(page, qtbot, tmp_path):
    samples = tmp_path / "support.jsonl"
    samples.write_text(json.dumps(RUBRIC) + "\n", encoding="utf-8")
    with simulated_sides(page), judge_server() as judge_url:
        page.prompts.setText(str(samples))
        page.requests.setValue(2)
        page.concurrency.setText("1")
        page.judge.url.setText(judge_url)
        page.judge.model.setText("judge-7b")
        page.judge.key.setText(KEY)
        result = run_to_result(page, qtbot)
        seen = list(JudgeHandler.seen)
    assert page.errors == []
    assert result.quality.judge == f"judge-7b @ {judge_url}" and result.quality.unjudged == 0
    assert len(seen) == 2 and all(s["auth"] == f"Bearer {KEY}" for s in seen)  # both sides, with the page's key
    assert "judge-7b" in page.verdict.text()  # who judged is said on the page

    section = page.ab_section()
    saved = Project(ab=section).model_dump_json()
    assert section.judge_url == judge_url and section.judge_model == "judge-7b"
    assert KEY not in saved and KEY not in page.copy_markdown()


def test_judge_fields_are_both_or_neither_and_credentials_are_not_saved(page):
    page.judge.url.setText("https://user:hunter2@judge.example/v1")
    assert page.judge.overrides() == {"judge_url": "https://user:hunter2@judge.example/v1", "judge_model": None}
    for name in ("A", "B"):
        page.sides[name]["url"].setText(f"http://127.0.0.1:9/{name}")
        page.sides[name]["model"].setText("m")
    assert page.config() is None and page.errors  # a URL without a model: AbConfig's message, shown
    assert "hunter2" not in page.ab_section().model_dump_json()
    page.judge.url.clear()
    page.judge.model.clear()
    assert page.judge.overrides() == {}


def test_a_judge_key_with_a_line_break_is_refused_before_sending(page):
    for name in ("A", "B"):
        page.sides[name]["url"].setText(f"http://127.0.0.1:9/{name}")
        page.sides[name]["model"].setText("m")
    page.judge.key.setText("sk-abc\r\nX-Evil: 1")
    assert page.config() is None and page.errors


def test_the_judge_prompt_is_shown_in_the_page_language(page):
    page.judge.show_prompt()
    text = page.judge.prompt_box.text()
    assert "{answer}" in text and "{rubric}" in text and "temperature 0" in text
    page.judge.prompt_box.close()
    set_language("zh_CN")
    page.retranslate()
    assert page.judge.prompt_button.text() == "评审提示词…"
    page.judge.show_prompt()
    assert "温度为 0" in page.judge.prompt_box.text() and "{answer}" in page.judge.prompt_box.text()
    page.judge.prompt_box.close()
