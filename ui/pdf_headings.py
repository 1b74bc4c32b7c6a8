"""Headings that never break inside a word.

Qt may break a line between any two Chinese characters (UAX #14 allows it), which is right for body text but
reads badly in a heading: "……的部 / 署方案" cuts the word 部署 in two. Chinese has no spaces to mark words, so a
heading line is moved back to the last place a reader accepts a break — a space, or just after punctuation
(：，、）…) — with a line separator (U+2028) inserted there. A Latin model id is a word too: Qt breaks after any
hyphen or slash ("how to serve Qwen/Qwen2.5-14B-" / "Instruct"), and the English title now moves it whole to the
next line. A heading with no such place on the line keeps Qt's break: a break inside a word beats a line run off
the page.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument

LINE_SEPARATOR = "\u2028"
MAX_PASSES = 4
# After these a line may end in a heading; the opening brackets may start the next line instead.
_BREAK_AFTER = set(" \t，。、：；！？）》」』】,.;:!?)")
_BREAK_BEFORE = set("（《「『【(")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x2FA1F


def _breaks_inside_word(text: str, at: int) -> bool:
    """True when a line that starts at ``at`` cuts a run of Chinese characters (or a Chinese character from the
    Latin word it is glued to) in two."""
    if at <= 0 or at >= len(text):
        return False
    before, after = text[at - 1], text[at]
    if before in _BREAK_AFTER or after in _BREAK_BEFORE or before.isspace() or after.isspace():
        return False
    return _is_cjk(before) or _is_cjk(after)


def _cuts_model_id(text: str, at: int) -> bool:
    """True when a line that starts at ``at`` cuts a model id after one of its hyphens or slashes (Qt breaks
    "Qwen2.5-14B-" / "Instruct" in an English title). An id longer than a line keeps such a break: there is no
    space inside it to move the line back to."""
    return 2 <= at < len(text) and text[at - 1] in _ID_JOINERS and text[at - 2].isalnum() and text[at].isalnum()


_ID_JOINERS = set("-/")
_INSIDE_NUMBER = set(".,:")  # "Qwen2.5", "1,200", "10:30": no break after these when a letter or digit follows


def _last_break(text: str, start: int, end: int) -> int | None:
    """The last position in (start, end] where a heading line may end, or None."""
    for at in range(end, start, -1):
        before, after = text[at - 1], text[at] if at < len(text) else ""
        if before in _INSIDE_NUMBER and after.isalnum():
            continue
        if before in _BREAK_AFTER or after in _BREAK_BEFORE:
            return at
    return None


def _repair_block(doc: QTextDocument, block: QTextBlock) -> bool:
    layout = block.layout()
    text = block.text()
    for index in range(1, layout.lineCount()):
        start = layout.lineAt(index).textStart()
        if not (_breaks_inside_word(text, start) or _cuts_model_id(text, start)):
            continue
        at = _last_break(text, layout.lineAt(index - 1).textStart(), start - 1)
        if at is None:
            continue
        cursor = QTextCursor(doc)
        cursor.setPosition(block.position() + at)
        cursor.insertText(LINE_SEPARATOR)
        return True
    return False


def keep_heading_words_whole(doc: QTextDocument, relayout: Callable[[QTextDocument], None]) -> int:
    """Move each heading line that ends inside a word back to its last break point, laying the document out
    again after each pass (an insertion moves the lines after it). Needs a laid-out document; returns how many
    line separators it inserted. Bounded: a heading of n lines needs at most n - 1 passes."""
    inserted = 0
    for _ in range(MAX_PASSES):
        changed = 0
        block = doc.begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0 and block.layout().lineCount() > 1:
                changed += _repair_block(doc, block)
            block = block.next()
        if not changed:
            break
        inserted += changed
        relayout(doc)
    return inserted
