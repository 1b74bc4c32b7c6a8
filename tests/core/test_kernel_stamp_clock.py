"""A kernel receive stamp is never turned into a time before the bytes were sent (``advisor.bench.client``).

The kernel stamps reads in ``CLOCK_REALTIME``; tokens are compared on ``CLOCK_MONOTONIC`` (the simulated server
stamps each chunk with ``time.monotonic()`` right before it writes it, in its own process: the same system-wide
clock). The client once converted with a realtime−monotonic offset read when the connection opened, so a wall
step since then (CI VMs step their clocks) or a thread preempted between the offset's clock reads moved every later
token by that much — CI replays of tests/core/test_bench_sim_e2e.py had a token 1.03 ms, then 1.24 ms, before
the server sent it. Real loopback TCP and real kernel stamps; only the client's wall-clock reads are faked."""

from __future__ import annotations

import select
import sys
import time
from types import SimpleNamespace

import pytest

from advisor.bench import client
from tests.support.kernel_stamps import stamped_pair, stamping_on

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_TIMESTAMPNS is Linux's")

REAL_TIME = time.time


class _Wall:
    """``time`` as the client module sees it, with a wall clock that can be stepped or read slowly."""

    def __init__(self) -> None:
        self.shift = 0.0  # seconds the faked wall clock is ahead of the real one
        self.delay = 0.0  # seconds the thread loses just before the wall read returns (a preemption)

    def time(self) -> float:
        if self.delay:
            time.sleep(self.delay)
        return REAL_TIME() + self.shift

    def __getattr__(self, name: str):
        return getattr(time, name)


def _read_once(wall: _Wall, *, open_shift: float, read_delay: float) -> tuple[float, float]:
    """(monotonic time just before the server side wrote, the client's stamp of the read)."""
    with stamped_pair() as (loop, reader, writer):
        wall.shift, wall.delay = open_shift, read_delay
        conn = client._KernelStampedConnection(reader, loop)  # what a connection reads when it opens
        wall.shift = 0.0  # ... and then the wall clock is stepped back to the real time
        stamps: list[float] = []
        conn.response = SimpleNamespace(  # type: ignore[assignment]
            on_data=lambda data, t: stamps.append(t), parser=SimpleNamespace(r=SimpleNamespace(token_times=[])),
            merged=0,
        )
        sent = time.monotonic()  # as the simulated server stamps a chunk: right before the write
        writer.sendall(b"data: {}\n\n")
        # the bytes are in the socket before the loop reads them (a fixed sleep is not enough on a loaded box)
        assert select.select([reader], [], [], 5.0)[0], "the written bytes never reached the reader"
        conn._readable()
        loop.remove_reader(conn.fd)
        assert conn.stamped and len(stamps) == 1  # the kernel's time, not the loop's
        return sent, stamps[0]


@pytest.fixture(scope="module", autouse=True)
def _kernel_stamping_on():
    with stamping_on():  # the kernel's deferred first enabling done before any read here (tests/support)
        yield


@pytest.mark.parametrize(
    ("open_shift", "read_delay"),
    [(0.0015, 0.0), (0.0, 0.002)],
    ids=["wall_stepped_back_1.5ms_after_the_connection_opened", "preempted_2ms_at_every_wall_read"],
)
def test_a_kernel_stamp_is_never_before_the_send(monkeypatch, open_shift, read_delay):
    wall = _Wall()
    monkeypatch.setattr(client, "time", wall)
    sent, stamped = _read_once(wall, open_shift=open_shift, read_delay=read_delay)
    # The promise the e2e test checks: a token is stamped after the server sent it — late by the faked
    # preemption at most (the wall read is bracketed by monotonic reads), never early; 0.25 s: its bound for load
    assert sent <= stamped <= sent + 0.25


def test_a_stamp_newer_than_the_wall_clock_is_refused():
    # the wall clock was stepped back between the bytes' arrival and the read: the age is negative, the stamp
    # unusable, and the read keeps loop time
    assert client._wall_age_to_monotonic(REAL_TIME() + 5.0) is None
    assert client._wall_age_to_monotonic(REAL_TIME() - client.LATE_READ_S - 5.0) is None
    t = client._wall_age_to_monotonic(REAL_TIME() - 0.25)
    assert t is not None and 0.25 <= time.monotonic() - t < 0.25 + 0.05
