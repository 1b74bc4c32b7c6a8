"""The shell fixes of issue #11: wheel over the panel, CJK font check, live errors, Qt's own translations,
mnemonics in titles, the dark theme's left panel, and the image links of docs/ui.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from tests.ui.qt_input import wheel
from ui.widgets.wheel_guard import install_wheel_guard
from ui.widgets.wizard_common import dialog_title, strip_mnemonic

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def long_form(qtbot):
    install_wheel_guard(QApplication.instance())
    area = QScrollArea()
    area.setWidgetResizable(True)
    panel = QWidget()
    col = QVBoxLayout(panel)
    spins, combos = [], []
    for _i in range(30):
        spin = QSpinBox()
        spin.setRange(1, 16)
        combo = QComboBox()
        combo.addItems([str(n) for n in (1, 2, 4, 8, 16)])
        col.addWidget(spin)
        col.addWidget(combo)
        spins.append(spin)
        combos.append(combo)
    area.setWidget(panel)
    area.resize(300, 200)
    qtbot.addWidget(area)
    area.show()
    qtbot.waitExposed(area)
    return area, spins, combos


def test_wheel_over_an_unfocused_field_scrolls_the_panel_not_the_value(long_form):
    area, spins, combos = long_form
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    wheel(combos[0])
    wheel(spins[1])
    assert combos[0].currentIndex() == 0 and spins[1].value() == 1  # the values did not move
    assert bar.value() > 0  # the panel scrolled instead
    assert spins[1].focusPolicy() == Qt.FocusPolicy.StrongFocus  # the wheel never gives focus
    assert not spins[1].hasFocus()


def test_wheel_over_a_focused_field_still_changes_it(qtbot, long_form):
    area, spins, combos = long_form
    spin = spins[0]
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=2000)
    before = area.verticalScrollBar().value()
    wheel(spin, steps=1)
    assert spin.value() == 2
    assert area.verticalScrollBar().value() == before


def test_the_sizing_panel_is_guarded_too(qtbot, main_window):
    main_window.resize(1000, 420)
    page = main_window.sizing_page
    qtbot.waitUntil(lambda: page.inputs_scroll.verticalScrollBar().maximum() > 0, timeout=3000)
    page.gpu_count.setCurrentIndex(0)
    wheel(page.gpu_count, steps=-5)
    assert page.gpu_count.currentData() == 1  # was set to 16 by scrolling over it
    assert page.inputs_scroll.verticalScrollBar().value() > 0


# -- the CJK font check --------------------------------------------------------------------------------
def test_cjk_family_found_by_coverage_and_by_localised_names():
    from ui.fonts import chinese_families, find_cjk_family

    assert find_cjk_family(["DejaVu Sans", "文泉驿微米黑"]) == "文泉驿微米黑"
    assert find_cjk_family(["DejaVu Sans", "Noto Serif CJK SC", "Noto Sans CJK SC"]) == "Noto Sans CJK SC"
    assert find_cjk_family(["DejaVu Sans"]) is None
    found = find_cjk_family()
    assert found in chinese_families(), "the choice is a family that covers Simplified Chinese"


_NO_MODAL_SCRIPT = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox
    shown = []
    for name in ("warning", "critical", "information", "question"):
        setattr(QMessageBox, name, staticmethod(lambda *a, _n=name, **k: shown.append(_n)))
    QMessageBox.exec = lambda self: shown.append("exec")
    import ui.app
    app = QApplication([sys.argv[0]])
    QTimer.singleShot(800, app.quit)
    orig = ui.app.create_window
    holder = {}
    def spy(app, language=None):
        holder["w"] = orig(app, language)
        return holder["w"]
    ui.app.create_window = spy
    rc = ui.app.main([])
    w = holder["w"]
    w.set_modified(False)
    import json
    print("RESULT", json.dumps([w.cjk_font, len(shown), getattr(w, "missing_font_note", None) is None]))
    """
)


def test_no_modal_about_fonts_when_the_locale_is_not_generated(tmp_path):
    """LC_ALL=zh_CN.UTF-8 on a machine without that locale: Chinese renders, so nothing may pop up."""
    env = dict(os.environ, LC_ALL="zh_CN.UTF-8", LANG="zh_CN.UTF-8", QT_QPA_PLATFORM="offscreen",
               ADVISOR_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))  # fmt: skip
    out = subprocess.run([sys.executable, "-c", _NO_MODAL_SCRIPT], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("RESULT")), None)
    assert line is not None, out.stderr[-2000:]
    font, modals, no_note = json.loads(line.removeprefix("RESULT "))
    assert font, "a CJK font is installed on this machine and must be found"
    assert modals == 0, "no modal dialog at start"
    assert no_note


