"""The servers an engineer's share is counted for, one rule for every owning figure (session 27, issue #25: the
owning month in ``cost.compute`` counted staff per 8 GPUs while the owning form in ``forms._own`` counted it per
server bought, so q31's 3 servers of 4 × L20 carried 2 servers' staff in one place and 3 in the other).

``staff_fte`` (prices.json) is "the share of an engineer's time a GPU server needs": a server is what is racked,
patched, watched and sent back for repair whatever its card count, so the count is the servers the plan buys
(``unit_gpus`` cards each). Where the GPUs are not laid out in servers (the team's own fleet, a rented setup costed
as owned) they are counted as 8-GPU servers, the largest single server in the price rows (8 × H20, 8 × H100).
"""

from __future__ import annotations

import math

UNLAID_SERVER_GPUS = 8  # GPUs counted as one server where the plan lays out no servers


def count(gpus: int, unit_gpus: int | None = None) -> int:
    """The servers ``gpus`` GPUs fill: servers of ``unit_gpus`` cards where the plan buys servers, else of
    ``UNLAID_SERVER_GPUS``; at least one."""
    size = unit_gpus if unit_gpus and unit_gpus > 0 else UNLAID_SERVER_GPUS
    return max(1, math.ceil(gpus / size))


__all__ = ["UNLAID_SERVER_GPUS", "count"]
