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
from advisor.plan.memo import MemoError, render_memo_markdown, write_memo
from advisor.plan.result import PlanResult
from ui.memo_charts import HEIGHT, WIDTH

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
                     i18n.translate("zh_CN", "memo.hw.layout_value", per=result.hardware.gpus_per_replica,
                                    replicas=result.hardware.replicas, total=result.hardware.total_gpus),
                     "首字延迟", "每字输出耗时", "页"):
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
