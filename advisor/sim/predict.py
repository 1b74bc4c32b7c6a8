"""The capacity predictor: run the engine in virtual time at each load level and summarise like a benchmark.

Closed loop (fixed concurrency, like ``vllm bench serve --max-concurrency``): ``c`` users each send a
request, wait for the whole answer and send the next one at once. The first ``c`` requests (the cold
start burst) are a warm-up; the next ``measure`` requests are measured; users keep sending until the
measured ones are done, so every measured request sees a full server. Throughput is counted over the
window in which the measured requests ran, which makes Little's law (throughput × latency = concurrency)
hold for the numbers we print.
"""

from __future__ import annotations

import bisect
import gc
import itertools
import math
import threading
import time
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from advisor.domain import knee as knee_rule
from advisor.domain.knee import CurvePoint
from advisor.domain.sim import Knee, LengthDistribution, LevelPrediction, Percentiles, Prediction, SimWorkload
from advisor.sim.datasets import sharegpt_pairs
from advisor.sim.engine import FINISHED, REJECTED, Engine, EngineLimits, Seq, StepCosts

DEFAULT_LEVELS = (1, 2, 4, 8, 16, 32, 64, 128, 256)


def sample_lengths(
    dist: LengthDistribution, n: int, rng: np.random.Generator, *, side: str = "output", picks: np.ndarray | None = None
) -> np.ndarray:
    """``n`` token counts drawn from ``dist`` (integers within [min, max]).

    ``sharegpt`` draws from the dataset's ``side`` ("prompt" or "output") lengths, scaled so their mean is
    ``dist.mean``; ``picks`` (indices into the sample) draws given pairs instead of random ones.
    """
    lo, hi = dist.min, dist.upper
    if dist.kind == "sharegpt":
        prompts, outputs = sharegpt_pairs()
        sample = prompts if side == "prompt" else outputs
        chosen = sample[picks if picks is not None else rng.integers(0, sample.size, n)]
        values = chosen * (dist.mean / sample.mean())
    elif dist.kind == "fixed":
        values = np.full(n, float(dist.mean))
    elif dist.kind == "uniform":
        half = min(dist.mean - lo, hi - dist.mean)
        values = rng.uniform(dist.mean - half, dist.mean + half, n)
    elif dist.kind == "normal":
        values = rng.normal(dist.mean, dist.cv * dist.mean, n)
    else:  # lognormal with the given mean and coefficient of variation
        sigma2 = np.log1p(dist.cv**2)
        values = rng.lognormal(np.log(dist.mean) - sigma2 / 2, np.sqrt(sigma2), n)
    return np.clip(np.rint(values), lo, hi).astype(np.int64)


# The blocks of lengths RequestSource has drawn, by the very workload object (frozen; held in the entry, so its id is
# not reused while the entry lives; an equal workload made apart draws its own: hashing the model each time cost as
# much as the draws) and the block size: in order, each with the generator's state after it. A plan simulates ~40
# levels a scenario, most with the workload and block size of another (1,769 sources over the 43 advice scenarios'
# plans, 261 distinct): drawing the same lengths again from the same seed was ~1.5 % of a plan (issue #27). A block is
# drawn from the state the source's previous block left (or the seed), so every source reads exactly the sequence its
# own generator would give. Read-only lists; bounded: emptied when full.
_BLOCKS: dict[tuple[int, int], tuple[SimWorkload, list[tuple[list[int], list[int], Mapping[str, Any]]]]] = {}
_BLOCKS_LOCK = threading.Lock()  # levels are simulated on worker threads
BLOCKS_KEPT = 512


