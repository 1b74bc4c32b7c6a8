"""With SGLang the Sizing page offers SGLang's memory setting, mem_fraction_static, in place of gpu_memory_utilization,
which SGLang ignores (advisor/sizing/sglang_pool.py); a set share reaches the core as `advisor calc
--mem-fraction-static` passes it, and the field's "engine default" is the share the Tips note names (s18-ui18)."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.sizing import size
from advisor.sizing.sglang_pool import default_mem_fraction_static
from tests.ui.sizing_page_helpers import settle as _settle
from tests.ui.sizing_page_helpers import shown as _shown


def test_sglang_shows_its_memory_fraction_and_passes_it_to_the_core(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("h100-sxm-80g")
    _settle(qtbot, page)
    assert _shown(page, page.gpu_util) and not _shown(page, page.mem_fraction)  # vLLM: its own setting
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("sglang"))
    _settle(qtbot, page)
    assert not _shown(page, page.gpu_util) and _shown(page, page.mem_fraction)
    assert page.hardware.label_fraction.text() == "mem_fraction_static"
    assert page.advanced_box.title() == translate("en", "sizing18_ui18.group_engine_sglang")  # not "(vLLM names)"
    # unset: SGLang's own share for this GPU, the one the Tips note gives
    share = default_mem_fraction_static(page.result.memory.gpu_memory_bytes, 1)
    assert page.mem_fraction.text() == f"engine default ({share:.3f})"
    assert f"{share:.3f}" in page.result.kv_pool_note
    pool_before = page.result.memory.kv_budget_bytes
    # a set share reaches the core: a smaller pool, the same as the request sized directly
    page.mem_fraction.setValue(0.70)
    _settle(qtbot, page)
    req = page.inputs.request()
    assert req.engine.mem_fraction_static == 0.70
    assert page.result.memory.kv_budget_bytes < pool_before
    assert page.result.memory.kv_budget_bytes == size(req).memory.kv_budget_bytes
    # gpu_memory_utilization changes nothing for SGLang, and is no longer on offer
    assert size(req.model_copy(update={"engine": req.engine.model_copy(update={"gpu_memory_utilization": 0.5})}))\
        .memory.kv_budget_bytes == page.result.memory.kv_budget_bytes
    main_window.set_language("zh_CN")
    assert page.mem_fraction.toolTip() == translate("zh_CN", "sizing18_ui18.fraction_tip")
    assert page.mem_fraction.toolTip() != translate("en", "sizing18_ui18.fraction_tip")
    main_window.set_language("en")
    # back to vLLM: its field again
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("vllm"))
    _settle(qtbot, page)
    assert _shown(page, page.gpu_util) and not _shown(page, page.mem_fraction)
    assert page.advanced_box.title() == translate("en", "ui.sizing.group_engine")


def test_the_kv_capacity_field_shows_both_sglang_pools_of_a_sliding_window_model(qtbot, main_window):
    """gpt-oss on SGLang: the field names the full-attention pool and the sliding-window pool (s19-sglswa, #28)."""
    from advisor.units import format_tokens

    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    page.model_picker.select_data("gpt-oss-20b")
    page.gpu_picker.select_data("h100-sxm-80g")
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("sglang"))
    _settle(qtbot, page)
    mem = page.result.memory
    assert mem.sglang_swa_tokens is not None
    text = page.overview.numbers["kv_capacity"].text()
    assert format_tokens(mem.sglang_swa_tokens) in text and format_tokens(mem.kv_tokens) in text
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("vllm"))
    _settle(qtbot, page)
