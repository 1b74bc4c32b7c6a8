"""Print the decision memo's Markdown to PDF with Qt's own text engine.

One source, many renderings: the memo is Markdown (``advisor.plan.memo``); this module lays it out with
``QTextDocument.setMarkdown`` (GitHub tables included) and paints it page by page onto a ``QPdfWriter``:
A4, margins, a footer with the page number on every page, charts as images, and a CJK font set on the
document so Chinese text is embedded (a subset) and stays selectable. Without a CJK font Qt would print
boxes silently, so the caller is told instead (:class:`PdfError`).

Qt's own page and line breaks are repaired before painting: a command wider than the column is broken at spaces
with a shell's backslash continuation (:func:`wrap_command`, so a copied command still runs), and page breaks are
moved where they read well (:mod:`ui.pdf_pages`: no heading at a page's end, no table row or short paragraph
cut in two, a table cut at a page end repeats its header, no page with only its footer).

``advisor`` never imports this module; ``advisor.plan.memo.write_memo`` loads it by name.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPointF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QFont,
    QGuiApplication,
    QImage,
    QPageLayout,
    QPageSize,
    QPaintDevice,
    QPainter,
    QPdfWriter,
    QRawFont,
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextImageFormat,
    QTextTable,
)

from advisor.atomic import write_bytes_atomic
from advisor.i18n import translate
from ui.pdf_columns import fit_table_columns
from ui.pdf_headings import keep_heading_words_whole
from ui.pdf_pages import (
    ROWS_UNDER_HEADER,
    add_spacers,
    column_widths,
    content_pages,
    first_table_cut,
    markdown_table_rows,
    paginate,
    relayout,
    set_column_widths,
    split_tables,
    tables,
)
from ui.pdf_sources import run_on_sources

# A typical memo fits in 4 A4 pages (issue 25; bench/memo_pages.py counts them): report margins, type at the
# smallest sizes that read comfortably (body 9.5 pt, tables 8.5 pt, the source list 8 pt), lists set close.
MARGIN_MM = 10.0  # left and right (12 until session 19: a fiftieth more text on every line)
MARGIN_TOP_BOTTOM_MM = 10.0  # the footer's band (below) sits inside the bottom margin's line
FOOTER_MM = 5.0
RESOLUTION_DPI = 300
BODY_POINTS = 9.5
TABLE_POINTS = 8.5
SOURCES_POINTS = 8.0  # the source list is reference matter: an engineering report sets its references at 8 pt (IEEE)
CODE_POINTS = 8.5  # commands are copied more than read: set like the tables, a long `vllm serve …` wraps less
IMAGE_WIDTH_SHARE = 0.65  # a chart fills this share of the text width (short charts: the memo aims at 4 pages)
PARAGRAPH_GAP = 2.5  # CSS px between paragraphs (Qt's Markdown import sets 6): under a quarter line at 9.5 pt
LIST_ITEM_GAP = 1.5  # CSS px between the items of a list (Qt's Markdown import sets 6, a blank line's worth)
SOURCES_ITEM_GAP = 1.0
LIST_INDENT = 20.0  # CSS px a list's items are set in (Qt's 40, over 10 mm, left the findings a twentieth narrower
# than the body for no more than a bullet or "10." to stand in)
CELL_PADDING_VERTICAL = 1.5  # CSS px above and below a table cell's text (3 beside it)


class PdfError(RuntimeError):
    """The PDF could not be produced as asked (no CJK font for Chinese, unreadable chart image, …)."""


def ensure_gui_app() -> QGuiApplication:
    """The running Qt application, or a new one on the offscreen platform: printing and painting images need
    fonts but no display, so `advisor plan --memo x.pdf` works on a headless server and over SSH (a DISPLAY
    that cannot be reached would abort Qt)."""
    app = QGuiApplication.instance()
    if app is None:
        # A QApplication (not a bare QGuiApplication): a process that prints a memo first and opens a window
        # afterwards (the test suite in any order, a script) cannot make a second application for its widgets.
        from PySide6.QtWidgets import QApplication

        app = QApplication(["inference-advisor", "-platform", "offscreen"])
    return app  # type: ignore[return-value]


_app = ensure_gui_app


def memo_font(lang: str) -> QFont:
    """The body font: the default sans family with a CJK family behind it (or first, for Chinese)."""
    _app()
    from ui.fonts import find_cjk_family

    cjk = find_cjk_family()
    if cjk is None and lang == "zh_CN":
        raise PdfError(translate(lang, "memo.pdf.no_cjk_font"))
    font = QFont()
    # Latin family first in both languages: Qt maps digits shaped with a CJK font inside a Latin run
    # ("H100", "P99") to no Unicode in the PDF, so they would vanish from copied or extracted text.
    # The CJK family behind it draws every Chinese character (and a Chinese name in an English memo).
    # DejaVu Sans Condensed before DejaVu Sans (issue 25, a typical memo in 4 pages): the same 9.5 pt and height,
    # about a tenth narrower, where a machine has no Noto Sans (DejaVu Sans was the widest of these, a page more).
    families = ["Noto Sans", "DejaVu Sans Condensed", "DejaVu Sans", "Liberation Sans", "Arial"]
    if cjk:
        families.append(cjk)
    font.setFamilies(families)
    font.setPointSizeF(BODY_POINTS)
    # No "fi"/"fl" ligatures: a PDF reader would copy them as one character (ﬁ), and search would miss "config".
    for tag in ("liga", "clig"):
        font.setFeature(QFont.Tag(tag), 0)
    return font


HEADING_STYLE = {  # level: (colour, CSS px above, below). Markdown import leaves headings black, flush on the text.
    1: ("#1f3a5f", 0.0, 6.0),
    2: ("#1f3a5f", 8.0, 3.0),
    3: ("#2c4d75", 8.0, 2.0),
}
HEADING_POINTS = {1: 16.0, 2: 12.5, 3: 10.5}  # Qt's Markdown import sets 2×, 1.5×, 1.2× the body: a memo's title
# would take two lines and each section heading half a line more than it needs
CODE_BACKGROUND = "#f3f4f6"  # a command reads as something to copy, apart from the prose


def _style_blocks(doc: QTextDocument, lang: str) -> None:
    """Headings in the memo's blue with room above them; code lines on a light background; list items set close
    and the source list (the section under the sources heading) in smaller type. (A default style sheet does not
    reach a Markdown import, so the formats are set here.)"""
    from PySide6.QtGui import QColor, QTextCharFormat

    sources_heading = translate(lang, "memo.h.sources")
    in_sources = False
    smaller = QTextCharFormat()
    smaller.setFontPointSize(SOURCES_POINTS)
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()  # one layout pass for all the changes, not one per block
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        level = fmt.headingLevel()
        if level:
            in_sources = level <= 2 and block.text().strip() == sources_heading
        elif block.textList() is not None and not block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            _close_list_item(cursor, block, SOURCES_ITEM_GAP if in_sources else LIST_ITEM_GAP)
            fmt = block.blockFormat()
        elif not fmt.hasProperty(QTextFormat.Property.BlockCodeFence) and (
                fmt.topMargin() > PARAGRAPH_GAP or fmt.bottomMargin() > PARAGRAPH_GAP):
            fmt.setTopMargin(min(fmt.topMargin(), PARAGRAPH_GAP))
            fmt.setBottomMargin(min(fmt.bottomMargin(), PARAGRAPH_GAP))
            cursor.setPosition(block.position())
            cursor.setBlockFormat(fmt)
        if in_sources and not level:
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(smaller)
        if level in HEADING_STYLE or fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
            if level in HEADING_STYLE:
                colour, above, below = HEADING_STYLE[level]
                fmt.setTopMargin(above)
                fmt.setBottomMargin(below)
                fragments = block.begin()
                while not fragments.atEnd():  # per fragment: the size adjustment Qt set must go, not merge
                    fragment = fragments.fragment()
                    text = fragment.charFormat()
                    text.clearProperty(QTextFormat.Property.FontSizeAdjustment)
                    text.setFontPointSize(HEADING_POINTS[level])
                    text.setForeground(QColor(colour))
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(text)
                    fragments += 1
            else:
                fmt.setBackground(QColor(CODE_BACKGROUND))
                fmt.setTopMargin(2.0)
                fmt.setBottomMargin(4.0)
                code = QTextCharFormat()
                code.setFontPointSize(CODE_POINTS)
                cursor.setPosition(block.position())
                cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(code)
            cursor.setPosition(block.position())
            cursor.setBlockFormat(fmt)
        block = block.next()
    cursor.endEditBlock()


def _close_list_item(cursor: QTextCursor, block: QTextBlock, gap: float) -> None:
    """``gap`` CSS px between one item of a list and the next, a paragraph's gap above and below the list (margins
    collapse: the larger of two neighbours' counts)."""
    items = block.textList()
    fmt = block.blockFormat()
    fmt.setTopMargin(gap if items.itemNumber(block) > 0 else min(fmt.topMargin(), PARAGRAPH_GAP))
    last = items.itemNumber(block) == items.count() - 1
    fmt.setBottomMargin(min(fmt.bottomMargin(), PARAGRAPH_GAP) if last else gap)
    cursor.setPosition(block.position())
    cursor.setBlockFormat(fmt)


