"""The runner against a fake transport on a virtual clock (issue #27): no sockets, no sleeps, no retries — each
request is answered with SSE events at scripted virtual times (tests/fakes/sse_transport.py), fed through the real
response and SSE parsers, and the runner reads the same virtual clock (tests/support/virtual_clock.py). Runs of
seconds take milliseconds and every figure is known in advance. The loopback tests (test_bench_runner.py) keep the
real path honest; these pin the runner's own arithmetic and control."""

import pytest

from advisor.bench.progress import last_step
from advisor.bench.run_config import run_levels
from advisor.bench.runner import BenchEvent, Runner
from advisor.cancel import CancelToken
from advisor.domain.bench import BenchConfig, StepSummary
from tests.fakes.sse_transport import Answer, FakeServer
from tests.support.virtual_clock import VirtualClock

MS = 1e-6  # float noise on virtual seconds near 1000, in milliseconds


def config(**schedule):
    return BenchConfig.model_validate({
        "endpoint": {"url": "http://fake.invalid", "model": "m"},
        "workload": {"prompt_tokens": {"mean": 32}, "output_tokens": {"mean": 8}},
        "schedule": {"warmup_requests": 1, **schedule},
    })


def run(cfg, answer=None, **kwargs):
    clock = VirtualClock()
    server = FakeServer(clock, answer or Answer())
    runner = Runner(cfg, clock=clock.run_clock(), client_factory=server.client, keep_records=True, **kwargs)
    return runner, runner.run(), server, clock


def test_ttft_tpot_itl_and_e2e_are_the_scripted_times_exactly():
    # request n answers its first token after (10 + 10 · (n mod 10)) ms, then a token every 20 ms (8 tokens)
    def answer(n):
        return Answer(ttft_s=0.010 * (1 + n % 10), itl_s=0.020, tokens=8)

    runner, result, server, clock = run(config(kind="fixed", concurrency=[4], requests=40), answer)
    records = [r for r in runner.records if not r.warmup]
    assert len(records) == 40 and all(r.outcome == "ok" for r in records)
    for r in records:
        n = server.starts.index(r.t_start)
        assert r.ttft_ms == pytest.approx(10.0 * (1 + n % 10), abs=MS)
        assert r.tpot_ms == pytest.approx(20.0, abs=MS)  # (last token − first token) / (N − 1)
        assert r.e2e_ms == pytest.approx(r.ttft_ms + 7 * 20.0, abs=MS)
        assert r.itl_ms()[0] == pytest.approx([20.0] * 7, abs=MS)
        assert r.output_tokens == 8 and r.output_tokens_source == "usage"
    (step,) = result["steps"]
    ttfts = sorted(r.ttft_ms for r in records)
    assert step["ttft_ms"]["mean"] == pytest.approx(sum(ttfts) / 40, abs=MS)
    assert step["ttft_ms"]["min"] == pytest.approx(ttfts[0], abs=MS) and step["ttft_ms"]["max"] == pytest.approx(ttfts[-1], abs=MS)
    assert step["tpot_ms"]["p99"] == pytest.approx(20.0, abs=MS)
    assert result["status"] == "completed" and step["requests_ok"] == 40
    assert clock.loops == 1 and clock.t > 1000.0  # one event loop, on virtual time


def test_the_concurrency_is_held_and_never_exceeded():
    answer = Answer(ttft_s=0.05, itl_s=0.02, tokens=8)  # 0.19 s a request
    runner, result, server, _ = run(config(kind="fixed", concurrency=[8], requests=64), answer)
    (step,) = result["steps"]
    assert server.most_in_flight == 8  # never more streams than asked
    assert len(server.starts) == 1 + 64  # the warm-up, then exactly the requests asked for
    assert step["steady_concurrency"] == pytest.approx(8.0, rel=0.02) and step["concurrency_shortfall"] is False
    # the first requests are spread over one request's duration (the warm-up's), evenly over the 8 streams
    assert step["start_stagger_s"] == pytest.approx(0.19, abs=1e-6)
    firsts = server.starts[1:9]
    gaps = [b - a for a, b in zip(firsts, firsts[1:], strict=False)]
    assert gaps == pytest.approx([0.19 / 8] * 7, abs=1e-9)


