"""A loopback TCP pair whose reader asks the kernel for receive stamps (``SO_TIMESTAMPNS``), for the client's
kernel-stamp tests (tests/core/test_kernel_stamp_*.py).

Linux turns receive stamping on through a static key whose first enabling is deferred to a workqueue: a packet that
arrives before that work runs carries no stamp, and TCP then gives the read no timestamp (the client's loop-time
fallback). Under load the work ran > 10 ms late (about 1 read in 30 went unstamped). ``stamping_on`` holds one
stamping socket open and waits until a receive is stamped — a precondition, never a retried assertion."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

from advisor.bench import client


@contextmanager
def stamping_on() -> Iterator[None]:
    """Kernel receive stamping live for as long as the block runs."""
    server = socket.create_server(("127.0.0.1", 0))
    reader = socket.create_connection(server.getsockname())
    reader.setsockopt(socket.SOL_SOCKET, client.SO_TIMESTAMPNS, 1)
    writer, _ = server.accept()
    try:
        deadline = time.monotonic() + 10.0
        while True:
            writer.sendall(b"x")
            _data, anc, _flags, _addr = reader.recvmsg(64, 64)
            if any(level == socket.SOL_SOCKET and kind == client.SCM_TIMESTAMPNS for level, kind, _ in anc):
                break
            assert time.monotonic() < deadline, "the kernel never stamped a receive on this socket"
            time.sleep(0.005)
        yield
    finally:
        writer.close()
        reader.close()
        server.close()


@contextmanager
def stamped_pair() -> Iterator[tuple[asyncio.AbstractEventLoop, socket.socket, socket.socket]]:
    """(a fresh event loop, the non-blocking stamping reader, the writer), closed afterwards."""
    loop = asyncio.new_event_loop()
    server = socket.create_server(("127.0.0.1", 0))
    reader = socket.create_connection(server.getsockname())
    try:
        reader.setblocking(False)
        reader.setsockopt(socket.SOL_SOCKET, client.SO_TIMESTAMPNS, 1)
        writer, _ = server.accept()
        try:
            yield loop, reader, writer
        finally:
            writer.close()
    finally:
        reader.close()
        server.close()
        loop.close()
