"""A fake transport for the benchmark runner on a virtual clock: each request is answered with a chunked HTTP
response of OpenAI chat SSE events at scripted virtual times, fed through the real response parser
(``advisor.bench.client._Response`` and its SSE parser) with those times as arrival stamps. No sockets, no sleeps.

``Answer`` says how one request is answered; ``FakeServer(clock, answer)`` counts what a server would see (requests
in flight, the most at once, each request's start) and makes the clients (``client_factory=server.client``).
``FakeServer(..., dies_at=t)`` is a server that dies at virtual time ``t``: streams still open then are cut
(``connection_lost``, as the raw transport says it), and every later request is refused (``connect_error``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.bench.client import RequestFailed, _Exchange, _Response, token_limit
from tests.support.virtual_clock import VirtualClock

REFUSE_S = 1e-4  # how long a refused connection takes to say so (virtual seconds)
# asyncio runs a timer up to its clock resolution early (1 ns): a request sent on a timer due at the death is sent
# at the death, and refused, even when float noise puts it a few picoseconds before
AT_ONCE_S = 1e-9


class _ServerDied(Exception):
    """The fake server died while a stream was open."""


HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


@dataclass(frozen=True)
class Answer:
    head_s: float = 0.010  # response headers, after the request's start
    ttft_s: float = 0.050  # first token, after the request's start
    itl_s: float = 0.020  # between tokens
    tokens: int = 8
    prompt_tokens: int = 32
    error_after: int | None = None  # an error event after this many tokens (then [DONE], as vLLM sends it)
    # raw SSE events (b"data: …\n\n", [DONE] included) sent instead of the generated ones: event k at
    # ttft_s + k · itl_s, then the body ends (a hostile server's byte-for-byte stream; tokens is then unused)
    events: tuple[bytes, ...] | None = None


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _event(obj: Any) -> bytes:
    return _chunk(b"data: " + json.dumps(obj).encode() + b"\n\n")


def _delta(content: str, finish: str | None = None) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": content},
                                                             "finish_reason": finish}]}


@dataclass
class FakeServer:
    clock: VirtualClock
    answer: Answer | Callable[[int], Answer] = field(default_factory=Answer)
    in_flight: int = 0
    most_in_flight: int = 0
    starts: list[float] = field(default_factory=list)  # each request's start (virtual seconds), in order
    dies_at: float | None = None  # the virtual time the server dies at (None: never)
    refused: list[float] = field(default_factory=list)  # each refused connection's time, once the server is dead
    cut: int = 0  # streams open when the server died

    def client(self, config: Any, api_key: str | None, max_connections: int) -> FakeClient:
        return FakeClient(self)

    def answer_for(self, n: int) -> Answer:
        return self.answer(n) if callable(self.answer) else self.answer


class FakeClient:
    def __init__(self, server: FakeServer) -> None:
        self.server = server

    async def send(self, body: dict[str, Any] | bytes, *, t_intended: float | None = None,
                   headers: dict[str, str] | None = None, max_tokens: int | None = None) -> _Exchange:
        srv, clock = self.server, self.server.clock
        t0 = clock.now()
        if srv.dies_at is not None and t0 >= srv.dies_at - AT_ONCE_S:
            # a refused connection takes a little time (a loopback RST): a runner that never backed off would still
            # move the virtual time on, and fail a bound on how many errors it sent instead of spinning forever
            await asyncio.sleep(REFUSE_S)
            srv.refused.append(t0)
            return _Exchange(t_intended=t_intended if t_intended is not None else t0, t_start=t0, t_end=clock.now(),
                             failure=RequestFailed("connect_error", "ConnectionRefusedError",
                                                   "[Errno 111] Connection refused"))
        answer = srv.answer_for(len(srv.starts))
        srv.starts.append(t0)
        srv.in_flight += 1
        srv.most_in_flight = max(srv.most_in_flight, srv.in_flight)
        ex = _Exchange(t_intended=t_intended if t_intended is not None else t0, t_start=t0, t_send=t0)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        response = _Response(ex, done, token_limit(max_tokens))

        async def at(offset: float, data: bytes) -> None:
            t = t0 + offset
            if srv.dies_at is not None and t > srv.dies_at:  # the server dies before these bytes: the stream is cut
                await asyncio.sleep(max(0.0, srv.dies_at - clock.now()))
                srv.cut += 1
                response.on_lost(None, srv.dies_at)
                raise _ServerDied
            await asyncio.sleep(max(0.0, t - clock.now()))
            response.on_data(data, t)  # stamped with the scripted time: the arrival of these bytes

        try:
            await at(answer.head_s, HEAD)
            if answer.events is not None:
                for k, event in enumerate(answer.events):
                    await at(answer.ttft_s + k * answer.itl_s, _chunk(event))
                await at(answer.ttft_s + max(0, len(answer.events) - 1) * answer.itl_s, b"0\r\n\r\n")
                return ex
            for k in range(answer.tokens):
                if answer.error_after is not None and k == answer.error_after:
                    break
                await at(answer.ttft_s + k * answer.itl_s, _event(_delta(f" w{k}")))
            end = answer.ttft_s + answer.tokens * answer.itl_s
            if answer.error_after is not None:
                end = answer.ttft_s + answer.error_after * answer.itl_s
                await at(end, _event({"error": {"message": "boom", "type": "server_error", "code": 500}}))
            else:
                await at(end, _event(_delta("", "length")))
                await at(end, _event({"choices": [], "usage": {"prompt_tokens": answer.prompt_tokens,
                                                              "completion_tokens": answer.tokens}}))
            await at(end, _chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        except _ServerDied:
            pass
        except asyncio.CancelledError:  # the run was stopped: what was measured is returned, as the real transports do
            ex.cancelled = True
        finally:
            srv.in_flight -= 1
            if ex.t_end is None:
                ex.t_end = clock.now()
            ex.result = response.parser.finish(ex.t_end)
            ex.body_prefix = bytes(response.prefix)
        return ex

    async def aclose(self) -> None:
        return None
