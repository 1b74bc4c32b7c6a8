"""One streamed request → one :class:`RequestRecord`, with monotonic timestamps taken as bytes arrive.

Two transports share one SSE parser:

- ``raw`` (default): a minimal HTTP/1.1 client. On Linux over plain HTTP each read's timestamp is the
  kernel's receive time of the bytes (``SO_TIMESTAMPNS`` via ``recvmsg``), so a busy event loop delays the
  read but not the timestamp. Elsewhere (TLS, other systems, ``raw-loop``) an ``asyncio.Protocol`` stamps
  the bytes first thing in ``data_received``. No stream reader, no per-chunk work beyond the line split and
  one JSON parse per event. Keep-alive connections are reused, as a load generator's pool would.
- ``httpx``: ``httpx.AsyncClient`` with connection limits sized to the concurrency (the default caps of
  100/20 are a known source of a fake knee). Kept for HTTPS proxies and as the fidelity comparison.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import ssl
import struct
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from advisor.bench.protocol import FINISH_ABORTED, FINISH_OK, SseParser, StreamResult, estimate_tokens
from advisor.domain.bench import RequestRecord
from advisor.i18n import tr
from advisor.redact import check_api_key
from advisor.tls import client_cert_refusal, client_context, handshake_error

_FINISH_WORD = re.compile(r"[a-z][a-z0-9_.\-]{0,39}")  # what servers send as finish_reason

monotonic = time.monotonic
_MAX_HEAD = 64 * 1024
_MAX_CHUNK_LINE = 4096  # a chunk-size line (hex size and extensions) longer than this is not HTTP


def token_limit(max_tokens: int | None) -> int | None:
    """Most token-bearing events one request may deliver before it is dropped as ``invalid:too_many_tokens``:
    four times ``max_tokens`` (+32 for servers that send empty or split deltas), so an endless stream ends."""
    return None if not max_tokens or max_tokens <= 0 else 4 * int(max_tokens) + 32


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    base_path: str  # "" or "/v1" or "/some/prefix/v1"

    @classmethod
    def parse(cls, url: str) -> Target:
        parts = urlsplit(url)
        from advisor.redact import redact, url_credentials_problem

        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {redact(url)!r}")
        problem = url_credentials_problem(url)
        if problem:
            raise ValueError(problem)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        return cls(parts.scheme, parts.hostname, port, parts.path.rstrip("/"))

    def path(self, endpoint: str) -> str:
        """``endpoint`` like ``/chat/completions``; adds ``/v1`` unless the base URL already ends with it."""
        base = self.base_path
        if not base.endswith("/v1"):
            base += "/v1"
        return base + endpoint

    @property
    def netloc_host(self) -> str:
        """The host as it goes in a URL or a Host header: an IPv6 address in brackets (``[::1]``)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    def url(self, path: str) -> str:
        default = 443 if self.scheme == "https" else 80
        netloc = self.netloc_host if self.port == default else f"{self.netloc_host}:{self.port}"
        return f"{self.scheme}://{netloc}{path}"

    @property
    def root(self) -> str:
        """The server root (without /v1), where /metrics, /tokenize and /health live."""
        base = self.base_path
        base = base[: -len("/v1")] if base.endswith("/v1") else base
        return self.url(base)


class RequestFailed(Exception):
    def __init__(self, outcome: str, error_class: str, message: str = "") -> None:
        super().__init__(message or error_class)
        self.outcome = outcome
        self.error_class = error_class
        self.message = message


@dataclass(slots=True)
class _Exchange:
    """The raw facts of one exchange; turned into a RequestRecord by :func:`build_record`."""

    t_intended: float
    t_start: float
    t_send: float | None = None
    t_headers: float | None = None
    t_end: float | None = None
    status: int | None = None
    result: StreamResult | None = None
    body_prefix: bytes = b""
    failure: RequestFailed | None = None
    cancelled: bool = False
    complete: bool = False  # the HTTP body ended where the framing said it would
    kernel_timestamps: bool = False
    late_merged_tokens: int = 0
    content_type: str | None = None
    retry_after: str | None = None  # the Retry-After header as sent (parsed by retry_after_seconds)
    location: str | None = None  # a redirect's target (never followed: the key would go with it)
    content_encoding: str | None = None  # a Content-Encoding other than identity, as sent
    # bytes of an answer were waiting before the request was fully sent: they cannot answer it
    answered_early: bool = False
    t_first_data: float | None = None  # when the first byte of the response arrived (raw transports)


_DECODE_STEP = 1 << 20  # a compressed body is inflated at most this much at a time (a gzip bomb stays bounded)


class _ContentDecoder:
    """A body the server compressed although every transport asks for ``Accept-Encoding: identity``: gzip and
    deflate are inflated as they arrive (each piece keeps its arrival time), at most ``_DECODE_STEP`` bytes at a
    time, so the SSE parser's bounds stop a bomb. Any other coding cannot be read: :func:`decoder_for` says so."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self._wbits = 31 if coding in ("gzip", "x-gzip") else 15
        self._d = zlib.decompressobj(self._wbits)
        self._started = False

    def decode(self, data: bytes) -> Iterator[bytes]:
        buf = data
        while buf:
            try:
                out = self._d.decompress(buf, _DECODE_STEP)
            except zlib.error:
                if self._started or self._wbits != 15:
                    raise RequestFailed("invalid", "bad_content_encoding",
                                        tr("bench.error.bad_content_encoding", coding=self.coding)) from None
                self._wbits = -15  # "deflate" sent raw, without its zlib wrapper (old servers do)
                self._d = zlib.decompressobj(self._wbits)
                continue
            self._started = True
            if out:
                yield out
            buf = self._d.unconsumed_tail


def decoder_for(value: str | None) -> _ContentDecoder | None:
    """The decoder for a Content-Encoding header (None: identity). Raises :class:`RequestFailed` for a coding
    this client cannot read (br, zstd, several layered codings…)."""
    coding = (value or "").strip().lower()
    if coding in ("", "identity"):
        return None
    if coding in ("gzip", "x-gzip", "deflate"):
        return _ContentDecoder(coding)
    raise RequestFailed("invalid", "unsupported_content_encoding",
                        tr("bench.error.unsupported_content_encoding", coding=coding[:40]))


_SEND_PIECE = 64 * 1024  # a request is written in pieces; before each, we look for an answer already there


def bytes_waiting(sock: Any) -> bool:
    """Whether the server's bytes already wait unread in a plain TCP socket (``FIONREAD``; a peek elsewhere).

    Asked before each piece of a request is written: bytes there are bytes the server sent before it could
    have read the whole request, so they cannot answer it (an answer that arrives after the last piece is
    indistinguishable on the wire from a fast server, and is never called early: no false alarm under load).
    Not asked over TLS (a TLS 1.3 server sends session tickets after the handshake)."""
    try:
        import fcntl
        import termios

        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0] > 0
    except (ImportError, OSError, AttributeError, ValueError):
        pass
    try:
        return bool(sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except (OSError, AttributeError, ValueError):
        return False


def retry_after_seconds(value: str | None, now_wall: float | None = None) -> float | None:
    """Retry-After as seconds from now: delta-seconds or an HTTP date (RFC 9110); None when absent or not
    understood. Not capped here: the runner caps what it honours."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(min(int(value[:9]), 10**8))
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now_wall is None else now_wall))


