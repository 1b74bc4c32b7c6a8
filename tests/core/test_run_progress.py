"""The time left follows what the runner will actually run (issue #26: "about 2,563 s left" for a ~210 s ramp;
issue #27: the estimate assumed a stop two steps past the knee and steps as long as the recent ones). Pure functions
over recorded step sequences: the ramp's stop rule is the runner's own (advisor.bench.metrics.ramp_stop), and the
step sizes are the runner's own (advisor.bench.run_config)."""

import json
from pathlib import Path

import pytest

from advisor.bench import metrics
from advisor.bench.progress import last_step, request_growth, run_fraction, seconds_left, step_seconds
from advisor.bench.run_config import run_levels
from advisor.domain.bench import BenchConfig, ClientHealth, Percentiles, StepSummary

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ramps" / "sim_qwen25_3b_l4.json"


def config(**schedule):
    return BenchConfig.model_validate({"endpoint": {"url": "http://127.0.0.1:8000", "model": "m"},
                                       "schedule": {"kind": "ramp", **schedule}})


def step(c, thr, *, tpot=20.0, ttft=50.0, e2e_s=1.0, duration_s=8.0, requests=50, failed=0, queue=None,
         stop_reason="stable"):
    """A ramp step summary as the runner writes it, with the figures the knee rule and the estimate read."""
    return StepSummary(step=c, concurrency=c, requests_ok=requests, requests_failed=failed, output_tokens_per_s=thr,
                       error_rate=failed / (requests + failed), duration_s=duration_s, stop_reason=stop_reason,
                       min_requests=16, min_duration_s=0.0,
                       failures={"http_error:http_500": failed} if failed else {},
                       e2e_ms=Percentiles(count=requests, p50=e2e_s * 1e3),
                       tpot_ms=Percentiles(count=requests, p50=tpot * 0.9, p95=tpot, p99=tpot * 1.1),
                       ttft_ms=Percentiles(count=requests, p50=ttft * 0.8, p95=ttft, p99=ttft * 1.2),
                       server_queue=queue, client=ClientHealth())


def replay(cfg, steps):
    """The steps a ramp runs over a recorded sequence before its stop rule ends it (as the runner does)."""
    ran = []
    for s in steps:
        ran.append(s)
        if metrics.ramp_stop(ran, cfg.slo, continue_past_knee=cfg.schedule.continue_past_knee):
            break
    return ran


# a clean saturating curve: the knee at 32 shows at 64 and 128 confirms it; the ramp would go on to 256
CLEAN = [step(1, 30, tpot=20), step(2, 59, tpot=20.5), step(4, 115, tpot=21), step(8, 220, tpot=22),
         step(16, 400, tpot=24), step(32, 560, tpot=34), step(64, 600, tpot=64, ttft=900),
         step(128, 610, tpot=70, ttft=4000), step(256, 612, tpot=140, ttft=9000)]
# against a real vLLM (knee at 8–16): a noisy step at 2 looked like a knee at 1, and 4 contradicted it
REAL_VLLM_NOISY = [step(1, 62.0, tpot=14.8, ttft=31.0), step(2, 64.5, tpot=15.9, ttft=96.0),
                   step(4, 130.2, tpot=16.4, ttft=34.0), step(8, 247.0, tpot=17.6, ttft=38.0),
                   step(16, 418.0, tpot=21.0, ttft=45.0, queue=0.2), step(32, 431.0, tpot=21.7, ttft=1180.0, queue=15.6),
                   step(64, 433.0, tpot=21.8, ttft=3350.0, queue=47.1), step(128, 434.0, tpot=22.0, ttft=7000.0, queue=110.0)]


def test_the_last_step_follows_the_ramps_stop_rule_on_a_clean_curve():
    cfg = config(max_concurrency=256)
    levels = run_levels(cfg.schedule)
    ran = replay(cfg, CLEAN)
    assert [s.concurrency for s in ran] == [1, 2, 4, 8, 16, 32, 64, 128]  # stopped once 128 confirmed the knee
    # no candidate yet: every level is left; once 64 shows the knee at 32, the next step (128) is the last
    assert [last_step(cfg, levels, ran[:i]) for i in range(len(ran) + 1)] == [8, 8, 8, 8, 8, 8, 8, 7, 7]
    assert seconds_left(cfg, levels, 8, 0.0, ran) == 0.0  # the ramp has stopped: nothing is left
    # --past-knee: it goes on to its last level
    assert last_step(config(max_concurrency=256, continue_past_knee=True), levels, ran[:7]) == 8


def test_a_dip_the_next_step_contradicts_does_not_end_the_estimate():
    cfg = config(max_concurrency=128)
    levels = run_levels(cfg.schedule)
    ran = replay(cfg, REAL_VLLM_NOISY)
    assert [s.concurrency for s in ran] == [1, 2, 4, 8, 16, 32, 64]
    lasts = [last_step(cfg, levels, ran[:i]) for i in range(1, len(ran) + 1)]
    # after 2 the dip is a candidate (the estimate expects 4 to confirm it); 4 contradicts it and all levels are
    # back; 32 shows the knee at 16 (the server queues), 64 confirms it and is the last
    assert lasts == [7, 2, 7, 7, 7, 6, 6]


def test_failures_above_the_limit_end_the_ramp_at_once_not_two_steps_later():
    cfg = config(max_concurrency=256)
    levels = run_levels(cfg.schedule)
    steps = [step(1, 30), step(2, 59), step(4, 115), step(8, 220, requests=40, failed=10)]
    assert metrics.ramp_stop(steps, cfg.slo) == "error_rate"
    assert last_step(cfg, levels, steps) == 3 and seconds_left(cfg, levels, 4, 0.0, steps) == 0.0


