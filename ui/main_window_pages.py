"""The main window's pages, each built the first time it is needed: its tab is activated, or code reads it.

Only the Sizing page (the tab shown at start-up) is built with the window. The others' tabs hold an empty stand-in
until then, and the built page takes its place in the same tab. The Wizard, Benchmark, History and A/B pages were
~40 % of the window's build (issue #27: start-up, and ~60 UI tests that build a window); a session that never
opens the A/B tab no longer pays for it. Whatever reaches a page (menus, projects, the welcome banner, one page
asking for another, tools and tests) reads ``window.<name>_page``, which builds it on first use, so nobody sees
a difference. A page built late builds in the current language and theme (each page translates itself when made
and follows the palette when shown) and takes the open project's key here (``_page_joined``); the window's
language switch, theme change and shutdown go to the pages built so far (``built_pages``).
docs/measurements/2026-12-06-test-time-31.md has the figures.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QTabWidget, QWidget

# (attribute, tab title key), in tab order
PAGE_TABS: tuple[tuple[str, str], ...] = (
    ("sizing_page", "ui.page.sizing"),
    ("benchmark_page", "ui.page.benchmark"),
    ("wizard_page", "ui.page.wizard"),
    ("history_page", "ui.page.history"),
    ("ab_page", "history.page.tab_ab"),
)


class _NotBuiltYet(QWidget):
    """A tab's stand-in until its page is built (at the tab's first activation, before it is ever painted)."""


class PagesMixin:
    """Part of :class:`ui.main_window.MainWindow`: builds each page (``_make_<name>``) once, when first needed."""

    tabs: QTabWidget

    def _add_page_tabs(self) -> None:
        self._built_pages: dict[str, QWidget] = {}
        self._swapping_tab = False
        for _name, _key in PAGE_TABS:
            self.tabs.addTab(_NotBuiltYet(), "")
        self.tabs.currentChanged.connect(self._build_shown_tab)

    def page(self, name: str) -> Any:
        """The page ``name`` (an attribute of PAGE_TABS), built now if it was not yet."""
        built = self._built_pages.get(name)
        return built if built is not None else self._build_page(name)

    def built_page(self, name: str) -> Any:
        """The page ``name`` if it was built, else None (then there is nothing of it to update)."""
        return self._built_pages.get(name)

    def built_pages(self) -> list[QWidget]:
        """The pages built so far, in tab order."""
        return [self._built_pages[name] for name, _key in PAGE_TABS if name in self._built_pages]

    @property
    def sizing_page(self) -> Any:
        return self.page("sizing_page")

    @property
    def benchmark_page(self) -> Any:
        return self.page("benchmark_page")

    @property
    def wizard_page(self) -> Any:
        return self.page("wizard_page")

    @property
    def history_page(self) -> Any:
        return self.page("history_page")

    @property
    def ab_page(self) -> Any:
        return self.page("ab_page")

    def _build_shown_tab(self, index: int) -> None:
        if not self._swapping_tab and 0 <= index < len(PAGE_TABS):
            self.page(PAGE_TABS[index][0])

    def _build_page(self, name: str) -> QWidget:
        w: Any = self
        index = [tab for tab, _key in PAGE_TABS].index(name)
        page = getattr(w, f"_make_{name}")()
        self._built_pages[name] = page
        stand_in = self.tabs.widget(index)
        was_current = self.tabs.currentIndex() == index
        self._swapping_tab = True
        try:  # the page goes in beside its stand-in and becomes current before the stand-in leaves: no other
            # tab is shown in between (a page's first show has effects, such as the wizard's prefill)
            self.tabs.insertTab(index, page, self.tabs.tabText(index))
            if was_current:
                self.tabs.setCurrentIndex(index)
            self.tabs.removeTab(index + 1)
        finally:
            self._swapping_tab = False
        stand_in.deleteLater()
        self._page_joined(name, page)
        return page

    def _page_joined(self, name: str, page: Any) -> None:
        """What the window told the pages built before, told to a page built now: the open project's key."""
        from advisor.bench.history import project_key

        w: Any = self
        key = project_key(w.project_path) if w.project_path else None
        if name in ("benchmark_page", "ab_page"):
            page.project_id = key
        elif name == "history_page":
            page.set_project(key)
