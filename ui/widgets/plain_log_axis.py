"""A log-scale axis whose ticks read as plain numbers (70, 200, 1,500), not pyqtgraph's "7·10¹".

pyqtgraph's own log axis puts every in-between tick (2..9 × 10ⁿ) on one level and labels them all, so near
the top of a decade the labels stack on each other ("90 80 70 60"). This axis labels only 1, 2 and 5 × 10ⁿ,
and only 1 × 10ⁿ (every decade, or every 2nd, 5th, 10th… decade) when 1-2-5 would collide at the axis's
current length in pixels and tick font; the other in-between ticks stay, unlabelled. Only when that would
leave fewer than two labels in view (a range inside one decade) does it label other in-between ticks, and
then only those that fit. Whether labels fit is decided here, from the font metrics, so pyqtgraph's own
text-density limits are switched off: they would otherwise drop the 2s and 5s from axes that have room.
"""

from __future__ import annotations

import math
from itertools import pairwise

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

# mantissas in the order they earn a label: 1 (the decade) first, then 2 and 5, then the rest, one at a time
_NICE = (2, 5)
_REST = (3, 4, 6, 7, 8, 9)
_DECADE_STRIDES = (1, 2, 5, 10, 20, 50, 100)
_PADDING_PX = 2.0  # at least this much empty space between two labels


def plain_number(value: float) -> str:
    """Whole numbers with thousands separators from 10 up; two significant figures below (0.5, 2.5)."""
    return f"{value:,.0f}" if abs(value) >= 10 else f"{value:.2g}"


class PlainLogAxis(pg.AxisItem):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # level 0: labelled decades; level 1: labelled in-between ticks; level 2: unlabelled ticks.
        # The labels never collide by construction (logTickValues), so no density limit on top of that.
        self.setStyle(maxTextLevel=1, textFillLimits=[])

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [plain_number(10 ** float(v) * scale) for v in values]

    def logTickValues(self, minVal, maxVal, size, stdTicks):  # noqa: N802,N803 (pyqtgraph's names)
        lo, hi = sorted((float(minVal), float(maxVal)))
        if not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo <= 0 or size <= 0:
            return [(None, []), (None, []), (None, [])]
        px_per_decade = size / (hi - lo)
        exponents = range(math.floor(lo), math.ceil(hi) + 1)

        def in_view(values):
            return [v for v in values if lo <= v <= hi]

        def at(mantissas):
            return in_view([n + math.log10(m) for n in exponents for m in mantissas])

        decades = in_view([float(n) for n in exponents])
        # the fewest decades apart (1, 2, 5, 10…) whose labels do not collide
        labelled_decades: list[float] = []
        for stride in _DECADE_STRIDES:
            labelled_decades = [d for d in decades if round(d) % stride == 0]
            if self._fits(labelled_decades, px_per_decade):
                break
        labelled = sorted(labelled_decades)
        nice = at(_NICE)
        if len(labelled_decades) == len(decades) and self._fits(sorted(labelled + nice), px_per_decade):
            labelled = sorted(labelled + nice)
        if len(labelled) < 2 and len(decades) < 2:  # inside one decade: whatever else fits, 2 and 5 first
            for v in at(_NICE) + at(_REST):
                if v not in labelled and self._fits(sorted(labelled + [v]), px_per_decade):
                    labelled = sorted(labelled + [v])

        def unlabelled(values):
            return [v for v in values if not any(math.isclose(v, w, abs_tol=1e-9) for w in labelled)]

        major = [v for v in labelled if v in labelled_decades]
        middle = [v for v in labelled if v not in labelled_decades]
        minor = unlabelled(decades + at(_NICE) + at(_REST))
        return [(None, major), (None, middle), (None, sorted(minor))]

    def _font_metrics(self) -> QFontMetricsF:
        font = self.style["tickFont"]
        return QFontMetricsF(font if font is not None else QFont())

    def _fits(self, values: list[float], px_per_decade: float) -> bool:
        """Whether labels at these (sorted) log10 values leave room between each other along the axis."""
        if len(values) < 2:
            return True
        fm = self._font_metrics()
        vertical = self.orientation in ("left", "right")
        strings = self.logTickStrings(values, self.autoSIPrefixScale * self.scale, None)
        extents = [fm.height() if vertical else fm.horizontalAdvance(s) for s in strings]
        # neighbours' centres must be half of each label plus the padding apart
        return all(
            (v2 - v1) * px_per_decade >= (e1 + e2) / 2 + _PADDING_PX
            for (v1, e1), (v2, e2) in pairwise(zip(values, extents, strict=True))
        )
