"""The Sizing page's speculative-decoding group (s25-spec28, #28): it fills the same ``SizingRequest.speculative``
field as ``advisor calc --speculative``, the figures on screen are the core's for that request (the proposer's
weights in the memory bar's weights segment, its KV in the per-token figure), the group says what the proposer holds
in both languages, a method that does not apply is refused in words, an EAGLE-3 head is read from its config.json
(its draft_vocab_size with it), and the settings travel with the project."""

from __future__ import annotations

import json

from advisor.catalog import get_model
from advisor.domain.sizing import SpeculativeSettings
from advisor.i18n import translate
from advisor.sizing import size
from advisor.units import format_bytes
from tests.ui.sizing_page_helpers import settle


def _pick(qtbot, page, model: str, method: str, draft: str | None = None, tokens: int = 4) -> None:
    page.model_picker.select_data(model)
    page.gpu_picker.select_data("h100-sxm-80g")
    page.speculative.tokens.setValue(tokens)
    page.speculative.method.setCurrentIndex(page.speculative.method.findData(method))
    if draft is not None:
        page.speculative.draft.select_data(draft)
    settle(qtbot, page)


def _bar_bytes(page, key: str) -> int:
    return next(s.bytes for s in page.memory_bar.segments if s.key == key)


def test_a_draft_model_chosen_on_the_page_is_the_request_calc_sizes(qtbot, sizing_page):
    page = sizing_page
    _pick(qtbot, page, "qwen2.5-14b-instruct", "")
    plain = page.result.memory
    assert not page.speculative.summary.isVisible() and page.inputs.request().speculative is None
    _pick(qtbot, page, "qwen2.5-14b-instruct", "draft_model", draft="qwen2.5-3b-instruct")
    req = page.inputs.request()
    draft = get_model("qwen2.5-3b-instruct")
    assert req.speculative == SpeculativeSettings(method="draft_model", draft_model=draft, num_speculative_tokens=4)
    m = page.result.memory
    assert m == size(req).memory and m.draft_weights_bytes > 0
    # the draft's weights sit in the bar's weights segment, its KV in the per-token figure, the lookahead in each request
    assert _bar_bytes(page, "weights") == m.weights_bytes + m.draft_weights_bytes
    assert m.kv_bytes_per_token == plain.kv_bytes_per_token + m.draft_kv_bytes_per_token
    assert page.numbers["kv_per_token"].text() == format_bytes(m.kv_bytes_per_token)
    summary = page.speculative.summary.text()
    assert format_bytes(m.draft_weights_bytes, 2) in summary and "Qwen2.5 3B Instruct" in summary and "4 slots" in summary
    assert "--speculative-config" in page.command.toPlainText() and "draft_model" in page.command.toPlainText()


def test_mtp_where_the_model_has_none_is_refused_in_words_and_n_gram_holds_nothing(qtbot, main_window):
    page = main_window.sizing_page
    main_window.tabs.setCurrentWidget(page)
    _pick(qtbot, page, "qwen2.5-7b-instruct", "ngram")
    assert page.result.memory.draft_weights_bytes == 0 and page.result.memory.speculative_lookahead_tokens == 0
    assert page.speculative.summary.text() == translate("en", "speculative25_spec28.summary_ngram")
    page.speculative.method.setCurrentIndex(page.speculative.method.findData("mtp"))
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    model = get_model("qwen2.5-7b-instruct").name
    assert translate("en", "speculative25_spec28.no_mtp", model=model) in page.input_error.text()
    main_window.set_language("zh_CN")
    assert translate("zh_CN", "speculative25_spec28.no_mtp", model=model) in page.input_error.text()
    assert page.speculative.method.currentText() == translate("zh_CN", "speculative25_spec28.method.mtp")
    assert page.speculative.title() == translate("zh_CN", "speculative25_spec28.group") != translate("en", "speculative25_spec28.group")
    main_window.set_language("en")
    # DeepSeek-V3 stores one MTP layer: the page sizes it as calc does, and the project keeps the choice
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(8))
    _pick(qtbot, page, "deepseek-v3", "mtp", tokens=1)
    req = page.inputs.request()
    assert req.speculative.method == "mtp" and page.result.memory == size(req).memory
    assert page.result.memory.draft_weights_bytes > 0 and '"deepseek_mtp"' in page.command.toPlainText()
    project = page.to_project()
    page.set_defaults(main_window.settings.sizing_defaults)
    assert page.inputs.request().speculative is None
    page.apply_project(project)
    assert page.inputs.request().speculative == req.speculative
    assert page.speculative.method.currentData() == "mtp" and page.speculative.tokens.value() == 1


def test_an_eagle3_head_read_from_its_config_carries_its_draft_vocabulary(qtbot, sizing_page, tmp_path, monkeypatch):
    # the shape of an EAGLE-3 head card (thomaskiefer/EAGLE3-Apertus-8B-Instruct-2509: 1 layer, hidden 4096,
    # intermediate 21504, 32 heads, 8 KV heads, vocab 131,072, draft vocab 32,000), here for an 8B Llama target
    head_dir = tmp_path / "my-eagle3-head"
    head_dir.mkdir()
    (head_dir / "config.json").write_text(json.dumps({
        "architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096, "intermediate_size": 21504,
        "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1, "vocab_size": 131072,
        "draft_vocab_size": 32000, "max_position_embeddings": 131072, "rms_norm_eps": 1e-5, "torch_dtype": "bfloat16"}))
    page = sizing_page
    _pick(qtbot, page, "llama-3.1-8b-instruct", "")
    page.speculative.method.setCurrentIndex(page.speculative.method.findData("eagle3"))  # a head to import next
    monkeypatch.setattr(page.speculative, "ask_config_path", lambda: str(head_dir / "config.json"))
    page.speculative.import_head.click()
    settle(qtbot, page)
    spec = page.inputs.request().speculative
    assert spec.method == "eagle3" and spec.draft_model.num_layers == 1 and spec.draft_vocab_size == 32000
    assert page.result.memory == size(page.inputs.request()).memory
    assert "my-eagle3-head" in page.speculative.summary.text()
    assert '"eagle3"' in page.command.toPlainText()
