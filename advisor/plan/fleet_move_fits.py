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
    """{"tr", "other", "other_mem", "mem", "gpu"}, with the receiving cards' own load where the fleet's counts give it
    (``_their_load``), where the fleet's idle cards of another type (those ``fleet.movable`` counts) have less
    memory a card than ``gpu_id``, naming the smallest of them; "" otherwise."""
    from advisor.plan.fleet import free_gpus

    mem = _gb(gpu_id)
    others = [(g, _gb(g)) for g, n in gpu_choice.fleets(c) if g != gpu_id and free_gpus(n, c.utilisation) > 0]
    smaller = [(g, m) for g, m in others if m is not None and mem is not None and m < mem]
    if not smaller:
        return ""
    g, m = min(smaller, key=lambda x: x[1])
    # the cards the work leaves named beside their memory (r19 q04 zh: "L20 48GB（每张 48 GB，这里每张 96 GB）" read
    # as garbled: "here" named no card)
    fits = {"tr": "fleet26.fleet.moved_fits", "other": gpus_by_id()[g].name, "other_mem": m, "mem": mem,
            "gpu": gpus_by_id()[gpu_id].name}
    load = _their_load(c, gpu_id, g, mem, m)
    return {**fits, **load} if load is not None else fits  # one sentence: their memory and their own load


def _their_load(c: Any, gpu_id: str, other: str, mem: int | None, other_mem: int) -> dict[str, Any] | None:
    """The receiving cards' own load (review 17b, q04: "the L20s' own load is never checked"): one utilisation
    was given for the whole fleet, so they are taken as busy as it says; their free cards against what the most
    work that ever moves (every busy card's, as the recommended last replica moves it) needs at most, a card's
    worth of memory over theirs each (1 H20's 96 GB needs up to 2 L20)."""
    import math

    from advisor.plan.fleet import free_gpus

    counts = dict(gpu_choice.fleets(c))
    count, theirs = counts.get(gpu_id), counts.get(other)
    if not count or not theirs or mem is None:
        return None
    busy = count - free_gpus(count, c.utilisation)
    free = free_gpus(theirs, c.utilisation)
    if busy <= 0:
        return None
    ratio = math.ceil(mem / other_mem - 1e-9)
    need = busy * ratio
    return {"tr": "gpu28.fleet.their_load" if need <= free else "gpu28.fleet.their_load_short",
            "util": round(100 * c.utilisation), "free": free, "count": theirs, "busy": busy, "need": need,
            # the cards a busy card's work takes, said (review 23, q04: "at most 10" read as a third count of busy cards)
            "ratio": ratio}


__all__ = ["fits_clause"]
