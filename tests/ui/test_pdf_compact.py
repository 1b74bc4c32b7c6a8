"""The PDF's ways of saying the same in less room (issue 25: a typical memo in 4 pages): the source list run on as
one paragraph, and table columns split so a table is as short as it can be without breaking a word."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from PySide6.QtGui import QPdfWriter

from advisor import i18n
from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned
from ui import pdf
from ui.memo_export import write_memo
from ui.pdf_columns import column_shares, label_share
from ui.pdf_pages import tables
from ui.pdf_sources import run_on_sources


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_sources_run_on_as_one_paragraph_in_the_pdf_only(lang):
    markdown = memo_document(planned(advice_answers("q21_fast_launch_hk_rule1")), lang).markdown()
    listed = re.findall(r"^(\d+)\. (.+)$", markdown.split(f"## {i18n.translate(lang, 'memo.h.sources')}")[1], re.M)
    assert len(listed) >= 10  # the Markdown memo keeps its numbered list
    text = run_on_sources(markdown, lang)
    tail = text.split(f"## {i18n.translate(lang, 'memo.h.sources')}")[1]
    assert not re.search(r"^\d+\. ", tail, re.M)  # no list left in the PDF's source section
    paragraph = next(line for line in tail.splitlines() if line.strip())
    for n, item in listed:  # every source, whole and in order, marked by its number as the findings cite it
        assert f"**[{n}]** {item}" in paragraph
    assert text.split(f"## {i18n.translate(lang, 'memo.h.sources')}")[0] == markdown.split(
        f"## {i18n.translate(lang, 'memo.h.sources')}")[0]  # nothing above the sources changes


_KEEP: list = []  # the documents whose tables a test reads: Qt deletes a table with its document


def _laid_out(markdown: str) -> tuple[list, QPdfWriter, float]:
    writer = QPdfWriter("/dev/null")
    writer.setResolution(pdf.RESOLUTION_DPI)
    doc = pdf.build_document(markdown, "en")
    doc.documentLayout().setPaintDevice(writer)
    _KEEP.append((doc, writer))
    return tables(doc), writer, writer.logicalDpiY() / 96.0


def test_a_two_column_table_gives_the_room_to_the_column_that_needs_it():
    long_value = "2 GPUs billed × 730 h a month × 5.2–7.53 CNY/GPU·h × 1.3–1.5 (egress, storage and management) " * 3
    found, writer, scale = _laid_out("| Item | Value |\n|---|---|\n| Cloud cost | " + long_value + " |\n| Fx | 6.99 |\n")
    width = 2000.0
    assert label_share(found[0], width, writer, scale) <= 25  # short labels: the long value gets three quarters
    long_label = "Hosted API at this volume (input + output tokens), per month, with cached input " * 2
    found, writer, scale = _laid_out(f"| Item | Value |\n|---|---|\n| {long_label} | 12 |\n| {long_label} | 13 |\n")
    assert label_share(found[0], width, writer, scale) >= 40


def test_columns_of_a_wider_table_never_break_a_word():
    row = "| RunPod L4 ($0.44 listed as spot; on-demand 40–75% higher) | on demand | 0.62–0.77 USD/GPU-hour | 2026-05 " \
          "| deploybase.ai RunPod table | C ⚠ |\n"
    found, writer, scale = _laid_out("| Offer | Kind | Price | Date | Source | Grade |\n|---|---|---|---|---|---|\n"
                                     + row * 4)
    shares = column_shares(found[0], 2000.0, writer, scale)
    assert shares is not None and sum(shares) == 100
    assert shares[0] == max(shares)  # the offer's words get the room, the grade keeps its header whole


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) not installed")
def test_price_table_header_prints_whole(tmp_path):
    out = write_memo(planned(advice_answers("q21_fast_launch_hk_rule1")), tmp_path / "m.pdf", "en")
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Offer\s+Kind\s+Price\s+Date\s+Source\s+Grade", text)


@pytest.mark.parametrize("kind", ["paragraph", "table", "list"])
def test_chinese_words_in_an_english_line_keep_the_latin_spacing(kind):
    """An English memo's lines that hold a Chinese word (备案, 等保, a law's title) are as far apart as its Latin
    lines: Qt gave each such line the CJK font's 1.45 em, a third more, in the findings and the source list."""
    def per_line(text: str) -> float:
        words = ("word " * 40 + text + " ") * 6
        markdown = {"paragraph": words, "list": f"- {words}\n- {words}\n",
                    "table": f"| Item | Value |\n|---|---|\n| label | {words} |\n"}[kind]
        writer = QPdfWriter("/dev/null")
        writer.setResolution(pdf.RESOLUTION_DPI)
        doc = pdf.build_document(markdown, "en")
        doc.documentLayout().setPaintDevice(writer)
        doc.setTextWidth(2000)
        _KEEP.append((doc, writer))
        block = doc.begin()
        while block.isValid() and block.layout().lineCount() < 2:
            block = block.next()
        lines = block.layout()
        tops = [lines.lineAt(i).y() + lines.lineAt(i).ascent() for i in range(lines.lineCount())]  # baselines
        return max(b - a for a, b in zip(tops, tops[1:], strict=False))  # the widest gap: every line counts

    latin, mixed = per_line("filing"), per_line("filing (备案)")
    assert mixed == pytest.approx(latin, rel=0.02)
