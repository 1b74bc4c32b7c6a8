"""Column widths for the memo's tables, chosen so each table is as short as it can be.

Qt shares a table's width out in proportion to each column's longest text, so a cost table whose labels run to
eight words ("Hosted API at this volume (input + output tokens), per month") gives them half the width, and the
worked-out cloud cost in the other half wraps to fourteen lines. Here every split from a narrow label column to an
even one is tried on the cells' real text (``QTextLayout`` with the font and device the memo is printed with) and
the one with the fewest lines in all wins (issue 25: a typical memo fits in 4 pages). A table of more columns (the
prices used, the timeline) starts from Qt's shares and moves width a point at a time to where it saves lines,
never below a column's widest word.
"""

from __future__ import annotations

from PySide6.QtGui import QPaintDevice, QTextBlock, QTextLayout, QTextOption, QTextTable

from ui.pdf_pages import cell_blocks

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
    return cell_blocks(table.cellAt(row, col))


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


def _widest_word(block: QTextBlock, device: QPaintDevice) -> float:
    """The widest run of the block's text without a space, in device pixels: a column narrower than that would
    break a word ("Grad/e")."""
    from PySide6.QtGui import QFontMetricsF

    it = block.begin()
    font = it.fragment().charFormat().font() if not it.atEnd() else block.charFormat().font()
    metrics = QFontMetricsF(font, device)
    return max((metrics.horizontalAdvance(word) for word in block.text().split()), default=0.0)


def _one_line(block: QTextBlock, device: QPaintDevice) -> float:
    """The block's text on one line, in device pixels."""
    from PySide6.QtGui import QFontMetricsF

    it = block.begin()
    font = it.fragment().charFormat().font() if not it.atEnd() else block.charFormat().font()
    return QFontMetricsF(font, device).horizontalAdvance(block.text())


def column_shares(table: QTextTable, text_width: float, device: QPaintDevice, scale: float) -> list[int] | None:
    """Shares (percent) of a table of three or more columns that make it about as short as it can be: from the
    shares Qt would give (in proportion to each column's longest text), a point of width moves from one column to
    another while that takes lines off the table, never making a column narrower than its widest word. None for
    fewer than three columns."""
    n = table.columns()
    if n < 3:
        return None
    fmt = table.format()
    inset = 2 * max(0.0, fmt.cellPadding()) * scale + 2 * fmt.border()
    cells = [[_cell_texts(table, r, c) for c in range(n)] for r in range(table.rows())]
    floor = []
    for c in range(n):
        widest = max((_widest_word(b, device) for row in cells for b in row[c]), default=0.0)
        floor.append(max(3, int(100 * (widest * 1.05 + inset) / text_width) + 2))  # with room for rounding
    if sum(floor) > 100:
        return None
    cache: dict[tuple[int, int], list[int]] = {}

    def lines(c: int, share: int) -> list[int]:  # per row, the lines column c takes at this share
        if (c, share) not in cache:
            width = text_width * share / 100 - inset
            cache[(c, share)] = [sum(_lines(b, width, device) for b in row[c]) for row in cells]
        return cache[(c, share)]

    def total(shares: list[int]) -> int:
        """The table's lines, then (to tell apart layouts of as many lines) the lines of all its cells."""
        per_col = [lines(c, shares[c]) for c in range(n)]
        rows = sum(max(col[r] for col in per_col) for r in range(len(cells)))
        return rows * 10_000 + sum(map(sum, per_col))

    # start where Qt would (each column in proportion to its longest text on one line), then improve on it
    natural = [max((_one_line(b, device) for row in cells for b in row[c]), default=1.0)
               for c in range(n)]
    whole = sum(natural) or 1.0
    shares = [max(floor[c], int(100 * natural[c] / whole)) for c in range(n)]
    while sum(shares) > 100:
        donor = max(range(n), key=lambda d: shares[d] - floor[d])
        shares[donor] -= 1
    shares[max(range(n), key=lambda d: natural[d])] += 100 - sum(shares)
    for c in range(n):  # start from a layout that breaks no word: the room comes from the widest columns
        while shares[c] < floor[c]:
            donor = max(range(n), key=lambda d: shares[d] - floor[d])
            shares[donor] -= 1
            shares[c] += 1
    best = total(shares)
    for _ in range(400):
        moves = [(i, j) for i in range(n) for j in range(n) if i != j and shares[i] - 1 >= floor[i]]
        scored = []
        for i, j in moves:
            trial = list(shares)
            trial[i] -= 1
            trial[j] += 1
            scored.append((total(trial), i, j))
        if not scored:
            break
        lowest, i, j = min(scored)
        if lowest >= best:
            break
        shares[i] -= 1
        shares[j] += 1
        best = lowest
    return shares


def fit_table_columns(tables: list[QTextTable], text_width: float, device: QPaintDevice, scale: float) -> None:
    """Give each table the shares of :func:`column_shares` or, with two columns, :func:`label_share` (percentage
    widths; the caller fixes them once laid out, so the parts of a table cut at a page's end keep them)."""
    from PySide6.QtGui import QTextLength

    for table in tables:
        many = column_shares(table, text_width, device, scale)
        if many is not None:
            fmt = table.format()
            fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.PercentageLength, s) for s in many])
            table.setFormat(fmt)
            continue
        share = label_share(table, text_width, device, scale)
        if share is None:
            continue
        fmt = table.format()
        fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.PercentageLength, share),
                                       QTextLength(QTextLength.Type.PercentageLength, 100 - share)])
        table.setFormat(fmt)
