"""The one knee rule (advisor/domain/knee.py) and the ramp's stop rule, as pure functions over recorded step
sequences: no sockets, no clock, no retries. The measured knee (advisor.bench.metrics) and the predicted one
(advisor.sim.predict) read the same rule, so the same curve gives the same knee on both sides."""

import pytest

from advisor.bench import metrics
from advisor.domain import knee as knee_rule
from advisor.domain.bench import ClientHealth, Percentiles, SloConfig, StepSummary
from advisor.domain.sim import LevelPrediction
from advisor.sim import predict


def step(c, thr, *, tpot=20.0, ttft=50.0, requests=50, failed=0, queue=None, client_bound=False, failures=None):
    """A step summary as the runner writes it, with the figures the knee rule reads."""
    ok = requests
    return StepSummary(step=c, concurrency=c, requests_ok=ok, requests_failed=failed, output_tokens_per_s=thr,
                       error_rate=failed / (ok + failed) if ok + failed else 0.0, failures=failures or {},
                       tpot_ms=Percentiles(count=ok, p50=tpot * 0.9, p95=tpot, p99=tpot * 1.1),
                       ttft_ms=Percentiles(count=ok, p50=ttft * 0.8, p95=ttft, p99=ttft * 1.2),
                       server_queue=queue,
                       client=ClientHealth(client_bound=client_bound,
                                           reasons=["event_loop_lag"] if client_bound else []))


def ramp(steps, slo=None, *, continue_past_knee=False):
    """Replay a ramp over recorded steps: the steps it would have run before its stop rule ended it."""
    slo = slo or SloConfig(max_error_rate=0.05)
    ran = []
    for s in steps:
        ran.append(s)
        why = metrics.ramp_stop(ran, slo, continue_past_knee=continue_past_knee)
        if why:
            return ran, why
    return ran, None


# Recorded against a real vLLM server whose knee is at 8–16 streams (it queues above 16): in one of five runs the
# 16-request step at concurrency 2 came out noisy — throughput barely above one stream's, its tail TTFT tripled
# (both streams started at once) — and the next step ran at 2.1× the single-stream throughput. The old rule called
# the knee at 1 and the ramp stopped after 4.
REAL_VLLM_NOISY = [
    step(1, 62.0, tpot=14.8, ttft=31.0, requests=16),
    step(2, 64.5, tpot=15.9, ttft=96.0, requests=16),  # the noisy step
    step(4, 130.2, tpot=16.4, ttft=34.0, requests=32),  # 2.1× the single stream: the curve still grows
    step(8, 247.0, tpot=17.6, ttft=38.0, requests=64),
    step(16, 418.0, tpot=21.0, ttft=45.0, requests=128, queue=0.2),
    step(32, 431.0, tpot=21.7, ttft=1180.0, requests=256, queue=15.6),  # it queues above 16
    step(64, 433.0, tpot=21.8, ttft=3350.0, requests=512, queue=47.1),
]


def test_the_real_vllm_dip_at_2_is_noise_and_the_ramp_goes_on_to_the_knee_at_16():
    first = metrics.find_knee(REAL_VLLM_NOISY[:3])
    assert first.concurrency is None and first.dismissed == [1]  # the dip at 2 was contradicted by 4
    assert "noise" in first.message
    ran, why = ramp(REAL_VLLM_NOISY)
    assert [s.concurrency for s in ran] == [1, 2, 4, 8, 16, 32, 64] and why == "past_knee"
    knee = metrics.find_knee(ran)
    assert knee.concurrency == 16 and knee.confirmed is True and knee.reason == "server_queueing"
    assert knee.evidence["confirmed_by_concurrency"] == 64 and knee.dismissed == [1]
    # the dip alone, with no step after it yet, is only a candidate: it never stops a ramp
    assert metrics.find_knee(REAL_VLLM_NOISY[:2]).confirmed is False
    assert metrics.ramp_stop(REAL_VLLM_NOISY[:2], SloConfig()) is None


CLEAN = [step(1, 30, tpot=20), step(2, 59, tpot=20.5), step(4, 115, tpot=21), step(8, 220, tpot=22),
         step(16, 400, tpot=24), step(32, 560, tpot=34), step(64, 600, tpot=64, ttft=900),
         step(128, 610, tpot=70, ttft=4000)]