class _Response:
    """HTTP/1.1 response state machine fed from data_received."""

    __slots__ = ("ex", "parser", "state", "head", "chunked", "remaining", "cbuf", "keep_alive", "done",
                 "last_data", "prefix", "merged", "decoder")

    def __init__(self, ex: _Exchange, done: asyncio.Future[bool], max_token_events: int | None = None) -> None:
        self.ex = ex
        self.parser = SseParser(max_token_events)
        self.state = 0  # 0 head, 1 body, 2 complete
        self.head = b""
        self.chunked = False
        self.remaining = -1  # content-length left; -1 = until close
        self.cbuf = b""
        self.keep_alive = True
        self.done = done
        self.last_data = monotonic()
        self.prefix = bytearray()
        self.merged = 0  # tokens that shared a read with an earlier token because the read came late
        self.decoder: _ContentDecoder | None = None

    def on_data(self, data: bytes, t: float) -> None:
        """Never raises: whatever the server sends, the request ends classified (a worker never dies)."""
        if self.ex.t_first_data is None:
            self.ex.t_first_data = t
        try:
            self._on_data(data, t)
        except Exception as exc:  # noqa: BLE001 - a protocol bug must fail one request, not the run
            self._fail(RequestFailed("invalid", "client_error", f"{type(exc).__name__}: {exc}"[:200]))

    def _on_data(self, data: bytes, t: float) -> None:
        if self.state == 2:
            return
        self.last_data = t
        if self.state == 0:
            self.head += data
            if len(self.head) >= 5 and not self.head.startswith(b"HTTP/"):
                # an SSH banner, an SMTP greeting, a database's hello: not HTTP at all, said now, not at a timeout
                self._fail(RequestFailed("invalid", "bad_http_head", self.head.split(b"\n")[0][:100].decode("latin-1")))
                return
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                if len(self.head) > _MAX_HEAD:
                    self._fail(RequestFailed("invalid", "bad_http_head", tr("bench.error.head_too_large")))
                return
            self._parse_head(self.head[:end], t)
            data = self.head[end + 4:]
            self.head = b""
            if self.state == 2 or not data:
                return
        if self.state == 1:
            if self.chunked:
                self._dechunk(data, t)
            else:
                if self.remaining >= 0:
                    data = data[: self.remaining]
                    self.remaining -= len(data)
                self._payload(data, t)
                if self.remaining == 0:
                    self._complete(t)

    def _parse_head(self, head: bytes, t: float) -> None:
        lines = head.split(b"\r\n")
        try:
            version, status, *_ = lines[0].split(b" ", 2)
            self.ex.status = int(status)
        except (ValueError, IndexError):
            self._fail(RequestFailed("invalid", "bad_http_head", lines[0][:100].decode("latin-1")))
            return
        if not version.startswith(b"HTTP/1.") or not 100 <= self.ex.status <= 999:
            self.ex.status = None
            self._fail(RequestFailed("invalid", "bad_http_head", lines[0][:100].decode("latin-1")))
            return
        self.ex.t_headers = t
        self.keep_alive = version == b"HTTP/1.1"
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            value = value.strip()
            if name == b"transfer-encoding" and b"chunked" in value.lower():
                self.chunked = True
            elif name == b"content-length":
                try:
                    self.remaining = int(value)
                except ValueError:
                    self.remaining = -4
                if self.remaining < 0:
                    self._fail(RequestFailed("invalid", "bad_http_head", "Content-Length: " + value[:40].decode("latin-1")))
                    return
            elif name == b"content-type":
                self.ex.content_type = value[:100].decode("latin-1").lower()
            elif name == b"retry-after":
                self.ex.retry_after = value[:64].decode("latin-1")
            elif name == b"location":
                self.ex.location = value[:300].decode("latin-1")
            elif name == b"content-encoding":
                if not self._content_encoding(value):
                    return
            elif name == b"connection":
                low = value.lower()
                if low == b"close":
                    self.keep_alive = False
                elif low == b"keep-alive":
                    self.keep_alive = True
        self.state = 1
        if not self.chunked and self.remaining == 0:
            self._complete(t)
        elif not self.chunked and self.remaining < 0:
            self.keep_alive = False  # body ends at close

    def _dechunk(self, data: bytes, t: float) -> None:
        buf = self.cbuf + data if self.cbuf else data
        pos = 0
        n = len(buf)
        out: list[bytes] = []
        while pos < n:
            if self.remaining > 0:  # inside a chunk
                take = min(self.remaining, n - pos)
                out.append(buf[pos:pos + take])
                pos += take
                self.remaining -= take
                if self.remaining == 0:
                    self.remaining = -2  # expect CRLF
                continue
            if self.remaining == -2:
                if n - pos < 2:
                    break
                pos += 2
                self.remaining = -1
                continue
            eol = buf.find(b"\r\n", pos)
            if eol < 0:
                if n - pos > _MAX_CHUNK_LINE:
                    self._fail(RequestFailed("invalid", "bad_chunked_encoding", tr("bench.error.chunk_line")))
                    return
                break
            if self.remaining == -3:  # trailers after the last chunk
                if eol == pos:
                    pos += 2
                    self.cbuf = b""
                    if out:
                        self._payload(b"".join(out), t)
                    self._complete(t)
                    return
                pos = eol + 2
                continue
            try:
                size = int(buf[pos:eol].split(b";", 1)[0], 16)
                if size < 0 or eol - pos > _MAX_CHUNK_LINE:
                    raise ValueError(size)
            except ValueError:
                self._fail(RequestFailed("invalid", "bad_chunked_encoding", buf[pos:eol][:50].decode("latin-1")))
                return
            pos = eol + 2
            self.remaining = size if size > 0 else -3
        self.cbuf = buf[pos:] if pos < n else b""
        if out:
            self._payload(out[0] if len(out) == 1 else b"".join(out), t)

    def _content_encoding(self, value: bytes) -> bool:
        """Take a Content-Encoding header; False (and the request failed) for one that cannot be read."""
        self.ex.content_encoding = value[:40].decode("latin-1")
        try:
            self.decoder = decoder_for(self.ex.content_encoding)
        except RequestFailed as failure:
            self._fail(failure)
            return False
        return True

    def _payload(self, data: bytes, t: float) -> None:
        if self.decoder is not None:
            try:
                for piece in self.decoder.decode(data):
                    self._decoded(piece, t)
                    if self.state == 2:
                        return
            except RequestFailed as failure:
                self._fail(failure)
            return
        self._decoded(data, t)

    def _decoded(self, data: bytes, t: float) -> None:
        if len(self.prefix) < 512:
            self.prefix += data[: 512 - len(self.prefix)]
        if self.ex.status is not None and self.ex.status < 400:
            self.parser.feed(data, t)
            if self.parser.abort is not None:  # a bound was exceeded: stop reading this stream
                self._fail(RequestFailed("invalid", self.parser.abort))

    def _complete(self, t: float) -> None:
        self.state = 2
        self.ex.complete = True
        self.ex.t_end = t
        if not self.done.done():
            self.done.set_result(True)

    def _fail(self, failure: RequestFailed) -> None:
        self.state = 2
        self.keep_alive = False
        self.ex.failure = failure
        if not self.done.done():
            self.done.set_result(False)

    def on_lost(self, exc: BaseException | None, t: float) -> None:
        if self.state == 0 and _tls_refusal(exc, self.head):
            self._fail(RequestFailed("connect_error", "SSLError", str(exc)[:200]))
            return
        if self.state != 2:
            self.keep_alive = False
            self.ex.t_end = t
            if self.state == 1 and self.remaining == -1 and not self.chunked:
                self._complete(t)  # close-delimited body: close is the end
            elif self.state == 1:
                # The framing (chunked, Content-Length) says the body had not ended: the connection was lost
                # mid-answer, as h11 and httpx say too. Found by killing a real llama-server mid-stream: its kernel
                # closed the socket cleanly and the cut answer passed for a server that "ended the stream without a
                # finish reason" — not a lost server, so a ramp could end on it as the load limit it found.
                self._fail(RequestFailed("truncated", "connection_lost",
                                         str(exc)[:200] if exc else tr("bench.error.connection_closed")))
            elif not self.done.done():
                self.done.set_result(False)


