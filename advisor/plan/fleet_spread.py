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


def machine_left(replicas: int, tp: int, fleet_gpus: int, whole: bool) -> int | None:
    """Replicas left with the machine that holds the most of them down: the 8-GPU servers of an SXM/OAM fleet
    (``server_left``), else a PCIe fleet taken as two machines of half its cards each, the smallest split of more
    than one (as ``placement_rules`` says it: q33's two workstations of 4 × 4090 D), the replicas as evenly as they go;
    None where no such split holds them."""
    if whole:
        return server_left(replicas, tp, fleet_gpus)
    per = fleet_gpus // 2
    if replicas < 2 or fleet_gpus % 2 or per < tp or replicas * tp > fleet_gpus:
        return None
    most = min(per // tp, math.ceil(replicas / 2))
    return None if replicas - most > per // tp else replicas - most


__all__ = ["SERVER_GPUS_SXM", "machine_left", "rides_out_a_server", "server_left", "server_spread"]
