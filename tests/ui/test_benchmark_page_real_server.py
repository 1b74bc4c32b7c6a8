"""What driving the Benchmark page against REAL engines found (tools/interop/drive_page.py, docs/measure.md
"Against a real server"), each replayed here without the engine: the transcripts in tests/fixtures/sse/ that were
captured from llama-cpp-python 0.3.36 and vLLM 0.32 (CPU) are served over real loopback HTTP by
tests/support/replay.py, and the real page drives the real engine against them."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCursor

from tests.support.replay import ReplayServer

RUN_TIMEOUT_MS = 60_000


@pytest.fixture
def page(benchmark_page):
    return benchmark_page


def _connect(qtbot, page, url: str, model: str = "m") -> object:
    page.url_radio.setChecked(True)
    page.url_edit.setText(url)
    page.model_pick.setCurrentText("")
    with qtbot.waitSignal(page.probed, timeout=30_000) as probed:
        page.connect_target()
    page.model_pick.setCurrentText(model)
    return probed.args[0]


def _background(edit, pos: int):
    cursor = QTextCursor(edit.document())
    cursor.setPosition(pos)
    cursor.setPosition(pos + 1, QTextCursor.MoveMode.KeepAnchor)
    return cursor.charFormat().background().style()


def test_only_the_first_token_of_the_sample_answer_is_highlighted_when_it_arrives_alone(page):
    """A real CPU server is slow enough that a refresh sees the first token alone; the next refresh used to insert
    the whole answer with the highlight the edit's cursor still carried, so everything came out yellow."""
    from PySide6.QtCore import Qt

    from ui.bench_session import SampleText

    page.session.sample = SampleText(step=0, text="推理", ttft_ms=119.0, ttft_chars=2)
    page.live.refresh_all()
    assert _background(page.sample_text, 0) == Qt.BrushStyle.SolidPattern
    page.session.sample = SampleText(step=0, text="推理部署 needs memory", ttft_ms=119.0, ttft_chars=2)
    page.live.refresh_all()
    assert page.sample_text.toPlainText() == "推理部署 needs memory"
    assert _background(page.sample_text, 1) == Qt.BrushStyle.SolidPattern
    assert all(_background(page.sample_text, i) == Qt.BrushStyle.NoBrush for i in range(2, 15))


def test_a_result_with_failures_says_which_and_why(qtbot, page):
    """Against vLLM (CPU, random weights) one request of a step streamed only undecodable bytes (HTTP 200, usage 48,
    no text): the page said "completed with problems (see the notes)" and showed no note. Every other answer is
    vLLM's real transcript; every third one is an empty 200."""
    served = {"n": 0}

    def route(_body: bytes) -> str:
        served["n"] += 1
        return "empty_200" if served["n"] % 3 == 0 else "vllm_cpu_chat_real"

    with ReplayServer(routes={"/v1/chat/completions": route}, owned_by="vllm", interval_ms=1) as srv:
        probe = _connect(qtbot, page, srv.url)
        assert probe is not None and probe.dialect == "vllm"
        page.shape_box.setCurrentIndex(page.shape_box.findData("fixed"))
        page.concurrency.setValue(1)
        page.requests.setValue(9)
        page.output_mean.setValue(16)
        page.sample_check.setChecked(False)
        with qtbot.waitSignal(page.run_finished, timeout=RUN_TIMEOUT_MS) as done:
            assert page.start_run()
    result = done.args[0]
    step = result["steps"][0]
    assert step["requests_failed"] >= 2 and result["status"] != "completed"
    view = page.result_view
    assert not view.client_note.isHidden()
    note = view.client_note.text()
    assert f"{step['requests_failed']} of {step['requests_ok'] + step['requests_failed']} requests failed" in note
    assert "HTTP 200 but no text" in note and "empty:" in note
    assert "failed" in view.copy_markdown()


def test_failure_words_exist_in_both_languages():
    from advisor.bench.report import _OUTCOMES
    from advisor.i18n import set_language, tr

    for lang in ("en", "zh_CN"):
        set_language(lang)
        for outcome in _OUTCOMES:
            assert tr(f"bench.report.outcome.{outcome}") != f"bench.report.outcome.{outcome}"
    set_language("en")



def test_against_llama_cpp_python_the_page_warns_and_sends_no_sample_request(qtbot, page):
    """The sample answer is an extra request beside the load. llama-cpp-python serves one request at a time and cuts
    off the stream it is sending when another arrives: at concurrency 1 the sample cut off a measured request (1 of
    8 failed, the ramp stopped there on the error rate) and the load cut off the sample (no text ever showed)."""
    from tests.core.test_bench_real_engines import OneAtATime

    with OneAtATime() as srv:
        probe = _connect(qtbot, page, srv.url)
        assert probe is not None and probe.dialect == "llamacpp"
        text = page.probe_label.text()
        assert "llama-cpp-python" in text and "one request at a time" in text and "concurrency 1" in text
        page.shape_box.setCurrentIndex(page.shape_box.findData("fixed"))
        page.concurrency.setValue(1)
        page.requests.setValue(6)
        page.output_mean.setValue(12)
        assert page.sample_check.isChecked()  # the default: it is the page that decides not to send it
        before = len(srv.served)
        with qtbot.waitSignal(page.run_finished, timeout=RUN_TIMEOUT_MS) as done:
            assert page.start_run()
        chats = [s for s in srv.served[before:] if s.path.endswith("/chat/completions")]
    result = done.args[0]
    step = result["steps"][0]
    assert step["requests_failed"] == 0 and step["requests_ok"] == 6
    assert len(chats) == 1 + 1 + 6  # the run's probe, the warm-up, the measured requests: no sample
    assert "one request at a time" in page.sample_title.text() and page.sample_text.toPlainText() == ""


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_left_column_fits_its_scroll_area_so_no_row_is_cut_off(page, lang):
    """Seen in the screenshots against a real server: the probe's warning, the URL and the key note were cut off at
    the right edge — the sample check box's long text and the long Chinese SLO labels beside the prompt-file row
    made the column wider than its scroll area (which has no horizontal scroll bar)."""
    from advisor import i18n

    i18n.set_language(lang)
    try:
        page.retranslate()
        page.url_radio.setChecked(True)
        left = page.target_box.parentWidget()  # the left column (the target, workload and run panels)
        scroll = left.parentWidget().parentWidget()
        assert left.minimumSizeHint().width() <= scroll.minimumWidth(), (lang, left.minimumSizeHint().width())
    finally:
        i18n.set_language("en")


def test_a_real_servers_result_lists_no_predicted_curve_it_does_not_draw(page):
    """The result of a run against a real server has no predicted curve (the predictor needs the simulated setup),
    yet the legend listed 'TTFT p50 predicted' and 'TPOT p50 predicted'."""
    from advisor.run_prediction import predicted_curve

    view = page.result_view
    steps = [{"concurrency": c, "requests_ok": 8, "ttft_ms": {"p50": 20.0 * c}, "tpot_ms": {"p50": 2.0},
              "output_tokens_per_s": 100.0 * c} for c in (1, 2)]  # fmt: skip
    view.show_result({"status": "completed", "model": "tiny", "url": "http://127.0.0.1:1", "steps": steps})
    labels = [label.text for _sample, label in view.legend.items]
    assert labels and not any("predicted" in t for t in labels), labels
    view.set_prediction(predicted_curve("qwen2.5-3b", "l4", levels=[1, 2]))
    labels = [label.text for _sample, label in view.legend.items]
    assert sum("predicted" in t for t in labels) == 2, labels