class RequestSource:
    """Deterministic stream of (prompt, output) lengths for a workload, drawn lazily from the seeded generator.

    The first ``n`` pairs are drawn at once (prompts, then outputs); later ones in further blocks of ``n`` from
    the same generator, so a long simulation never replays the same lengths and memory stays bounded by one
    block. The same workload (seed) and ``n`` always give the same sequence (its blocks are shared: ``_BLOCKS``).
    """

    def __init__(self, workload: SimWorkload, n: int) -> None:
        self._workload = workload
        self._n = max(1, n)
        self.i = 0
        self._block = 0  # the index of the next block to read
        self._state: Mapping[str, Any] | None = None  # the generator's state after the last block read (None: the seed)
        self._draw()

    def _draw(self) -> None:
        key = (id(self._workload), self._n)
        with _BLOCKS_LOCK:
            entry = _BLOCKS.get(key)
            if entry is None or entry[0] is not self._workload:
                if len(_BLOCKS) >= BLOCKS_KEPT:
                    _BLOCKS.clear()
                entry = _BLOCKS[key] = (self._workload, [])
            blocks = entry[1]
            if self._block < len(blocks):
                self.prompts, self.outputs, self._state = blocks[self._block]
            else:  # not drawn yet (or forgotten since): from the seed, or from where this source's last block left it
                rng = np.random.default_rng(self._workload.seed)
                if self._state is not None:
                    rng.bit_generator.state = self._state
                self.prompts, self.outputs = self._drawn(rng)
                self._state = rng.bit_generator.state
                if self._block == len(blocks):
                    blocks.append((self.prompts, self.outputs, self._state))
        self._block += 1
        self._j = 0

    def _drawn(self, rng: np.random.Generator) -> tuple[list[int], list[int]]:
        wl = self._workload
        # a dataset on both sides draws whole (prompt, answer) pairs: ShareGPT's long prompts get shorter answers
        picks = rng.integers(0, sharegpt_pairs()[0].size, self._n) if wl.prompt.kind == wl.output.kind == "sharegpt" else None
        prompts = sample_lengths(wl.prompt, self._n, rng, side="prompt", picks=picks).tolist()
        return prompts, sample_lengths(wl.output, self._n, rng, side="output", picks=picks).tolist()

    def __len__(self) -> int:
        return self._n

    def next(self) -> tuple[int, int]:
        if self._j == self._n:
            self._draw()
        j = self._j
        self._j += 1
        self.i += 1
        return self.prompts[j], self.outputs[j]


_QUANTILES = (50 / 100, 90 / 100, 95 / 100, 99 / 100)  # as np.percentile divides [50, 90, 95, 99] by 100


def _linear_quantiles(values: np.ndarray) -> list[float]:
    """``np.percentile(values, [50, 90, 95, 99])`` (its default "linear" method) of finite values, in the same float
    operations: the virtual index (n − 1)·q, the lower neighbour's weight its fractional part, and numpy's two-sided
    interpolation (from the upper value when the weight is ½ or more), so each figure is the same bits; the order
    statistics from one sort. np.percentile's fixed cost per call was half of ``summarise`` on a plan's small levels
    (issue 27). A sort, not ``np.partition`` at the eight ranks: on the arrays the predictor really summarises (ITLs of
    64 to 3.7 M values, nearly ordered runs of step gaps) numpy's multi-rank partition took ~1.4× the sort's time at
    every size (docs/measurements/2026-12-06-test-time-26.md); the values picked are the same either way."""
    n = len(values)
    spots = []
    for q in _QUANTILES:
        v = (n - 1) * q
        lo = n - 1 if v >= n - 1 else math.floor(v)  # past the end numpy takes the last value (both neighbours)
        spots.append((lo, v - lo if lo < n - 1 else 0.0))
    if n < 64:
        ordered = np.sort(values).tolist()
    else:
        kth = sorted({i for lo, _ in spots for i in (lo, min(lo + 1, n - 1))})
        ordered = dict(zip(kth, np.sort(values)[kth].tolist(), strict=True))
    out = []
    for lo, t in spots:
        if lo == n - 1:
            out.append(ordered[lo])
            continue
        a, b = ordered[lo], ordered[lo + 1]
        d = b - a
        out.append(b - d * (1 - t) if t >= 0.5 else a + d * t)
    return out


