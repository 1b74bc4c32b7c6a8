"""The project clock: one monotonic time base for telemetry samples AND benchmark request records.

Why monotonic: wall-clock time can jump (NTP, daylight saving, a user changing the clock) in the middle
of a run, which would misplace samples against requests. ``time.monotonic()`` never goes backwards and
is shared by every thread of the process, so a GPU sample taken in the sampler thread and a request
timestamp taken in the benchmark thread can be compared directly.

Contract (the benchmark engine imports this module too):

- ``now_s()`` — seconds as a float on the monotonic clock. Use it for every timestamp that must line up
  with telemetry (request sent, first token, last token, step start/end, sample taken).
- ``WALL_ANCHOR`` — one pair (monotonic seconds, Unix wall seconds) captured at import; ``to_wall_s(t)``
  turns a project-clock time into Unix time for display and export, ``from_wall_s(w)`` the reverse.
  The anchor is per process: store wall times (or the anchor) with a run if it is read by another process.
- ``current_anchor()`` — the anchor those two use by default: re-captured once the wall clock has been
  stepped (an NTP step, a laptop's suspend — the monotonic clock stops while suspended —, a user setting
  the clock) by more than ``STEP_TOLERANCE_S`` since it was taken, so a sample written now carries the
  wall time the machine reads now, not one hours stale. Durations never use it: they stay monotonic.

The monotonic clock has no meaning across processes or reboots; that is what the wall anchor is for.
"""

from __future__ import annotations

import time
from typing import NamedTuple


class WallAnchor(NamedTuple):
    monotonic_s: float
    wall_s: float


def now_s() -> float:
    """Project clock: monotonic seconds (float). Samples and request records are stamped with this."""
    return time.monotonic()


def _capture_anchor() -> WallAnchor:
    # Read the monotonic clock on both sides of the wall-clock read and take the midpoint, so the
    # anchor's error is at most half the (sub-microsecond) gap between the reads.
    before = time.monotonic()
    wall = time.time()
    after = time.monotonic()
    return WallAnchor((before + after) / 2.0, wall)


WALL_ANCHOR: WallAnchor = _capture_anchor()
_current: WallAnchor = WALL_ANCHOR
# NTP slews by well under a second over a session; a larger gap between the anchor's mapping and the wall
# clock means the clock was stepped (seen on CI VMs: 12–15 s), and the mapping is re-taken.
STEP_TOLERANCE_S = 0.5


def current_anchor() -> WallAnchor:
    """The process anchor, re-captured when the wall clock has stepped away from it (see the module note)."""
    global _current
    fresh = _capture_anchor()
    if abs(to_wall_s(fresh.monotonic_s, _current) - fresh.wall_s) > STEP_TOLERANCE_S:
        _current = fresh
    return _current


def to_wall_s(t_s: float, anchor: WallAnchor | None = None) -> float:
    """Unix time (seconds) of a project-clock time."""
    anchor = anchor or current_anchor()
    return anchor.wall_s + (t_s - anchor.monotonic_s)


def from_wall_s(wall_s: float, anchor: WallAnchor | None = None) -> float:
    """Project-clock time of a Unix time (seconds)."""
    anchor = anchor or current_anchor()
    return anchor.monotonic_s + (wall_s - anchor.wall_s)
