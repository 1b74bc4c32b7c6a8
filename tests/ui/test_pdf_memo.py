"""The memo as PDF and as Markdown with charts: pages, page numbers, embedded fonts, extractable Chinese,
table cells and chart images — checked with poppler's own tools (pdfinfo, pdffonts, pdftotext, pdfimages)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from advisor import i18n
from advisor.plan.evidence import RunEvidence
from advisor.plan.memo import MemoError, render_memo_markdown
from advisor.plan.result import PlanResult
from ui.memo_charts import HEIGHT, WIDTH
from ui.memo_export import write_memo

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "memo"
POPPLER = ("pdfinfo", "pdffonts", "pdftotext", "pdfimages")
needs_poppler = pytest.mark.skipif(any(shutil.which(t) is None for t in POPPLER),
                                   reason="poppler-utils (pdfinfo, pdffonts, pdftotext, pdfimages) not installed")


def _result() -> PlanResult:
    return PlanResult.model_validate_json((FIXTURES / "plan_result.json").read_text(encoding="utf-8"))


def _evidence() -> list[RunEvidence]:
    return [RunEvidence.model_validate(e) for e in json.loads((FIXTURES / "evidence.json").read_text(encoding="utf-8"))]


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=60).stdout


def _pages(pdf: Path) -> int:
    return int(re.search(r"Pages:\s+(\d+)", _run("pdfinfo", str(pdf))).group(1))


def _fonts(pdf: Path) -> list[dict[str, str]]:
    lines = _run("pdffonts", str(pdf)).splitlines()[2:]
    out = []
    for line in lines:
        cols = line.split()
        # name type... encoding emb sub uni object ID: the three yes/no columns sit before the last two
        out.append({"name": cols[0], "emb": cols[-5], "uni": cols[-3]})
    return out


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pdf")
    return {lang: write_memo(_result(), folder / f"memo.{lang}.pdf", lang, evidence=_evidence())
            for lang in ("en", "zh_CN")}


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_pdf_has_pages_numbers_and_embedded_fonts(pdfs, lang):
    pdf = pdfs[lang]
    pages = _pages(pdf)
    assert pages > 1
    assert "A4" in _run("pdfinfo", str(pdf))
    text = _run("pdftotext", "-layout", str(pdf), "-")
    for page in range(1, pages + 1):
        assert i18n.translate(lang, "memo.pdf.page", page=page, pages=pages) in text
    fonts = _fonts(pdf)
    assert fonts and all(f["emb"] == "yes" and f["uni"] == "yes" for f in fonts), fonts
    if lang == "zh_CN":
        assert any("CJK" in f["name"] or "Han" in f["name"] or "Hei" in f["name"] for f in fonts), fonts


@needs_poppler
def test_chinese_text_extracts_as_written(pdfs):
    """Selectable and searchable: the characters come back, not the look-alike CJK radicals (⾸ for 首)."""
    text = _run("pdftotext", str(pdfs["zh_CN"]), "-")
    flat = re.sub(r"\s+", "", text)
    result = _result()
    for sentence in (i18n.translate("zh_CN", "memo.h.recommendation"), i18n.translate("zh_CN", "memo.disclaimer"),
                     i18n.translate("zh_CN", "memo.latency.intro_simulated"),
                     i18n.translate("zh_CN", "memo4.hw.gpus_value", per=result.hardware.gpus_per_replica,
                                    replicas=result.hardware.replicas, total=result.hardware.total_gpus,
                                    tp=result.hardware.tp or result.hardware.gpus_per_replica,
                                    gpu=result.hardware.gpu_name),
                     "首 token 延迟", "每 token 输出耗时", "页"):
        assert re.sub(r"\s+", "", sentence) in flat, sentence
    assert not re.findall("[\u2e80-\u2fdf]", text), "radicals instead of characters"
    assert "\ufb01" not in text  # no fi ligature: "config" is searchable


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_tables_and_charts_survive(pdfs, lang):
    pdf = pdfs[lang]
    flat = re.sub(r"\s+", " ", _run("pdftotext", str(pdf), "-"))
    result = _result()
    for cell in (i18n.translate(lang, "memo.hw.gpu"), result.hardware.gpu_name, i18n.translate(lang, "memo.cost.fx"),
                 i18n.translate(lang, "memo.latency.c"), i18n.translate(lang, "memo.evidence.knee")):
        assert cell in flat, cell
    for point in result.latency_curve.points:  # every row of the latency table
        assert f" {point.concurrency} " in flat
    images = _run("pdfimages", "-list", str(pdf)).splitlines()[2:]
    sizes = {tuple(line.split()[3:5]) for line in images if line.split()[2] == "image"}
    assert (str(WIDTH), str(HEIGHT)) in sizes and len(images) >= 2  # both charts, full resolution


def test_markdown_memo_carries_its_chart_pngs(tmp_path):
    tmp_path = tmp_path / "out"
    tmp_path.mkdir()  # issue #29: no folder is created silently
    out = write_memo(_result(), tmp_path / "decision.md", "zh_CN", evidence=_evidence())
    text = out.read_text(encoding="utf-8")
    files = sorted((tmp_path / "decision_files").iterdir())
    assert [p.name for p in files] == ["cost.png", "latency.png"]
    for png in files:
        image = QImage(str(png))
        assert not image.isNull() and (image.width(), image.height()) == (WIDTH, HEIGHT)
        assert f"](decision_files/{png.name})" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decision.md", "decision_files"]  # no temp files


def test_reexport_drops_charts_the_plan_no_longer_has(tmp_path):
    from advisor.plan.result import LatencyCurve

    out = tmp_path / "out" / "memo.md"
    out.parent.mkdir()  # issue #29: no folder is created silently
    write_memo(_result(), out, "en")
    assert (out.parent / "memo_files" / "latency.png").is_file()
    write_memo(_result().model_copy(update={"latency_curve": LatencyCurve()}), out, "en")
    assert sorted(p.name for p in (out.parent / "memo_files").iterdir()) == ["cost.png"]
    assert "latency.png" not in out.read_text(encoding="utf-8")


def test_overwrite_false_refuses_an_existing_pdf(tmp_path):
    out = tmp_path / "memo.pdf"
    out.write_bytes(b"%PDF- mine")
    with pytest.raises(FileExistsError):
        write_memo(_result(), out, "en", overwrite=False)
    assert out.read_bytes() == b"%PDF- mine"


def test_chinese_pdf_without_a_cjk_font_is_refused(tmp_path, monkeypatch):
    import ui.fonts

    monkeypatch.setattr(ui.fonts, "find_cjk_family", lambda *a, **k: None)
    with pytest.raises(MemoError, match="fonts-noto-cjk"):
        write_memo(_result(), tmp_path / "memo.pdf", "zh_CN")
    assert not (tmp_path / "memo.pdf").exists()


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_pdf_prints_all_of_the_markdown(pdfs, lang):
    """One source: every heading and every finding title of the Markdown is in the PDF (a block Qt fails to lay
    out prints nothing, silently)."""
    md = render_memo_markdown(_result(), lang, evidence=_evidence())
    flat = re.sub(r"\s+", "", _run("pdftotext", str(pdfs[lang]), "-"))
    headings = re.findall(r"(?m)^#{1,3} (.+)$", md)
    assert len(headings) > 10
    for heading in headings:
        assert re.sub(r"\s+|\*|`", "", heading) in flat, heading
    for section in re.findall(r"(?m)^## (.+)$", md):  # once: no line is also printed, hidden, on the next page
        assert flat.count(re.sub(r"\s+", "", section)) == 1, section


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_page_ends_with_a_heading(pdfs, lang):
    md = render_memo_markdown(_result(), lang, evidence=_evidence())
    headings = {re.sub(r"\s+|\*|`", "", h) for h in re.findall(r"(?m)^#{1,3} (.+)$", md)}
    pdf = pdfs[lang]
    with_images = {int(line.split()[0]) for line in _run("pdfimages", "-list", str(pdf)).splitlines()[2:]}
    for page in range(1, _pages(pdf) + 1):
        if page in with_images:  # a chart has no text: the heading above it may be the page's last text
            continue
        lines = [ln for ln in _run("pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-").splitlines()
                 if ln.strip()]
        body = [ln for ln in lines if i18n.translate(lang, "memo.pdf.title") not in ln
                and not re.fullmatch(r"[\d\s\w，,/]*\d+[\s\w，,/]*\d+\s*[页]?", ln)]
        assert re.sub(r"\s+", "", body[-1]) not in headings, (page, body[-1])


def test_sources_are_clickable_links(pdfs):
    data = pdfs["zh_CN"].read_bytes()
    urls = {s.url for f in _result().findings for s in f.sources if s.url}
    assert urls and all(b"/URI (" + url.encode() + b")" in data for url in urls)


# -- pages that read well ---------------------------------------------------------------------------------------

def _page_texts(pdf: Path) -> list[str]:
    return [_run("pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-") for page in range(1, _pages(pdf) + 1)]


def _body(text: str, lang: str) -> list[str]:
    """A page's text lines without its footer (title, "Page n of m")."""
    footer = (i18n.translate(lang, "memo.pdf.title"), "Footer title")
    return [line for line in text.splitlines() if line.strip() and not any(f in line for f in footer)
            and not re.fullmatch(r"\s*(Page \d+ of \d+|第 \d+ 页，共 \d+ 页)\s*", line)]