def _tls_refusal(exc: BaseException | None, head: bytes) -> bool:
    """The connection ended on a TLS error before any byte of an answer: with TLS 1.3 a server that wants a client
    certificate (or refuses the one sent) says so with an alert after the client's side of the handshake, on the
    first read. That is a connection failure with a reason, not "no response"."""
    return not head and isinstance(exc, ssl.SSLError) and not isinstance(exc, ssl.SSLEOFError)


class _H11Response(_Response):
    """The same response state, framed by h11 (the sans-IO HTTP/1.1 parser httpx uses) instead of by hand.
    Same socket, same timestamps: only the framing differs (``--transport raw-h11``, for the fidelity bench)."""

    __slots__ = ("h",)

    def __init__(self, ex: _Exchange, done: asyncio.Future[bool], max_token_events: int | None, h: Any) -> None:
        super().__init__(ex, done, max_token_events)
        self.h = h

    def _on_data(self, data: bytes, t: float) -> None:
        if self.state == 2:
            return
        self.last_data = t
        self.h.receive_data(data)
        self._events(t)

    def _events(self, t: float) -> None:
        import h11

        while self.state != 2:
            try:
                ev = self.h.next_event()
            except h11.RemoteProtocolError as exc:
                if self.state == 0:
                    self._fail(RequestFailed("invalid", "bad_http_head", str(exc)[:200]))
                else:
                    self._fail(RequestFailed("truncated", "connection_lost", str(exc)[:200]))
                return
            if ev is h11.NEED_DATA or ev is h11.PAUSED:
                return
            if isinstance(ev, h11.Response):
                self.ex.status = ev.status_code
                self.ex.t_headers = t
                for name, value in ev.headers:
                    if name == b"content-type":
                        self.ex.content_type = value[:100].decode("latin-1").lower()
                    elif name == b"retry-after":
                        self.ex.retry_after = value[:64].decode("latin-1")
                    elif name == b"location":
                        self.ex.location = value[:300].decode("latin-1")
                    elif name == b"content-encoding" and not self._content_encoding(value):
                        return
                self.state = 1
            elif isinstance(ev, h11.Data):
                self._payload(bytes(ev.data), t)
            elif isinstance(ev, h11.EndOfMessage):
                self.keep_alive = self.h.our_state is h11.DONE and self.h.their_state is h11.DONE
                self._complete(t)
            elif isinstance(ev, h11.ConnectionClosed):
                self.keep_alive = False
                if not self.done.done():
                    self.done.set_result(False)
                return

    def on_lost(self, exc: BaseException | None, t: float) -> None:
        if self.state == 0 and _tls_refusal(exc, self.head):
            self._fail(RequestFailed("connect_error", "SSLError", str(exc)[:200]))
            return
        if self.state != 2:
            self.keep_alive = False
            self.ex.t_end = t
            try:
                self.h.receive_data(b"")
            except Exception:  # noqa: BLE001 - h11 refuses data after a close it already saw
                pass
            self._events(t)
            if not self.done.done():
                self.done.set_result(False)


class _HttpProtocol(asyncio.Protocol):
    """Loop-time connection: bytes are stamped when the event loop hands them over (TLS, non-Linux)."""

    kernel_timestamps = False

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.response: _Response | None = None
        self.lost = False
        self.unsolicited = b""  # the first bytes that came before any request was sent on this connection

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        t = monotonic()  # first: the arrival time of these bytes
        response = self.response
        if response is not None:
            if self.transport is not None and self.transport.get_write_buffer_size():
                response.ex.answered_early = True  # the request is still in our buffer: not an answer to it
            response.on_data(data, t)
        else:
            self.lost = True  # bytes nobody asked for: do not reuse this connection
            self.unsolicited = data[:100]
            if self.transport is not None:
                self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        t = monotonic()
        self.lost = True
        if self.response is not None:
            self.response.on_lost(exc, t)

    async def send(self, data: bytes) -> None:
        assert self.transport is not None
        response = self.response
        if response is not None and self.transport.get_extra_info("sslcontext") is None:
            sock = self.transport.get_extra_info("socket")
            if response.ex.t_first_data is not None or (sock is not None and bytes_waiting(sock)):
                response.ex.answered_early = True
        self.transport.write(data)  # buffered: data_received also checks that this buffer has drained

    def close(self) -> None:
        self.lost = True
        if self.transport is not None:
            self.transport.close()


class _NoKernelStamps(Exception):
    """SO_TIMESTAMPNS is not available on this system."""


