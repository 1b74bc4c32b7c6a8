"""Small HTTP requests with hard bounds: one wall-clock limit on the whole exchange and a size limit on the body.

A per-read timeout (httpx's, the standard library's) is no bound: a server that trickles its response head or
body one byte a second never trips it. Here the limit covers connect + head + body together: a watchdog shuts
the socket down at the deadline (``shutdown`` wakes a thread blocked in ``recv``; ``close`` does not), and the
call raises :class:`BoundExceeded`. The body is read up to ``max_bytes`` and refused beyond it, so a 200 MB
``/metrics`` page costs at most ``max_bytes`` of memory.

Used for the side requests of a benchmark (the probe's model list, /metrics, tokenizer lookups) and the
Prometheus scraper. No proxy is used, as for the benchmark's own load (the raw transport connects directly):
all traffic of a run takes the same path. Redirects are followed only to the same scheme, host and port (a
key is never sent to another host), at most three.
"""

from __future__ import annotations

import http.client
import json as _json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from advisor.tls import client_context

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
_MAX_REDIRECTS = 3


class BoundExceeded(OSError):
    """The request ran past its wall-clock limit (``kind == "timeout"``) or its size limit (``"too_large"``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class BoundedResponse:
    status: int
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    content: bytes = b""
    url: str = ""

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return _json.loads(self.content)


class Session:
    """Keep-alive connections reused for requests in turn (one connection per thread), so a thousand tokenizer
    lookups cost one TCP (and TLS) handshake per thread, not one each. Same bounds as :func:`request`."""

    def __init__(self) -> None:
        self._local = threading.local()
        self._all: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    def request(self, method: str, url: str, **kwargs: Any) -> BoundedResponse:
        return request(method, url, session=self, **kwargs)

    def _take(self, key: tuple[Any, ...]) -> http.client.HTTPConnection | None:
        held = getattr(self._local, "conn", None)
        if held is not None and held[0] == key:
            self._local.conn = None
            conn: http.client.HTTPConnection = held[1]
            return conn
        return None

    def _give(self, key: tuple[Any, ...], conn: http.client.HTTPConnection) -> None:
        old = getattr(self._local, "conn", None)
        if old is not None and old[1] is not conn:
            old[1].close()
        self._local.conn = (key, conn)
        with self._lock:
            if conn not in self._all:
                self._all.append(conn)

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()


def request(method: str, url: str, *, headers: dict[str, str] | None = None, json: Any = None,
            total_s: float = 10.0, max_bytes: int = DEFAULT_MAX_BYTES, session: Session | None = None) -> BoundedResponse:
    """One request, bounded as the module says. Raises :class:`BoundExceeded` or another ``OSError``
    (refused, reset, TLS) or ``http.client.HTTPException`` (not HTTP)."""
    deadline = time.monotonic() + max(0.05, total_s)
    body = None if json is None else _json.dumps(json).encode()
    origin = urlsplit(url)
    for _ in range(_MAX_REDIRECTS + 1):
        resp = _once(method, url, headers or {}, body, deadline, max_bytes, total_s, session)
        location = resp.headers.get("location")
        if resp.status not in (301, 302, 303, 307, 308) or not location:
            return resp
        nxt = urljoin(url, location)
        parts = urlsplit(nxt)
        if (parts.scheme, parts.hostname, parts.port) != (origin.scheme, origin.hostname, origin.port):
            return resp  # reported as the redirect it is, never followed to another host with the key
        url = nxt
        if resp.status == 303:
            method, body = "GET", None
    return resp


def _once(method: str, url: str, headers: dict[str, str], body: bytes | None, deadline: float, max_bytes: int,
          total_s: float, session: Session | None = None) -> BoundedResponse:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    left = deadline - time.monotonic()
    if left <= 0:
        raise BoundExceeded("timeout", f"no answer within {total_s:g} s")
    key = (parts.scheme, parts.hostname, parts.port)
    reused = session._take(key) if session is not None else None
    if reused is not None:
        try:
            return _exchange(reused, method, parts, headers, body, deadline, max_bytes, total_s, session, key)
        except BoundExceeded:
            raise
        except (OSError, http.client.HTTPException):
            pass  # the server closed the idle connection: once more on a new one
        left = deadline - time.monotonic()
        if left <= 0:
            raise BoundExceeded("timeout", f"no answer within {total_s:g} s")
    if parts.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=left, context=client_context())  # system store + --ca-bundle
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=left)
    return _exchange(conn, method, parts, headers, body, deadline, max_bytes, total_s, session, key)


def _exchange(conn: http.client.HTTPConnection, method: str, parts: Any, headers: dict[str, str], body: bytes | None,
              deadline: float, max_bytes: int, total_s: float, session: Session | None,
              key: tuple[Any, ...]) -> BoundedResponse:
    left = max(0.01, deadline - time.monotonic())
    conn.timeout = left
    if conn.sock is not None:
        conn.sock.settimeout(left)
    fired = threading.Event()
    keep = False

    def expire() -> None:
        fired.set()
        sock = conn.sock
        if sock is not None:
            try:
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(left, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        send = {"Accept-Encoding": "identity", **headers}  # never a body we would have to decompress
        if body is not None:
            send.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=send)
        resp = conn.getresponse()
        declared = resp.getheader("content-length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise BoundExceeded("too_large", f"response of {int(declared):,} bytes is over the {max_bytes:,}-byte limit")
        chunks: list[bytes] = []
        size = 0
        while True:
            piece = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not piece:
                break
            size += len(piece)
            if size > max_bytes:
                raise BoundExceeded("too_large", f"response over the {max_bytes:,}-byte limit")
            chunks.append(piece)
        if fired.is_set():
            raise BoundExceeded("timeout", f"no complete answer within {total_s:g} s")
        resp.close()  # the response's file only (read1 leaves it open at the end): the connection can be reused
        keep = session is not None and not resp.will_close
        url = f"{parts.scheme}://{parts.netloc}{path}"
        return BoundedResponse(resp.status, {k.lower(): v for k, v in resp.getheaders()}, b"".join(chunks), url)
    except BoundExceeded:
        raise
    except (OSError, http.client.HTTPException, ValueError) as exc:
        # the socket's own timeout is the same deadline as the watchdog's: on a loaded machine it can fire first,
        # before the watchdog's thread has run, and is still "no answer in time", not "cannot connect" (session 17:
        # a 2-core CI box with four test processes reported a slow server as unreachable)
        if fired.is_set() or isinstance(exc, TimeoutError):
            raise BoundExceeded("timeout", f"no complete answer within {total_s:g} s") from None
        if isinstance(exc, ValueError):
            raise http.client.HTTPException(str(exc)) from None
        raise
    finally:
        watchdog.cancel()
        if keep and session is not None:
            session._give(key, conn)
        else:
            conn.close()
