"""The Benchmark page reads its sample answer with the core's stream parser and sends its key through the core's
key check: a thinking model's ``reasoning`` deltas show (the page's own parser missed them), and a key the CLI
refuses (a control character, non-ASCII) is refused on the page too, before any request, with the CLI's message."""

from __future__ import annotations

import pytest

from advisor.cancel import CancelToken
from advisor.domain.bench import BenchConfig
from tests.support.replay import ReplayServer
from ui.bench_session import SampleText, _stream_sample

KEY = "sk-sample-key-1234"


def _config(url: str) -> BenchConfig:
    return BenchConfig.model_validate({"endpoint": {"url": url, "model": "qwen3:8b"}})


def test_the_sample_answer_shows_reasoning_deltas_and_sends_the_checked_key():
    with ReplayServer(default="ollama_chat_reasoning", owned_by="library", interval_ms=1) as srv:
        sample = SampleText(step=0)
        _stream_sample(_config(srv.url + "/v1"), KEY, sample, CancelToken())
        served = srv.served[-1]
    assert sample.done and sample.error is None
    assert sample.text.startswith("Thinking about")  # Ollama's `reasoning` field (not reasoning_content)
    assert sample.ttft_ms is not None and sample.ttft_chars == len("Thinking")
    assert served.headers.get("authorization") == f"Bearer {KEY}"


@pytest.mark.parametrize(("key", "fragment"), [("sk-ключ-1234", "non-ASCII"), ("sk-abc\x1b[2Jdef", "control")])
def test_a_key_the_cli_refuses_is_refused_on_the_page_before_any_request(qtbot, benchmark_page, key, fragment):
    page = benchmark_page
    with ReplayServer(default="vllm_chat_continuous_usage", owned_by="vllm", interval_ms=1) as srv:
        page.url_radio.setChecked(True)
        page.url_edit.setText(srv.url)
        page.model_pick.setCurrentText("m")
        page.key_edit.setText(key)
        assert not page.start_run()
        assert fragment in page.run_error.text() and not page.run_error.isHidden()
        page.connect_target()
        assert fragment in page.probe_label.text()
        qtbot.wait(200)
        assert srv.served == []  # nothing was sent with it
    assert key not in page.keys.memory.values()  # and it was not kept
    assert not page.session.running