def percentiles_ms(values_s: np.ndarray | Sequence[float]) -> Percentiles:
    arr = np.asarray(values_s, dtype=float)
    if arr.size == 0:
        return Percentiles(mean=None, p50=None, p90=None, p95=None, p99=None)
    if np.isfinite(arr).all():
        p50, p90, p95, p99 = (p * 1000.0 for p in _linear_quantiles(arr))
    else:  # NaN or infinite samples: numpy's own handling
        p50, p90, p95, p99 = np.percentile(arr, [50, 90, 95, 99]) * 1000.0
    return Percentiles(mean=float(arr.mean() * 1000.0), p50=float(p50), p90=float(p90), p95=float(p95), p99=float(p99))


def _counts_as_floats(counts: list[int] | array[int]) -> np.ndarray:
    """``np.asarray(counts, dtype=float)`` of step counts (ints): the same floats (every count is exact in a double), by
    way of an int64 array, which numpy fills from Python ints about a third faster than a float one, and reads the
    engine's typed history (``array("q")``) without looking at each element."""
    if isinstance(counts, array):
        return np.frombuffer(counts, dtype=np.int64).astype(float)
    return np.array(counts, dtype=np.int64).astype(float)


def _history(values: array[float], start: int = 0, stop: int | None = None) -> np.ndarray:
    """``np.asarray(values[start:stop])`` of the engine's step times (``array("d")``): the same float64s, a copy of
    the slice's bytes (the caller may keep it after the engine is gone)."""
    stop = len(values) if stop is None else stop
    return np.frombuffer(values, dtype=np.float64)[start:stop].copy()


def _time_weighted(engine: Engine, series: list[int] | np.ndarray, start: int, stop: int, scale: float = 1.0,
                   dt: np.ndarray | None = None) -> dict[str, float]:
    """Time-weighted mean and max of ``series`` over steps [start, stop); ``dt``: those steps' durations, if the
    caller already has them as an array (summarise weighs four series by the same steps). A float array ``series``
    is those steps' values already (summarise converts the waiting and running counts once for two series)."""
    if stop <= start:
        return {"mean": 0.0, "max": 0.0}
    if dt is None:
        dt = np.asarray(engine.step_dt[start:stop])
    vals = (series if isinstance(series, np.ndarray) else _counts_as_floats(series[start:stop])) * scale
    total = float(dt.sum())
    mean = float((vals * dt).sum() / total) if total > 0 else float(vals.mean())
    return {"mean": mean, "max": float(vals.max())}


def _segment_steps(segments: list[tuple[int, int]]) -> np.ndarray:
    """The step indices of inclusive ranges [(a, b), …], in order: ``concatenate(arange(a, b + 1) …)`` in three numpy
    calls instead of two per range (a request that sat out every prefill step of SGLang has hundreds of ranges)."""
    ranges = np.fromiter(itertools.chain.from_iterable(segments), dtype=np.int64, count=2 * len(segments)).reshape(-1, 2)
    lengths = np.maximum(ranges[:, 1] - ranges[:, 0] + 1, 0)  # an empty range (b < a) adds nothing, as arange
    # position k of range i holds a_i + (k − the count of indices before range i)
    offsets = ranges[:, 0] - (np.cumsum(lengths) - lengths)
    return np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(offsets, lengths)