def test_a_fixed_run_goes_through_its_levels_unless_the_server_is_lost():
    cfg = BenchConfig.model_validate({"endpoint": {"url": "http://x", "model": "m"},
                                      "schedule": {"kind": "fixed", "concurrency": [1, 4, 8], "requests": 16}})
    levels = run_levels(cfg.schedule)
    first = step(1, 30, e2e_s=2.0, stop_reason="requests").model_copy(update={"min_requests": None})
    assert last_step(cfg, levels, [first]) == 2
    # 16 requests over 4 streams: the start spread over one request (3/4 of 2 s), then 4 rounds of 2 s; then 8
    # streams start together (two requests each is too few to spread) and run 2 rounds
    assert seconds_left(cfg, levels, 1, 0.0, [first]) == pytest.approx(1.5 + 8.0 + 2 * 2.0)
    lost = first.model_copy(update={"stop_reason": "server_lost"})
    assert last_step(cfg, levels, [lost]) == 0


def test_a_stable_ramp_step_ends_after_its_least_requests_and_its_stragglers():
    cfg = config(max_concurrency=256, min_step_s=4.0)
    sch = cfg.schedule
    # c=16: least 32 requests (2 rounds), most 128; the start and the requests in flight at the end each add
    # 15/16 of a request
    assert step_seconds(sch, 16, 1.0, hint_s=1.0) == pytest.approx(15 / 16 + 2 + 15 / 16)
    assert step_seconds(sch, 16, 1.0, hint_s=1.0, stable=False) == pytest.approx(15 / 16 + 8)  # to its most
    assert step_seconds(sch, 1, 1.0) == 16.0  # one stream: 16 requests in a row, no stagger
    assert step_seconds(sch, 16, 0.1, hint_s=0.1, min_duration_s=4.0) == 4.0  # the minimum duration holds it


def test_a_request_grows_between_not_at_all_and_twice_per_doubling():
    assert request_growth([step(8, 1, e2e_s=1.0), step(16, 1, e2e_s=1.1)]) == pytest.approx(1.1)
    assert request_growth([step(8, 1, e2e_s=1.0), step(16, 1, e2e_s=5.0)]) == 2.0  # noise beyond Little's law
    assert request_growth([step(8, 1, e2e_s=1.0), step(16, 1, e2e_s=0.8)]) == 1.0
    assert request_growth([step(8, 1, e2e_s=1.0)]) == 1.0


def test_the_estimate_follows_a_recorded_ramp():
    # a ramp to 256 recorded against the simulated server (steps end once stable; 28.7 s for 16 requests at 1 stream,
    # ~7 s for two rounds at 16): at the start of each step the estimate is within a factor of 1.75 of what was left
    # (it cannot see the latency growth past the knee before it happens). The estimate it replaces (each step as
    # long as the last three) said 229 s for the 87 s left after the first step (2.6×).
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    cfg = config(**data["schedule"])
    levels = run_levels(cfg.schedule)
    steps = [StepSummary.model_validate(s) for s in data["steps"]]
    assert [s.concurrency for s in steps] == levels
    for i in range(1, len(steps)):
        actual = sum(s.duration_s for s in steps[i:])
        estimate = seconds_left(cfg, levels, i, 0.0, steps[:i])
        assert actual / 1.75 <= estimate <= actual * 1.75, (levels[i], estimate, actual)
    # half-way through a step the step's own remainder is counted, not the whole step
    assert seconds_left(cfg, levels, 1, 5.0, steps[:1]) == pytest.approx(seconds_left(cfg, levels, 1, 0.0, steps[:1]) - 5.0)
    assert seconds_left(cfg, levels, 0, 3.0, []) is None  # nothing to go by before a step has finished


def test_one_step_shapes_count_down_their_own_length():
    soak = BenchConfig.model_validate({"endpoint": {"url": "http://x", "model": "m"},
                                       "schedule": {"kind": "soak", "concurrency": [8], "duration_s": 600}})
    assert seconds_left(soak, [8], 0, 120.0, []) == 480.0
    rate = BenchConfig.model_validate({"endpoint": {"url": "http://x", "model": "m"},
                                       "schedule": {"kind": "rate", "rate": 2.0, "requests": 100}})
    assert seconds_left(rate, [256], 0, 10.0, []) == 40.0


def test_the_progress_bar_counts_the_steps_the_runner_will_run_each_by_what_it_needs():
    cfg = config(max_concurrency=256)
    levels = run_levels(cfg.schedule)  # 9 levels, 1 to 256
    # a ramp step at 64 needs 128 requests before it may end as stable (the old bar read 16 and was full at once)
    assert run_fraction(cfg, levels, 6, 64, 1.0, CLEAN[:6]) == pytest.approx((6 + 0.5) / 9)
    # once 64 shows the knee at 32, the ramp ends after 128: 8 steps, not 9
    assert run_fraction(cfg, levels, 7, 0, 0.0, CLEAN[:7]) == pytest.approx(7 / 8)
    fixed = BenchConfig.model_validate({"endpoint": {"url": "http://x", "model": "m"},
                                        "schedule": {"kind": "fixed", "concurrency": [4, 8], "duration_s": 60}})
    assert run_fraction(fixed, [4, 8], 1, 500, 30.0, []) == pytest.approx(0.75)  # by time when the step is timed
    soak = BenchConfig.model_validate({"endpoint": {"url": "http://x", "model": "m"},
                                       "schedule": {"kind": "soak", "concurrency": [8], "duration_s": 600}})
    assert run_fraction(soak, [8], 0, 10, 150.0, []) == 0.25
