"""How long a run has left, as the runner will actually run it.

Two things decide it, and both are read from where the runner reads them (one source of truth):

- *which steps are left*: a ramp stops when :func:`advisor.bench.metrics.ramp_stop` says so (an SLO or error breach,
  or a confirmed knee), and a candidate knee shown by the latest step stops it after the next step, which confirms
  it (:func:`advisor.bench.metrics.ramp_last_step`); any run stops after a step that lost its server.
- *how long each step takes*: a ramp step ends once stable after its least requests (and its minimum duration),
  else at its most (:func:`advisor.bench.run_config.ramp_step_requests`); a fixed step at its request count or
  duration (:func:`~advisor.bench.run_config.step_requests`). A closed-loop step of n requests over c streams takes
  about ⌈n / c⌉ request durations, and a request's duration is read from the latest finished step.

The first estimate (elapsed ÷ the share of levels begun) said "about 2,563 s left" for a ramp that finished in
~210 s; the next one (each step as long as the recent ones, two steps past a knee) over-counted the long low-load
steps (16 requests one at a time) for the short high-load ones (two rounds of c streams) and never saw the knee.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from advisor.bench.metrics import ramp_last_step
from advisor.bench.run_config import ramp_step_requests, step_requests
from advisor.bench.runner import start_stagger_s
from advisor.domain.bench import BenchConfig, ScheduleConfig, StepSummary


def last_step(config: BenchConfig, levels: Sequence[int], finished: Sequence[StepSummary]) -> int:
    """The index of the last step the runner will run, as far as the ``finished`` steps (in order) tell."""
    sch = config.schedule
    if sch.kind == "ramp":
        return ramp_last_step(finished, config.slo, len(levels), continue_past_knee=sch.continue_past_knee)
    if finished and finished[-1].stop_reason == "server_lost":
        return len(finished) - 1
    return len(levels) - 1


def request_seconds(step: StepSummary) -> float | None:
    """How long one request of a finished step took (its median end-to-end time, else its duration over the
    rounds of requests its streams ran); None when it finished none."""
    if step.e2e_ms.p50:
        return step.e2e_ms.p50 / 1e3
    n = step.requests_ok + step.requests_failed
    return step.duration_s * step.concurrency / n if n and step.duration_s > 0 else None


def request_growth(finished: Sequence[StepSummary]) -> float:
    """How much a request's duration grows per doubling of the streams, from the latest two steps: between 1 (the
    server still has room) and 2 (its throughput is flat, so by Little's law each request takes twice as long)."""
    known = [(s.concurrency, t) for s in finished if (t := request_seconds(s)) is not None]
    if len(known) < 2 or known[-1][0] <= known[-2][0]:
        return 1.0
    (c0, t0), (c1, t1) = known[-2], known[-1]
    return min(2.0, max(1.0, float((t1 / t0) ** (1 / math.log2(c1 / c0)))))


def step_seconds(schedule: ScheduleConfig, concurrency: int, request_s: float, *, stable: bool = True,
                 min_duration_s: float = 0.0, hint_s: float | None = None) -> float:
    """Expected length of a closed-loop step at ``concurrency`` with requests of ``request_s`` each: its streams'
    staggered start (as the runner spreads it, from ``hint_s``, the previous step's request duration), then
    ⌈requests / streams⌉ requests per stream; a ramp step ends at its least requests when ``stable`` — and the
    requests still in flight then finish, spread as the start was — else at its most, and never before
    ``min_duration_s``; ``duration_s`` caps every step."""
    c = concurrency
    spread = (c - 1) / c
    if schedule.kind == "ramp":
        least, most = ramp_step_requests(schedule, c)
        n = least if stable else most
        seconds = spread * start_stagger_s(schedule.stagger, c, most, hint_s) + math.ceil(n / c) * request_s
        if stable and least < most:
            seconds += spread * request_s
        seconds = max(min_duration_s, seconds)
    else:
        count = step_requests(schedule, c)
        if count is None:
            seconds = schedule.duration_s or 0.0
        else:
            seconds = spread * start_stagger_s(schedule.stagger, c, count, hint_s) + math.ceil(count / c) * request_s
    return min(seconds, schedule.duration_s) if schedule.duration_s else seconds


def seconds_left(config: BenchConfig, levels: Sequence[int], current_index: int, elapsed_in_step_s: float,
                 finished: Sequence[StepSummary]) -> float | None:
    """Expected seconds until the run ends; None while there is nothing to go by (no step finished yet, and no
    duration set). ``finished``: the measured steps so far, in order (warm-up excluded)."""
    sch = config.schedule
    if sch.kind in ("soak", "rate"):  # one step: its duration, or an open loop's requests at the offered rate
        total = sch.duration_s or ((sch.requests / sch.rate) if sch.requests and sch.rate else None)
        return None if total is None else max(0.0, total - elapsed_in_step_s)
    last = last_step(config, levels, finished)
    if current_index > last:
        return 0.0
    known = [s for s in finished if request_seconds(s) is not None]
    if not known:
        if sch.kind == "fixed" and sch.duration_s and not sch.requests:
            return max(0.0, sch.duration_s - elapsed_in_step_s) + sch.duration_s * (last - current_index)
        return None
    latest = known[-1]
    latest_s = request_seconds(latest) or 0.0
    growth = request_growth(known)
    ramp_steps = [s for s in finished if s.min_requests is not None]
    stable = not ramp_steps or ramp_steps[-1].stop_reason == "stable"
    min_s = latest.min_duration_s or 0.0

    def request_s(index: int) -> float:  # a request's duration at this level, grown from the latest step's
        c = levels[min(max(index, 0), len(levels) - 1)]
        return latest_s * float(growth ** max(0.0, math.log2(c / latest.concurrency)))

    def length(index: int, *, ends_stable: bool) -> float:
        c = levels[min(index, len(levels) - 1)]
        return step_seconds(sch, c, request_s(index), stable=ends_stable, min_duration_s=min_s,
                            hint_s=request_s(index - 1) if index > 0 else None)

    current = length(current_index, ends_stable=stable) - elapsed_in_step_s
    if current < 0 and sch.kind == "ramp":  # not stable yet: it runs on to its most requests
        current = length(current_index, ends_stable=False) - elapsed_in_step_s
    return max(0.0, current) + sum(length(i, ends_stable=stable) for i in range(current_index + 1, last + 1))


def run_fraction(config: BenchConfig, levels: Sequence[int], current_index: int, done_in_step: int,
                 elapsed_in_step_s: float, finished: Sequence[StepSummary]) -> float:
    """How far the run is, 0 to 1, for a progress bar: the steps done and the current step's share (its requests
    of those it needs — a ramp step's least, as it ends once stable — or its time of a set duration), over the steps
    the runner will run (a ramp that will stop after the next step counts no more)."""
    sch = config.schedule
    if sch.kind in ("soak", "rate"):  # one step
        if sch.duration_s:
            return min(1.0, elapsed_in_step_s / sch.duration_s)
        return min(1.0, done_in_step / sch.requests) if sch.requests else 0.0
    c = levels[min(max(current_index, 0), len(levels) - 1)]
    needed = ramp_step_requests(sch, c)[0] if sch.kind == "ramp" else step_requests(sch, c)
    if needed:
        within = done_in_step / needed
    else:
        within = elapsed_in_step_s / sch.duration_s if sch.duration_s else 0.0
    steps = last_step(config, levels, finished) + 1
    return min(1.0, (current_index + min(1.0, within)) / max(1, steps))
