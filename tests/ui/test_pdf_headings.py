"""A Chinese heading in the PDF never breaks inside a word when the line has a space or punctuation to break at
(the memo's title once read "……的部 / 署方案")."""

from __future__ import annotations

import pytest

from ui.pdf import build_document
from ui.pdf_headings import LINE_SEPARATOR, _breaks_inside_word, keep_heading_words_whole
from ui.pdf_pages import relayout

TITLE = "决策备忘录：Qwen/Qwen2.5-14B-Instruct 的部署方案"


def _line_starts(doc):
    block = doc.begin()
    while not block.blockFormat().headingLevel():
        block = block.next()
    layout = block.layout()
    return block.text(), [layout.lineAt(i).textStart() for i in range(1, layout.lineCount())]


@pytest.mark.parametrize("width", range(260, 620, 12))
def test_heading_lines_start_at_a_break_point(qapp, width):
    doc = build_document(f"# {TITLE}\n\nbody\n", "zh_CN")
    doc.setTextWidth(width)
    relayout(doc)
    keep_heading_words_whole(doc, relayout)
    text, starts = _line_starts(doc)
    assert text.replace(LINE_SEPARATOR, "") == TITLE  # nothing lost, nothing but a line separator added
    assert not [at for at in starts if _breaks_inside_word(text, at)], (width, text, starts)


def test_qt_alone_breaks_inside_the_word(qapp):
    """The repair is needed: at some width Qt's own layout cuts a Chinese word of this title."""
    cut = []
    for width in range(260, 620, 12):
        doc = build_document(f"# {TITLE}\n", "zh_CN")
        doc.setTextWidth(width)
        relayout(doc)
        text, starts = _line_starts(doc)
        cut += [at for at in starts if _breaks_inside_word(text, at)]
    assert cut


@pytest.mark.parametrize("width", range(420, 760, 12))
def test_english_title_keeps_the_model_id_whole(qapp, width):
    """Qt broke the English title after a hyphen of the model id ("…serve Qwen/Qwen2.5-14B-" / "Instruct"); the
    id now moves to the next line whole, never cut after "Qwen2." either."""
    title = "Decision memo: how to serve Qwen/Qwen2.5-14B-Instruct"
    doc = build_document(f"# {title}\n\nbody\n", "en")
    doc.setTextWidth(width)
    relayout(doc)
    keep_heading_words_whole(doc, relayout)
    text, starts = _line_starts(doc)
    assert text.replace(LINE_SEPARATOR, "") == title
    assert all(text[at - 1] in (" ", LINE_SEPARATOR) for at in starts), (width, text, starts)


def test_a_heading_with_no_break_point_keeps_qt_break(qapp):
    doc = build_document("# " + "部署" * 40 + "\n", "zh_CN")
    doc.setTextWidth(200)
    relayout(doc)
    assert keep_heading_words_whole(doc, relayout) == 0
    text, starts = _line_starts(doc)
    assert LINE_SEPARATOR not in text and starts  # still wrapped by Qt, not run off the page
