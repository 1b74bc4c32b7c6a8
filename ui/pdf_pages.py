"""Page breaks for the memo's PDF that read like a document, not like a cut: used by :mod:`ui.pdf`.

Qt breaks a ``QTextDocument`` into pages by itself, but not the way a reader expects:

- a heading (or a lead-in such as "Start one replica with:") can end a page, its content on the next;
- inside a table, Qt either splits a row between pages (a Chinese label's line is taller than its Latin value's,
  so the label alone went to the next page, "48" stayed) or stretches the row above to the page end, an empty box;
- a table's header can end a page with one row under it; a wrapped command or a short paragraph can be split;
- right after a table, Qt can leave a line straddling the page edge;
- Qt's "page break before" (``PageBreak_AlwaysBefore``, used here before) breaks even where Qt has already moved
  the block to a new page, so a heading after a table could leave a page with nothing but its footer.

Two tools, no page-break flags:

- :func:`split_tables` cuts a Markdown table in two where a page ends inside it; the second part gets its own
  header and starts the next page (:func:`first_table_cut` finds the place; ``ui.pdf`` lays the document out again);
- :func:`paginate` moves a block or a table to the next page by giving it room above (a top margin), first
  problem first, until none is left; when a heading moves, the room an earlier fix gave to what follows it is
  taken back, so the two stay together.

:func:`content_pages` then lists the pages that hold any text or image: a page Qt counts but leaves empty (the last
block's margin a few pixels past a page end) is not printed.

Coordinates are device pixels of the PDF writer; formats take CSS pixels, hence ``scale`` (device DPI / 96).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from PySide6.QtGui import (
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextTable,
    QTextTableCell,
)

KEEP_TOGETHER_SHARE = 0.25  # a command, a paragraph or a table row up to this share of a page moves whole
SHORT_PARAGRAPH_LINES = 3  # a paragraph of up to this many lines is not split (no single line left behind)
ROWS_UNDER_HEADER = 2  # a table starts a page with at least this many rows under its header (or all of them)
MAX_FIXES = 400  # every fix moves something further down; this only guards against a Qt surprise

Item = QTextBlock | QTextTable  # what the document's top level is made of


def relayout(doc: QTextDocument) -> None:
    """Lay the whole document out again. Qt's incremental relayout after a format change can leave the blocks
    before a table with no height (a block without height prints nothing), and Qt lays out lazily: the
    steps here read every block's lines, so all must be laid out."""
    doc.markContentsDirty(0, doc.characterCount())
    doc.documentLayout().documentSize()


def lines_of(doc: QTextDocument, block: QTextBlock) -> list[tuple[float, float]]:
    """(top, bottom) of each laid-out line of ``block`` in document coordinates, table cells included."""
    layout = block.layout()
    if layout is None or not layout.lineCount():
        return []
    origin = doc.documentLayout().blockBoundingRect(block).top()
    out = []
    for i in range(layout.lineCount()):
        line = layout.lineAt(i)
        out.append((origin + line.y(), origin + line.y() + line.height()))
    return out


def _has_ink(block: QTextBlock) -> bool:
    """Text or an image (U+FFFC): what makes a page worth printing. Empty paragraphs and rules alone do not."""
    return bool(block.text().strip())


def page_of(y: float, page_height: float) -> int:
    return int(y // page_height)


def _straddles(top: float, bottom: float, page_height: float) -> bool:
    return page_of(top, page_height) != page_of(bottom - 0.5, page_height)


def content_pages(doc: QTextDocument, page_height: float) -> list[int]:
    """The pages (0-based) that hold at least one line with text or an image, in order."""
    pages: set[int] = set()
    block = doc.begin()
    while block.isValid():
        if _has_ink(block):
            pages.update(page_of((top + bottom) / 2, page_height) for top, bottom in lines_of(doc, block))
        block = block.next()
    return sorted(pages) or [0]


def tables(doc: QTextDocument) -> list[QTextTable]:
    """The document's top-level tables in order (a Markdown table is never nested)."""
    return [frame for frame in doc.rootFrame().childFrames() if isinstance(frame, QTextTable)]


def cells(table: QTextTable, row: int) -> list[QTextTableCell]:
    out = []
    for col in range(table.columns()):
        cell = table.cellAt(row, col)
        if cell.row() == row and cell.column() == col:  # a spanning cell once, at its own row and column
            out.append(cell)
    return out


def cell_blocks(cell: QTextTableCell) -> list[QTextBlock]:
    """The text blocks of one table cell, in order."""
    out = []
    block = cell.firstCursorPosition().block()
    last = cell.lastCursorPosition().block().blockNumber()
    while block.isValid() and block.blockNumber() <= last:
        out.append(block)
        block = block.next()
    return out


def _cell_lines(doc: QTextDocument, cell: QTextTableCell) -> list[tuple[float, float]]:
    return [line for block in cell_blocks(cell) for line in lines_of(doc, block)]


def _keeps_with_next(block: QTextBlock) -> bool:
    """What belongs to what follows it: a heading; a short lead-in that ends with a colon ("Start one replica
    with:"); the text just before a command (a step and the command it explains); a rule above the closing
    note; a chart above its caption (a short paragraph right under it)."""
    if block.blockFormat().headingLevel() > 0 or _is_rule(block):
        return True
    after = block.next()
    if not _is_code(block) and after.isValid() and _is_code(after):
        return True
    if block.text().strip() == _IMAGE and after.isValid() and after.text().strip() and not _is_code(after) \
            and after.blockFormat().headingLevel() == 0 and len(after.text()) < 200 \
            and not _lead_in(after):  # a lead-in under a chart is the next table's, not its caption (s22-pages22)
        return True
    return _lead_in(block)


def _lead_in(block: QTextBlock) -> bool:
    """A short paragraph that ends with a colon: it introduces what follows it ("Prices used (…):")."""
    text = block.text().rstrip()
    return text.endswith((":", "：")) and len(text) < 200


_IMAGE = "\ufffc"  # the object replacement character an inline image stands on


def _is_rule(block: QTextBlock) -> bool:
    return block.blockFormat().hasProperty(QTextFormat.Property.BlockTrailingHorizontalRulerWidth)


def _is_code(block: QTextBlock) -> bool:
    return block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence)


