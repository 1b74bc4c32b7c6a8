"""Which cloud price rows can price a replica of ``tp`` GPUs (blind review 25, q25: "'6 × A10 (TP2) … at AWS
g5.xlarge's list price' cannot work: g5.xlarge has one GPU and TP2 needs both GPUs in one VM").

A tensor-parallel replica runs inside one machine, so a TP-n layout is priced only on an instance that holds at
least n GPUs of the part. A built-in row that prices one instance size says so in ``vm_gpus`` (the GPUs in the VM
its price is for: ``[1]`` for AWS g5.xlarge, ``[4]`` for g5.12xlarge, the price ÷ 4). A row without ``vm_gpus`` is a
per-GPU price of a provider that sells multi-GPU machines by the GPU (a market survey, a marketplace's per-GPU
rate): it prices any TP. Of a provider's sized rows in one region, the smallest instance that holds the replica is
the one priced (a TP1 replica stays on g5.xlarge, not a quarter of g5.12xlarge). A row of an instance sold only whole
(``whole_instance_gpus``: AWS p4de.24xlarge, 8 GPUs) is sized too, by that instance: where the region also has a
smaller instance that holds the replica (Google Cloud's one-GPU a2-ultragpu-1g in Singapore), the smaller one is
priced, never an eighth of the whole instance that the plan could not rent on its own (issue #25, blind review 30).
A user's quote keeps its own shape (``gpu_choice.apply_layout`` rounds the layout to it) and always stays.
"""

from __future__ import annotations

from advisor.plan.result import PriceRow


def holds(row: PriceRow, tp: int) -> bool:
    """The row's instance holds one replica of ``tp`` GPUs (a row with no instance size: sold by the GPU)."""
    return row.user_quote or not _sizes(row) or max(_sizes(row)) >= tp


def _sizes(row: PriceRow) -> list[int]:
    """The instance sizes (GPUs) the row's price is for: ``vm_gpus``, or the one size of an instance sold only whole;
    none for a row sold by the GPU."""
    if row.vm_gpus:
        return list(row.vm_gpus)
    return [int(row.whole_instance_gpus)] if row.whole_instance_gpus else []


def fitting(rows: list[PriceRow], tp: int = 1) -> list[PriceRow]:
    """``rows`` that can price a replica of ``tp`` GPUs: sized rows whose instance holds it, the smallest such of
    each provider and region; unsized rows and quotes as they are. Order kept."""
    sized = [r for r in rows if _sizes(r) and not r.user_quote and holds(r, tp)]
    least: dict[tuple[str, str | None], int] = {}
    for r in sized:
        key = (r.region, r.provider)
        least[key] = min(least.get(key, 99), _size(r, tp))
    return [r for r in rows if not _sizes(r) or r.user_quote
            or (holds(r, tp) and _size(r, tp) == least[(r.region, r.provider)])]  # fmt: skip


def _size(row: PriceRow, tp: int) -> int:
    """The smallest instance size of the row that holds ``tp`` GPUs."""
    return min(s for s in _sizes(row) if s >= tp)


def vm_sizes(rows: list[PriceRow]) -> list[int] | None:
    """The instance sizes a layout rounds to where every row pricing it prices one instance size (the built-in rows'
    ``vm_gpus``: a TP2 replica on AWS's A10 comes in 4-GPU g5.12xlarge VMs); None where any row is sold by the GPU
    (the part's sourced VM sizes then apply: ``node_shapes``)."""
    built = [r for r in rows if not r.user_quote]
    if not built or not all(r.vm_gpus for r in built):
        return None
    return sorted({s for r in built for s in r.vm_gpus or []})


def whole_only(rows: list[PriceRow]) -> int | None:
    """The GPUs of the instance where every built-in row pricing a setup is the per-GPU share of an instance sold
    only whole (``whole_instance_gpus``: AWS p4de.24xlarge, 8 × A100 80GB), and no quote prices it; else None. Such
    a setup is rented as whole instances at the full rate, never as the share (blind review 28, q37: "4 one-GPU VMs"
    costed at an eighth of p4de, which AWS rents only whole)."""
    if not rows or any(r.user_quote or not r.whole_instance_gpus for r in rows):
        return None
    return max(int(r.whole_instance_gpus or 0) for r in rows)


__all__ = ["fitting", "holds", "vm_sizes", "whole_only"]
