"""The Sizing page's speculative group states decode speed with and without speculation (s26-spec28, #28): the
core's figures for the page's request (perf.speculative), as a range with the load regime where acceptance is
published, and no speed-up where it is not, in both languages."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.sizing import size
from advisor.sizing.speculative_text import speculative_speed_text
from tests.ui.test_sizing_speculative28 import _pick


def test_the_panel_states_the_speed_with_and_without_speculation_in_both_languages(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(8))
    _pick(qtbot, page, "deepseek-v3", "mtp", tokens=1)  # DeepSeek-V3's MTP: acceptance published (85–90 %)
    result = size(page.inputs.request())
    s = result.perf.speculative
    assert s is not None and s.tpot_ms is not None and page.speculative.speed.isVisible()
    text = page.speculative.speed.text()
    assert text == speculative_speed_text(result)
    assert f"{s.tpot_ms.low:.1f}–{s.tpot_ms.high:.1f}" in text and f"{s.base_tpot_ms.low:.1f}–{s.base_tpot_ms.high:.1f}" in text
    n = page.inputs.request().concurrency
    assert translate("en", f"speculative26_spec28.regime.{s.regime}", n=n) in text
    main_window.set_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: "DeepSeek-V3" in page.speculative.speed.text() and "并发" in page.speculative.speed.text(), timeout=3000)
        assert translate("zh_CN", f"speculative26_spec28.regime.{s.regime}", n=n) in page.speculative.speed.text()
    finally:
        main_window.set_language("en")
    # n-gram on a model nobody measured it on: what it would need, no speed-up
    _pick(qtbot, page, "qwen2.5-7b-instruct", "ngram")
    text = page.speculative.speed.text()
    assert text.startswith(translate("en", "speculative26_spec28.unknown", method=translate("en", "speculative25_spec28.method.ngram"),
                                     model="Qwen2.5 7B Instruct", n=n, need="1.00", k1=5)[:40])  # fmt: skip
    assert "×" not in text
    page.speculative.method.setCurrentIndex(page.speculative.method.findData(""))
    assert not page.speculative.speed.isVisible()


def test_an_eagle3_head_preset_is_offered_in_the_draft_picker_with_its_vocabulary(qtbot, sizing_page):
    page = sizing_page
    _pick(qtbot, page, "llama-3.1-8b-instruct", "eagle3", draft="eagle3-llama-3.1-8b-instruct-specforge", tokens=3)
    req = page.inputs.request()
    assert req.speculative.draft_model.id == "eagle3-llama-3.1-8b-instruct-specforge" and req.speculative.draft_vocab_size == 32000
    assert page.result.memory == size(req).memory and page.result.memory.draft_weights_bytes > 0
    assert "lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge" in page.command.toPlainText()
    # acceptance for EAGLE-3 on this model is published for another head only (yuhuili's): since s27-predict28 it
    # is the (model, head) pair's, so no speed-up is stated for SpecForge's head and the page names whose it was
    assert page.result.perf.speculative.regime == "unknown" and page.result.perf.speculative.tpot_ms is None
    assert page.result.perf.speculative.other_drafters == ["yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"]
    assert "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" in page.speculative.speed.text()
    assert "lmsys/SGLang-EAGLE3-Llama-3.1-8B-Instruct-SpecForge" in page.speculative.speed.text()
