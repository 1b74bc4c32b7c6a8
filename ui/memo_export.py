"""Render the core's memo document with Qt: charts painted to PNG, the Markdown printed to PDF.

``advisor.plan.memo`` makes the document and writes the files atomically; this module is the painter it is
handed. The app calls :func:`write_memo` here; ``advisor plan --memo`` imports this module lazily, the one
place the core reaches into ``ui/`` (declared in tests/core/test_layering.py), and without Qt falls back to a
Markdown memo without charts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from advisor.plan.charts import ChartData
from advisor.plan.evidence import RunEvidence
from advisor.plan.memo import MemoDocument, MemoError
from advisor.plan.memo import write_memo as write_memo_with
from advisor.plan.result import PlanResult
from ui import memo_charts, pdf


class QtMemoPainter:
    """The :class:`advisor.plan.memo.MemoPainter` that paints with QPainter and prints with QPdfWriter."""

    def write_chart_png(self, chart: ChartData, path: Path) -> None:
        memo_charts.write_chart_png(chart, path)

    def write_pdf(self, document: MemoDocument, out: Path, images: Mapping[str, str]) -> None:
        markdown = document.markdown({key: f"{key}.png" for key in document.printed_charts})
        try:
            pdf.write_pdf(markdown, out, document.lang, images=dict(images), title=document.title)
        except pdf.PdfError as exc:
            raise MemoError(str(exc)) from exc


def write_memo(
    result: PlanResult, out: Path, lang: str, *, evidence: Sequence[RunEvidence] | None = None,
    overwrite: bool = True,
) -> Path:
    """The memo as ``.md`` (with its charts) or ``.pdf``, atomically; see :func:`advisor.plan.memo.write_memo`."""
    return write_memo_with(result, out, lang, evidence=evidence, overwrite=overwrite, painter=QtMemoPainter())
