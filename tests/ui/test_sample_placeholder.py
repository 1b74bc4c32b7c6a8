"""Issue #26 item 9: the simulated server's sample answer is generated placeholder text (word salad to a reader), and
the Benchmark page now says so next to it; a real server's sample answer carries no such label.

Run over real loopback HTTP: the embedded simulated server (a child ``advisor sim`` process) and a replayed vLLM
transcript (tests/support/replay.py) that reports itself as vLLM."""

from __future__ import annotations

from tests.support.replay import ReplayServer

RUN_TIMEOUT_MS = 90_000


def _tiny(page) -> None:
    page.prompt_mean.setValue(32)
    page.output_mean.setValue(16)
    page.shape_box.setCurrentIndex(page.shape_box.findData("fixed"))
    page.concurrency.setValue(1)
    page.requests.setValue(3)
    page.sample_check.setChecked(True)


def test_the_simulated_sample_answer_is_labelled_placeholder_text(qtbot, benchmark_page):
    page = benchmark_page
    page.sim_model.setCurrentIndex(page.sim_model.findData("qwen2.5-7b-instruct"))
    page.sim_gpu.setCurrentIndex(page.sim_gpu.findData("h100-sxm-80g"))
    page.sim_speed.setValue(0.2)
    with qtbot.waitSignal(page.probed, timeout=30_000):
        page.toggle_sim()
    _tiny(page)
    seen: list[str] = []
    page.live_updated.connect(lambda: page.sample_text.toPlainText() and seen.append(page.live.sample_title.text()))
    with qtbot.waitSignal(page.run_finished, timeout=RUN_TIMEOUT_MS):
        assert page.start_run()
    page.live.refresh_all()
    titles = seen + [page.live.sample_title.text()]
    assert page.sample_text.toPlainText()
    assert any("placeholder text, not a model's answer" in t for t in titles), titles


def test_a_real_servers_sample_answer_is_not_labelled(qtbot, benchmark_page):
    page = benchmark_page
    with ReplayServer(default="vllm_chat_continuous_usage", owned_by="vllm", interval_ms=1) as server:
        page.url_radio.setChecked(True)
        page.url_edit.setText(server.url)
        page.model_pick.setCurrentText("")
        with qtbot.waitSignal(page.probed, timeout=30_000) as probed:
            page.connect_target()
        assert probed.args[0].dialect == "vllm"
        page.model_pick.setCurrentText("m")
        _tiny(page)
        with qtbot.waitSignal(page.run_finished, timeout=RUN_TIMEOUT_MS):
            assert page.start_run()
        page.live.refresh_all()
    assert page.sample_text.toPlainText()  # a sample was streamed, and shown without the label
    assert not page.session.simulated
    assert "placeholder" not in page.live.sample_title.text()