def table_rows(doc: QTextDocument, table: QTextTable) -> list[tuple[float, float]]:
    """(top, bottom) of each row's lines: from the highest first line of its cells to the lowest last line."""
    out = []
    for row in range(table.rows()):
        spans = [lines for cell in cells(table, row) if (lines := _cell_lines(doc, cell))]
        out.append((min(s[0][0] for s in spans), max(s[-1][1] for s in spans)) if spans else (0.0, 0.0))
    return out


def table_tail(doc: QTextDocument, table: QTextTable) -> float:
    """The room a table needs under its last row's text (cell padding, closing border): a part of a cut table must
    end with it on the page, or Qt pushes the part's last row to the next page."""
    rows = table_rows(doc, table)
    return max(0.0, doc.documentLayout().frameBoundingRect(table).bottom() - rows[-1][1]) if rows else 0.0


# -- tables cut where a page ends --------------------------------------------------------------------------------

_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass
class SplitMarkdown:
    """The memo's Markdown with some tables cut in two; indices count the document's tables in order."""

    text: str
    continued: set[int] = field(default_factory=set)  # tables that continue the one before: start a new page
    origin: list[tuple[int, int]] = field(default_factory=list)  # table → (table in the source, rows before it)


def _markdown_tables(lines: list[str]) -> list[tuple[int, int]]:
    """(first line, end line) of each GitHub table: a header row, a delimiter row, then rows with a '|'."""
    out, fenced, i = [], False, 0
    while i < len(lines):
        if _FENCE.match(lines[i]):
            fenced = not fenced
        elif not fenced and "|" in lines[i] and i + 1 < len(lines) and _DELIMITER_ROW.match(lines[i + 1]) \
                and "|" in lines[i + 1]:
            end = i + 2
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            out.append((i, end))
            i = end
            continue
        i += 1
    return out


def split_tables(markdown: str, cuts: dict[int, set[int]]) -> SplitMarkdown:
    """``markdown`` with table ``t`` cut before each of its data rows in ``cuts[t]`` (1 = the first row under the
    header, as the document counts rows): each part after a cut repeats the header and is marked to start a page."""
    lines = markdown.split("\n")
    found = _markdown_tables(lines)
    out: list[str] = []
    result = SplitMarkdown(text="")
    done = 0
    for index, (first, end) in enumerate(found):
        out += lines[done:first]
        head, rows = lines[first:first + 2], lines[first + 2:end]
        starts = [0] + sorted(r - 1 for r in cuts.get(index, ()) if 1 < r <= len(rows))
        for n, (a, b) in enumerate(zip(starts, starts[1:] + [len(rows)], strict=True)):
            if n:
                out.append("")
                result.continued.add(len(result.origin))
            result.origin.append((index, a))
            out += head + rows[a:b]
        done = end
    out += lines[done:]
    result.text = "\n".join(out)
    return result


