"""The rent a purchase is weighed against, sized to what the load needs (issue 25, round 13: q31 priced renting at
the 12 L20 cards bought, 3 servers of 4 with a whole spare server, where renting by the card needs the 8 that carry
the peak and 1 spare; q26 at 24 H20, three whole 8-GPU servers, where the cloud rents H20 by 1, 2, 4 or 8 and the
load needs 8 replicas of 2 and 1 spare replica: 18).

A bought setup comes in servers: PCIe cards packed into as few as hold the load, N+1 a whole server (one failure takes
its cards down), SXM/OAM parts on 8-GPU baseboards. A rented one comes in the VM sizes on sale: the same replicas that
carry the peak and the same N+1 (one spare unit), in those units (``gpu_choice.apply_layout`` with ``owned=False``).
Renting is priced on that layout; the memo says the count and why it differs from the purchase.

The rent is also priced at the precision a renter would run (session 26, blind review 15, q26: "it chose bf16 TP2
even though FP8 was allowed … and compares 24 owned cards with 18 rented"). Bought servers keep the better precision
where a lower one the answers accept fills as many whole servers (``layout_search``: 3 H20 servers either way); the
cloud rents by the GPU, so there the lower precision saves GPUs (FP8 TP1 carries the same peak with one down on 13
H20 where BF16 TP2 needs 18): ``leaner`` finds that setup and the rent is priced on it, the memo says in which
precision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import gpu_choice, own_like
from advisor.plan.fleet import FLEET_BASIS
from advisor.sizing.quant import get_format


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
    # bought without a spare server (own_like: a failed one's cards rented for its repair days), the spare replica
    # the servers hold among them is one spare unit rented
    spares = lay.spare_units // max(1, lay.regions) or (1 if own_like.by_rent(cand) else 0)
    rent = lay_out(gpu_choice._copy(cand), max(1, load_replicas), spares)
    return rent if rent.layout is not None else cand


def leaner(bought: Any, ok: list[Any], rent_of: Callable[[Any], Any]) -> Any | None:
    """The setup on the bought GPU at a lower precision the answers accept (one of ``ok``, the setups that meet the
    target) whose rent (``rent_of(setup)``: laid out in rented units for the peak with the headroom and the plan's
    spare) needs fewer GPUs than the bought setup's own rent; None where none does, or ``bought`` is not laid out to
    buy. A tie keeps the bought precision (the same GPUs at a better precision)."""
    lay = getattr(bought, "layout", None)
    if lay is None or not lay.owned or lay.basis == FLEET_BASIS:
        return None
    bits = get_format(bought.weights).bits
    best = rent_of(bought)
    found = None
    for k in ok:
        if k.gpu.id != bought.gpu.id or get_format(k.weights).bits >= bits:
            continue
        r = rent_of(k)
        if r.layout is not None and r.total_gpus < best.total_gpus:
            best, found = r, k
    return found


def record(bought: Any, rent: Any, per_replica: int | None = None) -> dict[str, Any] | None:
    """What the rent is sized to, where it differs from the purchase: the GPUs rented, of them the load's and the
    spare's, the unit rented and the GPUs bought (``Costs.rent_sized``); None where both are the same GPUs. Rented at
    a lower precision (``leaner``): that precision, its TP size and ``per_replica``, the requests one of its replicas
    takes within the target, which sized the load's replicas."""
    if rent is bought or rent.layout is None or rent.total_gpus == bought.total_gpus:
        return None
    lay = rent.layout
    out = {"gpus": rent.total_gpus, "load_gpus": lay.load_units * lay.unit_gpus,
           "spare_gpus": lay.spare_units * lay.unit_gpus, "unit_gpus": lay.unit_gpus,
           "whole_server": lay.whole_server, "bought_gpus": bought.total_gpus,
           # the cards in a server bought: owning is weighed on the rented GPUs in such servers (own_like)
           "bought_unit_gpus": bought.layout.unit_gpus if bought.layout is not None else None}
    if rent.weights != bought.weights:  # rented at the lower precision the answers accept (``leaner``)
        out.update(weights=rent.weights, tp=rent.tp, bought_weights=bought.weights, per_replica=per_replica)
    return out


__all__ = ["leaner", "record", "rented"]
