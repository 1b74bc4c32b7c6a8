"""How long is a decision memo? PDF pages per plan fixture and language, and the median.

Goal (issue 25): "a typical memo fits in 4 PDF pages" — median 4 and none over 5, in both languages, over the
plan fixtures in tests/fixtures/plan_scenarios/ (their "answers"). The memo is made and printed exactly as
``advisor plan --answers … --memo out.pdf --lang …`` does (``ui.memo_export.write_memo``), and its pages are
counted with poppler's ``pdfinfo``.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python bench/memo_pages.py [--set advice] [--keep DIR] [--only NAME …]``
(``--set advice``: the 43 scenarios of bench/advice_scenarios/ instead of the 13 fixtures).
Prints a Markdown table (pages per fixture, en and zh_CN) and the median and max per language; exits 1 when
the goal is missed. ``--keep DIR`` leaves the PDFs there (``pdftoppm -r 50 -png`` them to look at the pages).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETS = {"fixtures": ROOT / "tests" / "fixtures" / "plan_scenarios", "advice": ROOT / "bench" / "advice_scenarios"}
LANGS = ("en", "zh_CN")
GOAL_MEDIAN, GOAL_MAX = 4, 5


def pdf_pages(path: Path) -> int:
    """The page count ``pdfinfo`` reads from the PDF."""
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", out, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"pdfinfo printed no page count for {path}")
    return int(match.group(1))


def memo_pages(scenario: Path, lang: str, out_dir: Path) -> int:
    """Plan the fixture's answers, print its memo in ``lang`` to ``out_dir`` and count the pages."""
    from advisor.plan import answers_from_dict, make_plan
    from ui.memo_export import write_memo

    answers = answers_from_dict(json.loads(scenario.read_text(encoding="utf-8"))["answers"])
    out = out_dir / f"{scenario.stem}-{lang}.pdf"
    write_memo(make_plan(answers), out, lang)
    return pdf_pages(out)


def section_heights(scenario: Path, lang: str) -> list[tuple[str, float]]:
    """(heading, mm) of each ``##`` section of the fixture's memo, laid out as the PDF lays it out but on one
    endless page (no page-break repairs), so the figures add up to the memo's raw length."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter

    from advisor.plan import answers_from_dict, make_plan
    from advisor.plan.memo import memo_document
    from ui import pdf
    from ui.memo_charts import write_chart_png

    answers = answers_from_dict(json.loads(scenario.read_text(encoding="utf-8"))["answers"])
    document = memo_document(make_plan(answers), lang)
    with tempfile.TemporaryDirectory(prefix="memo-sections-") as tmp:
        images = {}
        for key, chart in document.charts.items():
            write_chart_png(chart, Path(tmp) / f"{key}.png")
            images[f"{key}.png"] = str(Path(tmp) / f"{key}.png")
        markdown = document.markdown({key: f"{key}.png" for key in document.printed_charts})
        buffer = QByteArray()
        device = QBuffer(buffer)
        device.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QPdfWriter(device)
        writer.setResolution(pdf.RESOLUTION_DPI)
        side, top = pdf.MARGIN_MM, pdf.MARGIN_TOP_BOTTOM_MM
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                         QMarginsF(side, top, side, top), QPageLayout.Unit.Millimeter))
        width = writer.pageLayout().paintRectPixels(pdf.RESOLUTION_DPI).width()
        doc, _ = pdf._lay_out(markdown, lang, writer, QSizeF(width, 10**7), images=images, base_dir=None,
                              new_page=set(), columns=None)
    layout = doc.documentLayout()
    marks: list[tuple[str, float]] = []
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() in (1, 2):
            marks.append((block.text(), layout.blockBoundingRect(block).top()))
        block = block.next()
    end = layout.documentSize().height()
    mm = 25.4 / pdf.RESOLUTION_DPI
    return [(name, (stop - top) * mm) for (name, top), stop in zip(marks, [y for _, y in marks[1:]] + [end], strict=True)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="write the PDFs to this folder and keep them")
    ap.add_argument("--only", nargs="*", default=(), help="fixture names (stems) to print, default all")
    ap.add_argument("--sections", action="store_true", help="also print each section's height in mm")
    ap.add_argument("--set", choices=sorted(SETS), default="fixtures",
                    help="the plan fixtures (13, default) or the advice scenarios of bench/advice_scenarios (43)")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    logging.disable(logging.WARNING)
    scenarios = [s for s in sorted(SETS[args.set].glob("*.json")) if not args.only or s.stem in args.only]
    pages: dict[str, list[int]] = {lang: [] for lang in LANGS}
    print("| fixture | en pages | zh_CN pages |")
    print("|---|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="memo-pages-") as tmp:
        out_dir = args.keep or Path(tmp)
        out_dir.mkdir(parents=True, exist_ok=True)
        for scenario in scenarios:
            row = [memo_pages(scenario, lang, out_dir) for lang in LANGS]
            for lang, n in zip(LANGS, row, strict=True):
                pages[lang].append(n)
            print(f"| {scenario.stem} | {row[0]} | {row[1]} |", flush=True)
            if args.sections:
                for lang in LANGS:
                    parts = section_heights(scenario, lang)
                    total = sum(h for _, h in parts)
                    print(f"|   {lang}: {total:.0f} mm = " + ", ".join(f"{name[:28]} {h:.0f}" for name, h in parts)
                          + " | | |", flush=True)
    met = True
    print()
    for lang in LANGS:
        median, most = statistics.median(pages[lang]), max(pages[lang])
        ok = median <= GOAL_MEDIAN and most <= GOAL_MAX
        met &= ok
        print(f"{lang}: median {median:g} pages, max {most}, min {min(pages[lang])} over {len(pages[lang])} memos "
              f"({'meets' if ok else 'misses'} the goal: median ≤ {GOAL_MEDIAN}, none over {GOAL_MAX})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
