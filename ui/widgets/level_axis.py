"""A log-scale concurrency axis that labels the measured levels (1, 2, 4 … 16, 20 …) without overlap.

The latency chart marked each concurrency level with a fixed tick label; on a log axis 16 and 20 sit 0.1 decade
apart, so at the chart's usual width their labels ran into each other ("1620"). This axis keeps a tick at every
level but labels only those that fit at the axis's current length in pixels and tick font: left to right, a
label is kept when it clears the previous kept one, and the last level is always labelled (it replaces the
kept label before it if the two would touch). Unlabelled levels keep their tick, so no level disappears.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

_PADDING_PX = 4.0  # empty space kept between two labels


class LevelAxis(pg.AxisItem):
    """Bottom axis of a log-x plot: ticks at the given levels; labels where they fit."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._levels: list[float] = []
        # level 0 is labelled, level 1 (the levels whose labels would collide) carries ticks only
        self.setStyle(maxTextLevel=0, textFillLimits=[])

    def set_levels(self, levels: Iterable[float]) -> None:
        self._levels = sorted({float(v) for v in levels if v > 0})
        self.picture = None  # redraw with the new ticks
        self.update()

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802,N803 (pyqtgraph's names)
        if not self._levels:
            return super().logTickValues(minVal, maxVal, size, stdTicks)
        lo, hi = sorted((float(minVal), float(maxVal)))
        logs = [math.log10(v) for v in self._levels]
        in_view = [v for v in logs if lo - 1e-9 <= v <= hi + 1e-9]
        labelled = self.labelled(in_view, size / (hi - lo) if hi > lo else 0.0)
        rest = [v for v in in_view if v not in labelled]
        return [(None, labelled), (None, rest)]

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [_label(v) for v in values]

    def labelled(self, logs: list[float], px_per_decade: float) -> list[float]:
        """The levels (log10 values, ascending) that get a label at this scale."""
        if len(logs) < 2 or px_per_decade <= 0:
            return list(logs)
        fm = QFontMetricsF(self.style["tickFont"] if self.style["tickFont"] is not None else QFont())
        width = {v: fm.horizontalAdvance(_label(v)) for v in logs}

        def clear(a: float, b: float) -> bool:
            return (b - a) * px_per_decade >= (width[a] + width[b]) / 2 + _PADDING_PX

        kept = [logs[0]]
        for v in logs[1:]:
            if clear(kept[-1], v):
                kept.append(v)
        last = logs[-1]
        if kept[-1] != last:
            while len(kept) > 1 and not clear(kept[-1], last):
                kept.pop()
            kept.append(last)
        return kept


def _label(log_value: float) -> str:
    return f"{round(10**log_value):,}"
