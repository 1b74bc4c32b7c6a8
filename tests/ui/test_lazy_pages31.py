"""The main window builds a page when it is first needed (issue #27: start-up and the UI tests' windows), and a page
built late is the same as one built at start-up: in its tab, in the current language and theme, with the open
project's key; nothing else is built on the way."""

from __future__ import annotations

from advisor import i18n
from advisor.bench.history import project_key
from advisor.i18n import tr
from ui.main_window_pages import PAGE_TABS

LATER = [name for name, _key in PAGE_TABS if name != "sizing_page"]


def _built(window) -> list[str]:
    return [name for name, _key in PAGE_TABS if window.built_page(name) is not None]


def test_only_the_tab_shown_at_start_up_is_built_and_every_tab_is_titled(main_window):
    assert _built(main_window) == ["sizing_page"]
    assert main_window.tabs.currentWidget() is main_window.sizing_page
    titles = [main_window.tabs.tabText(i) for i in range(main_window.tabs.count())]
    assert titles == [tr(key) for _name, key in PAGE_TABS]


def test_a_tab_activated_builds_its_page_in_its_place_and_nothing_else(qtbot, main_window):
    tabs = main_window.tabs
    count = tabs.count()
    for index, (name, key) in enumerate(PAGE_TABS):
        tabs.setCurrentIndex(index)  # what a click on the tab does
        page = main_window.built_page(name)
        assert page is not None and tabs.currentWidget() is page and tabs.indexOf(page) == index
        qtbot.waitUntil(page.isVisible, timeout=3000)
        assert tabs.count() == count and tabs.tabText(index) == tr(key)
        assert _built(main_window) == [n for n, _k in PAGE_TABS[: index + 1]]


def test_reading_a_page_builds_it_without_switching_tabs(main_window):
    history = main_window.history_page
    assert main_window.tabs.currentWidget() is main_window.sizing_page
    assert main_window.tabs.indexOf(history) == 3 and not history.isVisible()
    assert _built(main_window) == ["sizing_page", "history_page"]
    assert main_window.history_page is history  # built once


def test_pages_built_after_a_language_switch_are_in_that_language(qtbot, main_window):
    main_window.set_language("zh_CN")
    try:
        for name in LATER:
            main_window.page(name)
        assert main_window.history_page.title.text() == i18n.translate("zh_CN", "history.page.title")
        assert main_window.tabs.tabText(4) == i18n.translate("zh_CN", "history.page.tab_ab")
        main_window.set_language("en")  # and a switch reaches them once built
        assert main_window.history_page.title.text() == i18n.translate("en", "history.page.title")
    finally:
        main_window.set_language("en")


def test_a_page_built_after_the_theme_changed_shows_in_that_theme(qtbot, main_window):
    main_window.apply_settings(main_window.settings.model_copy(update={"theme": "dark"}))
    try:
        assert main_window.built_page("benchmark_page") is None  # not built by the switch
        bench = main_window.benchmark_page
        main_window.tabs.setCurrentWidget(bench)
        qtbot.waitUntil(bench.isVisible, timeout=3000)
        assert bench._dark
    finally:
        main_window.apply_settings(main_window.settings.model_copy(update={"theme": "light"}))


def test_a_page_built_after_a_project_was_opened_stores_its_runs_with_it(qtbot, main_window, tmp_path):
    from advisor.project import save_project

    path = tmp_path / "p.advisor.json"
    save_project(main_window.sizing_page.to_project(), path)
    assert main_window.open_project(path)
    key = project_key(path)
    assert main_window.built_page("history_page") is None  # opening a project gives History nothing to load
    assert main_window.history_page.project_id == key  # built now: it lists this project's runs
    assert main_window.benchmark_page.project_id == key and main_window.ab_page.project_id == key

    main_window.new_project()  # unsaved again: no key for any page, built or not
    assert main_window.history_page.project_id is None and main_window.benchmark_page.project_id is None


def test_a_new_project_builds_no_page_and_closing_stops_only_those_built(main_window):
    main_window.new_project()
    assert _built(main_window) == ["sizing_page"]
    main_window.shutdown()  # the fixture closes it again: stopping twice is harmless
    assert _built(main_window) == ["sizing_page"]
