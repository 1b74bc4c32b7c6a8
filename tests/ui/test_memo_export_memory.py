"""Issue #26 item 9: the memo export dialog remembers the last language, format and folder (in the app's
QSettings, so across restarts), instead of starting from the UI language and the home folder every time."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog

from tests.ui.test_wizard import scenario, walk_to_result
from ui.pages.wizard import ExportDialog


def test_the_export_dialog_comes_back_with_the_last_language_and_format(qtbot, main_window):
    first = ExportDialog(main_window.wizard_page)
    qtbot.addWidget(first)
    assert first.choice() == (".pdf", "en")  # the first time: PDF in the UI's language
    first.md.setChecked(True)
    first.lang.setCurrentIndex(first.lang.findData("zh_CN"))
    first.accept()
    again = ExportDialog(main_window.wizard_page)
    qtbot.addWidget(again)
    assert again.choice() == (".md", "zh_CN")
    cancelled = ExportDialog(main_window.wizard_page)
    qtbot.addWidget(cancelled)
    cancelled.pdf.setChecked(True)
    cancelled.reject()  # a cancelled dialog changes nothing
    assert ExportDialog(main_window.wizard_page).choice() == (".md", "zh_CN")


def test_the_save_dialog_opens_in_the_folder_of_the_last_memo(qtbot, main_window, tmp_path, monkeypatch):
    page = main_window.wizard_page
    main_window.tabs.setCurrentWidget(page)
    qtbot.waitUntil(page.isVisible, timeout=3000)
    walk_to_result(qtbot, page, scenario("01")["answers"])
    monkeypatch.setattr(page, "reveal", lambda path: None)
    monkeypatch.setattr(page, "confirm_overwrite", lambda path: True)
    suggested: list[str] = []
    memos = tmp_path / "memos"
    memos.mkdir()

    def save_dialog(_parent, _title, start, _filters, **_kw):
        suggested.append(start)
        return str(memos / "decision.md"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    monkeypatch.setattr(page, "ask_export", lambda: (".md", "en"))
    assert page.export_memo() == memos / "decision.md"
    assert page.export_memo() is not None
    assert not str(suggested[0]).startswith(str(memos))
    assert str(suggested[-1]).startswith(str(memos))  # the second export starts where the first went
