"""What can actually be bought or rented: whole 8-GPU servers for SXM/OAM parts, 1/2/4/8 PCIe cards to a server,
and cloud VMs of the sizes a source shows on sale (``resources/gpus/node_shapes.json``).

A plan's GPU count is rounded up to whole units (servers or VMs); the GPUs that rounding adds serve as more
replicas, and redundancy (N+1) adds whole units, per region when the plan has two nodes. The memo then says
"1 server of 8 × H20", never "11 × H800 SXM, 1 GPU each".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from advisor.resources import load_json

OWNED_FORMS = ("bare_metal", "cloud_then_bare_metal", "on_premises", "hybrid")
# a rented part whose only price rows are the per-GPU share of an instance sold whole (AWS p4de.24xlarge): whole
# instances, like a part with no sourced VM size (``no_vm_source``); both are said as "whole servers only" (WHOLE_BASES)
WHOLE_INSTANCE = "whole_instance"
WHOLE_BASES = ("no_vm_source", WHOLE_INSTANCE)


@cache
def shapes() -> dict[str, Any]:
    return load_json("gpus", "node_shapes.json")


@dataclass(frozen=True)
class Shape:
    """How one GPU comes: ``sizes`` are the GPUs per server/VM on sale, ``basis`` where that comes from."""

    form_factor: str  # sxm | oam | pcie
    sizes: tuple[int, ...]
    whole_server: bool  # the unit is an 8-GPU server (baseboard)
    basis: str  # "quote" | "vm_source" | "form_factor" | "no_vm_source" (SXM in the cloud with no sourced VM size)
    owned: bool = False  # bought (or bare metal): PCIe cards are packed into servers of up to 8


def form_factor(gpu_id: str) -> str:
    entry = shapes()["gpus"].get(gpu_id) or {}
    return str(entry.get("form_factor", "pcie"))


def shape_of(gpu_id: str, owned: bool, quote_vm_gpus: list[int] | None = None) -> Shape:
    """The units one GPU is bought (``owned``) or rented in. A quote's own VM size wins; then a sourced cloud VM
    size; SXM/OAM parts with neither come as whole 8-GPU servers."""
    ff = form_factor(gpu_id)
    server = tuple(shapes()["form_factors"][ff]["server_gpus"])
    if owned:
        return Shape(ff, server, ff != "pcie", "form_factor", owned=True)
    if quote_vm_gpus:
        return Shape(ff, tuple(sorted(set(quote_vm_gpus))), False, "quote")
    vm = (shapes()["gpus"].get(gpu_id) or {}).get("cloud_vm_gpus")
    if vm:
        return Shape(ff, tuple(vm), False, "vm_source")
    if ff == "pcie":
        return Shape(ff, server, False, "form_factor")
    return Shape(ff, server, True, "no_vm_source")


def vm_source(gpu_id: str) -> dict[str, Any] | None:
    return (shapes()["gpus"].get(gpu_id) or {}).get("vm_source")


@dataclass(frozen=True)
class Layout:
    """The plan's GPUs as units on sale: ``units`` servers/VMs of ``unit_gpus`` each, per region."""

    gpu: str
    form_factor: str
    unit_gpus: int
    units: int
    whole_server: bool
    basis: str
    tp: int
    load_replicas: int  # replicas the peak needs (the sizing screen and the predictor)
    load_units: int  # units those replicas need
    spare_units: int  # added for redundancy (N+1), over all regions
    regions: int
    owned: bool = False  # laid out to buy (whole servers, cards packed) rather than to rent

    @property
    def total_gpus(self) -> int:
        return self.units * self.unit_gpus

    @property
    def replicas(self) -> int:
        return self.units * (self.unit_gpus // self.tp)

    @property
    def load_gpus(self) -> int:
        return self.load_replicas * self.tp


def unit_for(shape: Shape, tp: int) -> int:
    """The smallest unit on sale that holds one replica (``tp`` GPUs); the largest when none does."""
    fit = [s for s in shape.sizes if s >= tp]
    return min(fit) if fit else max(shape.sizes)


def layout(gpu_id: str, tp: int, load_replicas: int, shape: Shape, *, spare: int = 0,
           region_shares: tuple[float, ...] = (1.0,)) -> Layout:
    """Round ``load_replicas`` × ``tp`` GPUs up to whole units of ``shape``; each region carries its share of the
    load (at least one unit) plus ``spare`` units. Replicas pack into a unit (8 ÷ tp to an 8-GPU server)."""
    unit = unit_for(shape, tp)
    if shape.owned and not shape.whole_server:  # bought PCIe cards: as few servers as hold a region's load
        most = max(max(1, math.ceil(load_replicas * share - 1e-9)) for share in region_shares) * tp
        unit = unit_for(shape, min(max(shape.sizes), max(tp, most)))
        if spare:
            unit = _spare_server(shape, tp, load_replicas, spare, region_shares, unit)
    units, load_units = _units(unit, tp, load_replicas, spare, region_shares)
    return Layout(gpu=gpu_id, form_factor=shape.form_factor, unit_gpus=unit, units=units,
                  whole_server=shape.whole_server, basis=shape.basis, tp=tp, load_replicas=load_replicas,
                  load_units=load_units, spare_units=spare * len(region_shares), regions=len(region_shares),
                  owned=shape.owned)  # fmt: skip


SPARE_SERVER_MIN_GPUS = 4  # a bought server of fewer cards multiplies chassis, power supplies and rack units


def _units(unit: int, tp: int, load_replicas: int, spare: int, region_shares: tuple[float, ...]) -> tuple[int, int]:
    """(all units, the units the load needs) for ``load_replicas`` of ``tp`` GPUs in units of ``unit`` GPUs."""
    per_unit = max(1, unit // tp)
    units = load_units = 0
    for share in region_shares:
        need = max(1, math.ceil(load_replicas * share - 1e-9))
        n = max(1, math.ceil(need / per_unit))
        load_units += n
        units += n + spare
    return units, load_units


def _spare_server(shape: Shape, tp: int, load_replicas: int, spare: int, region_shares: tuple[float, ...],
                  fewest_servers: int) -> int:
    """Bought PCIe cards with a spare server (N+1 is a whole server: one failure takes its cards down): the server
    size that buys the fewest cards, load and spare together, among the sizes of at least four cards; ties keep the
    larger server (re-check 12b, q31: two 8-card servers bought where 8 cards carry the peak, when three 4-card
    servers carry it with one down)."""
    sizes = [s for s in shape.sizes if s >= max(tp, SPARE_SERVER_MIN_GPUS) and s <= fewest_servers]
    if not sizes:
        return fewest_servers
    return min(sizes, key=lambda s: (s * _units(s, tp, load_replicas, spare, region_shares)[0], -s))


__all__ = ["OWNED_FORMS", "Layout", "Shape", "form_factor", "layout", "shape_of", "shapes", "unit_for"]