def _write(tmp_path: Path, markdown: str, lang: str, name: str = "doc.pdf") -> Path:
    from ui.pdf import write_pdf

    return write_pdf(markdown, tmp_path / name, lang, title="Footer title")


def _table_then_headings(paragraphs: int) -> str:
    """Filler, a table, then headings: a heading that lands at a page's end right after a table is where Qt's own
    page break before the heading broke twice and printed a page with only its footer."""
    rows = "".join(f"| 行 {i} row | value {i} |\n" for i in range(6))
    return ("# Title\n\n" + "".join(f"Paragraph {i} 一些文字 with words.\n\n" for i in range(paragraphs))
            + "## Table\n\n| a | b |\n|---|---|\n" + rows + "\n## Next heading\n\nText after the heading.\n\n"
            + "## Another\n\nMore text.\n")


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_page_holds_only_its_footer(tmp_path, lang):
    """Every page has body text, for layouts that put a table's end and a heading at every height of a page."""
    for paragraphs in range(56, 76):  # 65 in Chinese printed an empty third page before the fix
        pdf = _write(tmp_path, _table_then_headings(paragraphs), lang)
        for number, text in enumerate(_page_texts(pdf), start=1):
            assert _body(text, lang), (paragraphs, number, text)


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_memo_pages_all_have_a_body(pdfs, lang):
    for number, text in enumerate(_page_texts(pdfs[lang]), start=1):
        assert _body(text, lang), (number, text)