# Linux socket options (not exposed by the socket module): the kernel's receive time of the bytes.
SO_TIMESTAMPNS = 35
SCM_TIMESTAMPNS = 35
_TIMESPEC = struct.Struct("qq")
LATE_READ_S = 60.0  # a kernel stamp up to this old is the loop's lag and kept; older (or in the future): a clock step
_U32 = struct.Struct("I")
_TCPI_DATA_SEGS_IN = 152  # offset of tcpi_data_segs_in in Linux struct tcp_info (since 4.6)


def _wall_age_to_monotonic(wall_stamp: float, tries: int = 3) -> float | None:
    """The monotonic time of a kernel receive stamp (``CLOCK_REALTIME``), or None if it cannot be trusted.

    Converted through its age, read now: ``after − (wall − stamp)``, where ``wall`` is read between two
    monotonic reads ``before`` and ``after``. The wall read happened at or before ``after``, so the result is
    never earlier than the true receive time (a thread preempted between the reads only makes it later, by at
    most the window — the narrowest of a few tries is kept). A realtime−monotonic offset taken once per
    connection did not have that property: any wall-clock step since the connection opened (CI VMs step
    theirs), or a preemption while the offset was read, shifted every later token by that much, earlier too —
    CI replays had tokens stamped 1.03 ms and 1.24 ms before the simulated server sent them. Only a step inside
    the read's own age (the stamp is at most a loop's lag old) can still move it: a negative age (stepped back)
    or one over ``LATE_READ_S`` is refused and the caller keeps loop time."""
    best_width, best_after, best_age = float("inf"), 0.0, 0.0
    for _ in range(tries):
        before = monotonic()
        wall = time.time()
        after = monotonic()
        if after - before < best_width:
            best_width, best_after, best_age = after - before, after, wall - wall_stamp
        if best_width < 20e-6:  # tight already: a further try cannot matter against millisecond tokens
            break
    return best_after - best_age if 0.0 <= best_age <= LATE_READ_S else None


class _KernelStampedConnection:
    """Plain-HTTP connection that reads with ``recvmsg`` and takes each read's time from the kernel
    (``SO_TIMESTAMPNS``: when the last packet of the read reached the socket). An event loop busy with
    other streams then delays the read but not its timestamp — the client stops measuring itself.
    Falls back to the loop time if the kernel gives no stamp or its age is impossible (a wall-clock step).
    """

    kernel_timestamps = True

    def __init__(self, sock: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
        self.sock = sock
        self.loop = loop
        self.response: _Response | None = None
        self.lost = False
        self.unsolicited = b""  # the first bytes that came before any request was sent on this connection
        self.stamped = False  # the kernel really gave a receive time (else the reads carry loop time)
        self.fd = sock.fileno()
        # data segments the kernel had received at the last TCP_INFO query, and reads with data since then:
        # they tell a late read that merged tokens sent apart from one that got a server burst (one segment)
        self.segs_seen = 0
        self.reads_since = 0
        loop.add_reader(self.fd, self._readable)

    @classmethod
    async def open(cls, host: str, port: int) -> _KernelStampedConnection:
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, type_, proto, _, addr = infos[0]
        sock = socket.socket(family, type_, proto)
        try:
            sock.setblocking(False)
            try:
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            except OSError:  # this kernel does not stamp receives: the caller falls back to loop time
                sock.close()
                raise _NoKernelStamps from None
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            await loop.sock_connect(sock, addr)
        except BaseException:
            sock.close()
            raise
        return cls(sock, loop)

    def _readable(self) -> None:
        t = t_loop = monotonic()
        try:
            # 64 KiB: below the allocator's mmap threshold, so a small read does not cost an mmap/munmap
            data, anc, _flags, _addr = self.sock.recvmsg(65536, 64)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self._lost(exc, t)
            return
        for level, kind, cdata in anc:
            if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS and len(cdata) >= 16:
                sec, nsec = _TIMESPEC.unpack_from(cdata)
                # not capped at t_loop: the read's last bytes may have come after it, and a cap would stamp them
                # early; a stamp much older than the read is the loop's own lag (a loaded client: a CI replay of
                # e9cfa7f6 left one record of 37 unstamped), the case kernel stamps exist for: kept up to LATE_READ_S
                tk = _wall_age_to_monotonic(sec + nsec * 1e-9)
                if tk is not None:
                    t = tk
                    self.stamped = True
                break
        if not data:
            self._lost(None, t)
            return
        response = self.response
        if response is not None:
            if t_loop - t > 0.001:  # a late read: tokens in it that were sent apart now share one stamp
                tokens = response.parser.r.token_times
                n0 = len(tokens)
                response.on_data(data, t)
                n = len(tokens) - n0
                if n > 1:
                    # Only tokens that came in different TCP segments were merged by the late read; tokens a
                    # server sent in one segment (a burst by design) arrive together however fast the client.
                    response.merged += min(n, self._segments_in_read()) - 1
                else:
                    self.reads_since += 1
            else:
                self.reads_since += 1
                response.on_data(data, t)
        else:
            self.unsolicited = data[:100]  # bytes nobody asked for: this connection is not used
            self.close()

    def _segments_in_read(self) -> int:
        """Data segments this read consumed, at least 1 — never fewer than it really had: the kernel's count
        (``tcpi_data_segs_in``) since the last query, less one for each read since then (each read took at
        least one segment). Unknown (no TCP_INFO) counts as one segment per token."""
        try:
            info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCPI_DATA_SEGS_IN + 4)
            segs = _U32.unpack_from(info, _TCPI_DATA_SEGS_IN)[0]
        except (OSError, AttributeError, struct.error):
            return 1 << 30
        n = segs - self.segs_seen - self.reads_since
        self.segs_seen = segs
        self.reads_since = 0
        return max(1, n)

    def _lost(self, exc: BaseException | None, t: float) -> None:
        was_lost = self.lost
        self.close()
        if not was_lost and self.response is not None:
            self.response.on_lost(exc, t)

    async def send(self, data: bytes) -> None:
        view = memoryview(data)
        for start in range(0, len(view), _SEND_PIECE):
            response = self.response
            if response is not None and (response.ex.t_first_data is not None or bytes_waiting(self.sock)):
                response.ex.answered_early = True  # bytes came before the rest of the request left
            await self.loop.sock_sendall(self.sock, view[start:start + _SEND_PIECE])

    def close(self) -> None:
        if not self.lost:
            self.lost = True
            try:
                self.loop.remove_reader(self.fd)
            except (ValueError, RuntimeError):
                pass
            self.sock.close()