def first_table_cut(doc: QTextDocument, page_height: float, expected_rows: list[int]) -> tuple[int, int] | None:
    """Where a page ends inside a table, as (table, row): a row Qt moved to the next page (the row above it then
    stretches to the page end, an empty box) or a short row it split between pages; moved up while the row above
    would not end the part with its closing border on the page. ``expected_rows`` (rows per table, header
    included, from the Markdown) must match the document, or nothing is cut: a table the two count differently
    is left to Qt rather than cut at the wrong row."""
    found = tables(doc)
    if [t.rows() for t in found] != expected_rows:
        return None
    h = page_height
    for index, table in enumerate(found):
        rows = table_rows(doc, table)
        tail = table_tail(doc, table)
        for row in range(2, len(rows)):
            top, bottom = rows[row]
            moved = page_of(top, h) != page_of(rows[row - 1][1] - 0.5, h)
            split = _straddles(top, bottom, h) and bottom - top <= KEEP_TOGETHER_SHARE * h
            if not (moved or split):
                continue
            while row > 1 and rows[row - 1][1] + tail > (page_of(rows[row - 1][0], h) + 1) * h:
                row -= 1  # the row above would leave no room for the part's closing border
            if row - 1 >= ROWS_UNDER_HEADER:
                return index, row
            break  # too few rows would stay behind: paginate moves such a table whole
    return None


def markdown_table_rows(markdown: str) -> list[int]:
    """Rows (header included) of each table in the Markdown, as the document will count them."""
    lines = markdown.split("\n")
    return [end - first - 1 for first, end in _markdown_tables(lines)]


def column_widths(table: QTextTable, scale: float) -> list[float]:
    """Each column's width as laid out, in CSS pixels: the parts of a cut table keep the columns of the whole
    one (each part would otherwise size its columns to its own rows, and rows would change height)."""
    fmt = table.format()
    widths = []
    for cell in cells(table, 0):
        lines = cell.firstCursorPosition().block().layout()
        if lines is None or not lines.lineCount():
            return []
        # a fixed column is its text's width plus the padding on both sides (scaled) and the borders (not scaled)
        widths.append((lines.lineAt(0).width() + 2 * fmt.border()) / scale + 2 * max(0.0, fmt.cellPadding()))
    if len(widths) != table.columns():
        return []
    widest = widths.index(max(widths))  # rounding must not widen the table past the page: the widest column gives
    widths[widest] -= len(widths) / scale  # a device pixel per column
    return widths


def set_column_widths(table: QTextTable, widths: list[float]) -> None:
    from PySide6.QtGui import QTextLength

    if widths and len(widths) == table.columns():
        fmt = table.format()
        fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.FixedLength, width) for width in widths])
        table.setFormat(fmt)


# -- moving blocks and tables down ------------------------------------------------------------------------------

