"""Replicas spread over a fleet's 8-GPU servers: how many servers they sit on, the most on any one, and whether
the replicas left with that server down still carry the load. One arithmetic for the placement finding
(``placement_rules``) and for the spare replicas the fleet's idle GPUs give (``fleet.idle_spares``)."""

from __future__ import annotations

import math

SERVER_GPUS_SXM = 8  # SXM/OAM parts sit on 8-GPU baseboards: a fleet of them is in servers of 8


def server_spread(replicas: int, tp: int, fleet_gpus: int) -> tuple[int, int] | None:
    """(servers, most on any one) for ``replicas`` of ``tp`` GPUs spread as widely as a fleet of ``fleet_gpus``
    SXM/OAM GPUs allows; None with fewer than two servers to spread over."""
    servers = min(replicas, fleet_gpus // SERVER_GPUS_SXM, replicas * tp)
    if servers < 2:
        return None
    return servers, math.ceil(replicas / servers)


def rides_out_a_server(replicas: int, load: int, tp: int, fleet_gpus: int) -> bool:
    """With the server that holds the most replicas down, the rest still number ``load`` (False with one server)."""
    spread = server_spread(replicas, tp, fleet_gpus)
    return spread is not None and replicas - spread[1] >= load


def server_left(replicas: int, tp: int, fleet_gpus: int) -> int | None:
    """Replicas left with the server that holds the most of them down, spread as widely as the fleet allows; None
    with fewer than two servers to spread over."""
    spread = server_spread(replicas, tp, fleet_gpus)
    return None if spread is None else replicas - spread[1]


__all__ = ["SERVER_GPUS_SXM", "rides_out_a_server", "server_left", "server_spread"]