class RawPool:
    """Idle keep-alive connections to one server; a connection serves one request at a time."""

    def __init__(self, target: Target, *, kernel_timestamps: bool = True, framing: str = "manual") -> None:
        self.target = target
        self.framing = framing  # "manual" (our own HTTP/1.1 framing) or "h11"
        self._idle: list[Any] = []
        self._all: set[Any] = set()
        self._ssl = client_context() if target.scheme == "https" else None  # system store + --ca-bundle
        # kernel receive timestamps need plain TCP on Linux (TLS decrypts in user space)
        self.kernel_timestamps = kernel_timestamps and self._ssl is None and sys.platform.startswith("linux")
        self.connections_opened = 0

    async def acquire(self, fresh: bool = False) -> tuple[Any, bool]:
        """(connection, reused): an idle keep-alive connection unless ``fresh``, else a new one."""
        while self._idle and not fresh:
            conn = self._idle.pop()
            if not conn.lost:
                if self.framing == "h11":
                    try:
                        conn.h11.start_next_cycle()
                    except Exception:  # noqa: BLE001 - h11 says the last exchange did not end cleanly
                        self._all.discard(conn)
                        conn.close()
                        continue
                return conn, True
            self._all.discard(conn)
        conn = None
        if self.kernel_timestamps:
            try:
                conn = await _KernelStampedConnection.open(self.target.host, self.target.port)
            except _NoKernelStamps:  # capability check failed: loop-time stamps from now on (records say so)
                self.kernel_timestamps = False
        if conn is None:
            loop = asyncio.get_running_loop()
            _, conn = await loop.create_connection(_HttpProtocol, self.target.host, self.target.port, ssl=self._ssl)
        self.connections_opened += 1
        if self.framing == "h11":
            import h11

            conn.h11 = h11.Connection(h11.CLIENT, max_incomplete_event_size=_MAX_HEAD)
        self._all.add(conn)
        return conn, False

    def release(self, conn: Any, reusable: bool) -> None:
        conn.response = None
        if reusable and not conn.lost:
            self._idle.append(conn)
        else:
            self._all.discard(conn)
            conn.close()

    async def close(self) -> None:
        for conn in list(self._all):
            conn.close()
        self._all.clear()
        self._idle.clear()
        await asyncio.sleep(0)


def request_head(target: Target, path: str, body_len: int, api_key: str | None,
                 headers: dict[str, str] | None = None) -> bytes:
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {target.netloc_host}:{target.port}",
        "User-Agent: inference-advisor-bench",
        "Content-Type: application/json",
        "Accept: text/event-stream",
        "Accept-Encoding: identity",  # without it any coding is acceptable (RFC 9110 §12.5.3)
        f"Content-Length: {body_len}",
    ]
    if api_key:
        lines.append(f"Authorization: Bearer {api_key}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _h11_request(h: Any, target: Target, path: str, body: bytes, api_key: str | None,
                 headers: dict[str, str] | None) -> bytes:
    import h11

    fields = [("Host", f"{target.netloc_host}:{target.port}"), ("User-Agent", "inference-advisor-bench"),
              ("Content-Type", "application/json"), ("Accept", "text/event-stream"), ("Accept-Encoding", "identity"),
              ("Content-Length", str(len(body)))]
    if api_key:
        fields.append(("Authorization", f"Bearer {api_key}"))
    fields += list((headers or {}).items())
    return h.send(h11.Request(method="POST", target=path, headers=fields)) + h.send(h11.Data(data=body)) + \
        h.send(h11.EndOfMessage())


async def raw_exchange(pool: RawPool, path: str, body: bytes, api_key: str | None, *, t_intended: float,
                       timeout_s: float, read_timeout_s: float, headers: dict[str, str] | None = None,
                       max_token_events: int | None = None) -> _Exchange:
    """One request on a pooled connection. A reused keep-alive connection that the server had already closed
    (its idle timeout raced our request: nothing at all came back) is retried once on a new connection,
    as HTTP clients do; that retry is invisible in the record except for a later ``t_send``."""
    t_start = monotonic()
    ex = await _raw_attempt(pool, path, body, api_key, t_intended, t_start, timeout_s, read_timeout_s, headers,
                            fresh=False, max_token_events=max_token_events)
    if ex.failure is not None and ex.failure.error_class == "stale_connection":
        ex = await _raw_attempt(pool, path, body, api_key, t_intended, t_start, timeout_s, read_timeout_s, headers,
                                fresh=True, max_token_events=max_token_events)
    return ex


async def _raw_attempt(pool: RawPool, path: str, body: bytes, api_key: str | None, t_intended: float, t_start: float,
                       timeout_s: float, read_timeout_s: float, headers: dict[str, str] | None, *,
                       fresh: bool, max_token_events: int | None = None) -> _Exchange:
    ex = _Exchange(t_intended=t_intended, t_start=t_start)
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bool] = loop.create_future()
    response = _Response(ex, done, max_token_events)
    events = response.parser.r
    proto: Any = None
    reused = False
    try:
        try:
            proto, reused = await asyncio.wait_for(pool.acquire(fresh=fresh), timeout=min(timeout_s, read_timeout_s))
        except TimeoutError:
            raise RequestFailed("timeout", "connect_timeout") from None
        except OSError as exc:
            raise RequestFailed("connect_error", type(exc).__name__, str(exc)) from None
        if pool.framing == "h11":
            response = _H11Response(ex, done, max_token_events, proto.h11)
            events = response.parser.r
            wire = _h11_request(proto.h11, pool.target, path, body, api_key, headers)
        else:
            wire = request_head(pool.target, path, len(body), api_key, headers) + body
        proto.response = response
        ex.t_send = monotonic()
        try:
            await proto.send(wire)
        except OSError as exc:
            response.on_lost(exc, monotonic())
        early = getattr(proto, "unsolicited", b"")
        if early:  # the connection was closed on bytes sent before the request: an SSH banner, or an answer
            if not early.startswith(b"HTTP/"):
                raise RequestFailed("invalid", "bad_http_head", early.split(b"\n")[0][:100].decode("latin-1"))
            raise RequestFailed("invalid", "early_response", tr("bench.error.early_response"))
        deadline = ex.t_start + timeout_s
        while not done.done():
            now = monotonic()
            # keep-alive comments are data but not progress: a stream of nothing else ends after read_timeout_s
            last_event = events.t_last_event or ex.t_headers or ex.t_send
            idle = read_timeout_s - (now - last_event)
            wait = min(read_timeout_s - (now - response.last_data), deadline - now, idle)
            if wait <= 0:
                if deadline - now <= 0:
                    raise RequestFailed("timeout", "total_timeout", tr("bench.error.total_timeout", seconds=f"{timeout_s:g}"))
                if idle <= 0 and events.keepalives:
                    raise RequestFailed("timeout", "keepalive_only",
                                        tr("bench.error.keepalive_only", seconds=f"{read_timeout_s:g}"))
                raise RequestFailed("timeout", "read_timeout", tr("bench.error.read_timeout", seconds=f"{read_timeout_s:g}"))
            try:
                await asyncio.wait_for(asyncio.shield(done), timeout=wait)
            except TimeoutError:
                continue
        if ex.answered_early and ex.status is not None and ex.status < 400:  # an early 4xx is HTTP's right
            raise RequestFailed("invalid", "early_response", tr("bench.error.early_response"))
        if reused and response.state == 0 and not response.head and not ex.complete:
            raise RequestFailed("truncated", "stale_connection", tr("bench.error.stale_connection"))
    except RequestFailed as failure:
        ex.failure = failure
    except asyncio.CancelledError:
        # The run was cancelled: return what was measured; the record says "cancelled".
        ex.cancelled = True
        if proto is not None:
            pool.release(proto, False)
            proto = None
    finally:
        if ex.t_end is None:
            ex.t_end = monotonic()
        ex.result = response.parser.finish(ex.t_end)
        ex.body_prefix = bytes(response.prefix)
        ex.late_merged_tokens = response.merged
        if proto is not None:
            ex.kernel_timestamps = bool(getattr(proto, "stamped", False))
            pool.release(proto, ex.complete and response.keep_alive and ex.failure is None)
    return ex