def test_a_stop_mid_stream_keeps_what_finished_and_marks_the_rest_cancelled():
    cancel = CancelToken()
    stop_at = {}

    def on_event(ev: BenchEvent):
        # stop 3 virtual seconds into the step: the 4 streams are then half-way through their second 2.05 s answer
        if ev.kind == "progress" and ev.data["step"] == 0 and ev.data["elapsed_s"] >= 3.0 and not cancel.cancelled:
            stop_at["t"] = ev.data["t"]
            cancel.cancel()

    answer = Answer(ttft_s=0.05, itl_s=0.25, tokens=8)  # slow tokens (more than asked for is refused as invalid)
    runner, result, server, clock = run(config(kind="fixed", concurrency=[4], requests=400, stagger=False), answer,
                                        cancel=cancel, on_event=on_event)
    assert result["status"] == "stopped"
    (step,) = result["steps"]
    assert step["stop_reason"] == "cancelled"
    measured = [r for r in runner.records if not r.warmup]
    cancelled = [r for r in measured if r.outcome == "cancelled"]
    ok = [r for r in measured if r.outcome == "ok"]
    assert len(cancelled) == 4 and step["requests_cancelled"] == 4  # the 4 in flight, cut mid-answer
    assert all(0 < len(r.token_times) < 8 for r in cancelled)
    assert len(ok) == step["requests_ok"] == 4 and step["requests_failed"] == 0  # one full round had finished
    assert step["ttft_ms"]["count"] == 4  # the cut answers are in no statistic
    assert clock.t - stop_at["t"] < 0.2  # the stop took effect at once (the cancel watch looks every 50 ms)
    assert len(server.starts) == 1 + 8  # nothing was sent after the stop


def test_an_error_event_mid_stream_is_a_failure_not_a_success():
    def answer(n):  # every 4th measured request breaks off with an error event after 3 tokens
        return Answer(tokens=8, error_after=3 if n and n % 4 == 0 else None)

    runner, result, _, _ = run(config(kind="fixed", concurrency=[2], requests=20), answer)
    (step,) = result["steps"]
    failed = [r for r in runner.records if not r.warmup and r.outcome != "ok"]
    assert len(failed) == 5 and {r.outcome for r in failed} == {"stream_error"}
    assert step["requests_ok"] == 15 and step["requests_failed"] == 5
    assert step["failures"] == {"stream_error:server_error": 5}
    assert step["ttft_ms"]["count"] == 15 and step["output_tokens"] == 15 * 8  # failures count no latency, no tokens
    assert step["status"] == "degraded" and result["status"] == "degraded"  # 25 % failed, above the 5 % limit


def test_a_step_with_a_duration_sends_nothing_after_it():
    answer = Answer(ttft_s=0.1, itl_s=0.05, tokens=9)  # last token at 0.5 s, the end of the answer at 0.55 s
    runner, result, server, _ = run(config(kind="fixed", concurrency=[2], duration_s=3.0, warmup_requests=0,
                                           stagger=False), answer)
    (step,) = result["steps"]
    assert step["stop_reason"] == "duration"
    t0 = server.starts[0]
    assert all(t - t0 < 3.0 for t in server.starts)  # no request started past the step's 3 s
    # two streams of back-to-back 0.55 s requests: the 6th round starts at 2.75 s, and the step ends with it
    assert len(server.starts) == 12 and step["requests_ok"] == 12
    assert step["duration_s"] == pytest.approx(6 * 0.55, abs=1e-6)


