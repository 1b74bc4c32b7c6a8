"""The Sizing page's shared-prefix field: reaches the core, changes the KV figures, is stated in words, travels
with the project, and a prefix longer than the prompt is a field-level message."""

from advisor.settings import SizingDefaults
from advisor.sizing import size
from advisor.units import format_count, format_gib


def _settle(qtbot, page):
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert page.result is not None and page.result.request == page.inputs.request()


def test_shared_prefix_field_reaches_the_core_and_is_stated(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    page.context_spin.setValue(8192)
    page.concurrency_spin.setValue(8)
    _settle(qtbot, page)
    assert page.label_prefix.text() == "Shared prefix" and "prefix caching" in page.prefix_spin.toolTip()
    plain = page.result
    assert "Shared prefix" not in page.explanation.text()

    page.prefix_spin.setValue(1000)
    _settle(qtbot, page)
    req = page.inputs.request()
    assert req.shared_prefix_tokens == 1000
    expected = size(req)
    assert page.result.memory == expected.memory
    assert expected.memory.shared_prefix_blocks == 62  # 992 of the 1,000 tokens in whole 16-token blocks
    assert page.numbers["kv_cache"].text() == format_gib(expected.memory.kv_cache_bytes)
    assert expected.memory.kv_cache_bytes < plain.memory.kv_cache_bytes
    text = page.explanation.text()
    assert "every prompt starts with the same 1,000 tokens" in text and f"{format_count(992)} tokens" in text
    assert "62 whole blocks" in page.numbers["kv_per_request"].toolTip()

    # the field travels with the project and a new project starts without a prefix
    project = page.to_project()
    assert project.sizing.request.shared_prefix_tokens == 1000
    page.set_defaults(SizingDefaults())
    assert page.prefix_spin.value() == 0
    page.apply_project(project)
    assert page.prefix_spin.value() == 1000


def test_prefix_longer_than_the_prompt_is_shown_next_to_the_fields(qtbot, sizing_page):
    page = sizing_page
    page.context_spin.setValue(4096)
    _settle(qtbot, page)
    page.prefix_spin.setValue(4000)  # the prompt is 4096 − 512 output tokens
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert not page.input_error.isHidden()
    assert "shared prefix" in page.input_error.text() and "3584" in page.input_error.text()
    page.prefix_spin.setValue(0)
    _settle(qtbot, page)
    assert page.input_error.isHidden()


def test_catalog_ttft_is_the_overview_ttft(qtbot, sizing_page):
    """One number for one question: the All GPUs table's TTFT includes the serving overhead, as the overview's."""
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    page.prefix_spin.setValue(512)
    _settle(qtbot, page)
    # the table of these inputs, not one still computing for the model/GPU change before the prefix (a busy machine)
    qtbot.waitUntil(lambda: page.catalog_request == page.inputs.request(), timeout=30000)
    row = next(r for r in page.catalog_table.source.rows if r.gpu_id == "rtx-4090")
    assert row.ttft_ms == page.result.perf.ttft_ms.value
    assert page.result.perf.request_overhead_ms > 0 and row.ttft_ms > page.result.perf.prefill_ms.value


def test_curve_simulates_and_states_the_shared_prefix(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    page.context_spin.setValue(4096)
    with qtbot.waitSignal(page.curve_shown, timeout=60000):
        page.prefix_spin.setValue(1000)
    prediction = page.curve.prediction
    assert prediction.engine["prefix_tokens"] == 1000
    caption = page.curve.caption.text()
    assert "same 1,000 tokens" in caption and "vLLM serving overhead" in caption
