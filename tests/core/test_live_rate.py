"""The live output-throughput plot reads the runner's cumulative token count as a rate over a fixed window."""

import pytest

from advisor.bench.live_rate import LiveRate
from advisor.bench.runner import Runner
from advisor.domain.bench import BenchConfig
from tests.support.replay import ReplayServer


def test_eight_long_streams_read_as_their_true_rate():
    # 8 streams at 25 tokens/s with 2,000-token answers (80 s each): nothing finishes for 80 s, and the plot
    # that counted a request's tokens when it finished read 6 tokens/s here; the count as it arrives reads 200.
    live = LiveRate(window_s=5.0)
    for tick in range(0, 400):  # progress every 0.25 s for 100 s
        t = tick * 0.25
        live.add(t, int(8 * 25 * t))
    assert live.rate() == pytest.approx(200.0, rel=0.01)


def test_the_window_forgets_a_finished_burst():
    live = LiveRate(window_s=5.0)
    for tick in range(41):  # 10 s at 100 tokens/s, then 10 s of nothing
        live.add(tick * 0.25, tick * 25)
    for tick in range(41, 81):
        live.add(tick * 0.25, 1000)
    assert live.rate() == pytest.approx(0.0, abs=6.0)  # within a window of the stop, not the run's average
    assert len(live._samples) <= 22  # bounded by the window, not the run


def _config(url):
    return BenchConfig.model_validate({
        "endpoint": {"url": url, "model": "m", "read_timeout_s": 10, "timeout_s": 30},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 40}},
        "schedule": {"warmup_requests": 0, "kind": "fixed", "concurrency": [2], "requests": 2},
    })


def test_progress_events_count_tokens_while_answers_stream():
    events = []
    with ReplayServer(default="vllm_chat_continuous_usage", interval_ms=20) as srv:
        runner = Runner(_config(srv.url), on_event=lambda e: events.append(e), progress_interval_s=0.05)
        runner.run()
    counts = [(e.data["t"], e.data["output_tokens"]) for e in events if e.kind == "progress" and "output_tokens" in e.data]
    assert counts and counts[-1][1] > 0
    assert all(b[1] >= a[1] for a, b in zip(counts, counts[1:], strict=False))  # cumulative
    # some events came while both answers were still streaming, with tokens already counted
    records = [e.data for e in events if e.kind == "record"]
    first_end = min(r.t_end for r in records)
    assert any(0 < c < counts[-1][1] and t < first_end for t, c in counts)
