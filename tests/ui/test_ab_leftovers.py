"""Issue #26 item 9, the Quantization A/B page: it follows the Sizing page's model, GPU and format (and says so),
its built-in prompts are in the app's language, and its settings are saved and reopened with the project."""

from __future__ import annotations

import pytest

from advisor.bench.ab import load_prompts
from advisor.catalog import load_gpus, load_models
from ui.widgets.ab_sims import select


def _pick_on_sizing(window, model_id: str, gpu_id: str, weights: str) -> None:
    model = next(m for m in load_models() if m.id == model_id)
    gpu = next(g for g in load_gpus() if g.id == gpu_id)
    window.sizing_page.inputs.update(model=model, gpu=gpu, weights=weights)


def _show_ab(qtbot, window):
    window.tabs.setCurrentWidget(window.ab_page)
    qtbot.waitUntil(window.ab_page.isVisible, timeout=3000)
    return window.ab_page


def test_the_ab_page_takes_the_sizing_pages_model_gpu_and_format_and_says_so(qtbot, main_window):
    _pick_on_sizing(main_window, "qwen2.5-14b-instruct", "l40s", "awq-int4")
    page = _show_ab(qtbot, main_window)
    assert page.sims.model.currentData() == "qwen2.5-14b-instruct"
    assert page.sims.gpu.currentData() == "l40s"
    assert page.sims.fmt_a.currentData() == "bf16" and page.sims.fmt_b.currentData() == "awq-int4"
    # the GPU is listed by its name, not its catalog id
    assert page.sims.gpu.currentText() == next(g.name for g in load_gpus() if g.id == "l40s") != "l40s"
    assert "Sizing page" in page.sims.source.text() and page.sims.gpu.currentText() in page.sims.source.text()
    # a later change on the Sizing page follows while the user has not picked here
    main_window.tabs.setCurrentWidget(main_window.sizing_page)
    _pick_on_sizing(main_window, "llama-3.1-8b-instruct", "l4", "fp8")
    page = _show_ab(qtbot, main_window)
    assert page.sims.model.currentData() == "llama-3.1-8b-instruct" and page.sims.fmt_b.currentData() == "fp8"
    # the user's own pick wins from then on, and the label says whose it is
    page.sims.gpu.setCurrentIndex(page.sims.gpu.findData("a10"))
    page.sims.gpu.activated.emit(page.sims.gpu.currentIndex())
    assert "chosen on this page" in page.sims.source.text()
    main_window.tabs.setCurrentWidget(main_window.sizing_page)
    _pick_on_sizing(main_window, "qwen2.5-14b-instruct", "l40s", "awq-int4")
    page = _show_ab(qtbot, main_window)
    assert page.sims.gpu.currentData() == "a10" and page.sims.model.currentData() == "llama-3.1-8b-instruct"


@pytest.mark.parametrize(("lang", "script"), [("zh_CN", "\u4e00"), ("en", "a")])
def test_the_built_in_prompts_are_in_the_apps_language(qtbot, main_window, lang, script):
    page = _show_ab(qtbot, main_window)
    main_window.set_language(lang)
    try:
        page.sides["A"]["url"].setText("http://127.0.0.1:8000")
        page.sides["A"]["model"].setText("m")
        page.sides["B"]["model"].setText("m-awq")
        config = page.config()
        assert config is not None and config.language == lang[:2]
        prompts = load_prompts(config)
        cjk = sum(any("\u4e00" <= ch <= "\u9fff" for ch in p.text) for p in prompts)
        assert (cjk == len(prompts)) if lang == "zh_CN" else cjk == 0
        assert ("中文" if lang == "zh_CN" else "English") in page.prompts.placeholderText()
    finally:
        main_window.set_language("en")


def test_the_ab_settings_are_saved_with_the_project_and_come_back(qtbot, main_window, tmp_path):
    page = _show_ab(qtbot, main_window)
    page.sides["A"]["url"].setText("http://10.0.0.5:8000")
    page.sides["A"]["model"].setText("qwen-bf16")
    page.sides["B"]["url"].setText("http://10.0.0.6:8000")
    page.sides["B"]["model"].setText("qwen-awq")
    page.sides["B"]["label"].setText("awq")
    select(page.sims.gpu, "a10")
    page.sims.gpu.activated.emit(page.sims.gpu.currentIndex())
    page.answers.setValue(5)
    page.requests.setValue(30)
    page.concurrency.setText("2, 8")
    page.max_tokens.setValue(300)
    page.quality_options.builtin.setChecked(True)
    page.quality_options.drop.setValue(5.0)
    assert main_window.modified  # an A/B edit is an unsaved change
    path = tmp_path / "ab.advisor.json"
    assert main_window._write_project(path)
    main_window.new_project()  # a new project starts the A/B afresh
    assert page.sides["B"]["model"].text() == "" and page.answers.value() == 8 and page.concurrency.text() == "1,4"
    assert not page.quality_options.builtin.isChecked() and page.sims.origin == "default"
    assert main_window.open_project(path)
    assert page.sides["A"]["url"].text() == "http://10.0.0.5:8000" and page.sides["B"]["model"].text() == "qwen-awq"
    assert page.sides["B"]["label"].text() == "awq" and page.sims.gpu.currentData() == "a10"
    assert (page.answers.value(), page.requests.value(), page.concurrency.text(), page.max_tokens.value()) == \
        (5, 30, "2,8", 300)
    assert page.quality_options.builtin.isChecked() and page.quality_options.drop.value() == 5.0
    assert page.sims.origin == "user" and "chosen on this page" in page.sims.source.text()
