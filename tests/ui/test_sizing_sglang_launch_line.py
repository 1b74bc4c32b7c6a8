"""The Sizing page with SGLang shows SGLang's launch line (the core's sglang_command, never `vllm serve`) and a memory
bar whose segments end within the GPU when the verdict says it fits (s18-sglcmd)."""

from __future__ import annotations


def _settle(qtbot, page):
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert page.result is not None and page.result.request == page.inputs.request()


def test_sglang_command_and_bar_agree_with_the_verdict(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    page.model_picker.select_data("llama-3.1-8b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("sglang"))
    _settle(qtbot, page)
    res = page.result
    shown = page.command.toPlainText()
    assert shown == res.sglang_command and "vllm serve" not in shown and "--mem-fraction-static" in shown
    bar = page.memory_bar
    used = sum(s.bytes for s in bar.segments if s.key != "free")
    assert (res.verdict == "fits") == (used <= res.memory.gpu_memory_bytes)
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("vllm"))
    _settle(qtbot, page)
    assert page.command.toPlainText().startswith("vllm serve")
    keys = [s.key for s in page.memory_bar.segments]
    assert "held_back" in keys  # vLLM's unused 1 − gpu_memory_utilization is drawn, so the bar's end matches the verdict
    used = sum(s.bytes for s in page.memory_bar.segments if s.key != "free")
    assert (page.result.verdict == "fits") == (used <= page.result.memory.gpu_memory_bytes)
