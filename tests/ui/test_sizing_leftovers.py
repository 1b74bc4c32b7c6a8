"""Issue #26 item 9 on the Sizing page: a GGUF format's switch to llama.cpp is said next to the engine (and its
advice carries llama-server's flags, not vLLM's), and a GPU that does not fit as asked shows no speed as if it
did."""

from __future__ import annotations

from PySide6.QtCore import Qt

from advisor.catalog import load_gpus, load_models
from ui.widgets.catalog_table import COLUMNS

VLLM_FLAGS = ("--max-num-seqs", "--max-model-len", "--gpu-memory-utilization", "--tensor-parallel-size",
              "--kv-cache-dtype", "--max-num-batched-tokens")


def _settle(qtbot, page):
    qtbot.waitUntil(lambda: page.result is not None and page.result.request == page.inputs.request(), timeout=5000)


def _table_for(qtbot, page):
    """Until the All GPUs table shows the current inputs (an earlier computation may land first)."""
    qtbot.waitUntil(lambda: page.catalog_request == page.inputs.request() and bool(page.catalog_table.source.rows),
                    timeout=30000)


def test_a_gguf_format_says_it_switches_the_engine_to_llama_cpp(qtbot, sizing_page):
    page = sizing_page
    assert page.engine_profile.currentData() == "vllm"
    _settle(qtbot, page)
    assert page.engine_switch.isHidden()  # BF16 on vLLM: nothing switched, nothing said
    page.concurrency_spin.setValue(64)  # enough load that the advice offers batch flags
    page.weights.setCurrentIndex(page.weights.findData("gguf-q8_0"))
    _settle(qtbot, page)
    assert not page.engine_switch.isHidden()
    text = page.engine_switch.text()
    assert "GGUF Q8_0" in text and "llama.cpp" in text and "vLLM" in text
    flags = " ".join(a.flags or "" for a in page.result.advice)
    assert not any(f in flags for f in VLLM_FLAGS), flags
    assert page.result.vllm_command is None and page.result.llama_cpp_command
    # picking llama.cpp itself: no switch to announce
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("llama.cpp"))
    _settle(qtbot, page)
    assert page.engine_switch.isHidden()


def test_gpus_that_do_not_fit_as_asked_show_no_speed_as_if_they_did(qtbot, sizing_page):
    page = sizing_page
    model = next(m for m in load_models() if m.id == "qwen2.5-72b-instruct")
    page.inputs.update(model=model, weights="bf16", gpus=1, context=8192, concurrency=8)
    _table_for(qtbot, page)
    table = page.catalog_table
    proxy = table.proxy

    def cells(gpu_id: str, role=Qt.ItemDataRole.DisplayRole) -> dict[str, str]:
        row = next(i for i in range(proxy.rowCount()) if proxy.data(proxy.index(i, 0), Qt.ItemDataRole.UserRole) == gpu_id)
        return {c: proxy.data(proxy.index(row, i), role) for i, c in enumerate(COLUMNS)}

    rows = {r.gpu_id: r for r in table.source.rows}
    # needs more GPUs than asked: the speed is marked as the speed on the GPUs it needs, with the reason
    h100 = rows["h100-sxm-80g"]
    assert not h100.fits_now and h100.gpus_needed and h100.gpus_needed > 1
    shown = cells("h100-sxm-80g")
    for col in ("tokens_total", "tokens_user", "ttft"):
        assert f"on {h100.gpus_needed} GPUs" in shown[col], shown
    assert "does not fit on 1 gpu" in cells("h100-sxm-80g", Qt.ItemDataRole.ToolTipRole)["tokens_total"].lower()
    # fits nowhere in one node: "does not fit", no figure at all
    small = min((g for g in load_gpus() if rows.get(g.id) and rows[g.id].gpus_needed is None),
                key=lambda g: g.memory_bytes, default=None)
    if small is None:  # every GPU of the catalog takes 72B in one node: use a bigger model
        big = next(m for m in load_models() if m.id == "deepseek-v3")
        page.inputs.update(model=big)
        _table_for(qtbot, page)
        rows = {r.gpu_id: r for r in table.source.rows}
        small = min((g for g in load_gpus() if rows[g.id].gpus_needed is None), key=lambda g: g.memory_bytes)
    shown = cells(small.id)
    for col in ("max_concurrency", "tokens_total", "tokens_user", "ttft"):
        assert shown[col] == "does not fit", shown
    assert "nor on any GPU count" in cells(small.id, Qt.ItemDataRole.ToolTipRole)["ttft"]
    # a GPU that fits as asked keeps its plain figure
    fits = next(r for r in table.source.rows if r.fits_now)
    assert "GPUs)" not in cells(fits.gpu_id)["tokens_total"]


def test_the_overviews_speed_of_a_setup_that_does_not_fit_is_greyed_and_says_so(qtbot, sizing_page):
    page = sizing_page
    _settle(qtbot, page)
    overview = page.overview
    assert page.result.verdict == "fits" and overview.speed_mark.note.isHidden()
    assert all(overview.numbers[k].graphicsEffect() is None for k in overview.SPEED_NUMBERS)
    page.concurrency_spin.setValue(400)
    page.context_spin.setValue(32768)
    _settle(qtbot, page)
    assert page.result.verdict == "does_not_fit"
    assert not overview.speed_mark.note.isHidden() and "not a speed to expect" in overview.speed_mark.note.text()
    assert all(overview.numbers[k].graphicsEffect() is not None for k in overview.SPEED_NUMBERS)
    page.concurrency_spin.setValue(1)
    page.context_spin.setValue(4096)
    _settle(qtbot, page)
    assert page.result.verdict == "fits" and overview.speed_mark.note.isHidden()
