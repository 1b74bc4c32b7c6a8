"""The simulated server's ASGI app on a virtual clock (tests/support/virtual_clock.py): no socket, no sleep, every
time exact. Its engine loop, request handlers and fault injection run unchanged on a loop whose time jumps to the
next timer whenever every task waits; the sim's own clock (``time.monotonic`` in advisor.sim) reads the same virtual
time. What a test then sees is each ``send`` of the response with the virtual time it was handed to the transport:
what the server did, free of how loaded the machine running the test is.

``with virtual_sim(config, monkeypatch) as sim: sim.post("/v1/completions", body, headers)``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from advisor.sim import realtime, responses, server
from advisor.sim.server import SimApp, SimServerConfig
from tests.support.virtual_clock import VirtualClock


@dataclass(frozen=True)
class Sent:
    t: float  # virtual seconds: when the app handed these bytes to the transport
    body: bytes

    def data_lines(self) -> list[str]:
        return [ln for ln in self.body.decode().split("\n") if ln.startswith("data: ")]


class VirtualSim:
    def __init__(self, config: SimServerConfig, clock: VirtualClock) -> None:
        self.clock = clock
        self.sim = SimApp(config)

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, list[Sent]]:
        """One request, served to its end; returns its status and every body ``send`` with its virtual time."""
        loop = self.clock.new_loop()
        try:
            return loop.run_until_complete(self._serve(path, body, headers or {}))
        finally:
            loop.close()

    async def _serve(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, list[Sent]]:
        raw = json.dumps(body).encode()
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
                        *((k.lower().encode(), v.encode()) for k, v in headers.items())],
            "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
        }  # fmt: skip
        delivered = False
        never: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await never  # the client stays connected (the response cancels its watcher when done)

        status = 0
        sent: list[Sent] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message.get("body"):
                sent.append(Sent(self.clock.now(), message["body"]))

        async with self.sim._lifespan(self.sim.app):  # the engine loop, as the server's startup runs it
            await self.sim.app(scope, receive, send)
        return status, sent


def _virtual_time_module(clock: VirtualClock) -> types.ModuleType:
    """``time`` as the sim sees it: monotonic() is the virtual clock; everything else (time(), …) is the real one."""
    module = types.ModuleType("time")
    module.__dict__.update({k: v for k, v in vars(time).items() if not k.startswith("__")})
    module.monotonic = clock.now  # type: ignore[attr-defined]
    return module


@contextlib.contextmanager
def virtual_sim(config: SimServerConfig, monkeypatch: pytest.MonkeyPatch) -> Iterator[VirtualSim]:
    clock = VirtualClock()
    fake_time = _virtual_time_module(clock)
    for module in (realtime, responses, server):
        monkeypatch.setattr(module, "time", fake_time)
    # the engine spins through its last millisecond to wake on time; virtual time jumps to the deadline exactly
    monkeypatch.setattr(realtime, "SPIN_S", 0.0)
    yield VirtualSim(config, clock)