def test_a_clean_saturating_curve_stops_once_the_step_after_the_knee_agrees():
    ran, why = ramp(CLEAN)
    assert why == "past_knee" and [s.concurrency for s in ran] == [1, 2, 4, 8, 16, 32, 64, 128]
    knee = metrics.find_knee(ran)
    assert knee.concurrency == 32 and knee.reason == "throughput_plateau_latency_inflation" and knee.confirmed
    ev = knee.evidence
    assert ev["step_concurrency"] == 64 and ev["confirmed_by_concurrency"] == 128
    assert ev["throughput_gain"] == pytest.approx(600 / 560, abs=1e-3) and ev["throughput_gain_needed"] == 1.15
    # --past-knee: the ramp goes on to its last level
    assert ramp(CLEAN, continue_past_knee=True) == (CLEAN, None)


def test_one_noisy_dip_is_dismissed_by_the_step_after_it():
    dip = [step(1, 30), step(2, 59), step(4, 115), step(8, 117, tpot=38, ttft=120),  # the dip
           step(16, 430, tpot=25), step(32, 610, tpot=36), step(64, 640, tpot=70, ttft=800),
           step(128, 650, tpot=80, ttft=3000)]
    ran, why = ramp(dip)
    knee = metrics.find_knee(ran)
    assert knee.concurrency == 32 and knee.confirmed and knee.dismissed == [4]
    assert knee.evidence["dismissed_dips"] == [{"knee": 4, "step": 8, "contradicted_by": 16,
                                                "gain": pytest.approx(430 / 115, abs=1e-3), "gain_needed": pytest.approx(1.3225, abs=1e-3)}]
    assert why == "past_knee" and ran[-1].concurrency == 128


def test_an_error_rate_knee_is_the_last_level_before_failures_and_stops_the_ramp_at_once():
    steps = [step(1, 30), step(2, 59), step(4, 115), step(8, 150, requests=40, failed=10, failures={"http_error:http_503": 10}),
             step(16, 100, requests=10, failed=40)]
    ran, why = ramp(steps)
    assert why == "error_rate" and ran[-1].concurrency == 8
    knee = metrics.find_knee(ran)
    assert knee.concurrency == 4 and knee.reason == "error_rate" and knee.confirmed is True
    assert knee.evidence["error_rate"] == pytest.approx(0.2)


def test_a_curve_still_growing_has_no_knee_and_the_ramp_runs_every_level():
    growing = [step(c, 30 * c * 0.97 ** i, tpot=20 + i) for i, c in enumerate((1, 2, 4, 8, 16, 32, 64))]
    ran, why = ramp(growing)
    assert why is None and len(ran) == 7
    knee = metrics.find_knee(ran)
    assert knee.concurrency is None and knee.reason == "not_reached" and knee.confirmed is None
    # throughput flat but latency flat too (a rate limit upstream): not a knee by this rule
    flat = metrics.find_knee([step(1, 30), step(2, 31), step(4, 31)])
    assert flat.concurrency is None and flat.reason == "not_reached"


def test_a_client_bound_step_neither_shows_nor_confirms_a_knee():
    steps = [step(1, 30), step(2, 58), step(4, 60, tpot=60, client_bound=True)]
    knee = metrics.find_knee(steps)
    assert knee.concurrency is None and knee.reason == "client_bound" and knee.evidence["concurrency"] == 4
    candidate = [step(1, 30), step(2, 31, tpot=45), step(4, 33, client_bound=True)]
    unconfirmed = metrics.find_knee(candidate)
    assert unconfirmed.concurrency == 1 and unconfirmed.confirmed is False
    assert metrics.ramp_stop(candidate, SloConfig()) is None
    # ... but growth it shows is real (a client-bound step under-reads the server): it dismisses a dip. Seen on a
    # loaded 2-core machine, five ramps against one simulated server: a queue reading of 1.0 at 8 made 4 a
    # candidate, and the client-bound step at 16 (twice the throughput) left it standing as the run's knee.
    dip = [step(1, 240), step(2, 467), step(4, 923), step(8, 1826, queue=1.0), step(16, 2005, client_bound=True)]
    knee = metrics.find_knee(dip)
    assert knee.concurrency is None and knee.reason == "client_bound" and knee.dismissed == [4]


