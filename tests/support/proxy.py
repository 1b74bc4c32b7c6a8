"""A recording proxy on loopback: it notes the first bytes of every connection and answers 502, so a test can
check that no request of a run went through the proxy the environment names."""

from __future__ import annotations

import contextlib
import socketserver
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def recording_proxy(head_bytes: int = 300) -> Iterator[tuple[int, list[bytes]]]:
    """(its port, the first ``head_bytes`` of each connection it received), for the duration of the block."""
    hits: list[bytes] = []

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            hits.append(self.request.recv(head_bytes))
            self.request.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()
