"""Building a Quantization A/B page alone for a test (the ab_page fixtures and tests that need their own runner)."""

from __future__ import annotations


def new_ab_page(qtbot, tmp_path, runner):
    """A Quantization A/B page on its own with ``runner`` and its own database; errors are collected in
    ``page.errors`` instead of a dialog (shared by the fixtures in tests/ui/conftest.py and tests that build one themselves)."""
    from ui.pages.ab import AbPage

    page = AbPage(runner, db_path=tmp_path / "bench.sqlite3")
    qtbot.addWidget(page)
    page.errors = []
    page.show_error = lambda title, text: page.errors.append(text)
    page.show()
    return page