def summarise(
    engine: Engine,
    measured: list[Seq],
    window: tuple[float, float],
    *,
    concurrency: int | None,
    request_rate: float | None = None,
    steps: int | None = None,
) -> LevelPrediction:
    """Benchmark-style statistics of the measured requests, over the time window they ran in. ``steps``: the run's
    step count when the engine was not stepped to its end (``Engine.drain_end``)."""
    timeline = _history(engine.step_end)
    gaps = np.diff(timeline)  # gaps[i] = timeline[i + 1] − timeline[i]: a token run's ITLs are a slice of it
    done = [s for s in measured if s.state == FINISHED]
    ttft = np.array([s.first_token_t - s.arrival for s in done])
    e2e = np.array([s.finish_t - s.arrival for s in done])
    tpot = np.array([(s.finish_t - s.first_token_t) / (s.output - 1) for s in done if s.output > 1])
    itl_parts = []
    for s in done:
        if s.output > 1:
            if len(s.segments) > 1:  # the gap across a preemption or a pause counts too: index the step ends
                itl_parts.append(np.diff(timeline[_segment_steps(s.segments)]))
            else:
                a, b = s.segments[0]
                itl_parts.append(gaps[a:b] if a >= 0 else np.diff(timeline[a : b + 1]))
    itl = np.concatenate(itl_parts) if itl_parts else np.array([])

    t0, t1 = window
    span = max(t1 - t0, 1e-12)
    ends = engine.step_end
    i0 = bisect.bisect_right(ends, t0)
    i1 = bisect.bisect_right(ends, t1)
    tokens = float(int(np.frombuffer(engine.step_tokens, dtype=np.int64)[i0:i1].sum()))  # exact: a sum of counts
    kv_scale = 1.0 / engine.limits.kv_blocks
    dt = _history(engine.step_dt, i0, i1)
    # the counts as floats once (exact: small integers), the in-flight series their sum (a list comprehension over a
    # 200-request level's tens of thousands of steps was a sixth of this function)
    waiting = _counts_as_floats(engine.step_waiting[i0:i1])
    running = _counts_as_floats(engine.step_running[i0:i1])
    in_flight = _time_weighted(engine, waiting + running, 0, i1 - i0, dt=dt)
    return LevelPrediction(
        concurrency=concurrency,
        request_rate=request_rate,
        requests=len(done),
        ttft_ms=percentiles_ms(ttft),
        tpot_ms=percentiles_ms(tpot),
        itl_ms=percentiles_ms(itl),
        e2e_ms=percentiles_ms(e2e),
        output_tokens_per_s=tokens / span,
        # Steady-state request rate: the window's token rate over the mean answer length. Counting finishes
        # instead would be skewed by whichever requests happen to straddle the window's edges.
        requests_per_s=(tokens / span) / float(np.mean([s.output for s in done])) if done else 0.0,
        kv_usage=_time_weighted(engine, engine.step_blocks, i0, i1, kv_scale, dt=dt),
        queue=_time_weighted(engine, waiting, i0, i1, dt=dt),
        running=_time_weighted(engine, running, i0, i1, dt=dt),
        preemptions=sum(s.preemptions for s in measured),
        rejected=sum(1 for s in measured if s.state == REJECTED),
        mean_in_flight=in_flight["mean"],
        simulated_requests=engine._next_rid,
        steps=engine.steps if steps is None else steps,
    )


class _Issuer:
    """Sends a closed loop's next request. A request the engine refuses (longer than the whole KV cache) finishes
    inside ``add_request`` and its user sends the next one at once: those are issued one by one from a queue, not
    recursively (a 256-user level of requests that never fit went 1,000 calls deep and raised RecursionError)."""

    def __init__(self, engine: Engine, source: RequestSource, issued: list[Seq]) -> None:
        self.engine, self.source, self.issued = engine, source, issued
        self.pending: list[float] = []
        self.draining = False

    def __call__(self, at: float) -> None:
        if self.draining:
            self.pending.append(at)
            return
        self.draining = True
        try:
            p, o = self.source.next()  # this one first, then any a refused request's user sent meanwhile (in order)
            self.issued.append(self.engine.add_request(p, o, at))
            while self.pending:
                p, o = self.source.next()
                self.issued.append(self.engine.add_request(p, o, self.pending.pop(0)))
        finally:
            self.draining = False


_GC_LOCK = threading.Lock()
_gc_holds = 0  # levels being simulated now (on any thread)
_gc_restore = False  # whether the collector was on when the first of them started