def _watching_backend(inner: Any) -> Any:
    """httpcore's network backend, wrapped so each connection remembers whether bytes of an answer were already
    waiting when a piece of its request was about to be written (:func:`bytes_waiting`). httpx asks the
    question nowhere: an answer a server sent before reading the request passed as a 1 ms TTFT."""
    import httpcore

    class Stream(httpcore.AsyncNetworkStream):
        def __init__(self, stream: Any, tls: bool = False) -> None:
            self._stream = stream
            self._tls = tls
            self._writing = False
            self.answered_early = False

        def _waiting(self) -> bool:
            if self._tls:
                return False  # TLS: session tickets may wait there; not asked
            sock = self._stream.get_extra_info("socket")
            return sock is not None and bytes_waiting(sock)

        async def write(self, buffer: bytes, timeout: float | None = None) -> None:
            if not self._writing:  # the first write of a request
                self._writing = True
                self.answered_early = False
            for start in range(0, len(buffer), _SEND_PIECE):
                if self._waiting():  # the server's bytes came before this piece of the request left
                    self.answered_early = True
                await self._stream.write(buffer[start:start + _SEND_PIECE], timeout)

        async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            self._writing = False
            try:
                return await self._stream.read(max_bytes, timeout)
            except httpcore.ReadError:
                # anyio drops the TLS alert that ended the connection (a server asking for a client certificate);
                # the connection's ssl object kept it (advisor/tls.py): say it, as the other transports do
                recorded = getattr(self._stream.get_extra_info("ssl_object"), "tls_error", None)
                if recorded is None:
                    raise
                raise httpcore.ConnectError(str(recorded)) from recorded

        async def aclose(self) -> None:
            await self._stream.aclose()

        async def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                            timeout: float | None = None) -> Any:
            return Stream(await self._stream.start_tls(ssl_context, server_hostname, timeout), tls=True)

        def get_extra_info(self, info: str) -> Any:
            return self._stream.get_extra_info(info)

    class Backend(httpcore.AsyncNetworkBackend):
        async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                              local_address: str | None = None, socket_options: Any = None) -> Any:
            return Stream(await inner.connect_tcp(host, port, timeout, local_address, socket_options))

        async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
            return Stream(await inner.connect_unix_socket(path, timeout, socket_options))

        async def sleep(self, seconds: float) -> None:
            await inner.sleep(seconds)

    return Backend()


def httpx_client(*, max_connections: int, timeout_s: float, read_timeout_s: float, verify: Any = True) -> Any:
    """The ``httpx`` transport's client: connection limits sized to the concurrency, no proxy from the
    environment (every request of a run goes direct), and connections that notice an early answer."""
    import httpx

    limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
    # verify: the same context as every other connection (httpx alone would trust certifi's bundle, not the
    # system store nor --ca-bundle)
    transport = httpx.AsyncHTTPTransport(limits=limits, trust_env=False,
                                         verify=client_context() if verify is True else verify)
    pool = getattr(transport, "_pool", None)  # httpx builds httpcore's pool with no way to pass a backend
    if pool is not None and hasattr(pool, "_network_backend"):
        import httpcore

        pool._network_backend = _watching_backend(pool._network_backend or httpcore.AutoBackend())  # type: ignore[attr-defined]  # httpcore exports it; its stubs do not
    return httpx.AsyncClient(transport=transport, trust_env=False,
                             timeout=httpx.Timeout(timeout_s, read=read_timeout_s, pool=timeout_s))


async def httpx_exchange(client: Any, url: str, body: bytes, api_key: str | None, *, t_intended: float,
                         timeout_s: float, read_timeout_s: float, headers: dict[str, str] | None = None,
                         max_token_events: int | None = None) -> _Exchange:
    import httpx

    ex = _Exchange(t_intended=t_intended, t_start=monotonic())
    parser = SseParser(max_token_events)
    prefix = bytearray()
    # identity: the body is read raw (aiter_raw, for its timestamps); a gzip answer would be undecodable bytes
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream", "Accept-Encoding": "identity",
               **(headers or {})}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    try:
        async with asyncio.timeout(timeout_s):
            ex.t_send = monotonic()
            async with client.stream("POST", url, content=body, headers=headers) as resp:
                ex.t_headers = monotonic()
                ex.status = resp.status_code
                ex.content_type = (resp.headers.get("content-type") or "")[:100].lower() or None
                ex.retry_after = (resp.headers.get("retry-after") or "")[:64] or None
                ex.location = (resp.headers.get("location") or "")[:300] or None
                ex.answered_early = bool(getattr(resp.extensions.get("network_stream"), "answered_early", False))
                if ex.answered_early and resp.status_code < 400:  # an early 4xx is HTTP's right; a 200 is not
                    raise RequestFailed("invalid", "early_response", tr("bench.error.early_response"))
                encoding = resp.headers.get("content-encoding")
                ex.content_encoding = encoding[:40] if encoding else None
                decoder = decoder_for(encoding)  # read raw (its timestamps) and inflated here, as raw does
                async for raw in resp.aiter_raw():
                    t = monotonic()
                    for data in decoder.decode(raw) if decoder is not None else (raw,):
                        if len(prefix) < 512:
                            prefix += data[: 512 - len(prefix)]
                        if resp.status_code < 400:
                            parser.feed(data, t)
                            if parser.abort is not None:
                                raise RequestFailed("invalid", parser.abort)
                            last = parser.r.t_last_event or ex.t_headers
                            if parser.r.keepalives and t - last > read_timeout_s:
                                raise RequestFailed("timeout", "keepalive_only",
                                                    tr("bench.error.keepalive_only", seconds=f"{read_timeout_s:g}"))
                ex.complete = True
    except RequestFailed as failure:
        ex.failure = failure
    except TimeoutError:
        ex.failure = RequestFailed("timeout", "total_timeout", tr("bench.error.total_timeout", seconds=f"{timeout_s:g}"))
    except httpx.ConnectError as exc:
        ex.failure = RequestFailed("connect_error", type(exc).__name__, str(exc))
    except httpx.TimeoutException as exc:
        ex.failure = RequestFailed("timeout", type(exc).__name__, str(exc))
    except httpx.RemoteProtocolError as exc:
        ex.failure = RequestFailed("truncated", "connection_lost", str(exc))
    except httpx.HTTPError as exc:
        ex.failure = RequestFailed("truncated", type(exc).__name__, str(exc))
    except (OSError, ValueError) as exc:  # TLS errors, a broken head httpx refused
        ex.failure = RequestFailed("connect_error" if isinstance(exc, OSError) else "invalid", type(exc).__name__,
                                   str(exc)[:200])
    except asyncio.CancelledError:
        ex.cancelled = True
    finally:
        ex.t_end = monotonic()
        ex.result = parser.finish(ex.t_end)
        ex.body_prefix = bytes(prefix)
    return ex


