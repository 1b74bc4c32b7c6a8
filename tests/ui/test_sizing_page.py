"""The sizing page: inputs reach the core, the numbers shown are the core's, imports, custom GPUs, table."""

import json

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from advisor.catalog import get_gpu, get_model, load_gpus
from advisor.settings import SizingDefaults
from advisor.sizing import size
from advisor.sizing.accuracy import load_of
from advisor.units import (
    format_bytes,
    format_count,
    format_gib,
    format_ms,
    format_tokens,
    format_tokens_per_s,
)


def _settle(qtbot, page):
    """Wait until the throttled estimate ran for the latest inputs."""
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert page.result is not None
    assert page.result.request == page.inputs.request()


def _show(qtbot, page, model: str, gpu: str, context: int, concurrency: int) -> None:
    """Pick a model and GPU, type a context and a concurrency, and wait for the estimate."""
    page.model_picker.select_data(model)
    page.gpu_picker.select_data(gpu)
    page.context_spin.setValue(context)
    page.concurrency_spin.setValue(concurrency)
    _settle(qtbot, page)


def _assert_numbers_match_core(page):
    expected = size(page.inputs.request())
    mem, perf = expected.memory, expected.perf
    shown = {k: v.text() for k, v in page.numbers.items()}
    assert shown["weights"] == format_gib(mem.weights_bytes)
    assert shown["kv_per_token"] == format_bytes(mem.kv_bytes_per_token)
    assert shown["kv_cache"] == format_gib(mem.kv_cache_bytes)
    assert shown["overhead"] == format_gib(mem.overhead_bytes)
    assert shown["total"] == f"{format_gib(mem.total_bytes)} / {format_gib(mem.gpu_memory_bytes)}"
    assert shown["kv_capacity"] == format_tokens(mem.kv_tokens)
    assert format_count(mem.max_concurrency) in shown["max_concurrency"]
    assert shown["max_context"] == format_tokens(mem.max_context)
    assert shown["ttft"] == format_ms(perf.ttft_ms.value)  # prefill + the engine's per-request serving overhead
    assert perf.ttft_ms.value == pytest.approx(perf.prefill_ms.value + perf.request_overhead_ms)
    assert shown["decode_user"] == format_tokens_per_s(perf.decode_tokens_per_s.value)
    assert shown["decode_total"] == format_tokens_per_s(perf.decode_tokens_per_s_total.value)
    assert shown["steady_tpot"] == format_ms(perf.steady_tpot_ms.value)
    assert shown["steady_total"] == format_tokens_per_s(perf.steady_tokens_per_s_total.value)
    # the assumptions are stated in words
    assert f"{format_count(perf.prompt_tokens)}-token prompt" in page.explanation.text()
    # and what to expect of them: the error measured against held-out public measurements at this concurrency first,
    # then over all loads
    at = perf.accuracy.at_load(load_of(page.inputs.request().concurrency))
    assert at is not None
    assert f"predicted TTFT was off by {at.ttft.median:.0%}" in page.explanation.text()
    assert f"by {perf.accuracy.ttft.median:.0%} and {perf.accuracy.tpot.median:.0%}" in page.explanation.text()
    verdict = page.verdict.text()
    headline = next(a.text for a in expected.advice if a.kind in ("fits", "does_not_fit"))
    assert verdict == headline  # the same sentence the CLI prints
    # green "fits" only when memory fits AND the engine accepts the setup (context, TP degree)
    assert verdict.startswith("Fits: up to" if expected.verdict == "fits" else ("Does not fit", "Engine refuses"))
    if expected.verdict == "fits":
        assert f"up to {format_count(mem.max_concurrency)} concurrent" in verdict
    # every number explains itself
    for key, label in page.numbers.items():
        assert label.toolTip().strip(), f"{key} has no tooltip"
    assert "parameters in" in page.numbers["weights"].toolTip()  # the core's formula string
    return expected


def test_opens_on_a_preset_with_results(qtbot, sizing_page):
    _settle(qtbot, sizing_page)
    assert sizing_page.model_picker.currentText()
    assert sizing_page.verdict.text()
    _assert_numbers_match_core(sizing_page)


