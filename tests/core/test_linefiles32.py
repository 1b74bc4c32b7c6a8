"""Whole documents uploaded as files size the line's upload (s31-bigctx32; blind review 20, q10 zh: "the 2 Mbps BGP
line is sized from token rates; uploading whole contracts or reports as PDFs would need more (10+ Mbps)")."""

from __future__ import annotations

import math

import pytest

from advisor.plan.data import gpu_choice_facts
from tests.support.planned import advice_plan, only_finding

Q10 = "q10_128k_document_assistant"
SAID = {"en": ("The prompts are whole documents: uploaded as files (PDF or DOCX)", "assumed: each request at the peak "
               "brings its file"),
        "zh_CN": ("提示词是整份文档：以文件（PDF 或 DOCX）上传时", "假设峰值时每个请求都带上其文件")}


def test_a_document_assistants_line_is_sized_on_the_files_bytes() -> None:
    lc = advice_plan(Q10).line_cost
    assert lc is not None and lc.in_file_mbps is not None
    doc = gpu_choice_facts()["line_bandwidth"]["bytes_per_document_token"]
    # the same prompt tokens a second, at the file's bytes a token (its high end, as the text's is)
    assert lc.in_file_mbps == pytest.approx(lc.prompt_tokens_per_s * doc["high"] * 8 / 1e6, rel=1e-3)
    assert lc.in_file_mbps > 10 * lc.in_mbps  # a file's bytes are many times the text's
    assert lc.mbps == max(1, math.ceil(max(lc.out_mbps, lc.in_mbps, lc.in_file_mbps) * lc.headroom))
    assert lc.mbps >= 10  # the reviewer's "10+ Mbps" for whole contracts uploaded as PDFs


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_line_finding_says_the_files_figure_with_its_assumption_and_source(lang: str) -> None:
    r = advice_plan(Q10)
    f = only_finding(r, "cost.line_bandwidth")
    text = f.detail_in(lang)
    for part in SAID[lang]:
        assert part in text, text
    assert f"{r.line_cost.in_file_mbps:.2g} Mbps" in text and f"{r.line_cost.mbps:,.0f} Mbps" in f.title_in(lang)
    assert any("PDF" in s.title and s.grade == "C" for s in f.sources)


@pytest.mark.parametrize("name", ["q32_filed_public_chatbot_fast", "q42_china_market_gpus_mainland"])
def test_short_prompts_are_text_not_files(name: str) -> None:
    r = advice_plan(name)
    assert r.line_cost is not None and r.line_cost.in_file_mbps is None
    assert "PDF" not in only_finding(r, "cost.line_bandwidth").detail_in("en")