@contextmanager
def _gc_held_off() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a level is simulated: its tens of thousands of short-lived
    request objects set off collections that walk every live object of the process (a tenth of a plan level's
    time). Nothing a level allocates waits on it (the engine's own reference cycle is collected once the level
    ends) and no result depends on it; the collector is back as it was when the last level running (on any thread)
    ends."""
    global _gc_holds, _gc_restore
    with _GC_LOCK:
        if _gc_holds == 0:
            _gc_restore = gc.isenabled()
            gc.disable()
        _gc_holds += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_holds -= 1
            if _gc_holds == 0 and _gc_restore:
                gc.enable()


@_gc_held_off()
def simulate_concurrency(
    costs: StepCosts,
    limits: EngineLimits,
    workload: SimWorkload,
    concurrency: int,
    *,
    measure: int | None = None,
    start: str = "spread",
    stagger_s: float | None = None,
) -> LevelPrediction:
    """One closed-loop level: ``concurrency`` users, a warm-up round, then ``measure`` measured requests.

    ``start="spread"`` (steady state, the default) starts the users spread over one request time;
    ``start="burst"`` starts them all at once, as a benchmark step does — with equal lengths they then stay
    in lock-step (all prefill together: long TTFT, then decode undisturbed: short TPOT), which is what
    ``advisor bench`` measures with fixed lengths. ``stagger_s`` (overrides ``start``): the users' first requests
    spread evenly over exactly that many seconds — pass a benchmark step's ``start_stagger_s`` to predict the
    start pattern it really ran (0 = all together).

    When far more users wait than the server can run at once (KV cache or max_num_seqs full), simulating
    every one of them costs steps ∝ users × output / running. Past ``STEP_BUDGET`` we simulate the largest
    affordable concurrency — already saturated — and extend it to ``concurrency`` with Little's law: the
    saturated throughput stays, and each extra user adds its share of queueing time to TTFT and E2E.
    """
    c = max(1, int(concurrency))
    runnable = max(1, min(limits.max_num_seqs, limits.kv_tokens // (workload.prompt.mean + workload.output.mean)))
    affordable = int(STEP_BUDGET * runnable / (6 * workload.output.mean))
    if c > 2 * runnable and affordable < c:
        c_sim = max(2 * runnable, affordable)
        if c_sim < c:
            base = simulate_concurrency(costs, limits, workload, c_sim, measure=measure, start=start, stagger_s=stagger_s)
            return _extend_saturated(base, c)
    if measure is None:
        measure = default_measure(workload, c)
    warm = c
    total_needed = warm + measure
    source = RequestSource(workload, max(64, total_needed))
    engine = Engine(costs, limits)
    issued: list[Seq] = []
    measured_left = measure

    issue = _Issuer(engine, source, issued)

    def on_finish(seq: Seq) -> None:  # once a request: the count a closure cell, not a dict entry
        nonlocal measured_left
        if warm <= seq.rid < total_needed:
            measured_left -= 1
        if measured_left > 0:
            issue(seq.finish_t)  # the user sends the next request at once

    engine.on_finish = on_finish
    # Users start spread over one estimated request time, not all at t=0: a burst start with equal lengths
    # would keep the users in lock-step for the whole run (all prefilling together, then all decoding),
    # which no long-running real load looks like.
    if start not in ("spread", "burst"):
        raise ValueError(f"start must be 'spread' or 'burst', not {start!r}")
    spread = _estimated_request_seconds(costs, workload, c) if start == "spread" else 0.0
    if stagger_s is not None:
        if not stagger_s >= 0:
            raise ValueError(f"stagger_s must be 0 or more seconds, not {stagger_s!r}")
        spread = float(stagger_s)
    for i in range(c):
        issue(spread * i / c)
    steps = _run_until_drained(engine, lambda: measured_left <= 0)

    engine.on_finish = None  # the engine ↔ on_finish cycle broken: freed when this returns (_gc_held_off)
    measured = issued[warm:total_needed]
    # From the first to the last measured arrival: whole cycles of the closed loop, always c in flight.
    t0 = min(s.arrival for s in measured)
    t1 = max(s.finish_t for s in measured)
    return summarise(engine, measured, (t0, t1), concurrency=c, steps=steps)


def _run_until_drained(engine: Engine, measured_done, max_steps: int = 50_000_000) -> int:
    """Run ``engine`` to the end and return its step count. Once ``measured_done()`` (no request is sent any more and
    none still running is measured), the rest of the run is only counted where ``Engine.drain_end`` can count it
    (the unmeasured requests decoding to their ends): the same count, and the same steps up to the measured window's
    end, as stepping it all (tests/core/test_sim_drain.py), without simulating a quarter of a level's steps."""
    tried_at = None  # running requests when drain_end last said no: ask again only once one more has finished
    for _ in range(max_steps):
        if measured_done() and len(engine.running) != tried_at:
            end = engine.drain_end()
            if end is not None:
                return end
            tried_at = len(engine.running)
        if not engine.step():
            return engine.steps
    raise RuntimeError("simulation did not finish within its step bound")