def test_a_ramp_stops_once_the_step_after_the_knee_agrees_and_the_estimate_saw_it_coming():
    # a server with room for 8 streams: above 8, every token waits its turn (the gap grows with the streams)
    clock = VirtualClock()
    server = FakeServer(clock)
    server.answer = lambda n: Answer(ttft_s=0.05, itl_s=0.02 * max(1.0, (server.in_flight + 1) / 8), tokens=8)
    cfg = config(kind="ramp", max_concurrency=256)
    runner = Runner(cfg, clock=clock.run_clock(), client_factory=server.client)
    result = runner.run()
    steps = [StepSummary.model_validate(s) for s in result["steps"]]
    assert [s.concurrency for s in steps] == [1, 2, 4, 8, 16, 32, 64]  # not on to 256
    assert steps[-1].stop_reason == "past_knee" and result["knee"]["confirmed"] is True
    for s in steps:  # the scripted gap between tokens, exactly, and the streams held at every level
        assert s.tpot_ms.p95 == pytest.approx(20.0 * max(1.0, s.concurrency / 8), abs=MS)
        assert s.steady_concurrency == pytest.approx(s.concurrency, rel=0.02)
        assert s.stop_reason in ("stable", "past_knee")
    # the time-left estimate reads the same stop rule: once 32 showed the knee, it knew 64 would be the last step
    levels = run_levels(cfg.schedule)
    assert last_step(cfg, levels, steps[:5]) == len(levels) - 1
    assert last_step(cfg, levels, steps[:6]) == 6 == len(steps) - 1


def test_a_server_dying_mid_run_is_counted_request_by_request_and_backed_off_from():
    # The server dies 0.6 s into a 3 s step of 4 streams (requests of 0.21 s, back to back): the 4 streams open then
    # are cut, and every later request is refused. On virtual time the count is exact, however loaded the machine
    # (over loopback a timer thread killed the server, and at 7× oversubscription the run had not sent its first
    # request by then; the loopback case, with its real sockets, is test_hostile_server.py's).
    answer = Answer(ttft_s=0.05, itl_s=0.02, tokens=8)
    clock = VirtualClock()
    server = FakeServer(clock, answer, dies_at=clock.now() + 0.6)
    runner = Runner(config(kind="fixed", concurrency=[4], duration_s=3.0, warmup_requests=0),
                    clock=clock.run_clock(), client_factory=server.client, keep_records=True)
    result = runner.run()
    (step,) = result["steps"]
    t_death = server.dies_at
    assert t_death is not None
    # nothing is lost from the count: one record per request sent, each counted once (the step ends at its duration,
    # a refused request takes no time to fail, so none is cancelled)
    assert len(runner.records) == len(server.starts) + len(server.refused)
    assert step["requests_ok"] + step["requests_failed"] == len(runner.records) and step["requests_cancelled"] == 0
    finished = sum(1 for t in server.starts if t + 0.05 + 7 * 0.02 <= t_death)  # answered in full before the death
    assert step["requests_ok"] == finished > 0
    assert all(not r.ok for r in runner.records if r.t_start >= t_death)
    # the server's own counts, by kind: every stream it cut, every connection it refused
    assert server.cut == 4 and step["failures"]["truncated:connection_lost"] == server.cut
    assert step["failures"]["connect_error:ConnectionRefusedError"] == len(server.refused)
    # backed off, 50 ms doubling to 2 s, jittered × 0.5–1: from 0.6 s to the 3 s end each stream retries at
    # 0.6 + 0.05, 0.15, 0.35, 0.75, 1.55 (at the longest waits: 6 tries) or + 0.025, …, 1.575 (at the shortest: 7),
    # so 24–28 refused in all — not tens of thousands. A wait capped at the step's end may wake a nanosecond
    # before it (asyncio's clock resolution) and send once more: those are counted, but not as backing off.
    end = server.starts[0] + 3.0
    refused = sorted(server.refused)
    within = [t for t in refused if t < end - 1e-9]
    assert 4 * 6 <= len(within) <= 4 * 7, len(within)
    assert refused[0] == pytest.approx(t_death) and refused[-1] <= end and len(refused) - len(within) <= 4
    assert step["stop_reason"] == "duration"
    assert step["status"] == "degraded" and result["status"] == "degraded" and result["exit_code"] == 5
