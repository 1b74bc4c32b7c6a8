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
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

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


def request(method: str, url: str, *, headers: dict[str, str] | None = None, json: Any = None,
            total_s: float = 10.0, max_bytes: int = DEFAULT_MAX_BYTES) -> BoundedResponse:
    """One request, bounded as the module says. Raises :class:`BoundExceeded` or another ``OSError``
    (refused, reset, TLS) or ``http.client.HTTPException`` (not HTTP)."""
    deadline = time.monotonic() + max(0.05, total_s)
    body = None if json is None else _json.dumps(json).encode()
    origin = urlsplit(url)
    for _ in range(_MAX_REDIRECTS + 1):
        resp = _once(method, url, headers or {}, body, deadline, max_bytes, total_s)
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
          total_s: float) -> BoundedResponse:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    left = deadline - time.monotonic()
    if left <= 0:
        raise BoundExceeded("timeout", f"no answer within {total_s:g} s")
    if parts.scheme == "https":
        conn: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=left, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=left)
    fired = threading.Event()

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
        return BoundedResponse(resp.status, {k.lower(): v for k, v in resp.getheaders()}, b"".join(chunks), url)
    except BoundExceeded:
        raise
    except (OSError, http.client.HTTPException, ValueError) as exc:
        if fired.is_set():
            raise BoundExceeded("timeout", f"no complete answer within {total_s:g} s") from None
        if isinstance(exc, ValueError):
            raise http.client.HTTPException(str(exc)) from None
        raise
    finally:
        watchdog.cancel()
        conn.close()
