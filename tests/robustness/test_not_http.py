"""Issue #29 item 16: a TLS server with a certificate we do not trust is said to be that (not "try the other
scheme"); an SSH banner is "not an LLM server" at once (not a timeout); a redirect is reported as a redirect
(not "HTTP 200 but no text") and never followed."""

from __future__ import annotations

import socket
import socketserver
import ssl
import subprocess
import threading
import time

import pytest

from advisor.bench.probe import probe
from tests.robustness.hostile import HostileServer, Reply
from tests.robustness.test_hostile_server import one


class _Banner:
    """Says an SSH banner and waits, as sshd does."""

    def __enter__(self):
        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                time.sleep(30)

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_an_ssh_banner_is_not_an_llm_server_at_once():
    with _Banner() as url:
        t0 = time.monotonic()
        result = probe(url, "m", timeout_s=20)
        took = time.monotonic() - t0
    assert result.error_kind == "not_llm_server", (result.error_kind, result.error)
    assert took < 5, took


def test_a_redirect_is_reported_and_not_followed():
    head = b"HTTP/1.1 302 Found\r\nLocation: http://evil.example/v1/chat/completions\r\nContent-Length: 0\r\n\r\n"
    with HostileServer(lambda path, body: Reply([], head=head, chunked=False)) as srv:
        rec = one(srv.url)
    assert rec.outcome == "http_error" and rec.error_class == "redirect_302"
    assert "evil.example" in (rec.error_message or "")


def test_a_self_signed_server_is_untrusted_not_a_scheme_mismatch(tmp_path):
    key, cert = tmp_path / "k.pem", tmp_path / "c.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                           str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], capture_output=True)
    if made.returncode != 0:
        pytest.skip("no openssl to make a certificate")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    port = sock.getsockname()[1]

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            try:
                ctx.wrap_socket(conn, server_side=True).close()
            except OSError:
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        result = probe(f"https://127.0.0.1:{port}", "m", timeout_s=10)
    finally:
        sock.close()
    assert result.error_kind == "tls_untrusted", (result.error_kind, result.error)
    assert "--ca-bundle" in (result.error or "")