def build_document(
    markdown: str, lang: str, *, images: Mapping[str, str | os.PathLike[str]] | None = None,
    base_dir: str | os.PathLike[str] | None = None, text_width: float | None = None,
) -> QTextDocument:
    """The laid-out memo: Markdown + images (name in the Markdown → PNG file), fonts, table borders."""
    _app()
    doc = QTextDocument()
    doc.setUndoRedoEnabled(False)  # built once, never edited by a user: no undo history to keep
    doc.setDefaultFont(memo_font(lang))
    doc.setDocumentMargin(0)
    doc.setIndentWidth(LIST_INDENT)
    if base_dir is not None:
        doc.setBaseUrl(QUrl.fromLocalFile(str(Path(base_dir).resolve()) + os.sep))
    doc.setMarkdown(run_on_sources(markdown, lang), QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    _wrap_code_blocks(doc)
    _style_blocks(doc, lang)
    for name, path in (images or {}).items():  # after setMarkdown: it clears the document's resources
        image = QImage(str(path))
        if image.isNull():
            raise PdfError(translate(lang, "memo.pdf.bad_image", path=str(path)))
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
        if base_dir is not None:  # with a base URL, Qt looks the name up resolved against it
            doc.addResource(QTextDocument.ResourceType.ImageResource, doc.baseUrl().resolved(QUrl(name)), image)
    _dress_tables(doc, lang)
    _close_lines(doc, lang)
    if text_width is not None:
        _fit_images(doc, text_width * IMAGE_WIDTH_SHARE)
    return doc


def _wrap_code_blocks(doc: QTextDocument) -> None:
    """Let code lines wrap at all: a line that :func:`_break_commands` cannot break at a space (one token wider
    than the column) is still better wrapped anywhere than run off the page."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        if fmt.nonBreakableLines():
            fmt.setNonBreakableLines(False)
            cursor.setPosition(block.position())
            cursor.setBlockFormat(fmt)
        block = block.next()


# -- commands ----------------------------------------------------------------------------------------------------

CONTINUATION = " \\"  # what a shell reads as "the command goes on": a copied, wrapped command still runs
CONTINUATION_INDENT = "    "


def _shell_words(command: str) -> list[str]:
    """The command split at the spaces a shell splits at: never inside '…' or "…" (a break there would change
    the argument)."""
    words, word, quote = [], "", ""
    for ch in command:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == " ":
            if word:
                words.append(word)
            word = ""
            continue
        word += ch
    if word:
        words.append(word)
    return words


def wrap_command(command: str, fits: Callable[[str], bool]) -> list[str]:
    """A long shell command as lines that each ``fits``, broken only at spaces, every line but the last ending
    in `` \\`` and every line but the first indented: pasted into a shell it is the same command.

    A flag stays on one line with its value (``--max-model-len 4096``) and the program with its sub-command and
    positional arguments (``vllm serve Qwen/Qwen2.5-14B-Instruct``) where they fit; a single word wider than a
    line stays whole (the caller lets Qt wrap that one anywhere)."""
    words = _shell_words(command)
    if len(words) < 2 or fits(command):
        return [command]
    groups: list[list[str]] = []  # [program, sub-command, positionals…], then [--flag, its values…] per flag
    for word in words:
        if not groups or (word.startswith("-") and len(word) > 1):
            groups.append([word])
        else:
            groups[-1].append(word)
    pieces: list[str] = []  # what may share a line: whole groups, or the words of a group too long for a line
    for group in groups:
        text = " ".join(group)
        if fits(CONTINUATION_INDENT + text + CONTINUATION):
            pieces.append(text)
        else:
            pieces.extend(group)
    lines: list[str] = []
    line = ""
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        prefix = CONTINUATION_INDENT if lines else ""
        candidate = f"{line} {piece}" if line else piece
        if not line or fits(prefix + candidate + ("" if last else CONTINUATION)):
            line = candidate
        else:
            lines.append(line)
            line = piece
    lines.append(line)
    return [(CONTINUATION_INDENT if i else "") + text + (CONTINUATION if i < len(lines) - 1 else "")
            for i, text in enumerate(lines)]


def _break_commands(doc: QTextDocument, device: QPaintDevice) -> None:
    """Break every code line wider than its column at spaces (:func:`wrap_command`). Qt itself would break
    inside a flag or a model id, after any hyphen (``--gpu-memory-`` / ``utilization``), and a command copied
    from such a PDF does not run. The lines stay one block (Unicode line separators), so a command is kept
    together on a page as one piece."""
    from PySide6.QtGui import QFontMetricsF

    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        nxt = block.next()
        lines = block.layout()
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence) and lines.lineCount() > 1:
            width = lines.lineAt(0).width()
            char_format = block.begin().fragment().charFormat()
            metrics = QFontMetricsF(char_format.font(), device)
            wrapped = wrap_command(block.text(), lambda text, m=metrics, w=width: m.horizontalAdvance(text) <= w)
            if len(wrapped) > 1:
                cursor.setPosition(block.position())
                cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText("\u2028".join(wrapped), char_format)
        block = nxt


LATIN_LINE_HEIGHT = 95  # % of the Latin font's line height (DejaVu Sans 1.16 em → 1.1 em; issue 25: 4 pages)
CJK_LINE_HEIGHT = 88  # % of the CJK font's own line height (1.45 em) in a Chinese memo: 1.27 em, as Chinese
# documents are set


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\u3000" <= ch <= "\u303f" for ch in text)


def _close_lines(doc: QTextDocument, lang: str) -> None:
    """Chinese paragraphs, list items and table cells of a Chinese memo at :data:`CJK_LINE_HEIGHT`: Noto Sans
    CJK's line height is 1.45 em, a fifth more than the Latin font's, and a Chinese memo ran a page longer than its
    English twin. Text of Latin letters only, in either language, at :data:`LATIN_LINE_HEIGHT`. An English block
    with Chinese words in it (备案, 等保, a law's title in the source list) at the Latin lines' spacing too, fixed
    (:func:`_latin_line_px`): Qt gives every line holding one CJK character the CJK font's 1.45 em, so such lines
    ran a third taller than their neighbours (issue 25: none over 5 pages)."""
    from PySide6.QtGui import QTextBlockFormat

    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        cjk = _has_cjk(block.text())
        if not fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
            if cjk and lang != "zh_CN":
                height, kind = _latin_line_px(block, doc.defaultFont()), QTextBlockFormat.LineHeightTypes.FixedHeight
            else:
                height = CJK_LINE_HEIGHT if cjk else LATIN_LINE_HEIGHT
                kind = QTextBlockFormat.LineHeightTypes.ProportionalHeight
            if height:
                fmt.setLineHeight(height, kind.value)
                cursor.setPosition(block.position())
                cursor.setBlockFormat(fmt)
        block = block.next()
    cursor.endEditBlock()


def _latin_line_px(block: QTextBlock, default: QFont) -> float:
    """The height (CSS px) of a line of Latin text in ``block``'s largest type, at :data:`LATIN_LINE_HEIGHT`; 0 for
    a block with an image (its line is as tall as the image)."""
    from PySide6.QtGui import QFontMetricsF

    if "\ufffc" in block.text():
        return 0.0
    points = [default.pointSizeF()]
    fragments = block.begin()
    while not fragments.atEnd():
        points.append(fragments.fragment().charFormat().fontPointSize() or default.pointSizeF())
        fragments += 1
    latin = QFont(default)
    latin.setFamilies([family for family in default.families() if not _has_cjk(family) and family != _cjk_family()])
    latin.setPointSizeF(max(points[1:] or points))
    # measured at the PDF's resolution and rounded up as Qt rounds a line's height, then back to CSS px
    device = QImage(1, 1, QImage.Format.Format_RGB32)
    device.setDotsPerMeterX(round(RESOLUTION_DPI / 0.0254))
    device.setDotsPerMeterY(round(RESOLUTION_DPI / 0.0254))
    line = math.ceil(QFontMetricsF(latin, device).lineSpacing())
    return line * LATIN_LINE_HEIGHT / 100 * 96.0 / RESOLUTION_DPI


def _cjk_family() -> str | None:
    from ui.fonts import find_cjk_family

    return find_cjk_family()


PRICE_COLUMNS = (27.0, 11.0, 20.0, 9.0, 25.0, 8.0)  # % of the width: offer, kind, price, date, source, grade (Qt
# left the grade column narrower than its header, "Grad/e", and the offers three lines tall)


def _dress_tables(doc: QTextDocument, lang: str) -> None:
    """Thin grey cell borders and some padding: Markdown tables arrive bare. The price table gets its columns."""
    from PySide6.QtGui import QBrush, QColor, QTextFrameFormat, QTextLength

    root = doc.rootFrame()
    stack = [root]
    while stack:
        frame = stack.pop()
        for child in frame.childFrames():
            stack.append(child)
            if isinstance(child, QTextTable):
                fmt = child.format()
                fmt.setBorder(RESOLUTION_DPI / 300 * 2.5)  # device pixels: about 0.2 mm
                fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
                fmt.setBorderBrush(QBrush(QColor("#9aa5b1")))
                fmt.setCellSpacing(0)
                fmt.setCellPadding(3)
                fmt.setBorderCollapse(True)
                fmt.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
                if _is_price_table(child, lang):
                    fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.PercentageLength, share)
                                                   for share in PRICE_COLUMNS])
                fmt.setHeaderRowCount(1)
                child.setFormat(fmt)
                header = QColor("#e8edf3")
                for row in range(child.rows()):
                    for col in range(child.columns()):
                        cell = child.cellAt(row, col)
                        cf = cell.format().toTableCellFormat()
                        if row == 0:
                            cf.setBackground(header)
                        # less room above and below a cell's text than beside it: rows set close, columns apart
                        cf.setTopPadding(CELL_PADDING_VERTICAL)
                        cf.setBottomPadding(CELL_PADDING_VERTICAL)
                        cell.setFormat(cf)
                _smaller_text(doc, child)


def _is_price_table(table: QTextTable, lang: str) -> bool:
    """The memo's table of prices used: its columns, its last header the grade's."""
    if table.columns() != len(PRICE_COLUMNS):
        return False
    last = table.cellAt(0, table.columns() - 1).firstCursorPosition().block().text().strip()
    return last == translate(lang, "memo.prices.grade")


def _smaller_text(doc: QTextDocument, table: QTextTable) -> None:
    """Table text a point below the body's, as reports set it: a memo's tables are reference figures, and a
    smaller size keeps a 20-row cost table from taking a page."""
    from PySide6.QtGui import QTextCharFormat

    smaller = QTextCharFormat()
    smaller.setFontPointSize(TABLE_POINTS)
    cursor = QTextCursor(doc)
    cursor.setPosition(table.firstPosition())
    cursor.setPosition(table.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeCharFormat(smaller)


def _fit_images(doc: QTextDocument, max_width: float) -> None:
    """Scale every image to ``max_width`` layout units (keeping its aspect), so charts fill the column."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            fmt = frag.charFormat()
            if fmt.isImageFormat():
                img_fmt: QTextImageFormat = fmt.toImageFormat()
                image = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(img_fmt.name()))
                if isinstance(image, QImage) and not image.isNull() and image.width() > 0:
                    img_fmt.setWidth(max_width)
                    img_fmt.setHeight(max_width * image.height() / image.width())
                    cursor.setPosition(frag.position())
                    cursor.setPosition(frag.position() + frag.length(), QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(img_fmt)
            it += 1
        block = block.next()


MAX_TABLE_CUTS = 30  # each cut lays the memo out again (about 0.1 s); a memo has a handful of tables


def _lay_out(
    markdown: str, lang: str, writer: QPdfWriter, body: QSizeF, *, images: Mapping[str, str | os.PathLike[str]] | None,
    base_dir: str | os.PathLike[str] | None, new_page: set[int], columns: Mapping[int, list[float]] | None,
) -> tuple[QTextDocument, dict[int, list[float]]]:
    """The memo laid out on ``writer``'s pages of ``body`` size: charts fitted, commands broken at spaces, page
    breaks repaired (:mod:`ui.pdf_pages`). ``columns``: column widths (CSS px) for the tables by index; None: the
    widths Qt chooses, which are then fixed (a later part of a cut table keeps them). Returns the document and
    the widths."""
    scale = writer.logicalDpiY() / 96.0  # CSS pixels (margins, paddings, widths) to device pixels
    doc = build_document(markdown, lang, images=images, base_dir=base_dir)
    doc.documentLayout().setPaintDevice(writer)
    if columns is None:  # the first layout: each table gets the column shares that make it shortest
        fit_table_columns(tables(doc), body.width(), writer, scale)
    for index, table in enumerate(tables(doc)):
        set_column_widths(table, (columns or {}).get(index, []))
    # Before the first layout, so that nothing is laid out twice. Qt scales image sizes by the device's DPI over 96
    # (images are sized in screen pixels), so divide here.
    _fit_images(doc, body.width() * IMAGE_WIDTH_SHARE * 96.0 / writer.logicalDpiX())
    add_spacers(doc)
    doc.setPageSize(body)
    relayout(doc)  # Qt lays out lazily: every block needs its lines before the next steps read them
    keep_heading_words_whole(doc, relayout)
    if columns is None:
        columns = {i: column_widths(table, scale) for i, table in enumerate(tables(doc))}
        for index, table in enumerate(tables(doc)):
            set_column_widths(table, columns[index])
    _break_commands(doc, writer)
    relayout(doc)
    paginate(doc, body.height(), scale, new_page=new_page)
    return doc, dict(columns)


def render_pdf(
    markdown: str, lang: str, *, images: Mapping[str, str | os.PathLike[str]] | None = None,
    base_dir: str | os.PathLike[str] | None = None, title: str = "",
) -> bytes:
    """The memo as PDF bytes: A4 portrait, margins, "page n of m" in the footer of every page."""
    _app()
    buffer = QByteArray()
    device = QBuffer(buffer)
    device.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(device)
    writer.setResolution(RESOLUTION_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_TOP_BOTTOM_MM, MARGIN_MM, MARGIN_TOP_BOTTOM_MM),
                                     QPageLayout.Unit.Millimeter))
    writer.setTitle(title)
    writer.setCreator("Inference Advisor")

    dots_per_mm = RESOLUTION_DPI / 25.4
    paint_rect = writer.pageLayout().paintRectPixels(RESOLUTION_DPI)
    footer_h = FOOTER_MM * dots_per_mm
    # Whole device pixels: Qt keeps page positions in 1/64 px, so a fractional height would put its page edges a
    # little off ours, and a line Qt moved to a page's top could be drawn at the end of the page before.
    body = QSizeF(paint_rect.width(), math.floor(paint_rect.height() - footer_h))

    # Tables: where a page ends inside one, cut it there (the rest, with its own header, starts the next page) and
    # lay the memo out again. Every layout after the first gives each table the column widths Qt chose for it
    # whole, so a part keeps the columns (and the row heights) of the whole table.
    cuts: dict[int, set[int]] = {}  # table of the Markdown → rows before which it is cut
    widths: dict[int, list[float]] | None = None  # table of the Markdown → its columns' widths (CSS px)
    for _ in range(MAX_TABLE_CUTS):
        split = split_tables(markdown, cuts)
        columns = None if widths is None else {i: widths.get(source, []) for i, (source, _) in enumerate(split.origin)}
        doc, laid_out = _lay_out(split.text, lang, writer, body, images=images, base_dir=base_dir,
                                 new_page=split.continued, columns=columns)
        widths = laid_out if widths is None else widths
        cut = first_table_cut(doc, body.height(), markdown_table_rows(split.text))
        if cut is None:
            break
        source, rows_before = split.origin[cut[0]]
        row = rows_before + cut[1]
        if any(abs(row - done) <= ROWS_UNDER_HEADER for done in cuts.get(source, ())):
            break  # a part would be left with a row or two: the layout did not settle, keep what Qt did
        cuts.setdefault(source, set()).add(row)
    pages = content_pages(doc, body.height())

    painter = QPainter()
    if not painter.begin(writer):
        raise PdfError(translate(lang, "memo.pdf.cannot_paint"))
    try:
        footer_font = QFont(doc.defaultFont())
        footer_font.setPointSizeF(BODY_POINTS * 0.8)
        for number, page in enumerate(pages, start=1):
            if number > 1:
                writer.newPage()
            painter.save()
            painter.translate(0, -page * body.height())
            clip = QRectF(QPointF(0, page * body.height()), body)
            painter.setClipRect(clip)
            ctx = doc.documentLayout().PaintContext()
            # The layout skips lines outside ctx.clip; a line starting exactly at the page edge still touches it and
            # would be drawn (invisibly, under the clip) on this page too, so copied text would hold it twice.
            ctx.clip = clip.adjusted(0, 1, 0, -1)
            doc.documentLayout().draw(painter, ctx)
            painter.restore()
            painter.setFont(footer_font)
            painter.setPen(Qt.GlobalColor.darkGray)
            footer = QRectF(0, body.height(), body.width(), footer_h)
            painter.drawText(footer, int(Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter),
                             translate(lang, "memo.pdf.page", page=number, pages=len(pages)))
            if title:
                painter.drawText(footer, int(Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft), title)
    finally:
        painter.end()
    device.close()
    return fix_radical_text(bytes(buffer.data()), markdown + title + translate(lang, "memo.pdf.page", page=0, pages=0))


