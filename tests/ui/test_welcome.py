"""First run: the hints above the pages open the page they name, and once dismissed stay dismissed."""

from advisor import i18n
from advisor.settings import load_settings


def _window(qtbot):
    from PySide6.QtWidgets import QApplication

    from ui.app import create_window

    window = create_window(QApplication.instance(), "en")
    qtbot.addWidget(window)
    return window


def test_first_run_shows_the_hints_and_opens_the_pages(qtbot):
    window = _window(qtbot)
    window.show()
    assert window.welcome.isVisible()
    assert window.tabs.currentWidget() is window.sizing_page
    # The worked example the first hint promises is what the Sizing page shows.
    assert window.settings.sizing_defaults.model_id == "qwen2.5-7b-instruct"
    assert "Qwen2.5-7B" in window.welcome.hint_labels[0].text()
    for page in ("benchmark_page", "wizard_page", "history_page"):
        window.welcome.buttons[page].click()
        assert window.tabs.currentWidget() is getattr(window, page)
    window.set_modified(False) if hasattr(window, "set_modified") else None


def test_dismissed_hints_stay_dismissed_across_restarts(qtbot):
    window = _window(qtbot)
    window.show()
    window.welcome.close_button.click()
    assert not window.welcome.isVisible()
    assert load_settings().settings.show_welcome is False
    again = _window(qtbot)
    again.show()
    assert not again.welcome.isVisible()


def test_hints_follow_the_language(qtbot):
    window = _window(qtbot)
    window.set_language("zh_CN")
    assert window.welcome.title.text() == i18n.translate("zh_CN", "ui.welcome.title")
    assert "模拟服务器" in window.welcome.hint_labels[1].text()
    window.set_language("en")
    assert "simulated server" in window.welcome.hint_labels[1].text()
