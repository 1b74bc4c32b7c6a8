"""Pure functions over request records: percentiles, step summaries, goodput, knee, drift.

Definitions (vLLM ``bench serve`` unless noted; aliases other tools use are in docs/benchmark.md):
TTFT = first token-bearing event (reasoning included) − request start; TTFA = the same for the first answer
token; ITL = per-token gaps when per-chunk token counts are known, else inter-chunk gaps (labelled);
TPOT = (E2E − TTFT)/(N − 1); E2E = last token − request start. Percentiles interpolate linearly (numpy's
default, as vLLM does). Failures never enter a latency percentile; they are counted separately.
"""

from __future__ import annotations

import math
import random
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from advisor.domain import knee as knee_rule
from advisor.domain.bench import (
    FAILURES,
    ClientHealth,
    Drift,
    DriftSeries,
    Knee,
    Percentiles,
    RequestRecord,
    SloConfig,
    StepSummary,
)
from advisor.domain.knee import CurvePoint, KneeFinding
from advisor.i18n import tr

TOO_FEW = 20
# The knee rule and its thresholds live in advisor.domain.knee (one rule for predicted and measured curves).
# Client health: a step whose event loop lagged this much was measuring the client, not the server.
CLIENT_LAG_P99_MS = 5.0
CLIENT_SEND_DELAY_P99_MS = 20.0
CLIENT_CPU_SATURATED = 0.9
CLIENT_MERGED_FRACTION = 0.01


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default method)."""
    n = len(sorted_values)
    if n == 1:
        return float(sorted_values[0])
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return float(sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac)


def percentiles(values: Iterable[float | None]) -> Percentiles:
    vals = sorted(v for v in values if v is not None and math.isfinite(v))
    if not vals:
        return Percentiles()
    return Percentiles(
        count=len(vals), mean=sum(vals) / len(vals), p50=quantile(vals, 0.5), p90=quantile(vals, 0.9),
        p95=quantile(vals, 0.95), p99=quantile(vals, 0.99), max=vals[-1], min=vals[0], too_few_samples=len(vals) < TOO_FEW,
    )


def meets_slo(rec: RequestRecord, slo: SloConfig) -> bool:
    if not rec.ok:
        return False
    checks = ((slo.ttft_ms, rec.ttft_ms), (slo.tpot_ms, rec.tpot_ms), (slo.e2e_ms, rec.e2e_ms))
    return all(limit is None or (value is not None and value <= limit) for limit, value in checks)


def has_slo(slo: SloConfig | None) -> bool:
    return slo is not None and any(v is not None for v in (slo.ttft_ms, slo.tpot_ms, slo.e2e_ms))


# Memory per run stays bounded: a step keeps one 8-byte number per request and metric (TTFT, TTFA, TPOT, E2E —
# exact percentiles), and at most ITL_CAP inter-token gaps: beyond that a uniform reservoir sample (Algorithm R,
# seeded) stands for them, and the summary says so (itl_sampled).
ITL_CAP = 200_000


class StepAccumulator:
    """Everything a step summary, the client-health check, the stability check and drift need, folded in one
    record at a time, so the records themselves can go (to the database) as they finish."""

    def __init__(self, slo: SloConfig | None = None, *, keep_rows: bool = False, itl_cap: int = ITL_CAP) -> None:
        self.slo = slo if has_slo(slo) else None
        self.done = 0  # every record added (warm-up included): the progress count
        self.ok_seen = 0  # successful measured records
        self.measured = 0
        self.cancelled = 0
        self.good = 0
        self.failures: Counter[str] = Counter()
        self.failure_messages: dict[str, str] = {}
        self.anomalies: Counter[str] = Counter()
        self.sources: Counter[str] = Counter()
        self.ttft = array("d")
        self.ttfa = array("d")
        self.tpot = array("d")
        self.e2e = array("d")
        self.stability = array("d")  # TPOT (else E2E) of each success, in completion order
        self.itl = array("d")
        self.itl_seen = 0
        self.itl_cap = itl_cap
        self._rng = random.Random(0)
        self.per_token = True
        self.out_tokens = 0
        self.busy = 0.0
        self.t_first: float | None = None
        self.t_last: float | None = None
        self.timed = 0
        self.kernel_all = True
        self.tokens = 0
        self.merged = 0
        self.rows: dict[str, array] | None = (
            {k: array("d") for k in ("t_start", "t_end", "ok", "ttft", "tpot", "out")} if keep_rows else None)

    def add(self, r: RequestRecord) -> None:
        self.done += 1
        if r.warmup:
            return
        if r.outcome == "cancelled":
            self.cancelled += 1
            return
        if r.outcome not in FAILURES and not r.ok:
            return
        self.measured += 1
        end = r.t_end if r.t_end is not None else r.t_start
        self.t_first = r.t_start if self.t_first is None else min(self.t_first, r.t_start)
        self.t_last = end if self.t_last is None else max(self.t_last, end)
        self.busy += end - r.t_start
        self.anomalies.update(r.anomalies)
        if r.token_times:
            self.timed += 1
            self.kernel_all = self.kernel_all and r.kernel_timestamps
            self.tokens += len(r.token_times)
            self.merged += r.late_merged_tokens
        if self.slo is not None and meets_slo(r, self.slo):
            self.good += 1
        if self.rows is not None:
            for key, value in (("t_start", r.t_start), ("t_end", end), ("ok", 1.0 if r.ok else 0.0),
                               ("ttft", _nan(r.ttft_ms)), ("tpot", _nan(r.tpot_ms)),
                               ("out", float(r.output_tokens or 0) if r.ok else 0.0)):
                self.rows[key].append(value)
        if not r.ok:
            key = f"{r.outcome}:{r.error_class}"
            self.failures[key] += 1
            if r.error_message and key not in self.failure_messages and len(self.failure_messages) < 16:
                self.failure_messages[key] = r.error_message[:200]
            return
        self.ok_seen += 1
        for arr, value in ((self.ttft, r.ttft_ms), (self.ttfa, r.ttfa_ms), (self.tpot, r.tpot_ms), (self.e2e, r.e2e_ms)):
            if value is not None and math.isfinite(value):
                arr.append(value)
        stab = r.tpot_ms or r.e2e_ms
        if stab is not None:
            self.stability.append(stab)
        gaps, exact = r.itl_ms()
        self.per_token = self.per_token and exact
        self._add_itl(gaps)
        self.out_tokens += r.output_tokens or 0
        if r.output_tokens_source:
            self.sources[r.output_tokens_source] += 1

    def _add_itl(self, gaps: list[float]) -> None:
        cap = self.itl_cap
        for g in gaps:
            self.itl_seen += 1
            if len(self.itl) < cap:
                self.itl.append(g)
            else:
                j = self._rng.randrange(self.itl_seen)
                if j < cap:
                    self.itl[j] = g

    @property
    def window(self) -> tuple[float, float] | None:
        return None if self.t_first is None or self.t_last is None else (self.t_first, self.t_last)

    def summary(self, *, step: int, concurrency: int, window: tuple[float, float] | None = None,
                client: ClientHealth | None = None, target_rate: float | None = None) -> StepSummary:
        window = window or self.window
        duration = max(1e-9, window[1] - window[0]) if window else 0.0
        failed = sum(self.failures.values())
        ok = self.ok_seen
        summary = StepSummary(
            step=step, concurrency=concurrency, target_rate=target_rate, requests_ok=ok, requests_failed=failed,
            requests_cancelled=self.cancelled, failures=dict(self.failures),
            failure_messages=dict(self.failure_messages), anomalies=dict(self.anomalies),
            duration_s=duration, window_start_s=window[0] if window else None,
            window_end_s=window[1] if window else None, output_tokens=self.out_tokens,
            ttft_ms=percentiles(self.ttft), ttfa_ms=percentiles(self.ttfa), itl_ms=percentiles(self.itl),
            itl_kind="per_token" if ok and self.per_token else "inter_chunk", itl_sampled=self.itl_seen > len(self.itl),
            tpot_ms=percentiles(self.tpot), e2e_ms=percentiles(self.e2e),
            output_tokens_per_s=self.out_tokens / duration if duration else 0.0,
            requests_per_s=ok / duration if duration else 0.0,
            achieved_concurrency=self.busy / duration if duration else 0.0,
            output_tokens_sources=dict(self.sources),
            error_rate=failed / self.measured if self.measured else 0.0,
            client=client or ClientHealth(),
        )
        if self.slo is not None and self.measured:
            summary.goodput_requests_per_s = self.good / duration if duration else 0.0
            summary.goodput_fraction = self.good / self.measured
        return summary

    def token_stats(self) -> tuple[bool, int, int]:
        """(every timed record had kernel stamps, tokens, merged tokens) for :func:`judge_client`."""
        return self.timed > 0 and self.kernel_all, self.tokens, self.merged


def _nan(value: float | None) -> float:
    return math.nan if value is None else value


def summarize_step(records: Sequence[RequestRecord], *, step: int, concurrency: int, slo: SloConfig | None = None,
                   window: tuple[float, float] | None = None, client: ClientHealth | None = None,
                   target_rate: float | None = None) -> StepSummary:
    """Summary of one step. Warm-up and cancelled requests are excluded; failures are counted, not timed."""
    acc = StepAccumulator(slo)
    for r in records:
        acc.add(r)
    return acc.summary(step=step, concurrency=concurrency, window=window, client=client, target_rate=target_rate)


def judge_client(lags_ms: Sequence[float], send_delays_ms: Sequence[float], cpu_utilisation: float | None,
                 records: Sequence[RequestRecord] = (), *,
                 token_stats: tuple[bool, int, int] | None = None) -> ClientHealth:
    """Was the load generator itself the bottleneck? Any one sign is enough to distrust the step.

    With kernel receive timestamps a lagging loop reads late but stamps right, so loop lag only matters when
    it merges tokens into one read (more than 1 % of tokens); with loop-time stamps, loop lag is the error.
    Merged means sent apart: tokens a server wrote in one TCP segment (a burst by design — a stream interval,
    several tokens per batch step) arrive together however fast the client reads, and the client does not
    count them (``late_merged_tokens`` counts segments merged, from the kernel's segment count).
    """
    lag = percentiles(lags_ms)
    delay = percentiles(send_delays_ms)
    if token_stats is not None:
        kernel, tokens, merged_n = token_stats
    else:
        timed = [r for r in records if r.token_times and not r.warmup]
        kernel = bool(timed) and all(r.kernel_timestamps for r in timed)
        tokens = sum(len(r.token_times) for r in timed)
        merged_n = sum(r.late_merged_tokens for r in timed)
    merged = merged_n / tokens if tokens else None
    health = ClientHealth(loop_lag_p99_ms=lag.p99, loop_lag_max_ms=lag.max, send_delay_p99_ms=delay.p99,
                          cpu_utilisation=cpu_utilisation, kernel_timestamps=kernel, late_merged_fraction=merged)
    if kernel:
        # A merged token is stamped late by at most how late its read was, and the loop lag bounds that: below
        # the lag a loop-time stamp may have (CLIENT_LAG_P99_MS) a merge moves no figure by more than loop-time
        # stamping would. Found against a real llama.cpp on CPU: its tokens come 0.3–0.5 ms apart, so reads merge
        # them however idle the client is (37 % at 4 ms lag p99), and steps with 100-ms TTFTs were called
        # client-bound ("these figures describe this computer").
        lagged = lag.p99 is None or lag.p99 > CLIENT_LAG_P99_MS
        if merged is not None and merged > CLIENT_MERGED_FRACTION and lagged:
            health.reasons.append("late_reads_merged_tokens")
    elif lag.p99 is not None and lag.p99 > CLIENT_LAG_P99_MS:
        health.reasons.append("event_loop_lag")
    if delay.p99 is not None and delay.p99 > CLIENT_SEND_DELAY_P99_MS:
        health.reasons.append("client_queueing")
    if cpu_utilisation is not None and cpu_utilisation > CLIENT_CPU_SATURATED:
        health.reasons.append("client_cpu_saturated")
    health.client_bound = bool(health.reasons)
    return health


def slo_breach(summary: StepSummary, slo: SloConfig) -> str | None:
    """The first SLO the step's chosen percentile breaks, or an error rate above the limit; None if fine."""
    key = f"p{slo.percentile}"
    for name, limit in (("ttft_ms", slo.ttft_ms), ("tpot_ms", slo.tpot_ms), ("e2e_ms", slo.e2e_ms)):
        value = getattr(getattr(summary, name), key)
        if limit is not None and value is not None and value > limit:
            return f"slo_{name}"
    if load_error_rate(summary) > slo.max_error_rate:
        return "error_rate"
    return None


# Failures of requests the server finished normally: they say nothing about how it copes with the load, so they
# neither end a ramp nor set a knee (they still count against the step's success rate and status).
NOT_LOAD_FAILURES = ("empty:no_text",)


def load_error_rate(summary: StepSummary) -> float:
    """The step's failure rate without the failures that are no sign of load (``NOT_LOAD_FAILURES``)."""
    measured = summary.requests_ok + summary.requests_failed
    blind = sum(n for k, n in summary.failures.items() if k in NOT_LOAD_FAILURES)
    if not blind or not measured:
        return summary.error_rate
    return max(0.0, summary.error_rate - blind / measured)


# with every connect_error: the server is gone, not slow (a dropped stream, a connection closed before any answer)
SERVER_LOST_CLASSES = ("truncated:connection_lost", "truncated:no_response")


def server_lost(summary: StepSummary) -> bool:
    """Most of the step's failures say the server could no longer be reached (connections refused, or dropped
    mid-answer): it stopped or crashed. Such a step is not a load limit the ramp found, and a run that ends with it
    is not "completed" (found by killing a real llama.cpp server mid-ramp: the page said completed, knee at 1)."""
    return failures_say_server_lost(summary.failures)


def failures_say_server_lost(failures: Mapping[str, int]) -> bool:
    """:func:`server_lost` from a step's failure counts by class (as a result's JSON holds them)."""
    total = sum(n for n in failures.values() if n)
    gone = sum(n for k, n in failures.items() if n and (k.startswith("connect_error:") or k in SERVER_LOST_CLASSES))
    return total > 0 and gone * 2 >= total


def knee_points(steps: Sequence[StepSummary]) -> list[CurvePoint]:
    """The steps as points of a curve for the one knee rule (:mod:`advisor.domain.knee`): throughput, tail TTFT and
    TPOT, the failure rate that says something about load, the server's queue when scraped, client-bound and
    server-lost flags."""
    return [CurvePoint(load=float(s.concurrency), throughput=s.output_tokens_per_s,
                       latency_ms={"tpot_p95": s.tpot_ms.p95, "tpot_p99": s.tpot_ms.p99,
                                   "ttft_p95": s.ttft_ms.p95, "ttft_p99": s.ttft_ms.p99},
                       error_rate=load_error_rate(s) if s.requests_ok + s.requests_failed > 0 else 0.0,
                       requests=s.requests_ok, queue=s.server_queue, client_bound=s.client.client_bound,
                       server_lost=server_lost(s)) for s in steps]  # fmt: skip


def find_knee(steps: Sequence[StepSummary], max_error_rate: float = 0.05) -> Knee:
    """The measured knee, by the one rule predicted curves use too (:func:`advisor.domain.knee.find_knee`): the last
    concurrency before throughput stopped growing (less than 15 % per doubling) while tail latency inflated, or
    before the server queued — confirmed by the step after the one that showed it (a dip the next step contradicts
    is noise) — or, when a level's requests failed above ``max_error_rate`` first, the last level before it
    (reason ``error_rate``). Steps where the client was the bottleneck are never a knee.

    Found against llama-cpp-python (one request at a time, a second one cuts the first off): at concurrency 2, 7 of
    8 requests failed, the one that succeeded made "throughput" grow, and the result said "no knee up to 2:
    throughput still grows" — failures never entered the rule.
    """
    found = knee_rule.find_knee(knee_points(steps), max_error_rate=max_error_rate)
    return _with_notes(knee_from_finding(found, steps, max_error_rate))


def knee_from_finding(found: KneeFinding, steps: Sequence[StepSummary], max_error_rate: float) -> Knee:
    """A finding of the knee rule as the benchmark's :class:`Knee`: its reason, its message, its evidence."""
    def c(i: int | None) -> int | None:
        return None if i is None else steps[i].concurrency

    def at(i: int | None) -> StepSummary:  # the rule names this point for every kind that reads it
        assert i is not None, found
        return steps[i]

    dismissed = [{"knee": c(d.knee), "step": c(d.detected), "contradicted_by": c(d.contradicted_by),
                  "gain": round(d.gain, 3), "gain_needed": round(d.gain_needed, 3)} for d in found.dismissed]
    common = {"dismissed": [d["knee"] for d in dismissed]}
    if found.kind == "too_few_points":
        return Knee(reason="too_few_steps", message=tr("bench.knee.too_few_steps"),
                    evidence={"steps": sum(1 for s in steps if s.requests_ok > 0)}, **common)
    if found.kind == "client_bound":
        cur = at(found.detected)
        return Knee(reason="client_bound", message=tr("bench.knee.client_bound", concurrency=cur.concurrency),
                    evidence={"concurrency": cur.concurrency, "client": cur.client.model_dump(),
                              "dismissed_dips": dismissed}, **common)
    if found.kind == "server_lost":
        bad = at(found.detected)
        return Knee(reason="server_lost", message=tr("bench.knee.server_lost", step=bad.concurrency),
                    evidence={"step_concurrency": bad.concurrency, "failures": dict(bad.failures)}, **common)
    if found.kind == "not_reached":
        highest = c(found.highest)
        return Knee(reason="not_reached", message=tr("bench.knee.not_reached", concurrency=highest),
                    evidence={"highest_concurrency": highest, "client_bound_steps": [], "dismissed_dips": dismissed},
                    **common)
    prev, cur = at(found.knee), at(found.detected)
    confirmed = {"confirmed": found.confirmed, "confirmed_by_concurrency": c(found.confirmed_by),
                 "dismissed_dips": dismissed}
    if found.kind == "error_rate":
        return Knee(concurrency=prev.concurrency, reason="error_rate", confirmed=True,
                    message=tr("bench.knee.error_rate", concurrency=prev.concurrency, step=cur.concurrency,
                               rate=f"{load_error_rate(cur):.0%}", limit=f"{max_error_rate:.0%}"),
                    evidence={"step_concurrency": cur.concurrency, "previous_concurrency": prev.concurrency,
                              "error_rate": round(load_error_rate(cur), 4), "failures": dict(cur.failures),
                              "thresholds": {"error_rate_above": max_error_rate}, **confirmed}, **common)  # fmt: skip
    conc_gain = cur.concurrency / prev.concurrency - 1
    thr_gain = (cur.output_tokens_per_s / prev.output_tokens_per_s - 1) if prev.output_tokens_per_s > 0 else 0.0
    evidence = {
        "step_concurrency": cur.concurrency, "previous_concurrency": prev.concurrency,
        "baseline_concurrency": c(found.baseline),
        "throughput_tok_s": [round(prev.output_tokens_per_s, 3), round(cur.output_tokens_per_s, 3)],
        # the share of a linear gain (shown beside the rule's own figure: the gain against the gain needed)
        "throughput_efficiency": round(thr_gain / conc_gain if conc_gain > 0 else 0.0, 4),
        "throughput_gain": None if found.gain is None or math.isinf(found.gain) else round(found.gain, 4),
        "throughput_gain_needed": None if found.gain_needed is None else round(found.gain_needed, 4),
        "latency_inflation_vs_baseline": {k: (None if v is None else round(v, 3)) for k, v in found.inflation.items()},
        "server_queue": cur.server_queue,
        "thresholds": {"gain_per_doubling_below": knee_rule.KNEE_MIN_GAIN,
                       "inflation_above": knee_rule.KNEE_LATENCY_INFLATION,
                       "server_queue_at_least": knee_rule.KNEE_SERVER_QUEUE},
        **confirmed,
    }
    if found.kind == "server_queue":
        return Knee(concurrency=prev.concurrency, reason="server_queueing", evidence=evidence,
                    confirmed=found.confirmed, **common,
                    message=tr("bench.knee.server_queueing", concurrency=prev.concurrency, step=cur.concurrency,
                               queue=round(cur.server_queue or 0.0, 2)))
    return Knee(concurrency=prev.concurrency, reason="throughput_plateau_latency_inflation", evidence=evidence,
                confirmed=found.confirmed, **common,
                message=tr("bench.knee.plateau_gain", concurrency=prev.concurrency, step=cur.concurrency,
                           gain=f"{found.gain or 0.0:.2f}", needed=f"{found.gain_needed or 0.0:.2f}",
                           inflation=round(found.worst_inflation or 0.0, 2)))


def knee_notes(knee: Mapping[str, Any]) -> str:
    """What follows a knee's sentence: that it is not confirmed yet (no step after the one that showed it), and the
    dips the next step showed to be noise — from the knee's fields and evidence, in the current language."""
    ev = knee.get("evidence") or {}
    notes = [tr("bench.knee.dismissed", step=d["step"], after=d["contradicted_by"], knee=d["knee"],
                gain=f"{d['gain']:.2f}") for d in ev.get("dismissed_dips") or []]  # fmt: skip
    if knee.get("confirmed") is False and ev.get("step_concurrency") is not None:
        notes.append(tr("bench.knee.unconfirmed", step=ev["step_concurrency"]))
    return " ".join(notes)


def _with_notes(knee: Knee) -> Knee:
    notes = knee_notes(knee.model_dump(mode="json"))
    if notes:
        knee.message = f"{knee.message} {notes}"
    return knee


def ramp_stop(steps: Sequence[StepSummary], slo: SloConfig, *, continue_past_knee: bool = False) -> str | None:
    """Why a ramp stops after its latest step, or None to go on: the step broke an SLO or the error limit
    (``slo_ttft_ms`` …, ``error_rate``), or — unless ``continue_past_knee`` — the knee is confirmed (``past_knee``:
    the step after the one that showed it agreed). An unconfirmed candidate never stops a ramp: the next step may
    show it was a dip."""
    if not steps:
        return None
    breach = slo_breach(steps[-1], slo)
    if breach is not None:
        return breach
    if continue_past_knee:
        return None
    found = knee_rule.find_knee(knee_points(steps), max_error_rate=slo.max_error_rate)
    return "past_knee" if found.knee is not None and found.confirmed else None


def ramp_last_step(steps: Sequence[StepSummary], slo: SloConfig, n_levels: int, *,
                   continue_past_knee: bool = False) -> int:
    """The index of the last step a ramp of ``n_levels`` levels will run, as far as its finished ``steps`` tell:
    the latest when :func:`ramp_stop` ended it, the next when the latest showed a candidate knee (the ramp stops
    after the step that confirms it, which this assumes), else the last level. The time-left estimate reads it, so
    it follows the stop rule the runner follows."""
    last = n_levels - 1
    if not steps:
        return last
    if steps[-1].stop_reason == "server_lost" or ramp_stop(steps, slo, continue_past_knee=continue_past_knee):
        return len(steps) - 1
    if not continue_past_knee:
        found = knee_rule.find_knee(knee_points(steps), max_error_rate=slo.max_error_rate)
        decider = found.decided_by(len(steps))
        if decider is not None:
            last = min(last, decider)
    return last


# two-sided 95 % Student t quantiles; above 30 degrees of freedom the normal value is close enough
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
         2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def _t975(df: int) -> float:
    return _T975[df - 1] if 1 <= df <= 30 else 1.96


def linear_trend(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float] | None:
    """Least-squares slope, its 95 % confidence half-width, and the intercept; None with < 3 points."""
    n = len(xs)
    if n < 3:
        return None
    mx = sum(xs) / n
    my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    intercept = my - slope * mx
    resid = sum((y - (intercept + slope * x)) ** 2 for x, y in zip(xs, ys, strict=True))
    se = math.sqrt(resid / (n - 2) / sxx)
    return slope, _t975(n - 2) * se, intercept


DRIFT_RELATIVE = 0.10  # a change of 10 % over the run, with a CI that excludes zero, is drift


def drift(records: Sequence[RequestRecord], window_s: float) -> Drift:
    """Rolling P50/P99 of TTFT and TPOT and the output throughput per window, each with a fitted slope; and the
    failures per window: a window with failures and no success is an outage, and an outage (or a failure rate
    above 5 % in any window) is reported as drift — a soak whose server went away did not hold steady."""
    acc = StepAccumulator(keep_rows=True)
    for r in records:
        acc.add(r)
    assert acc.rows is not None
    return drift_rows(acc.rows, window_s)


def drift_rows(rows: dict[str, array], window_s: float) -> Drift:
    """:func:`drift` over the compact columns a :class:`StepAccumulator` keeps (``keep_rows=True``)."""
    result = Drift(window_s=window_s)
    n = len(rows["t_start"])
    if not n:
        return result
    t_end, ok_col = rows["t_end"], rows["ok"]
    t0 = min(rows["t_start"])
    n_windows = int((max(t_end) - t0) // window_s) + 1
    fails = [0] * n_windows
    oks = [0] * n_windows
    buckets: dict[int, list[int]] = {}
    for j in range(n):
        i = min(n_windows - 1, int((t_end[j] - t0) // window_s))
        if ok_col[j]:
            oks[i] += 1
            buckets.setdefault(i, []).append(j)
        else:
            fails[i] += 1
    result.failures_per_window = fails
    result.requests_failed = sum(fails)
    result.outage_windows = [i for i in range(n_windows) if fails[i] and not oks[i]]
    result.failure_windows = [i for i in range(n_windows) if fails[i] > 0.05 * (fails[i] + oks[i])]
    if not buckets:
        result.drifting = True
        return result
    idx = sorted(buckets)
    centres = [(i + 0.5) * window_s / 60.0 for i in idx]  # minutes
    series: dict[str, list[float | None]] = {"ttft_p50_ms": [], "ttft_p99_ms": [], "tpot_p50_ms": [], "tpot_p99_ms": [],
                                             "output_tokens_per_s": []}
    ttft_col, tpot_col, out_col = rows["ttft"], rows["tpot"], rows["out"]
    for i in idx:
        js = buckets[i]
        ttft = percentiles(ttft_col[j] for j in js)
        tpot = percentiles(tpot_col[j] for j in js)
        series["ttft_p50_ms"].append(ttft.p50)
        series["ttft_p99_ms"].append(ttft.p99)
        series["tpot_p50_ms"].append(tpot.p50)
        series["tpot_p99_ms"].append(tpot.p99)
        series["output_tokens_per_s"].append(sum(out_col[j] for j in js) / window_s)
    for name, values in series.items():
        pts = [(x, y) for x, y in zip(centres, values, strict=True) if y is not None]
        item = DriftSeries(metric=name, windows=[round(y, 3) for _, y in pts])
        fit = linear_trend([p[0] for p in pts], [p[1] for p in pts])
        if fit is not None:
            slope, half, intercept = fit
            item.slope_per_min = slope
            item.ci95 = (slope - half, slope + half)
            span = pts[-1][0] - pts[0][0]
            start = intercept + slope * pts[0][0]
            if start > 0:
                item.relative_change = slope * span / start
            excludes_zero = (slope - half) > 0 or (slope + half) < 0
            item.drifting = excludes_zero and item.relative_change is not None and abs(item.relative_change) >= DRIFT_RELATIVE
        result.series.append(item)
    result.drifting = any(s.drifting for s in result.series) or bool(result.outage_windows or result.failure_windows)
    return result