def _commands(markdown: str) -> list[str]:
    """The lines of the Markdown's fenced code blocks (one command each)."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        elif fenced and line.strip():
            out.append(line.strip())
    return out


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_commands_wrap_at_spaces_and_still_run_when_copied(pdfs, lang):
    """Each command of the Markdown is in the PDF's text once the shell's continuations (" \\" at a line's end) are
    joined: a break inside a flag or a model id ("--gpu-memory-" / "utilization") would not join back."""
    commands = _commands(render_memo_markdown(_result(), lang, evidence=_evidence()))
    assert len(commands) >= 3 and max(map(len, commands)) > 100  # long enough to need wrapping
    text = _run("pdftotext", str(pdfs[lang]), "-")
    assert " \\\n" in text  # some command was wrapped, with a continuation
    joined = re.sub(r" \\\n\s*", " ", text)
    for command in commands:
        assert command in joined, command


def test_wrap_command_breaks_only_between_words_keeping_flags_with_their_values():
    from ui.pdf import wrap_command

    command = ("advisor bench --url http://SERVER:8000 --model Qwen/Qwen2.5-14B-Instruct --ramp 1,2,4,8,16,32 "
               "--prompt-tokens lognormal:1200:900 --label 'my first run' --max-tokens 300")
    lines = wrap_command(command, lambda text: len(text) <= 60)
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1]) and not lines[-1].endswith("\\")
    assert all(line.startswith("    ") for line in lines[1:])
    assert " ".join(line.removesuffix(" \\").strip() for line in lines) == command
    for flag in ("--url http://SERVER:8000", "--ramp 1,2,4,8,16,32", "--label 'my first run'"):
        assert any(flag in line for line in lines), flag  # a flag and its value (quoted: whole) share a line
    assert wrap_command("vllm serve x", lambda text: len(text) <= 60) == ["vllm serve x"]
    # a word wider than a line stays whole on a line of its own
    assert "--model=" + "x" * 80 in [line.removesuffix(" \\").strip()
                                     for line in wrap_command("a b --model=" + "x" * 80, lambda t: len(t) <= 40)]


def _long_table(rows: int, intro_lines: int) -> str:
    """A Chinese label beside a Latin value: the label's line is taller, so Qt pushed it alone to the next page."""
    body = "".join(f"| row {i} 第 {i} 行 | value {i} |\n" for i in range(1, rows + 1))
    return ("# Long table\n\n" + "".join(f"- intro line {i}\n" for i in range(intro_lines))
            + "\n| Item | Value |\n|---|---|\n" + body + "\nAfter the table.\n")


@needs_poppler
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_long_table_continues_with_its_header_and_never_splits_a_row(tmp_path, lang):
    for intro_lines in (0, 7, 12):  # page ends at different heights of a row (7 and 12 split rows before)
        pages = _page_texts(_write(tmp_path, _long_table(120, intro_lines), lang))
        assert len(pages) >= 3
        seen = set()
        for number, text in enumerate(pages, start=1):
            flat = re.sub(r"\s+", " ", text)
            rows = {int(n) for n in re.findall(r"row (\d+) 第", flat)}
            values = {int(n) for n in re.findall(r"value (\d+)", flat)}
            assert rows == values, (intro_lines, number, rows ^ values)  # a row's label and value on one page
            if rows:
                assert "Item" in flat and "Value" in flat, number  # the header on every page the table is on
            seen |= rows
        assert seen == set(range(1, 121))


@needs_poppler
def test_a_heading_and_its_table_start_the_same_page(tmp_path):
    """A heading whose table would not fit under it moves to the next page with it (not left at the bottom)."""
    for paragraphs in range(40, 52):
        markdown = ("# T\n\n" + "".join(f"Paragraph {i}.\n\n" for i in range(paragraphs))
                    + "## The table\n\n| Item | Value |\n|---|---|\n" + "".join(f"| r{i} | v{i} |\n" for i in range(8)))
        pages = _page_texts(_write(tmp_path, markdown, "en"))
        heading = next(i for i, text in enumerate(pages) if "The table" in text)
        first_row = next(i for i, text in enumerate(pages) if "r0" in text.split())
        assert heading == first_row, paragraphs


# -- charts -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "unit", "foreign"), [("zh_CN", "万", "k"), ("en", "k", "万")])
def test_cost_chart_ticks_count_money_the_languages_way(lang, unit, foreign):
    from advisor.plan.charts import cost_chart
    from advisor.plan.result import CostPoint
    from ui.memo_charts import chart_axes, tick_text

    series = [CostPoint(month=m, cloud_low=9_000.0 * m, cloud_high=11_000.0 * m, bare_metal_low=60_000 + 4_000.0 * m,
                        bare_metal_high=80_000 + 6_000.0 * m) for m in range(37)]
    chart = cost_chart(_result().model_copy(update={"cost_series": series}), lang)
    axes = chart_axes(chart)
    labels = [tick_text(chart, t) for t in axes.y]
    assert any(unit in label for label in labels) and not any(foreign in label for label in labels), labels
    assert labels[0] == "0"
    assert axes.x[-1] == 36 and axes.x[1] - axes.x[0] == 6  # months: every half year up to the horizon


def _point(concurrency: int, *, ttft: float, tpot: float):
    from advisor.plan.result import CurvePoint

    return CurvePoint(concurrency=concurrency, ttft_p50_ms=ttft / 2, ttft_p99_ms=ttft, tpot_p50_ms=tpot / 2,
                      tpot_p99_ms=tpot, output_tokens_per_s=10.0 * concurrency)


def test_a_small_tpot_gets_its_own_axis_and_a_comparable_one_shares():
    """TPOT (tens of ms) beside TTFT (thousands) would lie flat on zero: it is read on a right-hand axis."""
    from advisor.plan.charts import latency_chart
    from ui.memo_charts import chart_axes

    result = _result()
    flat = [_point(c, ttft=2_000.0 + c, tpot=20.0 + c) for c in (1, 2, 4, 8)]
    curve = result.latency_curve.model_copy(update={"points": flat})
    axes = chart_axes(latency_chart(result.model_copy(update={"latency_curve": curve}), "en"))
    assert axes.on_right == {1} and axes.y2[-1] >= 28 and axes.y[-1] >= 2_000
    close = [_point(c, ttft=100.0 + c, tpot=60.0 + c) for c in (1, 2, 4, 8)]
    curve = result.latency_curve.model_copy(update={"points": close, "slo_ttft_p99_ms": 150.0})
    axes = chart_axes(latency_chart(result.model_copy(update={"latency_curve": curve}), "en"))
    assert not axes.on_right and not axes.y2
