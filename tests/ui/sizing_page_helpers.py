"""Helpers the Sizing page's tests share: wait for the page's debounced re-size, and whether a field shows."""

from __future__ import annotations


def settle(qtbot, page):
    """Wait until the page's throttle has fired and its result is for the inputs as they stand."""
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert page.result is not None and page.result.request == page.inputs.request()


def shown(page, widget) -> bool:
    """Whether ``widget`` shows once the advanced settings are open."""
    page.advanced_toggle.setChecked(True)
    return widget.isVisibleTo(page.advanced_box)