def test_the_rule_itself_over_plain_points():
    pts = [knee_rule.CurvePoint(load=c, throughput=t, latency_ms={"e2e_p50": e}, requests=10)
           for c, t, e in ((1, 10, 100), (2, 19, 105), (4, 20, 200), (8, 20.5, 400))]
    found = knee_rule.find_knee(pts)
    assert (found.kind, found.knee, found.detected, found.confirmed_by, found.confirmed) == \
        ("throughput_plateau", 1, 2, 3, True)
    assert knee_rule.gain_needed(2, 8) == pytest.approx(1.15 ** 2) and knee_rule.gain_needed(8, 12) == 1.15
    assert knee_rule.find_knee(pts[:1]).kind == "too_few_points"
    # input order does not matter: indices refer to the sequence given
    shuffled = [pts[3], pts[0], pts[2], pts[1]]
    again = knee_rule.find_knee(shuffled)
    assert (again.knee, again.detected, again.confirmed_by) == (3, 2, 0)


# ------------------------------------------------------------------------------ predicted == measured
def as_level(s: StepSummary) -> LevelPrediction:
    """A measured step as the simulator would have predicted it (the figures the knee rule reads)."""
    keep = {"mean", "p50", "p90", "p95", "p99"}
    ttft, tpot = s.ttft_ms.model_dump(include=keep), s.tpot_ms.model_dump(include=keep)
    return LevelPrediction(concurrency=s.concurrency, requests=s.requests_ok, ttft_ms=ttft, tpot_ms=tpot,
                           itl_ms=tpot, e2e_ms=ttft, output_tokens_per_s=s.output_tokens_per_s,
                           requests_per_s=1.0, kv_usage={"mean": 0.1, "max": 0.2},
                           queue={"mean": s.server_queue or 0.0, "max": s.server_queue or 0.0},
                           running={"mean": float(s.concurrency), "max": float(s.concurrency)}, preemptions=0,
                           mean_in_flight=float(s.concurrency))  # fmt: skip


def as_step(lv: LevelPrediction, i: int) -> StepSummary:
    """A predicted level as a benchmark step would have measured it."""
    return StepSummary(step=i, concurrency=lv.concurrency, requests_ok=lv.requests, ttft_ms=lv.ttft_ms.model_dump(),
                       tpot_ms=lv.tpot_ms.model_dump(), output_tokens_per_s=lv.output_tokens_per_s, server_queue=lv.queue["mean"])


@pytest.mark.parametrize("curve", [REAL_VLLM_NOISY, CLEAN, REAL_VLLM_NOISY[:3], CLEAN[:7]],
                         ids=["real_vllm_noisy", "clean", "dip_only", "clean_unconfirmed"])
def test_the_predicted_and_the_measured_knee_of_the_same_curve_agree(curve):
    measured = metrics.find_knee(curve)
    predicted = predict.find_knee([as_level(s) for s in curve])
    assert (predicted.concurrency, predicted.confirmed, predicted.dismissed) == \
        (measured.concurrency, measured.confirmed, measured.dismissed)


def test_a_simulated_curve_read_as_measured_steps_gives_the_predicted_knee():
    from advisor.domain.sim import LengthDistribution, SimWorkload
    from advisor.sim.costs import setup_from_ids

    setup = setup_from_ids("qwen2.5-3b", "l4")
    wl = SimWorkload(prompt=LengthDistribution(mean=4096), output=LengthDistribution(mean=512))
    prediction = predict.predict_curve(setup.costs, setup.limits, wl, predict.DEFAULT_LEVELS)
    measured = metrics.find_knee([as_step(lv, i) for i, lv in enumerate(prediction.levels)])
    assert prediction.knee.concurrency is not None and prediction.knee.confirmed
    assert (measured.concurrency, measured.confirmed) == (prediction.knee.concurrency, prediction.knee.confirmed)


def test_the_report_says_an_unconfirmed_knee_the_dismissed_dip_and_a_step_cut_short():
    from advisor.bench.report import failure_notes, knee_message
    from advisor.i18n import set_language

    set_language("en")
    knee = metrics.find_knee(CLEAN[:7]).model_dump(mode="json")
    assert "Not confirmed yet: no step after 64" in knee_message(knee)
    noisy = metrics.find_knee(REAL_VLLM_NOISY).model_dump(mode="json")
    assert "The dip at concurrency 2 was noise, not a knee: at 4" in knee_message(noisy)
    short = step(8, 200).model_dump(mode="json") | {"min_requests": 16, "min_duration_s": 4.0, "long_enough": False,
                                                   "requests_ok": 9, "duration_s": 1.5, "stop_reason": "duration"}
    (note,) = failure_notes({"steps": [short]})
    assert "cut short" in note and "9 of 16 requests, 1.5 of 4 s" in note
    assert failure_notes({"steps": [short | {"stop_reason": "cancelled"}]}) == []
