"""Page 1's Hardware row names the GPUs once (issue 25; blind review 31, q01/q03/q06): the servers or cloud VMs they
come in lead, the replicas follow, not "1 server of 2 × 4090 D; 2 × 4090 D: 1 replica of 2 GPUs"."""

from __future__ import annotations

from typing import Any

from advisor.plan import memo_text15
from advisor.plan.result import render


def row(result: Any, lang: str, split: tuple[int, int] | None = None) -> str | None:
    """The row led by the units bought or rented; None where they count other GPUs than the replicas use (then both
    are said) or on the team's own fleet (its own wording). ``split``: (always on, for events) replicas."""
    hw = result.hardware
    lay = hw.layout
    if lay is None or lay.fleet_count is not None or lay.units * lay.unit_gpus != hw.total_gpus:
        return None
    text = lay.text_in(lang, hw.gpu_name or hw.gpu)
    if lay.units == 1 and memo_text15.workstation(result):  # the box the headline calls a workstation is one here too
        # (blind review 36, q01: "the memo says both 'workstation' and '1 server' for the same box; use one word")
        text = render(lang, "own44.layout.workstation", {"n": lay.unit_gpus, "gpu": hw.gpu_name or hw.gpu})
    if lay.units > 1 and lay.unit_gpus > 1:  # "2 servers of 8 × H20" with its 16 in all, the count the costs bill
        text += render(lang, "consist41.hw.total", {"total": hw.total_gpus})
    params: dict[str, Any] = {"layout": text, "replicas": hw.replicas,
                              "per": hw.gpus_per_replica, "weights": hw.weights or "—"}
    # one replica to a unit: "8 cloud VMs of 1 × L20, one replica each" (the unit's GPUs are the replica's)
    each = lay.units > 1 and lay.units == hw.replicas and lay.unit_gpus == hw.gpus_per_replica
    # "6 cloud VMs of 4 × L4 (24 GPUs), one replica of 4 GPUs on each": the replica's size said where it is several
    key = ("consist41.hw.each_multi" if hw.gpus_per_replica > 1 else "consist41.hw.each") if each else \
        "consist41.hw.replicas"
    if split is not None:
        key += "_split"
        params.update(warm=split[0], events=split[1])
    return render(lang, key, params)
