"""A hostile (or merely broken) HTTP server on 127.0.0.1, standard library only, for the robustness tests.

``HostileServer(behaviour)``: every POST gets ``behaviour(path, body) -> Reply``; GET ``/v1/models`` answers with
``models`` (or ``models_reply`` verbatim). A :class:`Reply` is a status line + headers + a list of body pieces
written one by one (``pause_s`` between them), optionally ``forever`` (repeat the last piece until the client
goes away) or ``close_after`` (drop the connection after that many pieces), with extra ``headers`` (e.g.
``Content-Encoding: gzip``). ``early=Reply`` answers every new connection before its request is read (and
``early_hold_s`` leaves the request unread that long); ``tls=ssl.SSLContext`` serves the same over HTTPS.
Nothing here is clever: the point is to send what real broken servers send, byte for byte.
"""

from __future__ import annotations

import json
import socket
import socketserver
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    pieces: list[bytes] = field(default_factory=list)
    status: int = 200
    content_type: str = "text/event-stream"
    chunked: bool = True
    pause_s: float = 0.0
    forever: bool = False
    close_after: int | None = None
    head: bytes | None = None  # a raw head instead of the generated one
    headers: tuple[str, ...] = ()  # extra header lines, e.g. "Content-Encoding: gzip"


def sse(*objs: Any, done: bool = True) -> list[bytes]:
    """SSE events from JSON-able objects or raw strings (sent as they are after ``data: ``)."""
    out = [b"data: " + (o.encode() if isinstance(o, str) else json.dumps(o).encode()) + b"\n\n" for o in objs]
    if done:
        out.append(b"data: [DONE]\n\n")
    return out


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, usage: Any = None,
          **extra: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": "x", "object": "chat.completion.chunk",
                           "choices": [{"index": 0, "delta": delta if delta is not None else {"content": "hi"},
                                        "finish_reason": finish}]}
    if usage is not None:
        obj["usage"] = usage
    obj.update(extra)
    return obj


def trickle_head(pause_s: float = 0.5) -> Reply:
    """A response head sent a byte at a time, forever: no per-read timeout ever fires."""
    return Reply([b"HTTP/1.1 200 OK\r\n", b"X"], head=b"", chunked=False, pause_s=pause_s, forever=True)


