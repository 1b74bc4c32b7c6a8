"""The live "Output tokens/s" plot reads the runner's cumulative token count, so long answers count while they stream.

A real loopback server streams 25 tokens/s per request with 2,000-token answers; 8 streams make 200 tokens/s. No
request finishes during the test (2,000 tokens take 80 s): a plot fed by finished requests reads about 0, the
runner's count reads what the server sent over the plot's window.

The plotted rate is compared with what the server sent over the same window, on the same clock (both read
``time.monotonic``): a bound on the rate the server was asked for (160–230) failed at 7× oversubscription (147),
because a server pacing each token 40 ms after the previous one falls behind when its thread waits for a core.
The server now paces on an absolute schedule (it catches up after a stall), and stamps each token as it sends it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time

from advisor.bench.runner import CancelToken, EventQueue, Runner
from advisor.domain.bench import BenchConfig
from ui.bench_session import BenchSession

TOKENS_PER_S = 25.0


class _SlowSse:
    """An OpenAI-style chat stream: token k of a request at its start + k × 40 ms, up to the request's max_tokens.
    ``sent``: each token's time (``time.monotonic``), taken before it is written, so no client can count a token
    before its stamp."""

    def __init__(self) -> None:
        self.sent: list[float] = []
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _SlowSse:
        self._thread.start()
        assert self._ready.wait(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        async def close_streams() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close_streams(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self.loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                body = json.loads(await reader.readexactly(length)) if length else {}
                n = int(body.get("max_tokens") or 16)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                start = time.monotonic()
                for k in range(n):
                    await asyncio.sleep(max(0.0, start + (k + 1) / TOKENS_PER_S - time.monotonic()))
                    self.sent.append(time.monotonic())
                    data = json.dumps({"choices": [{"index": 0, "delta": {"content": " a"}}]})
                    event = f"data: {data}\n\n".encode()
                    writer.write(b"%x\r\n%s\r\n" % (len(event), event))
                    await writer.drain()
                end = b"data: [DONE]\n\n"
                writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(end), end))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


class _Tasks:
    def submit(self, *_a, **_k):  # never used: the test drives the session's drain itself
        raise AssertionError


def test_the_live_throughput_of_long_answers_is_the_streams_rate(qtbot):
    with _SlowSse() as server:
        cfg = BenchConfig.model_validate({
            "endpoint": {"url": server.url, "model": "m", "read_timeout_s": 30, "timeout_s": 120},
            "workload": {"prompt_tokens": {"mean": 16}, "output_tokens": {"mean": 2000},
                         "ignore_eos": True},
            "schedule": {"kind": "fixed", "concurrency": [8], "requests": 8, "warmup_requests": 0},
        })
        events, cancel = EventQueue(), CancelToken()
        runner = Runner(cfg, on_event=events, cancel=cancel)
        thread = threading.Thread(target=runner.run, daemon=True)
        session = BenchSession(_Tasks())
        session.config = cfg
        thread.start()
        try:
            end = time.monotonic() + 7.0
            while time.monotonic() < end:  # the page's drain timer, at 10 Hz
                time.sleep(0.1)
                session._apply(events.drain())
        finally:
            cancel.cancel()
            thread.join(30)
    readings = [y for _x, y in zip(*session.buffers.tok_s.xy(), strict=True)]
    assert readings, "no throughput was plotted"
    assert session.buffers.ok == 0  # no answer finished: the figure cannot come from finished requests
    # the plotted rate is the count's growth between the window's first and last progress samples: the server
    # sent its tokens over the same span. A client counts a token after the server stamps it, up to its event
    # loop's lag later: the two spans' lags differ by far less than the ±15 % (0.75 s of the 5 s window) allowed.
    (t0, _c0), (t1, _c1) = session.buffers.token_rate._samples[0], session.buffers.token_rate._samples[-1]
    assert t1 - t0 >= 4.0, (t0, t1)  # the 5 s window, full (the test ran 7 s)
    sent = sum(1 for t in server.sent if t0 < t <= t1) / (t1 - t0)
    assert sent >= 8 * TOKENS_PER_S * 0.5, sent  # the server streamed (at half its pace at worst): a rate to compare
    assert 0.85 * sent <= readings[-1] <= 1.15 * sent, (readings[-10:], sent)