class _Paginator:
    def __init__(self, doc: QTextDocument, page_height: float, scale: float, new_page: set[int]) -> None:
        self.doc, self.page_height, self.scale, self.new_page = doc, page_height, scale, new_page
        self.room: dict[tuple[str, int], float] = {}  # item → CSS pixels of top margin a fix added
        self.items_cache: list[Item] | None = None  # fixes change formats only: the items stay the same
        self.resume = 0  # where the next look starts: the item the last fix moved
        self.inked_before: list[frozenset[int]] = []  # per item: the pages inked by the items above it

    def items(self) -> list[Item]:
        """The document's top level in order: blocks and tables."""
        out: list[Item] = []
        it = self.doc.rootFrame().begin()
        while not it.atEnd():
            frame = it.currentFrame()
            if isinstance(frame, QTextTable):
                out.append(frame)
            elif frame is None and it.currentBlock().isValid():
                out.append(it.currentBlock())
            it += 1
        return out

    @staticmethod
    def _key(item: Item) -> tuple[str, int]:
        return ("table", item.firstPosition()) if isinstance(item, QTextTable) else ("block", item.blockNumber())

    def _first_ink(self, items: list[Item]) -> tuple[Item, float] | None:
        """The first item with text or an image, and where it starts."""
        for item in items:
            if isinstance(item, QTextTable):
                rows = table_rows(self.doc, item)
                if rows:
                    return item, rows[0][0]
            elif _has_ink(item) and (lines := lines_of(self.doc, item)):
                return item, lines[0][0]
        return None

    def _margin(self, item: Item, add_px: float) -> None:
        """Add ``add_px`` CSS pixels of room above ``item`` (negative: take back what a fix added); a table gets
        it above its spacer (:func:`add_spacers`)."""
        key = self._key(item)
        self.room[key] = self.room.get(key, 0.0) + add_px
        block = self.doc.findBlock(item.firstPosition() - 1) if isinstance(item, QTextTable) else item
        fmt = block.blockFormat()
        fmt.setTopMargin(max(0.0, fmt.topMargin() + add_px))
        cursor = QTextCursor(self.doc)
        cursor.setPosition(block.position())
        cursor.setBlockFormat(fmt)

    def _push(self, item: Item, top: float, then: Item | None = None) -> None:
        """Move ``item``, which starts at ``top``, to just below the next page edge; ``then`` (what follows a
        heading) gives back the room an earlier fix gave it, so that it follows the heading closely."""
        edge = (page_of(top, self.page_height) + 1) * self.page_height
        if then is not None and self.room.get(self._key(then)):
            self._margin(then, -self.room[self._key(then)])
        self._margin(item, (edge - top + 1.0) / self.scale)

    def fix_first(self) -> bool:
        """Repair the first bad break from the top; False when there is none. A fix moves only the item it
        fixes and what follows, so the next call starts there (or at the headings just above it, which may now
        be left behind), with the pages inked before it remembered."""
        h = self.page_height
        if self.items_cache is None:
            self.items_cache = self.items()
        items = self.items_cache
        start = self.resume
        while start > 0 and not isinstance(before := items[start - 1], QTextTable) and (
                _keeps_with_next(before) or not _has_ink(before)):
            start -= 1
        inked: set[int] = set(self.inked_before[start]) if start else set()
        table_index = sum(1 for item in items[:start] if isinstance(item, QTextTable)) - 1
        del self.inked_before[start + 1:]
        for i in range(start, len(items)):
            item = items[i]
            if i == len(self.inked_before):
                self.inked_before.append(frozenset(inked))
            self.resume = i
            if isinstance(item, QTextTable):
                table_index += 1
                rows = table_rows(self.doc, item)
                if rows and (self._starts_badly(item, rows) or (
                        table_index in self.new_page and page_of(rows[0][0], h) in inked)):
                    self._push(item, rows[0][0])
                    return True
                inked.update(page_of(top, h) for top, _ in rows)
                continue
            lines = lines_of(self.doc, item)
            if not lines or not (_has_ink(item) or _is_rule(item)):
                continue
            top, bottom = lines[0][0], lines[-1][1]
            first_on_page = page_of(top, h) not in inked
            inked.update(page_of(line_top, h) for line_top, _ in lines)
            whole = (_is_code(item) or len(lines) <= SHORT_PARAGRAPH_LINES) and bottom - top < KEEP_TOGETHER_SHARE * h
            if _straddles(*lines[0], h) or (whole and not first_on_page and _straddles(top, bottom, h)):
                self._push(item, top)
                return True
            if _keeps_with_next(item) and not first_on_page:
                following = self._first_ink(items[i + 1:])
                if following is not None and page_of(following[1], h) > page_of(bottom - 0.5, h):
                    self._push(item, top, then=following[0])
                    return True
        return False

    def _starts_badly(self, table: QTextTable, rows: list[tuple[float, float]]) -> bool:
        """The table goes on past its first page, which holds its header with fewer than ``ROWS_UNDER_HEADER``
        rows under it (a row counts if the part could end after it, closing border included): the table moves
        whole to the next page, unless that start is tall."""
        h = self.page_height
        first = page_of(rows[0][0], h)
        if all(page_of(bottom - 0.5, h) == first for _, bottom in rows):
            return False  # all on one page
        edge = (first + 1) * h
        tail = table_tail(self.doc, table)
        fitting = 0
        for top, bottom in rows[1:]:
            if page_of(top, h) != first or bottom + tail > edge:
                break
            fitting += 1
        wanted = min(ROWS_UNDER_HEADER, len(rows) - 1)
        header_whole = page_of(rows[0][1] - 0.5, h) == first
        start = rows[:1 + wanted]
        return (not header_whole or fitting < wanted) and start[-1][1] - start[0][0] <= 2 * KEEP_TOGETHER_SHARE * h


def add_spacers(doc: QTextDocument) -> None:
    """An empty block of no height before every table: the room that moves a table down goes above it. A table's
    own top margin would not do (Qt repeats it at the top of every page the table spans), nor would the bottom
    margin of the paragraph before (Qt does not add it before a table)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QBrush, QTextBlockFormat

    spacer = QTextBlockFormat()
    spacer.setLineHeight(0.0, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    spacer.setBackground(QBrush(Qt.BrushStyle.NoBrush))  # else Qt lays an empty block before a table out its own way
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    for table in reversed(tables(doc)):  # from the end: an insertion moves what follows it
        cursor.setPosition(table.firstPosition() - 1)
        cursor.insertBlock(spacer, cursor.charFormat())
    cursor.endEditBlock()


def paginate(doc: QTextDocument, page_height: float, scale: float, *, new_page: set[int] | None = None) -> int:
    """Repair the page breaks that read badly (see the module's notes), first problem first; ``new_page`` are
    tables (by index) that must start a page; the tables must have their spacers (:func:`add_spacers`). Returns how
    many fixes it made."""
    paginator = _Paginator(doc, page_height, scale, new_page or set())
    for fixes in range(MAX_FIXES):
        if not paginator.fix_first():
            return fixes
        doc.documentLayout().documentSize()  # the change's own relayout, finished
    return MAX_FIXES
