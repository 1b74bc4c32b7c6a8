"""The one knee rule, for a predicted curve and a measured ramp alike (issue #27: two rules had drifted apart).

A curve is a sequence of :class:`CurvePoint` — one per concurrency level (or request rate) — and the knee is the last
load worth running: past it, adding load buys little throughput while latency inflates, the server queues, or
requests fail. The simulator's predicted levels and the benchmark's measured steps are both turned into points and
read by :func:`find_knee`, so a predicted and a measured knee of the same curve agree by construction.

Noise: a measured step can dip (a short step, starts that collided, a noisy neighbour). A dip is only a *candidate*:
it is confirmed by the point after the one that showed it. When that next point's throughput has grown again
by at least the gain a real curve would still show (``KNEE_MIN_GAIN`` per doubling of load, counted from the
candidate), the dip was noise: the candidate is dismissed (kept in ``dismissed``) and the search goes on. Found
against a real vLLM server (knee at 8–16 streams): a noisy 16-request step at concurrency 2, then 2.1× the
single-stream throughput at 4 — the old rule called the knee at 1 and the ramp stopped.

Pure and Qt-free: no I/O, no clock; the bench (``advisor.bench.metrics``) and the simulator
(``advisor.sim.predict``) map a finding to their own reasons and messages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

# Doubling the load must buy at least this much more throughput, or the curve has flattened (1.75× for a 16× step).
KNEE_MIN_GAIN = 1.15
# ... while a tail latency inflated this much against the lowest-load point (the baseline).
KNEE_LATENCY_INFLATION = 1.5
# Server queueing: on average at least one request waiting over the point (a closed-loop step starts with a burst
# of arrivals that briefly queue even far below the knee, so "ever above 0" would be too eager).
KNEE_SERVER_QUEUE = 1.0
# A point whose requests failed above this fraction ends the search: the knee is the last point before it.
DEFAULT_MAX_ERROR_RATE = 0.05

KneeKind = Literal["throughput_plateau", "server_queue", "error_rate", "client_bound", "server_lost",
                   "not_reached", "too_few_points"]
# the kinds that name a knee from the shape of the curve (a candidate needs the next point to confirm it)
SHAPE_KINDS: tuple[KneeKind, ...] = ("throughput_plateau", "server_queue")


@dataclass(frozen=True)
class CurvePoint:
    """One level of a curve, predicted or measured."""

    load: float  # concurrency (closed loop) or requests per second offered (open loop)
    throughput: float  # output tokens per second
    latency_ms: Mapping[str, float | None] = field(default_factory=dict)  # tail latencies by name, e.g. ttft_p95
    error_rate: float = 0.0  # failed / measured requests (failures that say nothing about load left out)
    requests: int = 0  # successful requests behind the point; a point without any is not read
    queue: float | None = None  # mean requests waiting at the server, when known
    client_bound: bool = False  # the load generator, not the server, was the bottleneck: never a knee
    server_lost: bool = False  # the server could no longer be reached: it stopped, which is not a limit of load


@dataclass(frozen=True)
class Dismissed:
    """A candidate knee the point after it contradicted (its throughput grew again): noise, not a knee."""

    knee: int  # index of the candidate knee point in the sequence given
    detected: int  # the point past it that looked like a knee
    contradicted_by: int  # the point after that, whose throughput grew again
    gain: float  # throughput of ``contradicted_by`` ÷ throughput of ``knee``
    gain_needed: float  # the gain at which a curve is still growing over that span


@dataclass(frozen=True)
class KneeFinding:
    """What :func:`find_knee` found. Indices refer to the sequence of points given (not sorted)."""

    kind: KneeKind
    knee: int | None = None  # the last point worth running; None when there is no knee
    detected: int | None = None  # the point past the knee that showed it (or that failed / was client-bound / lost)
    confirmed_by: int | None = None  # the point after ``detected`` that agreed (throughput did not grow again)
    baseline: int | None = None  # the lowest-load point latency inflation is measured against
    gain: float | None = None  # throughput of ``detected`` ÷ throughput of ``knee``
    gain_needed: float | None = None  # the gain below which the curve counts as flat over that span
    inflation: Mapping[str, float | None] = field(default_factory=dict)  # latency of ``detected`` ÷ baseline
    dismissed: tuple[Dismissed, ...] = ()
    highest: int | None = None  # not_reached: the highest-load usable point

    @property
    def confirmed(self) -> bool:
        """A knee the points after it back: a shape knee with a point after it that did not contradict it, or an
        error-rate knee (failures are read at once, not as noise)."""
        if self.knee is None:
            return False
        return self.kind == "error_rate" or self.confirmed_by is not None

    def decided_by(self, n_points: int) -> int | None:
        """The index of the point that will confirm or dismiss this knee: the one after the last of ``n_points``
        when the last point showed a candidate (the next point decides, as :func:`find_knee` reads it); None when
        there is nothing for a next point to decide (no candidate, one already confirmed, or one that a point after
        it could not confirm)."""
        if self.knee is None or self.confirmed or self.detected != n_points - 1:
            return None
        return n_points

    @property
    def worst_inflation(self) -> float | None:
        return max((v for v in self.inflation.values() if v is not None), default=None)


def gain_needed(load_from: float, load_to: float) -> float:
    """The throughput gain from ``load_from`` to ``load_to`` at which a curve still grows: ``KNEE_MIN_GAIN`` per
    doubling (a step smaller than a doubling still needs one doubling's gain)."""
    step = load_to / load_from if load_from > 0 else 2.0
    return float(KNEE_MIN_GAIN ** max(1.0, math.log2(step)))


def _gain(a: CurvePoint, b: CurvePoint) -> float:
    return b.throughput / a.throughput if a.throughput > 0 else math.inf


def _inflation(point: CurvePoint, base: CurvePoint) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, value in point.latency_ms.items():
        ref = base.latency_ms.get(name)
        out[name] = value / ref if value is not None and ref is not None and ref > 0 else None
    return out


def _shape_kind(prev: CurvePoint, cur: CurvePoint, base: CurvePoint) -> KneeKind | None:
    """Does going from ``prev`` to ``cur`` look like a knee (a candidate, before confirmation)?"""
    if cur.queue is not None and cur.queue >= KNEE_SERVER_QUEUE:
        return "server_queue"
    worst = max((v for v in _inflation(cur, base).values() if v is not None), default=None)
    if _gain(prev, cur) < gain_needed(prev.load, cur.load) and worst is not None and worst > KNEE_LATENCY_INFLATION:
        return "throughput_plateau"
    return None


def contradicts(knee: CurvePoint, later: CurvePoint) -> bool:
    """A later point whose throughput grew from the candidate knee's by at least a growing curve's gain: the
    candidate was a dip (noise), not the knee."""
    return _gain(knee, later) >= gain_needed(knee.load, later.load)


def find_knee(points: Sequence[CurvePoint], *, max_error_rate: float = DEFAULT_MAX_ERROR_RATE) -> KneeFinding:
    """The knee of a curve: the last point before throughput stopped growing (less than ``KNEE_MIN_GAIN`` per
    doubling of load) while a tail latency inflated past ``KNEE_LATENCY_INFLATION`` × the baseline, or before the
    server queued (``KNEE_SERVER_QUEUE``) — confirmed by the point after the one that showed it — or the last point
    before requests failed above ``max_error_rate``.

    Order of reading: points by load; the first point failing above the limit ends the shape search (a shape knee
    before it wins, and the failing point confirms a candidate just before it); a client-bound point ends it too (it
    measured the client: it can neither show nor confirm a knee). A candidate with no point after it is reported
    unconfirmed (``confirmed`` False): a ramp goes on to confirm it."""
    order = sorted(range(len(points)), key=lambda i: points[i].load)
    failing = next((i for i in order if points[i].error_rate > max_error_rate), None)
    if failing is None:
        return _shape_search([i for i in order if points[i].requests > 0], points, confirmer=None)
    before = [i for i in order[:order.index(failing)] if points[i].requests > 0]
    shape = _shape_search(before, points, confirmer=failing)
    if shape.knee is not None or shape.kind == "client_bound":
        return shape
    if points[failing].server_lost:  # it stopped or crashed: not a limit of load (a killed server was "a knee")
        return KneeFinding(kind="server_lost", detected=failing, dismissed=shape.dismissed)
    if before:
        return KneeFinding(kind="error_rate", knee=before[-1], detected=failing, baseline=before[0],
                           dismissed=shape.dismissed)
    # nothing succeeded below the failing point: read the shape of what succeeded at all
    return _shape_search([i for i in order if points[i].requests > 0], points, confirmer=None)


def _shape_search(usable: list[int], points: Sequence[CurvePoint], *, confirmer: int | None) -> KneeFinding:
    """The first confirmed candidate over ``usable`` (indices sorted by load, each with successful requests);
    ``confirmer`` (a failing point past them all) confirms a candidate found at the last usable point."""
    if len(usable) < 2:
        return KneeFinding(kind="too_few_points")
    base_i = usable[0]
    base = points[base_i]
    dismissed: list[Dismissed] = []
    for pos in range(1, len(usable)):
        prev_i, cur_i = usable[pos - 1], usable[pos]
        prev, cur = points[prev_i], points[cur_i]
        if cur.client_bound:
            return KneeFinding(kind="client_bound", detected=cur_i, baseline=base_i, dismissed=tuple(dismissed))
        kind = _shape_kind(prev, cur, base)
        if kind is None:
            continue
        found = KneeFinding(kind=kind, knee=prev_i, detected=cur_i, baseline=base_i, gain=_gain(prev, cur),
                            gain_needed=gain_needed(prev.load, cur.load), inflation=_inflation(cur, base),
                            dismissed=tuple(dismissed))
        if pos + 1 < len(usable):
            next_i = usable[pos + 1]
            nxt = points[next_i]
            if contradicts(prev, nxt):
                # a client-bound point may contradict: its throughput is at most what the server could give, so
                # growth it shows is real (the search then ends at it, as client-bound)
                dismissed.append(Dismissed(knee=prev_i, detected=cur_i, contradicted_by=next_i,
                                           gain=_gain(prev, nxt), gain_needed=gain_needed(prev.load, nxt.load)))
                continue
            if nxt.client_bound:  # ... but it cannot confirm (it measured the client): the candidate stands unconfirmed
                return found
            return replace(found, confirmed_by=next_i)
        if confirmer is not None:  # the point after it failed: the server got worse, not better
            return replace(found, confirmed_by=confirmer)
        return found
    return KneeFinding(kind="not_reached", baseline=base_i, highest=usable[-1], dismissed=tuple(dismissed))

