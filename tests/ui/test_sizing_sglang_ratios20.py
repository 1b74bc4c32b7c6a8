"""The Sizing page offers SGLang's two hybrid-pool ratios only where they do something: swa_full_tokens_ratio for a
sliding-window model SGLang gives a window pool, mamba_full_memory_ratio for a linear-attention model, and neither
for vLLM or a plain model; a set ratio reaches the core as `advisor calc` passes it (s20-sglang20, #28)."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.sizing import size
from tests.ui.sizing_page_helpers import settle as _settle
from tests.ui.sizing_page_helpers import shown as _shown


def _pick(qtbot, page, model: str, engine: str, gpus: int = 1) -> None:
    page.model_picker.select_data(model)
    page.gpu_picker.select_data("h100-sxm-80g")
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(gpus))
    page.engine_profile.setCurrentIndex(page.engine_profile.findData(engine))
    _settle(qtbot, page)


def test_the_window_ratio_shows_for_a_sliding_window_model_on_sglang_and_reaches_the_core(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    _pick(qtbot, page, "qwen2.5-7b-instruct", "sglang")
    assert not _shown(page, page.swa_ratio) and not _shown(page, page.mamba_ratio)  # a plain model: no split
    _pick(qtbot, page, "gpt-oss-20b", "vllm")
    assert not _shown(page, page.swa_ratio) and not _shown(page, page.mamba_ratio)  # vLLM has no such setting
    _pick(qtbot, page, "gpt-oss-20b", "sglang")
    assert _shown(page, page.swa_ratio) and not _shown(page, page.mamba_ratio)
    assert page.swa_ratio.text() == "engine default (0.8)"
    default_tokens = page.result.memory.kv_tokens
    page.swa_ratio.setValue(0.25)
    _settle(qtbot, page)
    req = page.inputs.request()
    assert req.engine.swa_full_tokens_ratio == 0.25
    assert page.result.memory == size(req).memory and page.result.memory.kv_tokens > default_tokens
    assert "--swa-full-tokens-ratio 0.25" in (page.result.sglang_command or "")
    main_window.set_language("zh_CN")
    assert page.swa_ratio.toolTip() == translate("zh_CN", "sizing20_sglang20.swa_ratio_tip")
    assert page.swa_ratio.toolTip() != translate("en", "sizing20_sglang20.swa_ratio_tip")
    main_window.set_language("en")
    # back at its lowest: SGLang's own ratio again, the figures of the start
    page.swa_ratio.setValue(0.0)
    _settle(qtbot, page)
    assert page.inputs.request().engine.swa_full_tokens_ratio is None
    assert page.result.memory.kv_tokens == default_tokens
    _pick(qtbot, page, "gpt-oss-20b", "vllm")
    assert not _shown(page, page.swa_ratio)


def test_the_state_ratio_shows_for_a_linear_attention_model_on_sglang_and_reaches_the_core(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    _pick(qtbot, page, "qwen3-next-80b-a3b-instruct", "sglang", gpus=4)
    assert _shown(page, page.mamba_ratio) and not _shown(page, page.swa_ratio)
    assert page.mamba_ratio.text() == "engine default (0.9)"
    slots = page.result.memory.sglang_state_slots
    page.mamba_ratio.setValue(2.0)
    _settle(qtbot, page)
    req = page.inputs.request()
    assert req.engine.mamba_full_memory_ratio == 2.0
    assert page.result.memory == size(req).memory and page.result.memory.sglang_state_slots > slots
    assert "--mamba-full-memory-ratio 2" in (page.result.sglang_command or "")