def test_missing_cjk_font_is_a_non_blocking_note(qtbot, monkeypatch):
    import ui.app

    monkeypatch.setattr(ui.app, "install_cjk_fallback", lambda app: None)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: pytest.fail("no modal for a missing font"))
    window = ui.app.create_window(QApplication.instance(), "en")
    qtbot.addWidget(window)
    try:
        note = window.missing_font_note
        assert "fonts-noto-cjk" in note.text() and "中文" in note.text()
        assert note.parent() is not None  # sits in the status bar, stays there
    finally:
        window.shutdown()


# -- language switch: errors already shown and Qt's own texts --------------------------------------------
def test_an_error_shown_before_a_language_switch_is_reworded(qtbot, main_window, tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text(
        json.dumps({"architectures": ["LlamaForCausalLM"], "hidden_size": "big"}), encoding="utf-8"
    )
    page = main_window.sizing_page
    assert page.import_config(bad) is False
    english = page.model_error.text()
    assert english and not re.search(r"[\u4e00-\u9fff]", english)
    main_window.set_language("zh_CN")
    chinese = page.model_error.text()
    assert not page.model_error.isHidden()
    assert re.search(r"[\u4e00-\u9fff]", chinese), chinese
    main_window.set_language("en")
    assert page.model_error.text() == english


def test_qt_own_dialog_texts_follow_the_language(qtbot, main_window):
    def cancel_text() -> str:
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        text = box.button(QDialogButtonBox.StandardButton.Cancel).text()
        box.deleteLater()
        return text

    assert cancel_text() == "Cancel"
    main_window.set_language("zh_CN")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    assert cancel_text() == "取消"
    main_window.set_language("en")
    assert cancel_text() == "Cancel"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_qtbase_chinese_ships_with_pyside6():
    from ui.app import qt_translations_dir

    assert (Path(qt_translations_dir()) / "qtbase_zh_CN.qm").is_file()


# -- mnemonics -------------------------------------------------------------------------------------------
def test_titles_carry_no_mnemonic():
    assert strip_mnemonic("&About Inference Advisor") == "About Inference Advisor"
    assert strip_mnemonic("另存为(&A)…") == "另存为…"
    assert strip_mnemonic("Save && Quit") == "Save & Quit"
    assert dialog_title("Save &As…") == "Save As"
    assert dialog_title("打开项目(&O)…") == "打开项目"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_about_and_file_dialog_titles_are_plain(main_window, monkeypatch, lang):
    titles: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: titles.append(title))
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda parent, title, *a, **k: (titles.append(title), ("", ""))[1]
    )
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", lambda parent, title, *a, **k: (titles.append(title), ("", ""))[1]
    )
    main_window.set_language(lang)
    main_window.show_about()
    main_window.ask_save_path()
    main_window.ask_open_path()
    assert len(titles) == 3
    for title in titles:
        assert "&" not in title and "…" not in title, title
    main_window.set_language("en")


# -- dark theme ------------------------------------------------------------------------------------------
def test_switching_to_dark_does_not_clip_the_left_panel(qtbot, main_window):
    page = main_window.sizing_page
    scroll = page.inputs_scroll

    def overflow() -> int:
        QApplication.processEvents()
        return scroll.widget().minimumSizeHint().width() - scroll.viewport().width()

    assert overflow() <= 0
    for theme in ("dark", "light", "dark"):
        main_window.apply_settings(main_window.settings.model_copy(update={"theme": theme}))
        assert overflow() <= 0, theme
        assert scroll.horizontalScrollBar().maximum() == 0, theme
    assert QApplication.instance().palette().window().color().lightness() < 128
    assert i18n.current_language() == "en"


# -- docs ------------------------------------------------------------------------------------------------
def test_doc_images_resolve_from_their_own_folder():
    missing = []
    for doc in [*ROOT.joinpath("docs").glob("*.md"), ROOT / "README.md"]:
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)", doc.read_text(encoding="utf-8")):
            if "://" not in target and not (doc.parent / target).is_file():
                missing.append(f"{doc.relative_to(ROOT)} → {target}")
    assert not missing, missing
