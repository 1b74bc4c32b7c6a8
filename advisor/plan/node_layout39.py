"""Why an overseas node's replica spans the GPUs it does (s37-usage39, issue 25, blind review 28 q05: "It uses 8 × L4
as two TP4 replicas over PCIe to carry 18 concurrent requests on a 14B model … Compare one-card replicas on an 80 GB
part, or TP2 L4s, before accepting that").

Where the node moved onto a part its region lists (``node_supply.lead``) with a replica split over several GPUs, the
finding says what the smaller splits of the same part would take (their GPUs and replicas, from the same ranked
screen the node was chosen from, or that none of them meets the target) and the cheapest one-card replica on an
80 GB-or-larger part priced there, with how much more an hour it costs. Not said where a smaller split takes no more
GPUs (q34's TP1 × 4 beside TP2 × 2): the cost did not choose the split there. Every figure is the screen's: nothing
is sized again here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BIG_CARD = 80 * 10**9  # bytes: an 80 GB-class part holds a mid-size model's replica on one card


def _sep(item: dict[str, Any], first: bool) -> dict[str, Any]:
    return item if first else {"tr": "usage39_layout.sep", "item": item}


def why(chosen: Any, ranked: Sequence[Any], listed: Any) -> dict[str, Any] | str:
    """The layout clause for ``chosen`` (a sizing candidate of TP > 1) against ``ranked`` (the node's screened
    setups); ``listed(k)``: whether the region lists a price for ``k``. "" for a one-card replica."""
    if chosen.tp <= 1:
        return ""
    items: list[dict[str, Any]] = []
    tp = 1
    while tp < chosen.tp:
        k = next((x for x in ranked if x.gpu.id == chosen.gpu.id and x.tp == tp and x.weights == chosen.weights),
                 None)
        if k is not None and k.total_gpus <= chosen.total_gpus:  # as few GPUs: not the cost that chose the split
            return ""  # (latency or the servers on sale did: said elsewhere, if at all)
        items.append({"tr": "usage39_layout.misses", "tp": tp} if k is None else
                     {"tr": "usage39_layout.needs", "tp": tp, "n": k.total_gpus, "replicas": k.replicas})
        tp *= 2
    own = chosen.price_mid * chosen.total_gpus
    one = next((x for x in ranked if x.tp == 1 and x.gpu.id != chosen.gpu.id and x.gpu.memory_bytes >= BIG_CARD
                and listed(x)), None)
    if one is not None and own > 0:
        more = round((one.price_mid * one.total_gpus / own - 1) * 100)
        if more > 0:
            items.append({"tr": "usage39_layout.one_card", "gpu": one.gpu.name, "n": one.total_gpus, "more": more})
    slots = {s: (_sep(it, i == 0) if i < len(items) else "") for i, (s, it) in
             enumerate(zip(("a", "b", "c"), [*items, {}, {}, {}], strict=False))}
    return {"tr": "usage39_layout.line", "tp": chosen.tp, "n": chosen.total_gpus, "replicas": chosen.replicas,
            "gpu": chosen.gpu.name, **slots}


__all__ = ["why"]
