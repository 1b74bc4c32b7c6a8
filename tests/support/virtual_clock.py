"""A virtual clock for the benchmark runner: an asyncio loop whose time moves on at once to the next timer whenever
every task waits, so a run of minutes takes milliseconds, the same every time, with every timestamp exact.

The loop is an ordinary selector loop (its self-pipe and callbacks work as usual) whose ``time()`` is virtual; its
selector polls the real descriptors without blocking and, when nothing is ready, advances the virtual time by the
loop's timeout instead of sleeping. A wait that no timer ends (a deadlock) raises instead of hanging the test.
Pass ``clock.run_clock()`` to :class:`advisor.bench.runner.Runner` (``clock=``)."""

from __future__ import annotations

import asyncio
import selectors
from typing import Any

from advisor.bench.runner import RunClock


class VirtualClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.loops = 0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

    def new_loop(self) -> asyncio.AbstractEventLoop:
        self.loops += 1
        return _VirtualLoop(self)

    def run_clock(self) -> RunClock:
        # the runner's CPU share is meaningless in virtual time: it reads none
        return RunClock(now=self.now, cpu=lambda: 0.0, loop_factory=self.new_loop)


class _AdvancingSelector(selectors.SelectSelector):
    def __init__(self, clock: VirtualClock) -> None:
        super().__init__()
        self._clock = clock

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise RuntimeError("virtual clock: every task waits and no timer is set (a deadlock)")
        self._clock.advance(timeout)
        return []


class _VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, clock: VirtualClock) -> None:
        self._virtual = clock
        super().__init__(selector=_AdvancingSelector(clock))

    def time(self) -> float:
        return self._virtual.t

    def run_in_executor(self, executor: Any, func: Any, *args: Any) -> Any:
        # a thread would run in real time, and the loop would not wait for it: nothing in a virtual run may use one
        raise RuntimeError("virtual clock: no threads in a virtual-time run")
