"""Metric definitions, percentiles, goodput, knee and drift — on records whose true values we construct."""

import random

import numpy as np
import pytest

from advisor.bench import metrics
from advisor.domain import knee as knee_rule
from advisor.domain.bench import ClientHealth, Percentiles, RequestRecord, SloConfig, StepSummary


def rec(seq=0, *, t0=100.0, ttft=0.05, gaps=(0.01,) * 9, usage=None, per_event=None, outcome="ok", warmup=False,
        source=None):
    times = [t0 + ttft]
    for g in gaps:
        times.append(times[-1] + g)
    n = usage if usage is not None else len(times)
    return RequestRecord(seq=seq, outcome=outcome, warmup=warmup, t_intended=t0, t_start=t0, t_send=t0,
                         t_first_token=times[0], t_last_token=times[-1], t_end=times[-1] + 0.001, token_times=times,
                         output_tokens=n, output_tokens_source=source or ("usage" if usage is not None else "chunks"),
                         tokens_per_event=per_event, finish_reason="stop" if outcome == "ok" else None)


def test_percentiles_match_numpy_linear_interpolation():
    rng = random.Random(1)
    values = [rng.lognormvariate(3, 1) for _ in range(257)]
    p = metrics.percentiles(values)
    for q in (50, 90, 95, 99):
        assert getattr(p, f"p{q}") == pytest.approx(np.percentile(values, q), rel=1e-12)
    assert p.count == 257 and p.max == max(values) and not p.too_few_samples
    assert metrics.percentiles([1.0, 2.0]).too_few_samples
    assert metrics.percentiles([]).count == 0


def test_ttft_tpot_e2e_definitions():
    r = rec(ttft=0.2, gaps=(0.01,) * 9, usage=10)
    assert r.ttft_ms == pytest.approx(200)
    assert r.e2e_ms == pytest.approx(290)
    assert r.tpot_ms == pytest.approx(10)  # (290 - 200) / (10 - 1)
    gaps, exact = r.itl_ms()
    assert exact and gaps == pytest.approx([10.0] * 9)


def test_itl_is_per_token_when_chunks_carry_known_counts_else_inter_chunk():
    # 3 events: 1 token, then 4 tokens after 40 ms, then 2 tokens after 10 ms
    r = rec(ttft=0.1, gaps=(0.04, 0.01), usage=7, per_event=[1, 4, 2])
    gaps, exact = r.itl_ms()
    assert exact and gaps == pytest.approx([10, 10, 10, 10, 5, 5])
    assert r.tpot_ms == pytest.approx(50 / 6)
    r2 = rec(ttft=0.1, gaps=(0.04, 0.01), usage=7)  # counts unknown: inter-chunk, labelled as such
    gaps2, exact2 = r2.itl_ms()
    assert not exact2 and gaps2 == pytest.approx([40, 10])
    s = metrics.summarize_step([r2], step=0, concurrency=1)
    assert s.itl_kind == "inter_chunk"


def test_failures_and_warmup_never_enter_latency_percentiles():
    recs = [rec(i, ttft=0.1) for i in range(5)]
    recs.append(rec(5, ttft=9.0, outcome="truncated"))
    recs.append(rec(6, ttft=9.0, warmup=True))
    recs.append(rec(7, ttft=9.0, outcome="cancelled"))
    s = metrics.summarize_step(recs, step=0, concurrency=1)
    assert s.requests_ok == 5 and s.requests_failed == 1 and s.requests_cancelled == 1
    assert s.ttft_ms.max == pytest.approx(100)
    assert s.error_rate == pytest.approx(1 / 6)
    assert s.failures == {"truncated:None": 1}


def test_goodput_counts_requests_meeting_every_slo():
    recs = [rec(0, ttft=0.1), rec(1, ttft=0.5), rec(2, ttft=0.1, gaps=(0.05,) * 9), rec(3, outcome="empty")]
    slo = SloConfig(ttft_ms=200, tpot_ms=20)
    s = metrics.summarize_step(recs, step=0, concurrency=4, slo=slo, window=(100.0, 102.0))
    assert s.goodput_fraction == pytest.approx(1 / 4)
    assert s.goodput_requests_per_s == pytest.approx(0.5)


def test_throughput_and_achieved_concurrency_over_the_window():
    recs = [rec(i, t0=100.0, ttft=0.1, gaps=(0.1,) * 9, usage=10) for i in range(4)]  # each busy 1.001 s
    s = metrics.summarize_step(recs, step=0, concurrency=4, window=(100.0, 102.0))
    assert s.output_tokens_per_s == pytest.approx(20)
    assert s.requests_per_s == pytest.approx(2)
    assert s.achieved_concurrency == pytest.approx(4 * 1.001 / 2)