def simulate_step(
    costs: StepCosts, limits: EngineLimits, workload: SimWorkload, concurrency: int, requests: int, stagger_s: float = 0.0
) -> LevelPrediction:
    """One closed-loop level as a benchmark step runs it: ``concurrency`` users, the first requests spread over
    ``stagger_s`` seconds, exactly ``requests`` sent in all (the last users stop when they are), every one counted,
    and throughput over the step's whole span — first send to last answer — as ``advisor bench`` counts it.

    The steady-state :func:`simulate_concurrency` answers "what does this load sustain"; this answers "what will
    this step measure", start-up and drain included: a step of 3 requests per user spends a good part of its time
    with fewer than ``concurrency`` requests in flight, and its throughput is that much lower.
    """
    c = max(1, int(concurrency))
    n = max(c, int(requests))
    source = RequestSource(workload, max(64, n))
    engine = Engine(costs, limits)
    issued: list[Seq] = []

    issue = _Issuer(engine, source, issued)

    def on_finish(seq: Seq) -> None:
        if len(issued) < n:
            issue(seq.finish_t)

    engine.on_finish = on_finish
    if not stagger_s >= 0:
        raise ValueError(f"stagger_s must be 0 or more seconds, not {stagger_s!r}")
    for i in range(c):
        issue(stagger_s * i / c)
    engine.run()
    t0 = min(s.arrival for s in issued)
    t1 = max(s.finish_t for s in issued)
    return summarise(engine, issued, (t0, t1), concurrency=c)


