"""The N+1 finding of a two-node plan (mainland + overseas) with each node's own count (blind review 34, q34).

Each node of such a plan is sized for its own share of the peak with its own spare (``two_nodes``,
``overseas_node``). The finding's title gave only the mainland node's figures ("1 cloud VM carries the peak, plus 1
spare … one spare on each node"), which is wrong for a node that carries its share on more units: q34's Singapore
node runs 3 × L4 for its share plus 1 spare. Here the title and detail say both nodes' units: those that carry the
node's share of the peak and its spare, and what each runs in all.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.rule_base import _region


def params(f: Any, lay: Any, unit: str) -> dict[str, Any] | None:
    """The finding's parameters for both nodes, or None where the plan is not laid out as two nodes each with a
    spare (the general text then serves)."""
    node = getattr(f, "overseas_node", None)
    if node is None or getattr(f, "node_ctx", None) is None or node.node is None:
        return None
    o_lay = getattr(node.node.cand, "layout", None)
    if o_lay is None or not o_lay.spare_units or not lay.spare_units:
        return None
    o_unit = "server" if o_lay.whole_server else ("replica" if unit == "replica" else "vm")
    return {
        "load": lay.load_units, "unit": {"tr": f"plan.unit.{unit}", "n": lay.load_units},
        "more": {"tr": f"plan.burst15.more.{unit}", "n": lay.spare_units},
        "all": {"tr": f"plan.burst15.all.{unit}", "n": lay.units}, "total": lay.total_gpus,
        "overseas": _region(node.region), "o_load": o_lay.load_units,
        "o_unit": {"tr": f"plan.unit.{o_unit}", "n": o_lay.load_units},
        "o_more": {"tr": f"plan.burst15.more.{o_unit}", "n": o_lay.spare_units},
        "o_all": {"tr": f"plan.burst15.all.{o_unit}", "n": o_lay.units}, "o_total": node.total_gpus,
        "o_gpu": node.gpu_name, "one_m": {"tr": f"plan.burst15.one.{unit}"},
    }  # fmt: skip


__all__ = ["params"]
