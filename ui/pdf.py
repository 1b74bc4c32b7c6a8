"""Print the decision memo's Markdown to PDF with Qt's own text engine.

One source, many renderings: the memo is Markdown (``advisor.plan.memo``); this module lays it out with
``QTextDocument.setMarkdown`` (GitHub tables included) and paints it page by page onto a ``QPdfWriter``:
A4, margins, a footer with the page number on every page, charts as images, and a CJK font set on the
document so Chinese text is embedded (a subset) and stays selectable. Without a CJK font Qt would print
boxes silently, so the caller is told instead (:class:`PdfError`).

``advisor`` never imports this module; ``advisor.plan.memo.write_memo`` loads it by name.
"""

from __future__ import annotations

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
    QPainter,
    QPdfWriter,
    QRawFont,
    QTextCursor,
    QTextDocument,
    QTextImageFormat,
)

from advisor.atomic import write_bytes_atomic
from advisor.i18n import translate

MARGIN_MM = 18.0
FOOTER_MM = 8.0
RESOLUTION_DPI = 300
BODY_POINTS = 10.0
IMAGE_WIDTH_SHARE = 0.92  # a chart fills this share of the text width


class PdfError(RuntimeError):
    """The PDF could not be produced as asked (no CJK font for Chinese, unreadable chart image, …)."""


def ensure_gui_app() -> QGuiApplication:
    """The running Qt application, or a new one on the offscreen platform: printing and painting images need
    fonts but no display, so `advisor plan --memo x.pdf` works on a headless server and over SSH (a DISPLAY
    that cannot be reached would abort Qt)."""
    app = QGuiApplication.instance()
    if app is None:
        app = QGuiApplication(["inference-advisor", "-platform", "offscreen"])
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
    families = ["Noto Sans", "DejaVu Sans", "Liberation Sans", "Arial"]
    if cjk:
        families.append(cjk)
    font.setFamilies(families)
    font.setPointSizeF(BODY_POINTS)
    # No "fi"/"fl" ligatures: a PDF reader would copy them as one character (ﬁ), and search would miss "config".
    for tag in ("liga", "clig"):
        font.setFeature(QFont.Tag(tag), 0)
    return font


def _style_sheet() -> str:
    return (
        "table { border-collapse: collapse; margin-top: 4px; margin-bottom: 6px; }"
        "th { background-color: #e8edf3; font-weight: 600; padding: 3px; }"
        "td { padding: 3px; }"
        "h1 { color: #1f3a5f; } h2 { color: #1f3a5f; } h3 { color: #2c4d75; }"
        "code { background-color: #f2f2f2; }"
    )


