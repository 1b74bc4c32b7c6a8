"""A log-scale axis whose ticks read as plain numbers (70, 200, 1,500), not pyqtgraph's "7·10¹"."""

from __future__ import annotations

import pyqtgraph as pg


def plain_number(value: float) -> str:
    """Whole numbers with thousands separators from 10 up; two significant figures below (0.5, 2.5)."""
    return f"{value:,.0f}" if abs(value) >= 10 else f"{value:.2g}"


class PlainLogAxis(pg.AxisItem):
    def logTickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [plain_number(10 ** float(v) * scale) for v in values]
