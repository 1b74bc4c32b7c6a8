"""Which kind of link joins a GPU to the others of its node, as the speed model prices tensor parallelism over it.

Three kinds: NVLink; a vendor's own full-mesh link between the accelerators of one node (AMD Infinity Fabric on the
MI300X OAM baseboard, Huawei HCCS on an Atlas 800 910B node), which moves hundreds of GB/s like NVLink; and PCIe (or
no link at all), where the all-reduces cross the host bridge. The mesh links were priced as PCIe at 64 GB/s until
s23 (twelfth blind review, q08: "modelling the 910B inter-card link as PCIe ... far too pessimistic for HCCS-linked
Atlas 800 cards"); their bandwidth is the catalog's ``interconnect_bytes_per_s``, with its source there.
"""

from __future__ import annotations

from typing import Literal

from advisor.domain.gpu import GpuSpec

LinkKind = Literal["nvlink", "mesh", "pcie"]
# catalog interconnects that are a full mesh between a node's accelerators (advisor.domain.gpu.Interconnect)
MESH_INTERCONNECTS = ("infinity-fabric", "hccs")


def link_kind(gpu: GpuSpec) -> LinkKind:
    """NVLink, a vendor mesh with a known bandwidth, or PCIe (a mesh whose bandwidth is unknown stays PCIe: an unknown
    link is never priced as a fast one)."""
    if gpu.interconnect == "nvlink":
        return "nvlink"
    if gpu.interconnect in MESH_INTERCONNECTS and gpu.interconnect_bytes_per_s:
        return "mesh"
    return "pcie"


def fast_link(gpu: GpuSpec) -> bool:
    """The node's GPUs talk over NVLink or a vendor mesh, not across PCIe."""
    return link_kind(gpu) != "pcie"


__all__ = ["MESH_INTERCONNECTS", "LinkKind", "fast_link", "link_kind"]
