"""A read the event loop hands over late keeps its kernel receive time (``advisor.bench.client``).

The client stamps each read with the kernel's receive time (``SO_TIMESTAMPNS``) so a busy loop does not measure
itself; a stamp more than 2 s older than the read was taken for a wall-clock step and dropped. Once the clock is
re-anchored, a stamp that is still old is the loop's own lag: on a loaded CI replay one record of 37 came back
unstamped (tests/core/test_bench_runner.py::test_streams_split_over_client_processes). Real loopback TCP, a real
kernel stamp, a real 2.3 s stall before the read."""

from __future__ import annotations

import sys
import time

import pytest

from advisor.bench import client
from tests.support.kernel_stamps import stamped_pair, stamping_on

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_TIMESTAMPNS is Linux's")


def test_a_read_handed_over_after_a_long_stall_keeps_its_kernel_time():
    with stamping_on(), stamped_pair() as (loop, reader, writer):
        conn = client._KernelStampedConnection(reader, loop)
        writer.sendall(b"HTTP/1.1 200 OK\r\n")
        sent = time.monotonic()
        time.sleep(2.3)  # the loop stalls past the 2 s clock-step window before it reads
        conn._readable()
        assert conn.stamped  # the kernel's time kept: the stall is the loop's, not a clock step
        assert conn.unsolicited.startswith(b"HTTP/1.1")
        assert time.monotonic() - sent >= 2.3  # the stall really was longer than the old 2 s window
        loop.remove_reader(conn.fd)