_RADICAL_TOKEN = re.compile(rb"<(2E[89A-F][0-9A-F]|2F[0-9A-D][0-9A-F])>")
_TO_UNICODE = re.compile(rb"/ToUnicode (\d+) 0 R")


def fix_radical_text(data: bytes, text: str) -> bytes:
    """Make copied and extracted Chinese text read right: map CJK radicals back to the characters written.

    Noto/Source Han fonts draw a Kangxi radical (U+2F78 ⾸) and the ideograph (U+9996 首) with one glyph.
    Qt's PDF writer builds each font's ToUnicode map from the font's cmap, lowest code point first, so the
    glyph of 首 is declared as ⾸ and a reader copying "首字延迟" gets "⾸字延迟" (search fails too). Each
    radical entry is replaced, in place and at the same length, by the character of ``text`` that the CJK
    font draws with the same glyph; entries with no such character are left alone."""
    from ui.fonts import find_cjk_family

    refs = set(_TO_UNICODE.findall(data))
    family = find_cjk_family()
    if not refs or family is None:
        return data
    raw = QRawFont.fromFont(QFont(family))
    wanted = sorted({ch for ch in text if "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"})
    if not raw.isValid() or not wanted:
        return data
    by_glyph: dict[int, str] = {}
    for ch, glyph in zip(wanted, raw.glyphIndexesForString("".join(wanted)), strict=False):
        if glyph:
            by_glyph.setdefault(int(glyph), ch)

    def replace(match: re.Match[bytes]) -> bytes:
        radical = chr(int(match.group(1), 16))
        glyphs = raw.glyphIndexesForString(radical)
        ch = by_glyph.get(int(glyphs[0])) if glyphs else None
        return b"<%04X>" % ord(ch) if ch and ord(ch) <= 0xFFFF else match.group(0)

    out = bytearray(data)
    for ref in refs:
        head = re.search(rb"\n" + ref + rb" 0 obj\s*<<[^>]*>>\s*stream\r?\n", data)
        if head is None:
            continue
        start = head.end()
        end = data.find(b"endstream", start)
        body = data[start:end]
        if b"begincmap" not in body:  # compressed: leave it
            continue
        fixed = _fix_cmap_body(body, replace)
        if len(fixed) == len(body):
            out[start:end] = fixed
    return bytes(out)


def _fix_cmap_body(body: bytes, replace: Callable[[re.Match[bytes]], bytes]) -> bytes:
    """Destination code points only: inside bfrange arrays and the second column of bfchar lines."""
    def arrays(m: re.Match[bytes]) -> bytes:
        return _RADICAL_TOKEN.sub(replace, m.group(0))

    body = re.sub(rb"\[[^\]]*\]", arrays, body)

    def bfchar_line(m: re.Match[bytes]) -> bytes:
        return m.group(1) + _RADICAL_TOKEN.sub(replace, m.group(2))

    return re.sub(rb"(?m)^(<[0-9A-Fa-f]+>\s+)(<[0-9A-Fa-f]{4}>)\s*$", bfchar_line, body)


def write_pdf(
    markdown: str, out: str | os.PathLike[str], lang: str, *,
    images: Mapping[str, str | os.PathLike[str]] | None = None, title: str = "",
) -> Path:
    """Render and write atomically (a temp file, then rename): a failed render leaves no partial PDF."""
    data = render_pdf(markdown, lang, images=images, title=title)
    target = Path(out)
    write_bytes_atomic(target, data)
    return target


__all__ = ["PdfError", "build_document", "memo_font", "render_pdf", "wrap_command", "write_pdf"]
