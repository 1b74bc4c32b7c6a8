"""The plan's remembered knees (``advisor.plan.sizing._knee_of``, #27): an entry is what ``find_knee`` gives for the
very level objects and the engine limits it was found from; another level object (even an equal copy), another set
of levels or other limits is worked out afresh, so a remembered knee is never one that finding it again would not
give."""

from __future__ import annotations

from typing import Any

from advisor.domain.sim import LevelPrediction, Percentiles
from advisor.plan.sizing import Candidate, _knee_of
from advisor.sim.engine import EngineLimits
from advisor.sim.predict import find_knee


def _candidate() -> Candidate:
    blank: Any = None  # the memo reads only `knee_memo`
    return Candidate(gpu=blank, weights="bf16", kv_dtype="bf16", tp=1, memory=blank, costs=blank, c_max=10,
                     replicas=1, ttft_p99_ms=0.0, tpot_p99_ms=0.0, tokens_per_s_replica=0.0)  # fmt: skip


def _level(c: int, throughput: float, latency_ms: float, queue: float = 0.0) -> LevelPrediction:
    pct = Percentiles(mean=latency_ms, p50=latency_ms, p90=latency_ms, p95=latency_ms, p99=latency_ms)
    return LevelPrediction(concurrency=c, requests=20, ttft_ms=pct, tpot_ms=pct, itl_ms=pct, e2e_ms=pct,
                           output_tokens_per_s=throughput, requests_per_s=throughput / 100,
                           kv_usage={"mean": 0.5, "max": 0.6}, queue={"mean": queue, "max": queue},
                           running={"mean": float(min(c, 8)), "max": float(min(c, 8))}, preemptions=0,
                           mean_in_flight=float(c))  # fmt: skip


def _points() -> list[LevelPrediction]:
    # throughput stalls past 4 users while latency and the queue grow: a knee at 4
    return [_level(1, 100.0, 20.0), _level(2, 200.0, 21.0), _level(4, 400.0, 22.0), _level(8, 420.0, 60.0, 2.0),
            _level(16, 425.0, 140.0, 8.0)]  # fmt: skip


SEATS_8 = EngineLimits(kv_blocks=1000, max_num_seqs=8)
SEATS_256 = EngineLimits(kv_blocks=1000, max_num_seqs=256)


def test_a_remembered_knee_is_find_knee_and_is_reused() -> None:
    cand, points = _candidate(), _points()
    first = _knee_of(cand, points, SEATS_8)
    assert first == find_knee(points, SEATS_8)
    assert first.concurrency == 4 and first.reason == "queueing"  # the seats (8) are full past the knee
    assert _knee_of(cand, list(points), SEATS_8) is first  # the same level objects, the same limits: remembered


def test_other_limits_are_worked_out_afresh() -> None:
    cand, points = _candidate(), _points()
    _knee_of(cand, points, SEATS_8)
    other = _knee_of(cand, points, SEATS_256)  # the queue now waits for KV blocks, not seats
    assert other == find_knee(points, SEATS_256) and other.reason == "kv_cache"


def test_a_replaced_level_is_never_read_from_the_memo() -> None:
    for i in range(len(_points())):  # each level in turn: the entry must notice that one
        cand, points = _candidate(), _points()
        first = _knee_of(cand, points, SEATS_8)
        c = points[i].concurrency or 0
        points[i] = _level(c, 900.0 * c, 10.0)  # another object, other figures (throughput that keeps doubling)
        fresh = _knee_of(cand, points, SEATS_8)
        assert fresh == find_knee(points, SEATS_8), i
        assert fresh is not first, i  # not read from the memo
        if c in (4, 8):  # the knee and the level past it: the figures that decide it moved
            assert fresh != first, i
        # an equal copy is another object too: found again, the same knee
        points[i] = points[i].model_copy()
        again = _knee_of(cand, points, SEATS_8)
        assert again is not fresh and again == fresh, i


def test_another_set_of_levels_is_worked_out_afresh() -> None:
    cand, points = _candidate(), _points()
    _knee_of(cand, points, SEATS_8)
    fewer = points[:3]  # the knee not reached yet
    assert _knee_of(cand, fewer, SEATS_8) == find_knee(fewer, SEATS_8)
    assert _knee_of(cand, fewer, SEATS_8).concurrency is None


def test_the_remembered_workload_is_the_one_built_afresh_and_reads_every_answer_it_depends_on() -> None:
    from types import SimpleNamespace

    from advisor.plan.sizing import _workload, workload

    answers = {"prompt_avg": 800, "prompt_p95": 2400, "output_avg": 300, "output_p95": 900, "max_context": 2600}  # the context caps the draws
    ctx: Any = SimpleNamespace(**answers)
    first = workload(ctx)
    assert first == _workload.__wrapped__(*answers.values())  # the uncached build
    assert workload(SimpleNamespace(**answers)) is first  # remembered
    for name, value in answers.items():  # each answer it reads moves it
        other: Any = SimpleNamespace(**{**answers, name: value * 3})
        moved = workload(other)
        assert moved != first, name
        assert moved == _workload.__wrapped__(*{**answers, name: value * 3}.values()), name
