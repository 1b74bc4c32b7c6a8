"""A real HTTP/1.1 server on 127.0.0.1 that replays recorded SSE transcripts chunk by chunk.

Each transcript is ``tests/fixtures/sse/NAME.sse`` (the body bytes) plus ``NAME.json`` (status, framing, the
original chunk sizes, the pause between chunks, where the bytes came from, and what a parser must conclude).
Every chunk is written with its own ``write`` + drain, so the client sees the original read boundaries; the
server records the monotonic time of each write (ground truth for timing tests).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sse"


@dataclass
class Transcript:
    name: str
    body: bytes
    meta: dict[str, Any]

    @property
    def chunks(self) -> list[bytes]:
        out, pos = [], 0
        for size in self.meta["chunks"]:
            out.append(self.body[pos:pos + size])
            pos += size
        return out

    @classmethod
    def load(cls, name: str) -> Transcript:
        meta = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        return cls(name, (FIXTURES / meta["file"]).read_bytes(), meta)


def all_transcripts() -> list[str]:
    return sorted(p.stem for p in FIXTURES.glob("*.json"))


@dataclass
class Served:
    path: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    send_times: list[float] = field(default_factory=list)


class ReplayServer:
    """``with ReplayServer(default="vllm_chat_continuous_usage") as srv: srv.url`` — serves transcripts.

    ``routes`` maps a request path to a transcript name (or a callable taking the request body and returning
    one); any other POST gets ``default``. GET ``/v1/models`` answers with ``owned_by``; extra GET routes map a
    path to (status, content type, body).
    """

    def __init__(self, default: str | None = None, routes: dict[str, Any] | None = None,
                 gets: dict[str, tuple[int, str, bytes]] | None = None, owned_by: str = "replay",
                 interval_ms: float | None = None, max_active: int | None = None,
                 posts: dict[str, Any] | None = None, drop_reused: bool = False) -> None:
        """``max_active`` emulates a server with a fixed batch capacity: streams beyond it wait their turn
        (TTFT grows, throughput stops growing — a real knee). ``posts`` maps a path to a callable taking the
        JSON body and returning (status, JSON-serialisable answer), e.g. a ``/tokenize`` endpoint."""
        self.default = default
        self.routes = routes or {}
        self.gets = gets or {}
        self.posts = posts or {}
        self.max_active = max_active
        self.drop_reused = drop_reused  # close a kept-alive connection when its 2nd request arrives (idle race)
        self._slots: asyncio.Semaphore | None = None
        self.owned_by = owned_by
        self.interval_ms = interval_ms
        self.served: list[Served] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ReplayServer:
        self._thread = threading.Thread(target=self._run, name="replay-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("replay server did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        if self.max_active:
            self._slots = asyncio.Semaphore(self.max_active)
        self._server = loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0, backlog=1024))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            self._server.close()
            tasks = asyncio.all_tasks(loop)
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served_here = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                served_here += 1
                if self.drop_reused and served_here > 1:
                    break
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                length = 0
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name:
                        headers[name.strip().lower()] = value.strip()
                    if line.lower().startswith("content-length:"):
                        length = int(line.split(":", 1)[1])
                self._headers = headers
                body = await reader.readexactly(length) if length else b""
                if method == "GET":
                    keep = await self._get(path, writer)
                else:
                    keep = await self._post(path, body, writer)
                if not keep:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:  # server shutting down mid-stream: end quietly
            pass
        finally:
            writer.close()

    async def _get(self, path: str, writer: asyncio.StreamWriter) -> bool:
        if path in self.gets:
            status, ctype, data = self.gets[path]
        elif path == "/v1/models":
            status, ctype = 200, "application/json"
            data = json.dumps({"object": "list", "data": [{"id": "m", "object": "model", "owned_by": self.owned_by}]}).encode()
        else:
            status, ctype, data = 404, "application/json", b'{"detail":"Not Found"}'
        writer.write(f"HTTP/1.1 {status} X\r\ncontent-type: {ctype}\r\ncontent-length: {len(data)}\r\n\r\n".encode() + data)
        await writer.drain()
        return True

    async def _post(self, path: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        if path in self.posts:
            status, answer = self.posts[path](json.loads(body or b"{}"))
            data = json.dumps(answer).encode()
            writer.write(f"HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n".encode() + data)
            await writer.drain()
            return True
        if self._slots is not None:
            async with self._slots:
                return await self._stream(path, body, writer)
        return await self._stream(path, body, writer)

    async def _stream(self, path: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        name = self.routes.get(path, self.default if path.endswith("completions") else None)
        if callable(name):
            name = name(body)
        if name is None:
            writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")
            await writer.drain()
            return True
        tr = Transcript.load(name)
        meta = tr.meta
        served = Served(path, body, dict(getattr(self, "_headers", {})))
        self.served.append(served)
        framing = meta.get("framing", "chunked")
        interval = (self.interval_ms if self.interval_ms is not None else meta.get("chunk_interval_ms", 2)) / 1e3
        status = meta.get("status", 200)
        head = f"HTTP/1.1 {status} X\r\ncontent-type: {meta.get('content_type', 'text/event-stream')}\r\n"
        if framing == "length":
            head += f"content-length: {len(tr.body)}\r\n\r\n"
            served.send_times.append(time.monotonic())  # taken before the write: a lower bound for arrival
            writer.write(head.encode() + tr.body)
            await writer.drain()
            return True
        if framing == "chunked":
            head += "transfer-encoding: chunked\r\n\r\n"
        else:
            head += "connection: close\r\n\r\n"
        writer.write(head.encode())
        await writer.drain()
        for chunk in tr.chunks:
            await asyncio.sleep(interval)
            served.send_times.append(time.monotonic())
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if framing == "chunked" else chunk)
            await writer.drain()
        if meta.get("abort") == "close":  # a reset
            await asyncio.sleep(interval)
            writer.transport.abort()
            return False
        if meta.get("abort") == "eof":  # a close (FIN) before the body's end: what a killed server's kernel sends
            await asyncio.sleep(interval)
            writer.close()
            return False
        if framing == "chunked":
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return True
        return False