def default_measure(workload: SimWorkload, concurrency: int) -> int:
    """Requests a level measures by default: enough for stable percentiles, fewer for very long answers at low
    concurrency (each one costs `output` steps there) — lengths that do not vary need few samples anyway."""
    c = max(1, int(concurrency))
    return max(4 * c, 8, min(32, -(-32_768 * c // workload.output.mean)))


# A level's P99 from a short sample is about its maximum and biased low where lengths vary (#28): its few requests
# rarely draw the short answer that decodes beside a long prompt's chunks, and that collision is the TPOT p99 (q11:
# 58 ms from 20 requests at 10 users, 71 from 800; a tail fitted to the sample, or virtual answers slid along its token
# gaps, recovered part of the gap, not all: the events are missing). 200 requests read it within ~10 % of 800. One
# user alone has nobody to collide with, and fixed lengths read the same p99 from 32 requests as from 800.
TAIL_SAMPLES = 200


def p99_measure(workload: SimWorkload, concurrency: int) -> int | None:
    """Requests a level measures so that its P99s lie between observed requests (TAIL_SAMPLES, or the default sample
    where that is larger), or None where the default sample reads them as well: one user alone, fixed lengths. Read by
    the Sizing page's curve and ``advisor predict``; the plan keeps its short samples for now (200-request levels made
    plans ~2.3x slower: branch s17-p99 has that change, docs/plan.md says what it moves)."""
    if concurrency < 2 or (workload.prompt.kind == "fixed" and workload.output.kind == "fixed"):
        return None
    return max(TAIL_SAMPLES, default_measure(workload, concurrency))


STEP_BUDGET = 40_000  # engine steps one level may take before the saturated extension is used


def _extend_saturated(base: LevelPrediction, c: int) -> LevelPrediction:
    """``base`` (a saturated level) seen by ``c`` users: same throughput, longer waiting (Little's law)."""
    if base.requests_per_s <= 0:
        return base
    extra_wait_ms = (c - (base.concurrency or 0)) / base.requests_per_s * 1000.0

    def shift(p: Percentiles) -> Percentiles:
        return Percentiles(**{k: (v + extra_wait_ms if v is not None else None) for k, v in p.model_dump().items()})

    queue_extra = c - (base.concurrency or 0)
    return base.model_copy(
        update={
            "concurrency": c,
            "ttft_ms": shift(base.ttft_ms),
            "e2e_ms": shift(base.e2e_ms),
            "queue": {"mean": base.queue["mean"] + queue_extra, "max": base.queue["max"] + queue_extra},
            "mean_in_flight": base.mean_in_flight + queue_extra,
            "extended_from": base.concurrency,
        }
    )


def _estimated_request_seconds(costs: StepCosts, workload: SimWorkload, c: int) -> float:
    prompt, output = workload.prompt.mean, workload.output.mean
    prefill = costs.step_seconds(prompt, prompt * (prompt + 1) / 2, 0, 0)
    # In steady state each decode step also carries the prompts of the users who just came back:
    # c prompts per request time, spread over `output` steps.
    mixed = c * prompt / output
    decode = costs.step_seconds(int(mixed), mixed * prompt / 2, c, c * (prompt + output // 2))
    return prefill + output * decode


def simulate_rate(
    costs: StepCosts,
    limits: EngineLimits,
    workload: SimWorkload,
    rate: float,
    *,
    requests: int = 400,
) -> LevelPrediction:
    """One open-loop level: Poisson arrivals at ``rate`` requests per second (first 10 % are warm-up)."""
    rng = np.random.default_rng(workload.seed + 1)
    source = RequestSource(workload, requests)
    engine = Engine(costs, limits)
    arrivals = np.cumsum(rng.exponential(1.0 / rate, requests))
    issued = [engine.add_request(*source.next(), float(a)) for a in arrivals]
    engine.run()
    warm = requests // 10
    measured = issued[warm:]
    t0 = min(s.arrival for s in measured)
    t1 = max(s.finish_t for s in measured)
    return summarise(engine, measured, (t0, t1), concurrency=None, request_rate=rate)


# The knee rule is the one measured ramps use too (advisor.domain.knee); kept under its old name for callers.
KNEE_MIN_GAIN = knee_rule.KNEE_MIN_GAIN


def knee_points(levels: Sequence[LevelPrediction]) -> list[CurvePoint]:
    """Predicted levels as points of a curve for the one knee rule: what a benchmark step of the same level would
    read (throughput, tail TTFT and TPOT, the server's mean queue; the simulator fails no request for load)."""
    return [CurvePoint(load=_load(lv), throughput=lv.output_tokens_per_s,
                       latency_ms={"tpot_p95": lv.tpot_ms.p95, "tpot_p99": lv.tpot_ms.p99,
                                   "ttft_p95": lv.ttft_ms.p95, "ttft_p99": lv.ttft_ms.p99},
                       requests=lv.requests, queue=lv.queue.get("mean")) for lv in levels]  # fmt: skip


def find_knee(levels: Sequence[LevelPrediction], limits: EngineLimits | None = None) -> Knee:
    """The predicted knee, by the rule measured ramps use (:func:`advisor.domain.knee.find_knee`): the last level
    before doubling the load gave < 15 % more throughput while tail latency inflated, or before requests queued
    at the server — confirmed by the level after (``confirmed`` False when none follows).

    Reason, read at the level past the knee: ``kv_cache`` when requests were preempted, the KV cache ran
    full or waiting requests could not get blocks; ``queueing`` when they waited for a seat (max_num_seqs);
    else ``compute`` (each step got slower as the batch grew — the GPU is saturated).
    """
    found = knee_rule.find_knee(knee_points(levels))
    dismissed = [int(levels[d.knee].concurrency or 0) for d in found.dismissed if levels[d.knee].concurrency]
    if found.knee is None or found.detected is None:
        return Knee(concurrency=None, reason="not_reached", evidence={"levels": len(levels)}, dismissed=dismissed)
    prev, cur = levels[found.knee], levels[found.detected]
    gain = found.gain if found.gain is not None else float("inf")
    seats_full = limits is not None and cur.running["mean"] >= 0.9 * limits.max_num_seqs
    if cur.preemptions > 0 or cur.kv_usage["max"] >= 0.97:
        reason = "kv_cache"
    elif cur.queue["mean"] >= 0.5:
        # Requests wait either for a seat (max_num_seqs) or for KV blocks to admit the next prompt.
        reason = "queueing" if seats_full or limits is None else "kv_cache"
    else:
        reason = "compute"
    evidence: dict[str, float | int | str | None] = {
        "next_concurrency": cur.concurrency,
        "throughput_gain": round(gain, 3),
        "throughput_gain_needed": None if found.gain_needed is None else round(found.gain_needed, 3),
        "tpot_p50_ratio": _ratio(cur.tpot_ms.p50, prev.tpot_ms.p50),
        "ttft_p50_ratio": _ratio(cur.ttft_ms.p50, prev.ttft_ms.p50),
        "kv_usage_max": round(cur.kv_usage["max"], 3),
        "queue_mean": round(cur.queue["mean"], 2),
        "running_mean": round(cur.running["mean"], 2),
        "preemptions": cur.preemptions,
        "rule": found.kind,
    }
    if found.confirmed_by is not None:
        after = levels[found.confirmed_by]
        evidence["confirmed_by_concurrency"] = after.concurrency
        if after.request_rate is not None:
            evidence["confirmed_by_request_rate"] = after.request_rate
    if limits is not None:
        evidence["max_num_seqs"] = limits.max_num_seqs
        evidence["kv_tokens"] = limits.kv_tokens
    if cur.request_rate is not None:
        evidence["next_request_rate"] = cur.request_rate
    return Knee(concurrency=prev.concurrency, request_rate=prev.request_rate, reason=reason, evidence=evidence,
                confirmed=found.confirmed, dismissed=dismissed)


def _load(level: LevelPrediction) -> float:
    return float(level.concurrency if level.concurrency is not None else level.request_rate or 0.0)


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return round(a / b, 3)


def predict_curve(
    costs: StepCosts,
    limits: EngineLimits,
    workload: SimWorkload | None = None,
    levels: Iterable[int] = DEFAULT_LEVELS,
    *,
    measure: int | None = None,
    start: str = "spread",
    stagger_s: float | dict[int, float] | None = None,
    step_requests: dict[int, int] | None = None,
    tail: bool = False,
) -> Prediction:
    """The concurrency → latency/throughput curve and its knee (``start``, ``stagger_s``: see simulate_concurrency;
    ``stagger_s`` may map each concurrency to its benchmark step's own stagger). ``step_requests`` maps a
    concurrency to the number of requests its benchmark step sent: that level is then simulated as the step ran
    (:func:`simulate_step`), to be drawn beside what the step measured. ``tail`` (without ``measure``): each level
    measures as many requests as its P99s need (:func:`p99_measure`)."""
    workload = workload or SimWorkload()
    started = time.process_time()
    def stagger(c: int) -> float | None:
        return stagger_s.get(c) if isinstance(stagger_s, dict) else stagger_s

    def level(c: int) -> LevelPrediction:
        if step_requests and c in step_requests:
            return simulate_step(costs, limits, workload, c, step_requests[c], stagger(c) or 0.0)
        n = measure if measure is not None or not tail else p99_measure(workload, c)
        return simulate_concurrency(costs, limits, workload, c, measure=n, start=start, stagger_s=stagger(c))

    points = [level(c) for c in levels]
    return Prediction(
        levels=points,
        knee=find_knee(points, limits),
        engine={
            "kv_blocks": limits.kv_blocks,
            "block_size": limits.block_size,
            "kv_tokens": limits.kv_tokens,
            "max_num_seqs": limits.max_num_seqs,
            "max_num_batched_tokens": limits.max_num_batched_tokens,
        },
        cpu_seconds=time.process_time() - started,
    )


def predict_rates(
    costs: StepCosts, limits: EngineLimits, workload: SimWorkload | None, rates: Iterable[float], *, requests: int = 400
) -> list[LevelPrediction]:
    workload = workload or SimWorkload()
    return [simulate_rate(costs, limits, workload, r, requests=requests) for r in rates]
