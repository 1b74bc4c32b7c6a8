"""The parts a two-node plan's quote step asks the overseas region's hosts for (issue #25, blind review 35, q05: the
Singapore node on a stand-in L40S while the quote step asked Singapore's hosts for "5 × NVIDIA L20 48GB", the
mainland node's China-market part no host there sells; "say 'get Singapore quotes for L40S/H100' plainly").

Where the GPU price standing in is the overseas node's (its region is the stand-in's), the step names that node's
setup, and the faster card weighed beside it (``node_quicker``) where that too rests on a stand-in there: one
request for both quotes, so the team can choose on real prices.
"""

from __future__ import annotations

from typing import Any


def parts(node: Any, basis: Any) -> str:
    """"2 × NVIDIA L40S 48GB / 2 × NVIDIA H100 SXM5 80GB" for the overseas node priced by a stand-in in its region;
    "" where there is no such node (the step then names the plan's own setup)."""
    if node is None or basis is None or not getattr(basis, "stand_in", False) or not getattr(node, "stand_in", False):
        return ""
    if getattr(basis, "stand_in_region", None) not in (None, node.region):
        return ""
    said = f"{node.total_gpus} × {node.gpu_name}"
    quick = getattr(node, "quicker", None)
    if quick and quick.get("stand_in") and quick.get("gpu") and quick["gpu"] != node.gpu_name:
        said += f" / {quick['n']} × {quick['gpu']}"
    return said


__all__ = ["parts"]
