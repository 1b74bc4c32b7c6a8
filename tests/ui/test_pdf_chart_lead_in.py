"""A chart keeps its caption on its page, not the next table's lead-in (s22-pages22, issue 25).

Once the cost chart lost its caption where its lines cross (the legend's break-even marker says it), the line under
it became "Prices used (…):", the price table's lead-in. Kept with the chart as if it were its caption, it chained
the chart to the table (a lead-in keeps with what follows), and the chart left a fifth of page 2 empty (q26 zh).
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from ui import pdf
from ui.pdf_pages import _keeps_with_next


def _chart_block_before(text_after: str, tmp_path) -> bool:
    image = QImage(40, 20, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    png = tmp_path / "chart.png"
    image.save(str(png))
    markdown = f"Intro.\n\n![chart](chart.png)\n\n{text_after}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    doc = pdf.build_document(markdown, "en", images={"chart.png": str(png)})
    block = doc.begin()
    while block.isValid() and block.text().strip() != "\ufffc":
        block = block.next()
    assert block.isValid(), "no image block"
    return _keeps_with_next(block)


def test_a_chart_keeps_with_its_caption(qapp, tmp_path):
    assert _chart_block_before("Renting stays cheaper than owning over all 24 months.", tmp_path)


def test_a_chart_does_not_keep_with_the_next_tables_lead_in(qapp, tmp_path):
    assert not _chart_block_before("Prices used (built-in price list dated 2026-09):", tmp_path)
