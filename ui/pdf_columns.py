"""Column widths for the memo's two-column tables (an item and its value), chosen so the table is as short as it
can be.

Qt shares a table's width out in proportion to each column's longest text, so a cost table whose labels run to
eight words ("Hosted API at this volume (input + output tokens), per month") gives them half the width, and the
worked-out cloud cost in the other half wraps to fourteen lines. Here every split from a narrow label column to an
even one is tried on the cells' real text (``QTextLayout`` with the font and device the memo is printed with) and
the one with the fewest lines in all wins (issue 25: a typical memo fits in 4 pages).
"""

from __future__ import annotations

from PySide6.QtGui import QPaintDevice, QTextBlock, QTextLayout, QTextOption, QTextTable

# The label column's share of the table, tried from narrow to even (percent): below a fifth a label breaks after
# every word, above a half the value is the one squeezed.
LABEL_SHARES = range(18, 51)
_WRAP = QTextOption()
_WRAP.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)


def _lines(block: QTextBlock, width: float, device: QPaintDevice) -> int:
    """How many lines ``block``'s text takes at ``width`` device pixels, in the block's own font."""
    text = block.text()
    if not text.strip():
        return 1
    it = block.begin()
    font = it.fragment().charFormat().font() if not it.atEnd() else block.charFormat().font()
    layout = QTextLayout(text, font, device)
    layout.setTextOption(_WRAP)
    layout.beginLayout()
    count = 0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        count += 1
    layout.endLayout()
    return max(count, 1)


def _cell_texts(table: QTextTable, row: int, col: int) -> list[QTextBlock]:
    cell = table.cellAt(row, col)
    out = []
    block = cell.firstCursorPosition().block()
    last = cell.lastCursorPosition().block().blockNumber()
    while block.isValid() and block.blockNumber() <= last:
        out.append(block)
        block = block.next()
    return out


def label_share(table: QTextTable, text_width: float, device: QPaintDevice, scale: float) -> int | None:
    """The label column's share (percent) that makes ``table`` shortest at ``text_width`` device pixels, or None
    for a table that is not two columns. Ties go to the split nearest the middle of the shortest range, so neither
    column is pressed to its limit."""
    if table.columns() != 2:
        return None
    fmt = table.format()
    inset = 2 * max(0.0, fmt.cellPadding()) * scale + 2 * fmt.border()  # padding on both sides, the borders
    rows = [(_cell_texts(table, r, 0), _cell_texts(table, r, 1)) for r in range(table.rows())]
    totals: dict[int, int] = {}
    for share in LABEL_SHARES:
        left = text_width * share / 100 - inset
        right = text_width * (100 - share) / 100 - inset
        if left <= 0 or right <= 0:
            continue
        totals[share] = sum(max(sum(_lines(b, left, device) for b in labels),
                                sum(_lines(b, right, device) for b in values)) for labels, values in rows)
    if not totals:
        return None
    fewest = min(totals.values())
    best = [share for share, lines in totals.items() if lines == fewest]
    return best[len(best) // 2]


def fit_two_column_tables(tables: list[QTextTable], text_width: float, device: QPaintDevice, scale: float) -> None:
    """Give each two-column table the split of :func:`label_share` (percentage widths; the caller fixes
    them once laid out, so the parts of a table cut at a page's end keep them)."""
    from PySide6.QtGui import QTextLength

    for table in tables:
        share = label_share(table, text_width, device, scale)
        if share is None:
            continue
        fmt = table.format()
        fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.PercentageLength, share),
                                       QTextLength(QTextLength.Type.PercentageLength, 100 - share)])
        table.setFormat(fmt)
