"""Usable GPU memory in the catalog says where it comes from (issue #26 item 7).

A row's ``usable_memory_bytes`` is a CUDA total someone read off a real card: our own measurement (a file under
docs/measurements) or a published report (a URL quoting PyTorch's 'total capacity' or vLLM's 'total_gpu_memory').
Rows without one stay unset and the sizing result says its 98.5 % figure is an estimate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.catalog import get_gpu, load_gpus
from advisor.domain.gpu import GiB
from advisor.i18n import translate
from advisor.sizing.advice import gpu_memory_note

ROOT = Path(__file__).resolve().parents[2]
_QUOTED_GIB = re.compile(r"(?:total capacity of |; )(\d+\.\d\d) GiB(?: total capacity)?")


def _with_usable():
    return [g for g in load_gpus() if g.usable_memory_bytes is not None]


def test_every_catalog_row_with_usable_memory_names_its_source():
    rows = _with_usable()
    assert len(rows) >= 15  # the ones a published or measured CUDA total was found for
    for gpu in rows:
        src = gpu.usable_memory_source or ""
        if src.startswith("docs/measurements/"):
            assert (ROOT / src.split(" ", 1)[0]).is_file(), gpu.id
        else:
            assert src.startswith("https://"), f"{gpu.id}: the source must start with the report's URL"


@pytest.mark.parametrize("gpu", [g for g in _with_usable() if g.usable_memory_basis == "published"], ids=lambda g: g.id)
def test_published_figure_is_the_one_the_source_quotes(gpu):
    """The bytes are the quoted GiB figure (PyTorch prints 2 decimals), not a formula of ours."""
    quoted = _QUOTED_GIB.search(gpu.usable_memory_source or "")
    assert quoted, f"{gpu.id}: the source quotes no 'total capacity of N GiB'"
    assert gpu.usable_memory_bytes == round(float(quoted.group(1)) * GiB)


def test_rows_without_a_source_have_no_usable_figure():
    for gpu in load_gpus():
        assert (gpu.usable_memory_bytes is None) == (gpu.usable_memory_source is None), gpu.id


def test_l40s_is_the_published_cuda_total_not_98_5_percent():
    """The issue's case: 48 GiB × 0.985 = 47.3 GiB, a real L40S reports 46,068 MiB in nvidia-smi and less to CUDA."""
    gpu = get_gpu("l40s")
    assert gpu.effective_memory_bytes < 46068 * 1024**2  # below nvidia-smi's Total, which includes the reserve
    assert gpu.effective_memory_bytes < int(gpu.memory_bytes * 0.985) - 2 * GiB


def test_the_note_says_estimate_when_nothing_was_found():
    a40 = get_gpu("a40")
    assert a40.usable_memory_basis == "estimate"
    note = gpu_memory_note(a40, "en")
    assert "estimate" in note and "98.5 %" in note
    assert "估算" in gpu_memory_note(a40, "zh_CN")
    l4 = get_gpu("l4")
    assert l4.usable_memory_basis == "published"
    assert "https://github.com/ArcInstitute/evo2/issues/190" in gpu_memory_note(l4, "en")
    h200 = get_gpu("h200-141g")
    assert h200.usable_memory_basis == "measured"
    assert "docs/measurements/2026-12-04-h200-gpu-check.json" in gpu_memory_note(h200, "en")
    assert translate("en", "sizing.gpu_memory.estimate") != translate("zh_CN", "sizing.gpu_memory.estimate")
