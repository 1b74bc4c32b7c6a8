"""Fault injection for reliability tests of clients (see docs/simulator.md for the interface).

Per request: the header ``X-Sim-Fault`` or the body field ``sim_fault``, a comma-separated list::

    429 | 401 | 404 | 500 | 503        answer with this HTTP status instead of serving
    reset_after=K                     drop the connection after K content chunks (no end of stream)
    stall=S  or  stall=S@K            pause S wall seconds before content chunk K+1 (default K=0)
    malformed_after=K                 after K content chunks send one truncated JSON chunk, then go on
    error_after=K                     after K content chunks send an error event and end the stream
    dialect=vllm|tgi|llamacpp         how that error event is written (default vllm)
    retry_after=S                     Retry-After header on 429/503 (default 1)

As a rate (CLI ``--faults "429:0.05,reset:0.02"``): ``KIND[=VALUE]:PROBABILITY`` items, KIND one of the
statuses, ``reset``, ``stall``, ``malformed``, ``error``, ``error_tgi``, ``error_llamacpp``. VALUE is K for
reset/malformed/error (default: a random point of the answer) and S for stall (default 2). At most one
fault is drawn per request, from a generator seeded by the server's seed (reproducible runs).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, replace

STATUSES = (401, 404, 429, 500, 503)
DIALECTS = ("vllm", "tgi", "llamacpp")
RATE_KINDS = ("reset", "stall", "malformed", "error", "error_tgi", "error_llamacpp") + tuple(str(s) for s in STATUSES)


class FaultSpecError(ValueError):
    """A fault description that cannot be parsed; the message says which part and what is allowed."""


@dataclass(frozen=True)
class Fault:
    """What to do to one request. ``None`` fields are not applied; K counts content chunks."""

    status: int | None = None
    reset_after: int | None = None
    stall_s: float | None = None
    stall_after: int = 0
    malformed_after: int | None = None
    error_after: int | None = None
    dialect: str = "vllm"
    retry_after_s: float = 1.0
    source: str = ""  # "header", "body" or "rate": recorded in the ground truth

    @property
    def any(self) -> bool:
        return any(
            v is not None for v in (self.status, self.reset_after, self.stall_s, self.malformed_after, self.error_after)
        )

    def describe(self) -> str:
        parts = []
        if self.status is not None:
            parts.append(str(self.status))
        if self.reset_after is not None:
            parts.append(f"reset_after={self.reset_after}")
        if self.stall_s is not None:
            parts.append(f"stall={self.stall_s:g}@{self.stall_after}")
        if self.malformed_after is not None:
            parts.append(f"malformed_after={self.malformed_after}")
        if self.error_after is not None:
            parts.append(f"error_after={self.error_after}")
            parts.append(f"dialect={self.dialect}")
        return ",".join(parts)


def _int(name: str, value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise FaultSpecError(f"{name} needs a whole number of chunks, got {value!r}") from None
    if n < 0:
        raise FaultSpecError(f"{name} cannot be negative ({n})")
    return n


def _seconds(name: str, value: str) -> float:
    try:
        s = float(value)
    except ValueError:
        raise FaultSpecError(f"{name} needs seconds, got {value!r}") from None
    if not 0 <= s <= 3600:
        raise FaultSpecError(f"{name} must be between 0 and 3600 seconds ({s})")
    return s


def parse_fault(spec: str, source: str = "header") -> Fault:
    """Parse a per-request fault (``X-Sim-Fault`` header or ``sim_fault`` body field)."""
    fault = Fault(source=source)
    for raw in spec.replace(";", ",").split(","):
        item = raw.strip()
        if not item:
            continue
        key, _, value = item.partition("=")
        key = key.strip().lower()
        value = value.strip()
        if key.isdigit() and not value:
            status = int(key)
            if status not in STATUSES:
                raise FaultSpecError(f"status {status} is not simulated; use one of {', '.join(map(str, STATUSES))}")
            fault = replace(fault, status=status)
        elif key == "status":
            fault = replace(fault, status=_int("status", value))
            if fault.status not in STATUSES:
                raise FaultSpecError(f"status {value} is not simulated; use one of {', '.join(map(str, STATUSES))}")
        elif key in ("reset_after", "reset"):
            fault = replace(fault, reset_after=_int(key, value or "0"))
        elif key == "stall":
            secs, _, after = value.partition("@")
            fault = replace(fault, stall_s=_seconds("stall", secs), stall_after=_int("stall @K", after) if after else 0)
        elif key in ("malformed_after", "malformed"):
            fault = replace(fault, malformed_after=_int(key, value or "0"))
        elif key in ("error_after", "error"):
            fault = replace(fault, error_after=_int(key, value or "0"))
        elif key == "dialect":
            if value not in DIALECTS:
                raise FaultSpecError(f"dialect must be one of {', '.join(DIALECTS)}, got {value!r}")
            fault = replace(fault, dialect=value)
        elif key == "retry_after":
            fault = replace(fault, retry_after_s=_seconds("retry_after", value))
        else:
            raise FaultSpecError(
                f"unknown fault {item!r}; use a status ({', '.join(map(str, STATUSES))}), reset_after=K, stall=S[@K], "
                "malformed_after=K, error_after=K, dialect=vllm|tgi|llamacpp"
            )
    return fault


@dataclass(frozen=True)
class RateItem:
    kind: str
    value: float | None
    probability: float


class FaultRates:
    """Faults drawn at random per request (CLI ``--faults``); thread-safe, reproducible for a seed."""

    def __init__(self, items: list[RateItem], seed: int = 0) -> None:
        total = sum(i.probability for i in items)
        if total > 1.0 + 1e-9:
            raise FaultSpecError(f"fault probabilities add up to {total:g}; at most one fault per request, so ≤ 1")
        self.items = items
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    @classmethod
    def parse(cls, spec: str, seed: int = 0) -> FaultRates:
        items = []
        for raw in spec.split(","):
            item = raw.strip()
            if not item:
                continue
            head, sep, prob = item.rpartition(":")
            if not sep:
                raise FaultSpecError(f"{item!r}: write KIND:PROBABILITY, e.g. 429:0.05 or reset:0.02")
            kind, _, value = head.partition("=")
            kind = kind.strip().lower()
            if kind not in RATE_KINDS:
                raise FaultSpecError(f"unknown fault kind {kind!r}; use one of {', '.join(RATE_KINDS)}")
            try:
                p = float(prob)
            except ValueError:
                raise FaultSpecError(f"{item!r}: probability {prob!r} is not a number") from None
            if not 0 <= p <= 1:
                raise FaultSpecError(f"{item!r}: probability must be between 0 and 1")
            v = None
            if value:
                v = _seconds(kind, value) if kind == "stall" else float(_int(kind, value))
            items.append(RateItem(kind, v, p))
        return cls(items, seed)

    def draw(self, output_tokens: int) -> Fault | None:
        """The fault for the next request (None for most)."""
        with self._lock:
            r = self._rng.random()
            point = self._rng.randint(1, max(1, output_tokens - 1))
        acc = 0.0
        for item in self.items:
            acc += item.probability
            if r < acc:
                return _fault_of(item, point)
        return None


def _fault_of(item: RateItem, point: int) -> Fault:
    k = int(item.value) if item.value is not None else point
    if item.kind.isdigit():
        return Fault(status=int(item.kind), source="rate")
    if item.kind == "reset":
        return Fault(reset_after=k, source="rate")
    if item.kind == "stall":
        return Fault(stall_s=item.value if item.value is not None else 2.0, stall_after=point, source="rate")
    if item.kind == "malformed":
        return Fault(malformed_after=k, source="rate")
    dialect = {"error": "vllm", "error_tgi": "tgi", "error_llamacpp": "llamacpp"}[item.kind]
    return Fault(error_after=k, dialect=dialect, source="rate")