def build_record(ex: _Exchange, *, seq: int, step: int = 0, concurrency: int = 1, warmup: bool = False,
                 prompt_tokens_target: int | None = None, max_tokens: int | None = None,
                 dialect: str | None = None, request_id: str | None = None) -> RequestRecord:
    """Classify the exchange. A success needs HTTP < 400, at least one token, a finish_reason and no error."""
    r = ex.result or StreamResult()
    outcome, error_class, message = "ok", None, None
    anomalies: list[str] = []
    n_events = len(r.token_times)
    if ex.cancelled:
        outcome, error_class = "cancelled", "cancelled"
    elif ex.status is not None and ex.status >= 400:
        outcome, error_class = "http_error", f"http_{ex.status}"
        message = _error_text(ex.body_prefix)
    elif ex.status is not None and 300 <= ex.status < 400:  # a redirect is reported as one, never followed
        outcome, error_class = "http_error", f"redirect_{ex.status}"
        message = tr("bench.error.redirect", status=ex.status, location=ex.location or "-")
    elif r.error is not None:
        outcome, error_class, message = "stream_error", r.error_type or "error", r.error
    elif ex.failure is not None and ex.failure.outcome in ("connect_error", "timeout", "invalid"):
        outcome, error_class, message = ex.failure.outcome, ex.failure.error_class, ex.failure.message
    elif r.invalid_kind is not None and r.invalid_kind not in ("not_json", "not_an_object"):
        # a chunk that parsed but broke the protocol (a wrong type, a negative count, a bound exceeded)
        outcome, error_class, message = "invalid", r.invalid_kind, r.invalid
    elif n_events == 0:
        if r.invalid is not None:
            outcome, error_class, message = "invalid", "not_sse", r.invalid
        elif r.unknown_lines or (ex.content_type or "").startswith("text/html"):
            # HTTP 200 with a body that is not SSE at all (a web page, a proxy's notice): not an LLM server
            outcome, error_class, message = "invalid", "not_llm_server", r.unknown_sample or ex.content_type
        elif ex.status is None:
            outcome, error_class = "truncated", "no_response"
            message = ex.failure.message if ex.failure else tr("bench.error.no_response")
        elif not ex.complete:  # headers came, then the connection broke before the body's end
            outcome = "truncated"
            error_class = ex.failure.error_class if ex.failure else "connection_lost"
        else:
            outcome, error_class = "empty", "no_tokens" if r.events else "empty_body"
            if r.events and r.finish_reason and (r.usage_completion_tokens or 0) > 0:
                # the server says it generated N tokens and finished, but sent no text (undecodable bytes or special
                # tokens only: vLLM with a random-weight model did): a failed answer, not a server that failed
                error_class = "no_text"
    elif r.finish_reason in FINISH_ABORTED:
        outcome, error_class = "truncated", f"finish_{r.finish_reason}"
    elif r.finish_reason is None:
        outcome = "truncated"
        if ex.failure is not None:
            error_class, message = ex.failure.error_class, ex.failure.message
        elif r.done:
            error_class = "done_without_finish_reason"
        else:
            error_class = "closed_without_finish_reason"
    elif ex.failure is not None:  # finished tokens but the connection broke before the end
        outcome, error_class, message = "truncated", ex.failure.error_class, ex.failure.message
    if r.invalid is not None and outcome == "ok":
        # a chunk that is not JSON lost its tokens: what arrived is not what the server generated
        outcome, error_class, message = "invalid", "malformed_chunk", r.invalid
    if outcome == "ok" and not r.done:
        anomalies.append("no_done_marker")
    if r.finish_reason is not None and r.finish_reason not in FINISH_OK and r.finish_reason not in FINISH_ABORTED:
        anomalies.append("unknown_finish_reason")  # kept (a new server's word), but never silently a plain ok
        if outcome == "ok" and not _FINISH_WORD.fullmatch(r.finish_reason):
            # a server's finish reason is a short lower-case word ("stop", "eos_token", "tool_calls"); a formula, a
            # sentence or control characters is not one, and such an answer is not counted as a success (issue 29)
            outcome, error_class, message = "invalid", "malformed_finish_reason", None
    if not r.usage_seen and n_events:
        anomalies.append("no_usage")
    # N: server usage; else max_tokens when the answer stopped on it ("length": the server generated exactly that
    # many — empty deltas of half a UTF-8 character included, as llama-cpp-python sends them); else an estimate
    # that is never below the event count, else the event count.
    if r.usage_completion_tokens is not None:
        n, source = r.usage_completion_tokens, "usage"
    elif r.timings_predicted is not None and n_events:
        # llama.cpp's own count, sent without usage (a request without include_usage, older llama-server builds):
        # exact, where an answer that stopped on its own would otherwise be estimated from its text
        n, source = r.timings_predicted, "timings"
    elif r.finish_reason == "length" and max_tokens and max_tokens >= n_events:
        n, source = max_tokens, "max_tokens"
    elif r.text:
        est = estimate_tokens(r.text)
        n, source = (est, "estimate") if est >= n_events else (n_events, "chunks")
    else:
        n, source = n_events, "chunks"
    if n_events == 0 and r.usage_completion_tokens is None:
        n, source = None, None
    if n and max_tokens and source in ("usage", "timings") and n > max_tokens:
        anomalies.append("max_tokens_ignored")
        limit = token_limit(max_tokens)
        if limit is not None and n > limit and outcome == "ok":  # a count no real stream of this length gives
            outcome, error_class, message = "invalid", "usage_out_of_range", f"completion_tokens={n}"
    if n and n >= 16 and n_events and n_events * 4 <= n:
        anomalies.append("burst")
    if r.keepalives:
        anomalies.append("keepalive_comments")
    if "not_streamed" in r.hints:
        anomalies.append("not_streamed")  # TTFT = E2E: the whole answer came in one piece
    if n_events >= 3:
        times = r.token_times
        gaps = sorted(b - a for a, b in zip(times, times[1:], strict=False))
        if gaps[-1] > 1.0 and gaps[-1] > 10 * max(gaps[len(gaps) // 2], 1e-3):
            anomalies.append("stall")  # one pause far longer than the usual gap (held-back text, a stuck step)
    return RequestRecord(
        seq=seq, request_id=request_id, step=step, concurrency=concurrency, warmup=warmup, outcome=outcome, error_class=error_class,
        error_message=(message or None) and str(message)[:300], status=ex.status, dialect=dialect,
        retry_after_s=retry_after_seconds(ex.retry_after) if ex.status in (429, 503) else None,
        finish_reason=r.finish_reason, prompt_tokens_target=prompt_tokens_target, max_tokens=max_tokens,
        prompt_tokens=r.usage_prompt_tokens if r.usage_prompt_tokens is not None else r.timings_prompt, output_tokens=n, output_tokens_source=source,
        reasoning_events=r.reasoning_events, answer_events=r.answer_events, output_chars=r.text_chars,
        t_intended=ex.t_intended, t_start=ex.t_start, t_send=ex.t_send, t_headers=ex.t_headers,
        t_first_token=r.token_times[0] if n_events else None, t_first_answer=r.t_first_answer,
        t_last_token=r.token_times[-1] if n_events else None, t_end=ex.t_end, token_times=r.token_times,
        tokens_per_event=r.tokens_per_event, anomalies=anomalies, kernel_timestamps=ex.kernel_timestamps,
        late_merged_tokens=ex.late_merged_tokens,
    )


def _error_text(prefix: bytes) -> str:
    text = prefix.decode("utf-8", "replace").strip()
    try:
        obj = json.loads(text)
    except ValueError:
        return text[:200]
    if isinstance(obj, dict):
        err = obj.get("error", obj)
        if isinstance(err, dict):
            return str(err.get("message") or err)[:200]
        return str(obj.get("message") or err)[:200]
    return text[:200]


def _unanswered_on_tls(ex: _Exchange, target: Target) -> bool:
    """An https:// request that ended before any byte of an answer, for a reason that could hide a TLS alert (a
    reset, a close, a broken read; not a timeout, a refused connection or an alert already read)."""
    if target.scheme != "https" or ex.cancelled or ex.status is not None or ex.body_prefix:
        return False
    failure = ex.failure
    return failure is None or failure.outcome == "truncated" or (
        failure.outcome == "connect_error" and failure.error_class not in ("SSLError", "ConnectionRefusedError"))


class StreamClient:
    """Sends requests to one endpoint with the chosen transport. Create and use inside one event loop."""

    def __init__(self, url: str, api: str = "chat", *, api_key: str | None = None, transport: str = "raw",
                 max_connections: int = 64, timeout_s: float = 600.0, read_timeout_s: float = 120.0) -> None:
        self.target = Target.parse(url)
        self.path = self.target.path("/chat/completions" if api == "chat" else "/completions")
        self.api = api
        self._api_key = check_api_key(api_key)  # a key that would inject a header never reaches one
        self.transport = transport
        self.timeout_s = timeout_s
        self.read_timeout_s = read_timeout_s
        self._pool: RawPool | None = None
        self._httpx: Any = None
        # why this server's TLS connections end unanswered, asked once (see _said_by_tls_alert)
        self._tls_alert: ssl.SSLError | None = None
        self._tls_asked: asyncio.Lock | None = None
        self._tls_answered = False
        if transport in ("raw", "raw-loop", "raw-h11"):
            self._pool = RawPool(self.target, kernel_timestamps=transport != "raw-loop",
                                 framing="h11" if transport == "raw-h11" else "manual")
        else:  # trust_env off: every transport and side request goes direct
            self._httpx = httpx_client(max_connections=max_connections, timeout_s=timeout_s,
                                       read_timeout_s=read_timeout_s)

    async def send(self, body: dict[str, Any] | bytes, *, t_intended: float | None = None,
                   headers: dict[str, str] | None = None, max_tokens: int | None = None) -> _Exchange:
        """``headers``: extra request headers, e.g. ``X-Request-Id`` (servers log it; the simulator keys its
        ground truth by it). ``max_tokens`` (read from a dict body when not given) bounds the stream: see
        :func:`token_limit`."""
        if max_tokens is None and isinstance(body, dict) and isinstance(body.get("max_tokens"), int):
            max_tokens = body["max_tokens"]
        data = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode("utf-8")
        t0 = monotonic() if t_intended is None else t_intended
        limit = token_limit(max_tokens)
        if self._pool is not None:
            ex = await raw_exchange(self._pool, self.path, data, self._api_key, t_intended=t0,
                                    timeout_s=self.timeout_s, read_timeout_s=self.read_timeout_s, headers=headers,
                                    max_token_events=limit)
        else:
            ex = await httpx_exchange(self._httpx, self.target.url(self.path), data, self._api_key, t_intended=t0,
                                      timeout_s=self.timeout_s, read_timeout_s=self.read_timeout_s, headers=headers,
                                      max_token_events=limit)
        if _unanswered_on_tls(ex, self.target):
            alert = await self._said_by_tls_alert()
            if alert is not None:  # recorded as the raw transport records an alert it read itself
                ex.failure = RequestFailed("connect_error", "SSLError", str(alert)[:200])
        return ex

    async def _said_by_tls_alert(self) -> ssl.SSLError | None:
        """The TLS alert behind connections that ended with no answer, when it is about the client's certificate:
        a server that wants one (or refuses the one sent) alerts after the handshake and closes, and with the
        request already on its way the close becomes a reset that can discard the alert unread ("no response"),
        on most requests with httpx (whose transport drops it anyway). One bare handshake asks the server, as the
        probe does (:func:`advisor.bench.probe.tls_diagnosis`); asked once per client, whatever the answer, so a
        server that drops connections for another reason is not asked again for each request."""
        if self._tls_asked is None:
            self._tls_asked = asyncio.Lock()
        async with self._tls_asked:  # concurrent failures wait for the one question
            if not self._tls_answered:
                found = await asyncio.to_thread(handshake_error, self.target.host, self.target.port, 3.0)
                self._tls_alert = found if found is not None and client_cert_refusal(found) is not None else None
                self._tls_answered = True
        return self._tls_alert

    async def aclose(self) -> None:
        if self._pool is not None:
            await self._pool.close()
        if self._httpx is not None:
            await self._httpx.aclose()