def build_document(
    markdown: str, lang: str, *, images: Mapping[str, str | os.PathLike[str]] | None = None,
    base_dir: str | os.PathLike[str] | None = None, text_width: float | None = None,
) -> QTextDocument:
    """The laid-out memo: Markdown + images (name in the Markdown → PNG file), fonts, table borders."""
    _app()
    doc = QTextDocument()
    doc.setDefaultFont(memo_font(lang))
    doc.setDefaultStyleSheet(_style_sheet())
    doc.setDocumentMargin(0)
    if base_dir is not None:
        doc.setBaseUrl(QUrl.fromLocalFile(str(Path(base_dir).resolve()) + os.sep))
    doc.setMarkdown(markdown, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    _wrap_code_blocks(doc)
    for name, path in (images or {}).items():  # after setMarkdown: it clears the document's resources
        image = QImage(str(path))
        if image.isNull():
            raise PdfError(translate(lang, "memo.pdf.bad_image", path=str(path)))
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
        if base_dir is not None:  # with a base URL, Qt looks the name up resolved against it
            doc.addResource(QTextDocument.ResourceType.ImageResource, doc.baseUrl().resolved(QUrl(name)), image)
    _dress_tables(doc)
    if text_width is not None:
        _fit_images(doc, text_width * IMAGE_WIDTH_SHARE)
    return doc


def _wrap_code_blocks(doc: QTextDocument) -> None:
    """Let long command lines in code blocks wrap at spaces instead of running off the page."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        if fmt.nonBreakableLines():
            fmt.setNonBreakableLines(False)
            cursor.setPosition(block.position())
            cursor.setBlockFormat(fmt)
        block = block.next()


def _relayout(doc: QTextDocument) -> None:
    """Lay the whole document out again. Qt's incremental relayout after a block-format change can leave the
    blocks before a table with no height, and a block without height prints nothing."""
    doc.markContentsDirty(0, doc.characterCount())
    doc.documentLayout().documentSize()


def _keep_headings_with_next(doc: QTextDocument, page_height: float) -> None:
    """A heading never ends a page: when what follows it starts on the next page, the heading moves there too."""
    from PySide6.QtGui import QTextFormat

    layout = doc.documentLayout()
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        nxt = block.next()
        if block.blockFormat().headingLevel() > 0 and nxt.isValid():
            here = layout.blockBoundingRect(block)
            cursor.setPosition(nxt.position())
            table = cursor.currentTable()  # a cell's block is placed relative to its table: use the table's frame
            if table is not None:
                top = layout.frameBoundingRect(table).top()
            else:  # a line that does not fit is pushed to the next page inside its block: look at the first line
                lines = nxt.layout()
                top = layout.blockBoundingRect(nxt).top() + (lines.lineAt(0).y() if lines.lineCount() else 0.0)
            # + 1 on both: pushed lines sit at the edge, and a heading already at a page's top (a float hair above
            # the edge) must not get a break of its own, which prints a blank page
            if int((here.top() + 1.0) // page_height) < int((top + 1.0) // page_height):
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                cursor.setPosition(block.position())
                cursor.setBlockFormat(fmt)
                _relayout(doc)  # later headings must see the new positions
        block = nxt


def _dress_tables(doc: QTextDocument) -> None:
    """Thin grey cell borders and some padding: Markdown tables arrive bare."""
    from PySide6.QtGui import QBrush, QColor, QTextFrameFormat, QTextLength, QTextTable

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
                fmt.setHeaderRowCount(1)
                child.setFormat(fmt)
                header = QColor("#e8edf3")
                for col in range(child.columns()):
                    cell = child.cellAt(0, col)
                    cf = cell.format()
                    cf.setBackground(header)
                    cell.setFormat(cf)


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
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Unit.Millimeter))
    writer.setTitle(title)
    writer.setCreator("Inference Advisor")

    dots_per_mm = RESOLUTION_DPI / 25.4
    paint_rect = writer.pageLayout().paintRectPixels(RESOLUTION_DPI)
    footer_h = FOOTER_MM * dots_per_mm
    body = QSizeF(paint_rect.width(), paint_rect.height() - footer_h)

    doc = build_document(markdown, lang, images=images, base_dir=base_dir)
    doc.documentLayout().setPaintDevice(writer)
    doc.setPageSize(body)
    # Qt scales image sizes by the device's DPI over 96 (images are sized in screen pixels), so divide here.
    _fit_images(doc, body.width() * IMAGE_WIDTH_SHARE * 96.0 / writer.logicalDpiX())
    doc.setPageSize(body)  # re-layout with the scaled images
    _keep_headings_with_next(doc, body.height())
    pages = max(1, doc.pageCount())

    painter = QPainter()
    if not painter.begin(writer):
        raise PdfError(translate(lang, "memo.pdf.cannot_paint"))
    try:
        footer_font = QFont(doc.defaultFont())
        footer_font.setPointSizeF(BODY_POINTS * 0.8)
        for page in range(pages):
            if page:
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
                             translate(lang, "memo.pdf.page", page=page + 1, pages=pages))
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


__all__ = ["PdfError", "build_document", "memo_font", "render_pdf", "write_pdf"]