def flood(total_mb: int = 200, content_type: str = "text/plain") -> Reply:
    """A body of ``total_mb`` MiB (no Content-Length: it ends when the connection closes)."""
    piece = b"# HELP x y\n" * 6000  # ~66 kB
    return Reply([piece] * (total_mb * 2**20 // len(piece)), content_type=content_type, chunked=False,
                 close_after=total_mb * 2**20 // len(piece))


def good(tokens: int = 4) -> Reply:
    return Reply(sse(*[chunk({"content": f"t{i} "}) for i in range(tokens - 1)],
                     chunk({"content": "end"}, finish="stop"),
                     {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": tokens}}))


class HostileServer:
    def __init__(self, behaviour: Callable[[str, dict[str, Any]], Reply] | None = None, *,
                 models: list[str] | None = None, models_reply: Reply | None = None,
                 routes: dict[str, Reply] | None = None, host: str = "127.0.0.1",
                 early: Reply | None = None, early_hold_s: float = 0.0, tls: Any = None) -> None:
        self.host = host
        self.tls = tls  # an ssl.SSLContext (server side): the same server over HTTPS
        # sent on every new connection before its request is read: an answer to a question not yet asked;
        # then the request is left unread for early_hold_s (a large request cannot be fully sent meanwhile)
        self.early = early
        self.early_hold_s = early_hold_s
        self.behaviour = behaviour or (lambda path, body: good())
        self.routes = routes or {}  # GET path -> reply (e.g. a trickling or flooding /metrics)
        self.models = models if models is not None else ["m"]
        self.models_reply = models_reply
        self.requests: list[tuple[str, str, bytes]] = []
        self.heads: list[str] = []
        self.connections = 0  # TCP connections accepted  # each request's head as received (request line and headers)
        self._server: socketserver.ThreadingTCPServer | None = None
        self._lock = threading.Lock()
        self._socks: set[socket.socket] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://[{self.host}]:{self.port}" if ":" in self.host else f"{scheme}://{self.host}:{self.port}"

    def posts(self, path: str = "/v1/chat/completions") -> int:
        with self._lock:
            return sum(1 for m, p, _ in self.requests if m == "POST" and p == path)

    def __enter__(self) -> HostileServer:
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                outer._serve(self.request)

        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET

        class Server(socketserver.ThreadingTCPServer):
            address_family = family
            allow_reuse_address = True

        self._server = Server((self.host, 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._lock:  # the server "dies": its open keep-alive connections go too
            for sock in list(self._socks):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    # ---- one connection: keep-alive requests until the client closes ----
    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(30)
        if self.tls is not None:
            try:
                sock = self.tls.wrap_socket(sock, server_side=True)
            except (OSError, ValueError):  # the client refused our certificate: that is the test
                with self._lock:
                    self.connections += 1
                sock.close()
                return
        with self._lock:
            self.connections += 1
            if self._server is None:
                sock.close()
                return
            self._socks.add(sock)
        buf = b""
        answered = 0  # requests already answered by the early reply
        try:
            if self.early is not None:
                if not self._send(sock, self.early):
                    return
                answered = 1
                time.sleep(self.early_hold_s)
            while True:
                while b"\r\n\r\n" not in buf:
                    data = sock.recv(65536)
                    if not data:
                        return
                    buf += data
                    if buf[:1] == b"\x16":  # a TLS ClientHello on this plain port: answer as uvicorn/h11 do
                        sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                        return
                head, _, buf = buf.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                while len(buf) < length:
                    data = sock.recv(65536)
                    if not data:
                        return
                    buf += data
                body, buf = buf[:length], buf[length:]
                with self._lock:
                    self.requests.append((method, path, body))
                    self.heads.append(head.decode("latin-1"))
                if answered:
                    answered -= 1
                    continue
                if method == "GET":
                    reply = self._get(path)
                else:
                    try:
                        parsed = json.loads(body) if body else {}
                    except ValueError:
                        parsed = {}
                    reply = self.behaviour(path, parsed)
                if not self._send(sock, reply):
                    return
        except (OSError, ValueError):
            return
        finally:
            with self._lock:
                self._socks.discard(sock)
            try:
                sock.close()
            except OSError:
                pass

    def _get(self, path: str) -> Reply:
        if path in self.routes:
            return self.routes[path]
        if path.rstrip("/").endswith("/models"):
            if self.models_reply is not None:
                return self.models_reply
            data = {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "hostile"} for m in self.models]}
            return Reply([json.dumps(data).encode()], content_type="application/json", chunked=False)
        return Reply([b"not found"], status=404, content_type="text/plain", chunked=False)

    def _send(self, sock: socket.socket, r: Reply) -> bool:
        if r.head is not None:
            sock.sendall(r.head)
        else:
            head = [f"HTTP/1.1 {r.status} X", f"Content-Type: {r.content_type}", *r.headers]
            if r.chunked:
                head.append("Transfer-Encoding: chunked")
            elif not r.forever and r.close_after is None:
                head.append(f"Content-Length: {sum(len(p) for p in r.pieces)}")
            else:
                head.append("Connection: close")
            sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        pieces = list(r.pieces)
        i = 0
        while pieces:
            piece = pieces[min(i, len(pieces) - 1)]
            if i >= len(pieces) and not r.forever:
                break
            if r.close_after is not None and i >= r.close_after:
                return False
            data = (f"{len(piece):x}\r\n".encode() + piece + b"\r\n") if r.chunked else piece
            sock.sendall(data)
            i += 1
            if r.pause_s:
                time.sleep(r.pause_s)
        if r.head is not None or r.forever:
            return False
        if r.chunked:
            sock.sendall(b"0\r\n\r\n")
        elif "Content-Length" not in (r.head or b"").decode() and (r.close_after is not None):
            return False
        return True
