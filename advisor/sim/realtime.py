"""The engine driven in real time: each step ends at an absolute wall-clock deadline.

Virtual time v maps to wall time ``anchor + v × time_scale`` (monotonic clock). The loop plans a step,
sleeps until that step's end on the wall clock, then commits it, which hands the step's tokens to the
waiting request handlers. Deadlines are absolute, so a late wake-up does not push later steps back
(no drift from accumulated sleeps); if the loop falls more than ``RESYNC_S`` behind (the CPU was busy
elsewhere), it re-anchors instead of bursting out a backlog, and counts a resync.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from advisor.sim.engine import Engine, EngineLimits, Seq, StepCosts

RESYNC_S = 0.25
# asyncio's timers wake up to ~1 ms late (epoll timeouts are whole milliseconds); the last stretch before
# a deadline is spent yielding to the loop instead, which keeps token times within a few tenths of a ms.
SPIN_S = 0.001


class RealtimeEngine:
    """Owns an :class:`Engine`; every method runs on the server's event loop thread."""

    def __init__(self, costs: StepCosts, limits: EngineLimits, time_scale: float = 1.0) -> None:
        if not time_scale > 0:
            raise ValueError("time scale must be positive (1 = real speed, 0.1 = ten times faster)")
        self.engine = Engine(costs, limits, record_steps=False)
        self.engine.on_token = self._on_token
        self.engine.on_finish = self._on_finish
        self.scale = time_scale
        self.anchor = time.monotonic()
        self._wake: asyncio.Event | None = None
        self.started_at = self.anchor
        # timing quality and utilisation, read by /metrics and /debug/stats
        self.slips: deque[float] = deque(maxlen=20_000)  # seconds each step ended after its deadline
        self.busy: deque[tuple[float, float]] = deque(maxlen=20_000)  # wall (start, end) of steps
        self.busy_total_s = 0.0
        self.resyncs = 0
        self.last_step_parts: tuple[int, int, int] = (0, 0, 0)

    # virtual ↔ wall
    def vnow(self) -> float:
        return (time.monotonic() - self.anchor) / self.scale

    def wall(self, v: float) -> float:
        return self.anchor + v * self.scale

    def submit(self, prompt: int, output: int, tag: Any) -> Seq:
        """A request arrives now."""
        eng = self.engine
        v = self.vnow()
        if not eng.has_work:
            eng.t = max(eng.t, v)  # the GPU sat idle until now
        # Mid-step (eng.t is the step's start) the request is admitted when the next step is planned.
        seq = eng.add_request(prompt, output, arrival=v, tag=tag)
        if self._wake is not None:
            self._wake.set()
        return seq

    def abort(self, seq: Seq) -> None:
        self.engine.abort(seq)

    @staticmethod
    def _on_token(seq: Seq, tokens: int, t: float) -> None:
        seq.tag.on_tokens(tokens, t)

    @staticmethod
    def _on_finish(seq: Seq) -> None:
        seq.tag.on_finish(seq)

    async def _sleep_until(self, deadline: float) -> None:
        delay = deadline - time.monotonic() - SPIN_S
        if delay > 0:
            await asyncio.sleep(delay)
        while time.monotonic() < deadline:
            await asyncio.sleep(0)

    async def run(self) -> None:
        self._wake = asyncio.Event()
        eng = self.engine
        while True:
            if not eng.has_work:
                self._wake.clear()
                await self._wake.wait()
                continue
            if not eng.running:
                eng.t = max(eng.t, self.vnow())
            planned = eng.plan_step()
            if planned is None:
                nxt = eng.next_arrival
                if nxt is None:
                    await asyncio.sleep(0)
                    continue
                await self._sleep_until(self.wall(nxt))
                eng.t = max(eng.t, nxt)
                continue
            dt, chunks = planned
            start_wall = self.wall(eng.t)
            deadline = self.wall(eng.t + dt)
            await self._sleep_until(deadline)
            late = time.monotonic() - deadline
            self.slips.append(late)
            self.busy.append((start_wall, deadline))
            self.busy_total_s += deadline - start_wall
            self.last_step_parts = eng.last_step
            eng.commit_step(dt, chunks)
            if late > RESYNC_S:
                self.anchor += late
                self.resyncs += 1

    def utilisation(self, window_s: float = 1.0) -> float:
        """Share (0–1) of the last ``window_s`` wall seconds the simulated GPU was busy."""
        now = time.monotonic()
        lo = now - window_s
        busy = 0.0
        for start, end in reversed(self.busy):
            if end <= lo:
                break
            busy += min(end, now) - max(start, lo)
        return max(0.0, min(1.0, busy / window_s))

    def slip_stats(self) -> dict[str, float]:
        if not self.slips:
            return {"steps": 0, "mean_ms": 0.0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
        vals = sorted(self.slips)
        n = len(vals)
        return {
            "steps": n,
            "mean_ms": sum(vals) / n * 1000,
            "p50_ms": vals[n // 2] * 1000,
            "p99_ms": vals[min(n - 1, int(n * 0.99))] * 1000,
            "max_ms": vals[-1] * 1000,
        }
