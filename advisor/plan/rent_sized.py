"""The rent a purchase is weighed against, sized to what the load needs (issue 25, round 13: q31 priced renting at
the 12 L20 cards bought, 3 servers of 4 with a whole spare server, where renting by the card needs the 8 that carry
the peak and 1 spare; q26 at 24 H20, three whole 8-GPU servers, where the cloud rents H20 by 1, 2, 4 or 8 and the
load needs 8 replicas of 2 and 1 spare replica: 18).

A bought setup comes in servers: PCIe cards packed into as few as hold the load, N+1 a whole server (one failure takes
its cards down), SXM/OAM parts on 8-GPU baseboards. A rented one comes in the VM sizes on sale: the same replicas that
carry the peak and the same N+1 (one spare unit), in those units (``gpu_choice.apply_layout`` with ``owned=False``).
Renting is priced on that layout; the memo says the count and why it differs from the purchase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import gpu_choice
from advisor.plan.fleet import FLEET_BASIS


def rented(cand: Any, lay_out: Callable[[Any, int, int], Any], load_replicas: int) -> Any:
    """``cand`` as the cloud rents it where it is laid out to buy: a copy laid out in rented units
    (``lay_out(copy, load_replicas, spares)``, with the purchase's spare units a region, its redundancy: a spare
    server bought becomes a spare unit rented) for ``load_replicas``, the
    replicas that carry the peak with the plan's headroom at the concurrency a replica takes within the target on the
    bought setup's own curve (the memo's "per replica, most within the target"; the bought layout's own load count
    is what its servers were packed from, not what its curve carries); ``cand`` itself elsewhere (already rented, the
    team's fleet, no layout)."""
    lay = getattr(cand, "layout", None)
    if lay is None or not lay.owned or lay.basis == FLEET_BASIS:
        return cand
    rent = lay_out(gpu_choice._copy(cand), max(1, load_replicas), lay.spare_units // max(1, lay.regions))
    return rent if rent.layout is not None else cand


def record(bought: Any, rent: Any) -> dict[str, Any] | None:
    """What the rent is sized to, where it differs from the purchase: the GPUs rented, of them the load's and the
    spare's, the unit rented and the GPUs bought (``Costs.rent_sized``); None where both are the same GPUs."""
    if rent is bought or rent.layout is None or rent.total_gpus == bought.total_gpus:
        return None
    lay = rent.layout
    return {"gpus": rent.total_gpus, "load_gpus": lay.load_units * lay.unit_gpus,
            "spare_gpus": lay.spare_units * lay.unit_gpus, "unit_gpus": lay.unit_gpus,
            "whole_server": lay.whole_server, "bought_gpus": bought.total_gpus}


__all__ = ["record", "rented"]