def test_changing_inputs_updates_the_numbers(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    page.context_spin.setValue(32768)
    page.concurrency_spin.setValue(2)
    page.weights.setCurrentIndex(page.weights.findData("awq-int4"))
    _settle(qtbot, page)
    f = page.inputs.fields
    assert (f["model"].id, f["gpu"].id, f["context"], f["concurrency"], f["weights"]) == (
        "qwen2.5-7b-instruct", "rtx-4090", 32768, 2, "awq-int4",
    )  # fmt: skip
    result = _assert_numbers_match_core(page)
    assert result.memory.fits
    assert page.verdict.text().startswith("Fits: up to")

    before = page.numbers["kv_cache"].text()
    page.concurrency_slider.setValue(6)  # the slider drives the same input
    _settle(qtbot, page)
    assert page.concurrency_spin.value() == 6
    assert page.numbers["kv_cache"].text() != before
    _assert_numbers_match_core(page)


def test_seventy_b_on_h20s_tells_what_fixes_it(qtbot, sizing_page):
    page = sizing_page
    model_id = next(i for i in ("llama-3.1-70b-instruct", "llama-3.3-70b-instruct") if page._find_model(i))
    page.model_picker.select_data(model_id)
    page.gpu_picker.select_data("h20-96g")
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(1))
    page.context_spin.setValue(32768)
    page.concurrency_spin.setValue(16)
    _settle(qtbot, page)
    result = _assert_numbers_match_core(page)
    assert not result.memory.fits  # 70B in BF16 is ~131 GiB of weights: not on one 96 GB card
    assert "Does not fit" in page.verdict.text()
    assert result.min_gpus in (2, 4, 8)
    assert "--tensor-parallel-size" in page.advice.text()  # the fix, with its flag
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(4))
    _settle(qtbot, page)
    result = _assert_numbers_match_core(page)
    assert result.request.gpus == 4
    assert "vllm serve" in page.command.toPlainText()


def test_search_finds_models_and_gpus(sizing_page):
    assert "qwen2.5-7b-instruct" in sizing_page.model_picker.search("2.5 7b")
    assert "h20-96g" in sizing_page.gpu_picker.search("h20")
    assert sizing_page.gpu_picker.search("no such gpu") == []


def test_import_good_config(qtbot, sizing_page, tmp_path, llama_config):
    folder = tmp_path / "TinyLlama-1.1B"
    folder.mkdir()
    path = folder / "config.json"
    path.write_text(json.dumps(llama_config), encoding="utf-8")
    assert sizing_page.import_config(path) is True
    _settle(qtbot, sizing_page)
    model = sizing_page.inputs.fields["model"]
    assert model.hidden_size == 2048 and model.num_kv_heads == 4
    assert sizing_page.inputs.model_source == "imported"
    assert "TinyLlama-1.1B" in sizing_page.model_picker.currentText()
    assert not sizing_page.model_error.isVisible()
    _assert_numbers_match_core(sizing_page)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ('{"model_type": "llama", "num_hidden_layers": 2}', "hidden"),
        ("{ this is not json", "JSON"),
        ('{"model_type": "made_up_arch", "hidden_size": 8}', "unsupported"),
        # a quantization with no byte rule is refused by name, not sized as 16-bit
        ('{"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048, "num_hidden_layers": 22, '
         '"num_attention_heads": 32, "num_key_value_heads": 4, "intermediate_size": 5632, "vocab_size": 32000, "max_position_embeddings": 2048, '
         '"quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": true}}', "bitsandbytes"),
    ],
)
def test_import_broken_config_shows_the_error_next_to_the_field(qtbot, sizing_page, tmp_path, content, words):
    _settle(qtbot, sizing_page)
    before = sizing_page.inputs.fields["model"]
    path = tmp_path / "config.json"
    path.write_text(content, encoding="utf-8")
    assert sizing_page.import_config(path) is False
    assert sizing_page.model_error.isVisible()
    assert words.lower() in sizing_page.model_error.text().lower()
    assert "Traceback" not in sizing_page.model_error.text()
    assert f"{path}: " not in sizing_page.model_error.text()  # the label names the file; the reason does not repeat it
    assert sizing_page.inputs.fields["model"] == before  # nothing changed
    # however long the reason, the label gets the height its wrapped text needs, above the model description
    error, info = sizing_page.model_error, sizing_page.model_info
    qtbot.waitUntil(lambda: error.height() >= error.heightForWidth(error.width())
                    and error.geometry().bottom() < info.geometry().top(), timeout=2000)  # fmt: skip


