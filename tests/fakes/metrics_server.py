"""A real HTTP server on 127.0.0.1 (port 0) serving /metrics texts, for scraper tests.

``routes`` maps a path to (status, body); change it while the server runs to make counters move.
``delay_s`` delays every answer (timeouts). Use as a context manager; ``url(path)`` builds the URL.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "metrics"


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


class MetricsServer:
    def __init__(self, routes: dict[str, tuple[int, str]] | None = None, delay_s: float = 0.0) -> None:
        self.routes: dict[str, tuple[int, str]] = dict(routes or {})
        self.delay_s = delay_s
        self.hits = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                server.hits += 1
                if server.delay_s:
                    time.sleep(server.delay_s)
                status, body = server.routes.get(self.path, (404, "not found\n"))
                data = body.encode("utf-8")
                self.send_response(status)
                kind = "text/html" if body.lstrip().startswith("<") else "text/plain; version=0.0.4"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                try:
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def log_message(self, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    def url(self, path: str = "/metrics") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> MetricsServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)
