"""Whether the work a plan moves off the fleet's busy cards fits the idle cards it moves onto (blind review 16,
q04: the H20s' other work moved onto the L20s "without checking that those workloads fit in 48 GB or tolerate L20
speed"). The plan does not know what that work is, so it cannot check it: where the cards taking it have less
memory than the cards it leaves, the fleet finding says so and asks the owners to check it before the move."""

from __future__ import annotations

from typing import Any

from advisor.plan import gpu_choice
from advisor.plan.data import gpus_by_id


def _gb(gpu_id: str) -> int | None:
    """A card's memory as it is named ("L20 48GB" is 48 GiB); None where the catalogue has no figure."""
    spec = gpus_by_id().get(gpu_id)
    if spec is None or not spec.memory_bytes:
        return None
    return round(spec.memory_bytes / 1024**3)


def fits_clause(c: Any, gpu_id: str) -> dict[str, Any] | str:
    """{"tr", "other", "other_mem", "mem"} where the fleet's idle cards of another type (those ``fleet.movable``
    counts) have less memory a card than ``gpu_id``, naming the smallest of them; "" otherwise."""
    from advisor.plan.fleet import free_gpus

    mem = _gb(gpu_id)
    others = [(g, _gb(g)) for g, n in gpu_choice.fleets(c) if g != gpu_id and free_gpus(n, c.utilisation) > 0]
    smaller = [(g, m) for g, m in others if m is not None and mem is not None and m < mem]
    if not smaller:
        return ""
    g, m = min(smaller, key=lambda x: x[1])
    return {"tr": "fleet26.fleet.moved_fits", "other": gpus_by_id()[g].name, "other_mem": m, "mem": mem}


__all__ = ["fits_clause"]