def test_fixture_configs_import(qtbot, sizing_page):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "configs"
    configs = sorted(folder.rglob("*.json"))[:5]
    assert configs, f"no config.json fixtures in {folder}"
    imported = sum(1 for c in configs if sizing_page.import_config(c))
    assert imported >= 1


def test_drop_a_config_json(qtbot, sizing_page, tmp_path, llama_config):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(llama_config), encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    sizing_page.dropEvent(event)
    _settle(qtbot, sizing_page)
    assert sizing_page.inputs.fields["model"].hidden_size == 2048


def test_custom_gpu(qtbot, sizing_page):
    from ui.widgets.custom_gpu_dialog import CustomGpuDialog

    dialog = CustomGpuDialog(get_gpu("rtx-4090"), sizing_page)
    dialog.name.setText("")
    dialog.accept()  # refused: no name
    assert dialog.error.isVisibleTo(dialog) and dialog.gpu is None
    dialog.name.setText("Lab Card 48G")
    dialog.memory.setValue(48)
    gpu = dialog.build()
    assert gpu.memory_bytes == 48 * 1024**3 and gpu.user_defined
    sizing_page.add_custom_gpu(gpu, save=True)
    _settle(qtbot, sizing_page)
    assert sizing_page.inputs.fields["gpu"] == gpu
    assert "Lab Card 48G" in sizing_page.gpu_picker.currentText()
    assert any(g.id == gpu.id for g in load_gpus())  # remembered in the user's catalog
    _assert_numbers_match_core(sizing_page)


def test_catalog_table_runs_in_background_and_sorts(qtbot, sizing_page):
    page = sizing_page
    with qtbot.waitSignal(page.catalog_shown, timeout=20000):
        page.concurrency_spin.setValue(3)
    rows = page.catalog_table.source.rows
    assert len(rows) == len(load_gpus())
    req = page.inputs.request()
    h20 = next(r for r in rows if r.gpu_id == "h20-96g")
    direct = size(req.model_copy(update={"gpu": get_gpu("h20-96g")}))
    assert h20.fits_now == direct.memory.fits
    assert h20.gpus_needed == direct.min_gpus
    proxy = page.catalog_table.proxy
    column = 5  # throughput
    page.catalog_table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    values = [proxy.data(proxy.index(i, column), Qt.ItemDataRole.UserRole + 1) for i in range(proxy.rowCount())]
    assert values == sorted(values, reverse=True)


def test_advanced_engine_settings(qtbot, sizing_page):
    page = sizing_page
    assert not page.advanced_box.isVisible()
    page.advanced_toggle.setChecked(True)
    assert page.advanced_box.isVisible()
    _settle(qtbot, page)
    budget_before = page.result.memory.kv_budget_bytes
    page.gpu_util.setValue(0.80)
    page.batched_tokens.setValue(4096)
    _settle(qtbot, page)
    engine = page.inputs.fields["engine"]
    assert engine.gpu_memory_utilization == 0.80 and engine.max_num_batched_tokens == 4096
    assert page.result.memory.kv_budget_bytes < budget_before
    _assert_numbers_match_core(page)


