"""The main window: pages, GPU state, About, language switch (live), settings, `advisor gui`."""

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from advisor import __version__, i18n
from advisor.settings import Settings, load_settings
from ui.fonts import find_cjk_family


def test_one_page_per_job_and_placeholders_say_what_is_coming(main_window):
    tabs = main_window.tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Sizing", "Benchmark", "Wizard", "History",
                                                             "Quantization A/B"]
    assert "concurrency" in main_window.benchmark_page.body.text()
    assert main_window.wizard_page.title.text()  # the decision wizard (issue #11), no longer a placeholder
    assert main_window.windowTitle().endswith("Inference Advisor")


def test_gpu_state_is_queried_off_the_gui_thread_and_shown(qtbot, main_window):
    qtbot.waitUntil(lambda: "checking" not in main_window.gpu_label.text(), timeout=10000)
    text = main_window.gpu_label.text()
    assert text.startswith("NVIDIA GPU") or "No NVIDIA GPU" in text or "unavailable" in text


def test_about_mentions_version_and_font(main_window):
    text = main_window.about_text()
    assert __version__ in text
    assert (main_window.cjk_font or "install fonts-noto-cjk") in text


def test_a_cjk_font_is_found():
    family = find_cjk_family()
    assert family is not None, "install fonts-noto-cjk: Chinese would render as boxes"
    assert find_cjk_family(["DejaVu Sans", "WenQuanYi Zen Hei"]) == "WenQuanYi Zen Hei"
    assert find_cjk_family(["DejaVu Sans"]) is None
    assert family in QApplication.instance().font().families()


def test_language_switch_is_live_and_remembered(qtbot, main_window):
    page = main_window.sizing_page
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    en_verdict = page.verdict.text()
    main_window.set_language("zh_CN")
    tabs = main_window.tabs
    assert tabs.tabText(0) == "规模估算"
    assert tabs.tabText(1) == "压测"
    assert main_window.menu_file.title() == "文件(&F)"
    assert page.label_concurrency.text() == "并发"
    assert page.numbers["ttft"].text().endswith("ms")
    assert page.number_names["ttft"].text() == "首 token 延迟（TTFT）"
    assert re.search(r"[\u4e00-\u9fff]", page.verdict.text()) and page.verdict.text() != en_verdict
    assert main_window.benchmark_page.title.text() == "压测"
    assert load_settings().settings.language == "zh_CN"  # persisted in the config dir
    main_window.set_language("en")
    assert tabs.tabText(0) == "Sizing"
    assert page.verdict.text() == en_verdict


def test_settings_dialog_applies_language_theme_and_defaults(qtbot, main_window, monkeypatch):
    from ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(main_window.settings, main_window)
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.context.setValue(16384)
    dialog.gpu.setCurrentIndex(dialog.gpu.findData("h20-96g"))
    new = dialog.result_settings()
    assert (new.language, new.theme, new.sizing_defaults.context, new.sizing_defaults.gpu_id) == ("zh_CN", "dark", 16384, "h20-96g")
    main_window.apply_settings(new)
    assert i18n.current_language() == "zh_CN"
    assert main_window.tabs.tabText(0) == "规模估算"
    assert QApplication.instance().palette().window().color().lightness() < 128
    saved = load_settings().settings
    assert saved.theme == "dark" and saved.sizing_defaults.gpu_id == "h20-96g"
    main_window.new_project()  # a new project starts from the defaults
    assert main_window.sizing_page.inputs.fields["gpu"].id == "h20-96g"
    assert main_window.sizing_page.inputs.fields["context"] == 16384
    main_window.apply_settings(new.model_copy(update={"theme": "light", "language": "en"}))
    assert main_window.tabs.tabText(0) == "Sizing"


def test_starts_in_the_system_language(qtbot, monkeypatch):
    from ui.app import create_window

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert Settings().language == "system"
    window = create_window(QApplication.instance())
    qtbot.addWidget(window)
    try:
        assert window.tabs.tabText(0) == "规模估算"
    finally:
        window.shutdown()


def test_dynamic_translation_keys_exist():
    """Keys built at run time (f-strings) are not seen by tests/core/test_i18n.py; list them here."""
    from ui.pages.sizing import SizingPage
    from ui.widgets.catalog_table import COLUMNS
    from ui.widgets.sizing_overview import NAME_KEYS

    # The overview names a number by NAME_KEYS when it has one there, else by ui.num.<key> (as it does itself).
    keys = [NAME_KEYS.get(k, f"ui.num.{k}") for k in (*SizingPage.MEMORY_NUMBERS, *SizingPage.SPEED_NUMBERS)]
    keys += [f"ui.table.{c}" for c in COLUMNS] + [f"ui.table.tip.{c}" for c in COLUMNS]
    keys += [f"ui.bound.{b}" for b in ("compute", "bandwidth", "front_end")]
    keys += [f"ui.sizing.explain_prefill.{b}" for b in ("compute", "bandwidth")]
    keys += [f"ui.sizing.explain_decode.{b}" for b in ("compute", "bandwidth", "front_end")]
    keys += [f"calc.bound.{b}" for b in ("compute", "bandwidth", "front_end")]
    keys += [f"ui.limit.{k}" for k in ("kv_cache", "max_num_seqs", "weights")]
    keys += [f"ui.settings.theme_{t}" for t in ("system", "light", "dark")]
    keys += [f"ui.curve.reason.{r}" for r in ("kv_cache", "queueing", "compute")]
    for lang in i18n.LANGUAGES:
        missing = [k for k in keys if k not in i18n.catalog(lang)]
        assert missing == [], lang


def test_advisor_gui_command_launches_the_app(monkeypatch):
    import ui.app
    from advisor.cli import main

    calls = []
    monkeypatch.setattr(ui.app, "main", lambda argv=None: calls.append(argv) or 0)
    assert main(["gui", "--lang", "zh_CN"]) == 0
    assert calls == [["--lang", "zh_CN"]]


@pytest.mark.parametrize("path", ["ui/app.py", "advisor/cli/gui.py"])
def test_entry_points_exist(path):
    assert (Path(__file__).resolve().parents[2] / path).is_file()


def test_damaged_user_gpu_file_does_not_stop_the_app(qtbot, monkeypatch):
    from advisor.catalog import user_gpus_path
    from ui.app import create_window

    user_gpus_path().write_text("[{broken", encoding="utf-8")
    window = create_window(QApplication.instance(), "en")
    qtbot.addWidget(window)
    try:
        page = window.sizing_page
        assert page.choices.gpus, "the built-in catalog is still there"
        assert page.startup_problem and "built-in GPUs" in page.startup_problem
        qtbot.waitUntil(lambda: "built-in GPUs" in window.statusBar().currentMessage(), timeout=3000)
    finally:
        window.shutdown()


def test_missing_cjk_font_is_told_not_hidden(qtbot, monkeypatch):
    import ui.app

    monkeypatch.setattr(ui.app, "install_cjk_fallback", lambda app: None)
    window = ui.app.create_window(QApplication.instance(), "zh_CN")
    qtbot.addWidget(window)
    try:
        assert window.cjk_font is None
        assert "fonts-noto-cjk" in window.statusBar().currentMessage()
        assert "fonts-noto-cjk" in window.about_text()
        both = ui.app.translate_both("ui.font.missing_cjk")
        assert "Chinese" in both and "中文" in both  # readable even when the Chinese half shows as boxes
    finally:
        window.shutdown()
