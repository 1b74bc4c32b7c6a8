"""Charts built the first time they are shown or read, not when their page is built.

A pyqtgraph plot costs ~35 ms of CPU to create (its axes, its view box and the context menus of both), and the
main window held 17 of them, most on tabs a session may never open (Benchmark, History): ~30 % of the window's
start-up. The chart area itself (a ``GraphicsLayoutWidget``, cheap) is made as before, so its place in the layout,
its background and a stale mark's greying stay the same; ``LazyCharts`` fills it with the plots at its first show.
A widget that owns lazy charts (``LazyChartsOwner``) also builds them the first time code reads one of their
attributes (a result drawn while its tab is hidden, a test reading a curve), so every reader sees the same charts
as before. docs/measurements/2026-12-06-test-speed-29.md has the figures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class LazyCharts(QObject):
    """Runs ``build`` (which fills ``area``) at the area's first show or at ``ensure()``, once."""

    def __init__(self, area: QWidget, build: Callable[[], None]) -> None:
        super().__init__(area)
        self._area = area
        self._build: Callable[[], None] | None = build
        self.built = False
        self.building = False
        area.installEventFilter(self)

    def ensure(self) -> None:
        if self._build is None:
            return
        build, self._build = self._build, None
        self._area.removeEventFilter(self)
        self.building = True
        try:
            build()
        finally:
            self.building = False
        self.built = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Show:
            self.ensure()
        return False


class LazyChartsOwner:
    """Mixin for a widget whose chart attributes (``LAZY_CHART_ATTRS``) are made by its ``LazyCharts`` (kept in
    ``self._charts``): reading one before the charts exist builds them first."""

    LAZY_CHART_ATTRS: frozenset[str] = frozenset()

    def __getattr__(self, name: str) -> Any:
        charts = self.__dict__.get("_charts") if name in type(self).LAZY_CHART_ATTRS else None
        if charts is None or charts.building or charts.built:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        charts.ensure()
        return object.__getattribute__(self, name)

    @property
    def charts_built(self) -> bool:
        charts = self.__dict__.get("_charts")
        return charts is not None and charts.built


class LazyAliases:
    """Mixin for a page that names its panels' widgets under its own names (``alias``): a lazy chart's name is
    read through its owner when asked for, so that naming it does not build it."""

    def alias(self, owner: Any, names: tuple[str, ...]) -> None:
        lazy = getattr(owner, "LAZY_CHART_ATTRS", frozenset())
        aliases = self.__dict__.setdefault("_lazy_aliases", {})
        for name in names:
            if name in lazy:
                aliases[name] = owner
            else:
                setattr(self, name, getattr(owner, name))

    def __getattr__(self, name: str) -> Any:
        owner = self.__dict__.get("_lazy_aliases", {}).get(name)
        if owner is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(owner, name)