def test_engine_profile_choice_changes_the_serving_overhead(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    _settle(qtbot, page)
    assert page.engine_profile.currentData() == "vllm"
    assert page.engine_profile.currentText() == "vLLM" and page.label_engine_profile.text() == "Serving engine"
    vllm = page.result
    assert vllm.engine.max_num_batched_tokens == 2048  # vLLM's own step budget on a 4090 (the field left open)
    assert vllm.perf.ttft_ms.value == pytest.approx(vllm.perf.prefill_ms.value + 12.0)
    page.engine_profile.setCurrentIndex(page.engine_profile.findData("sglang"))
    _settle(qtbot, page)
    assert page.inputs.request().engine_profile == "sglang"
    perf = page.result.perf
    assert perf.engine_profile == "sglang" and perf.request_overhead_ms == 9.0  # resources/engines/profiles.json
    assert perf.ttft_ms.value == pytest.approx(perf.prefill_ms.value + 9.0)
    # SGLang's own defaults: on a card under 25,000 MiB its chunk is 2,048 tokens in every release (server_args.py;
    # s19-ttft3), the same step budget as vLLM's here, so its prefill is not longer than vLLM's
    assert page.result.engine.max_num_batched_tokens == 2048
    assert perf.prefill_ms.value <= vllm.perf.prefill_ms.value * 1.05
    _assert_numbers_match_core(page)
    # the choice travels with the project
    project = page.to_project()
    assert project.sizing.request.engine_profile == "sglang"
    page.set_defaults(SizingDefaults())
    assert page.engine_profile.currentData() == "vllm"
    page.apply_project(project)
    assert page.engine_profile.currentData() == "sglang"


def test_a_model_too_big_for_any_preset_gpu_count_still_shows_words(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data(get_model("deepseek-v3").id)
    page.gpu_picker.select_data("rtx-4090")
    _settle(qtbot, page)
    assert "Does not fit" in page.verdict.text()
    assert page.advice.text()


def test_latency_curve_from_the_predictor(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    with qtbot.waitSignal(page.curve_shown, timeout=30000):
        page.context_spin.setValue(16384)
    prediction = page.curve.prediction
    assert prediction is not None and prediction.simulated
    assert [lv.concurrency for lv in prediction.levels][:3] == [1, 2, 4]
    xs, ys = page.curve.ttft_p50.getData()
    assert len(xs) == len(prediction.levels)
    if prediction.knee.concurrency:
        assert page.curve.knee_lines[0].isVisible()
        assert f"Knee at {prediction.knee.concurrency} concurrent" in page.curve.caption.text()
    assert "Simulated" in page.curve.caption.text()
    # the requested load's TTFT and TPOT as the range that held for public measurements in its regime
    from advisor.sizing.accuracy import likely_for_level, predictor_accuracy

    requested = prediction.engine["requested"]
    at = next(lv for lv in prediction.levels if lv.concurrency == requested)
    likely = likely_for_level(predictor_accuracy(), prediction.knee, at)
    assert likely is not None
    regime = "past the predicted knee" if likely.regime == "saturated" else "below the predicted knee"
    assert f"At {requested} concurrent user" in page.curve.caption.text() and regime in page.curve.caption.text()
    assert format_ms(likely.ttft_ms.low) in page.curve.caption.text()


def test_curve_explains_when_a_request_cannot_be_simulated(qtbot, sizing_page):
    page = sizing_page
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("rtx-4090")
    with qtbot.waitSignal(page.curve_shown, timeout=30000):
        page.context_spin.setValue(131072)  # one request is longer than the KV cache of one 4090
    assert page.curve.prediction is None
    assert "KV cache" in page.curve.caption.text()
    assert "Traceback" not in page.curve.caption.text()


def test_the_explanation_names_what_limits_decode(qtbot, sizing_page):
    """One user: decode reads the weights (bandwidth). A thousand users of a 3B model on an H100: vLLM's API server
    cannot stream their tokens as fast as the GPU makes them — the page says so, and what lifts it."""
    page = sizing_page
    _show(qtbot, page, "qwen2.5-3b", "h100-sxm-80g", context=1024, concurrency=1)
    assert page.result.perf.decode_bound == "bandwidth"
    assert "bandwidth, not TFLOPS, sets the output speed" in page.explanation.text()
    page.concurrency_spin.setValue(1000)
    _settle(qtbot, page)
    perf = page.result.perf
    assert perf.decode_bound == "front_end"
    text = page.explanation.text()
    assert "held back by the server's front end at 1000 concurrent requests" in text
    assert format_tokens_per_s(perf.front_end_tokens_per_s) in text and "--api-server-count" in text
    assert "bandwidth, not TFLOPS" not in text  # no longer claimed where it is not true


def test_a_fine_grained_moe_says_its_experts_run_below_the_dense_rate(qtbot, sizing_page):
    """Qwen3-30B-A3B (128 experts) on an H100: the page says the routed experts reach only a measured share of peak
    in vLLM's fused-MoE kernel; a dense model says nothing of the kind."""
    page = sizing_page
    _show(qtbot, page, "qwen3-30b-a3b", "h100-sxm-80g", context=8192, concurrency=1)
    perf = page.result.perf
    assert perf.expert_share_of_peak and perf.expert_share_of_peak < perf.gemm_share_of_peak
    text = page.explanation.text()
    assert f"routed experts run in vLLM's fused-MoE kernel at about {perf.expert_share_of_peak:.0%} of the GPU's peak" in text
    page.model_picker.select_data("qwen2.5-7b-instruct")
    _settle(qtbot, page)
    assert page.result.perf.expert_share_of_peak is None and "fused-MoE" not in page.explanation.text()


def test_an_older_engine_version_is_modelled_when_given(qtbot, sizing_page, tmp_path):
    """Advanced → Engine version 0.11.0: the estimate follows vLLM 0.11 (the nearest measured fused-MoE kernel, the
    scheduler between GPU steps); something that is not a release is refused beside the field and changes nothing;
    a project keeps the version; emptying the field goes back to the current release."""
    from advisor.project import load_project, save_project

    page = sizing_page
    _show(qtbot, page, "qwen3-235b-a22b", "h100-sxm-80g", context=4096, concurrency=8)
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(8))
    _settle(qtbot, page)
    current = page.result.perf
    page.engine_version.setText("0.11.0")
    page.engine_version.editingFinished.emit()
    _settle(qtbot, page)
    old = page.result.perf
    assert page.result.request.factors.engine_version == "0.11.0"
    assert old.expert_share_of_peak < current.expert_share_of_peak and old.ttft_ms.value > current.ttft_ms.value
    assert "Modelled as vLLM 0.11.0, not the current release." in page.explanation.text()
    page.engine_version.setText("latest")
    page.engine_version.editingFinished.emit()
    assert page.input_error.isVisible() and "0.11.0" in page.input_error.text()
    assert page.result.request.factors.engine_version == "0.11.0"  # nothing changed
    path = tmp_path / "v.advisor.json"
    save_project(page.to_project(), path)
    page.set_defaults(SizingDefaults())
    page.apply_project(load_project(path))
    _settle(qtbot, page)
    assert page.engine_version.text() == "0.11.0" and page.result.perf.ttft_ms == old.ttft_ms
    page.engine_version.setText("")
    page.engine_version.editingFinished.emit()
    _settle(qtbot, page)
    assert page.result.request.factors.engine_version is None and page.result.perf.ttft_ms == current.ttft_ms


def test_batch_settings_show_the_engines_own_default_until_set(qtbot, sizing_page):
    """Left open, max_num_seqs reads "engine default (N)" with what vLLM picks on the chosen GPU; a value typed in is
    the user's and stays when the GPU changes; 0 hands it back to the engine."""
    page = sizing_page
    page.model_picker.select_data("qwen2.5-3b")
    page.gpu_picker.select_data("h100-sxm-80g")
    _settle(qtbot, page)
    assert page.max_seqs.value() == 0 and page.max_seqs.text() == "engine default (1,024)"
    assert page.batched_tokens.text() == "engine default (8,192)"
    page.gpu_picker.select_data("rtx-4090")
    _settle(qtbot, page)
    assert page.max_seqs.text() == "engine default (256)" and page.batched_tokens.text() == "engine default (2,048)"
    page.max_seqs.setValue(64)
    _settle(qtbot, page)
    assert page.inputs.request().engine.max_num_seqs == 64 and page.result.engine.max_num_seqs == 64
    page.gpu_picker.select_data("h100-sxm-80g")
    _settle(qtbot, page)
    assert page.result.engine.max_num_seqs == 64  # the user's value stays
    page.max_seqs.setValue(0)
    _settle(qtbot, page)
    assert page.inputs.request().engine.max_num_seqs is None and page.result.engine.max_num_seqs == 1024


def test_a_checkpoint_that_declares_its_quantization_is_sized_in_it(qtbot, sizing_page):
    """gpt-oss ships in MXFP4 only: picking it sizes MXFP4 (one H100 holds the 120B), as `advisor calc` does; the
    next unquantized model goes back to BF16, and a format the user chose is kept across unquantized models."""
    _show(qtbot, sizing_page, "gpt-oss-120b", "h100-sxm-80g", context=8192, concurrency=4)
    assert sizing_page.weights.currentData() == "mxfp4" and sizing_page.inputs.fields["weights"] == "mxfp4"
    assert sizing_page.result.memory.fits
    _assert_numbers_match_core(sizing_page)
    _show(qtbot, sizing_page, "qwen2.5-7b-instruct", "h100-sxm-80g", context=8192, concurrency=4)
    assert sizing_page.weights.currentData() == "bf16"
    sizing_page.weights.setCurrentIndex(sizing_page.weights.findData("fp8"))
    _show(qtbot, sizing_page, "qwen3-8b", "h100-sxm-80g", context=8192, concurrency=4)
    assert sizing_page.inputs.fields["weights"] == "fp8"  # the user's choice, not a checkpoint's
