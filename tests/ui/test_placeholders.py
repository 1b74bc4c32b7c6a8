"""Issue #26 item 9: no field shows a value-looking placeholder as if it were filled in. An empty URL field greyed
"http://127.0.0.1:8000" read as the URL already entered, and Connect then said "Enter the server's URL": every
placeholder that looks like a value (a URL, a task list) now reads as an example, in the UI's language."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit

from advisor.i18n import tr
from ui.main_window_pages import PAGE_TABS


@pytest.mark.parametrize("pages_built", ["before the switch", "after the switch"])
@pytest.mark.parametrize(("lang", "prefix"), [("en", "e.g. "), ("zh_CN", "例如 ")])
def test_value_looking_placeholders_read_as_examples(qtbot, main_window, lang, prefix, pages_built):
    # the window builds a page when it is first needed: one built before the switch is translated by it, one built
    # after it is made in the language of then; both must read the same
    every_page = [name for name, _key in PAGE_TABS]
    if pages_built == "before the switch":
        for name in every_page:
            main_window.page(name)
    main_window.set_language(lang)
    try:
        for name in every_page:
            main_window.page(name)
        edits = main_window.findChildren(QLineEdit)
        looks_like_a_value = [e for e in edits if "://" in e.placeholderText() or "gsm8k" in e.placeholderText()]
        # the Benchmark URL and exporter, A's and B's URLs on the A/B page, the A/B task field (when shown or not)
        assert len(looks_like_a_value) >= 5
        assert all(e.placeholderText().startswith(prefix) for e in looks_like_a_value), \
            [e.placeholderText() for e in looks_like_a_value]
    finally:
        main_window.set_language("en")


def test_an_empty_url_field_is_empty_to_the_page_too(qtbot, main_window):
    page = main_window.benchmark_page
    page.url_radio.setChecked(True)
    assert page.url_edit.text() == "" and page.target_url() is None
    assert page.url_edit.placeholderText() == tr("ui.placeholder.example", value="http://127.0.0.1:8000")
    page.connect_target()
    assert "Enter the server's URL" in page.probe_label.text()