def step(c, thr, tpot_p95, ttft_p95=50.0, client_bound=False, queue=None):
    return StepSummary(step=c, concurrency=c, requests_ok=50, output_tokens_per_s=thr,
                       tpot_ms=Percentiles(count=50, p95=tpot_p95, p99=tpot_p95 * 1.1),
                       ttft_ms=Percentiles(count=50, p95=ttft_p95, p99=ttft_p95 * 1.1),
                       client=ClientHealth(client_bound=client_bound, reasons=["event_loop_lag"] if client_bound else []),
                       server_queue=queue)


def test_knee_where_throughput_gain_collapses_and_tail_latency_inflates():
    steps = [step(1, 30, 20), step(2, 58, 21), step(4, 110, 22), step(8, 200, 24), step(16, 330, 29),
             step(32, 420, 45), step(64, 440, 90)]
    knee = metrics.find_knee(steps)
    assert knee.concurrency == 32
    assert knee.reason == "throughput_plateau_latency_inflation"
    ev = knee.evidence
    assert ev["step_concurrency"] == 64 and ev["previous_concurrency"] == 32
    assert ev["throughput_gain"] < ev["throughput_gain_needed"] == pytest.approx(knee_rule.KNEE_MIN_GAIN)
    assert knee.confirmed is False  # no step after 64 backs it yet
    assert ev["latency_inflation_vs_baseline"]["tpot_p95"] == pytest.approx(4.5)


def test_no_knee_while_throughput_grows_and_when_latency_is_flat():
    assert metrics.find_knee([step(1, 30, 20), step(2, 60, 20), step(4, 118, 21)]).concurrency is None
    # throughput flat but latency flat too (e.g. a rate limit upstream): not a knee by this rule
    flat = metrics.find_knee([step(1, 30, 20), step(2, 31, 20)])
    assert flat.concurrency is None and flat.reason == "not_reached"
    assert metrics.find_knee([step(1, 30, 20)]).reason == "too_few_steps"


def test_a_client_bound_step_is_never_called_a_knee():
    steps = [step(1, 30, 20), step(2, 58, 21), step(4, 60, 60, client_bound=True)]
    knee = metrics.find_knee(steps)
    assert knee.concurrency is None and knee.reason == "client_bound"
    assert knee.evidence["concurrency"] == 4


def test_server_queue_marks_a_knee():
    knee = metrics.find_knee([step(1, 30, 20), step(2, 58, 21), step(4, 100, 22, queue=3.0)])
    assert knee.concurrency == 2 and knee.reason == "server_queueing"
    # a brief start-of-step queue (mean below one request) is not a knee
    assert metrics.find_knee([step(1, 30, 20), step(2, 58, 21, queue=0.2)]).concurrency is None


def test_with_kernel_timestamps_only_merged_reads_distrust_a_step():
    clean = [rec(i) for i in range(10)]
    for r in clean:
        r.kernel_timestamps = True
    lagging = metrics.judge_client([30.0] * 100, [], 0.3, clean)
    assert not lagging.client_bound and lagging.kernel_timestamps and lagging.late_merged_fraction == 0
    clean[0].late_merged_tokens = 3  # 3 of 100 tokens merged into late reads
    merged = metrics.judge_client([30.0] * 100, [], 0.3, clean)
    assert merged.client_bound and merged.reasons == ["late_reads_merged_tokens"]


def test_client_health_flags():
    ok = metrics.judge_client([0.2] * 100, [0.1] * 10, 0.3)
    assert not ok.client_bound
    lag = metrics.judge_client([0.2] * 90 + [30.0] * 10, [], 0.3)
    assert lag.client_bound and "event_loop_lag" in lag.reasons
    assert "client_cpu_saturated" in metrics.judge_client([], [], 0.97).reasons


def _soak(slope_ms_per_s, n=300, seed=3):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        t0 = 1000.0 + i * 2.0
        ttft = 0.1 + slope_ms_per_s * (i * 2.0) / 1e3 + rng.gauss(0, 0.004)
        out.append(rec(i, t0=t0, ttft=ttft, gaps=(0.01,) * 9, usage=10))
    return out


def test_drift_detects_a_real_trend_and_not_noise():
    rising = metrics.drift(_soak(0.2), window_s=60)  # +0.2 ms per second = +12 ms/min on a 100 ms TTFT
    ttft = next(s for s in rising.series if s.metric == "ttft_p50_ms")
    assert ttft.drifting and rising.drifting
    assert ttft.slope_per_min == pytest.approx(12, rel=0.15)
    assert ttft.ci95[0] < ttft.slope_per_min < ttft.ci95[1]
    flat = metrics.drift(_soak(0.0), window_s=60)
    assert not next(s for s in flat.series if s.metric == "ttft_p50_ms").drifting


def test_slo_breach_and_error_rate_stop_conditions():
    s = step(4, 100, 30)
    s.requests_failed = 0
    assert metrics.slo_breach(s, SloConfig(tpot_ms=25)) == "slo_tpot_ms"
    assert metrics.slo_breach(s, SloConfig(tpot_ms=40)) is None
    s.error_rate = 0.2
    assert metrics.slo_breach(s, SloConfig(tpot_ms=40)) == "error_rate"
