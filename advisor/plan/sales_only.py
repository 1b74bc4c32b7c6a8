"""Which parts a cloud sells only through its sales, by the month (issue 25, s32-salesonly33).

Alibaba Cloud's ECS page says the H20's instance family is sold in some regions only, through its sales
(``resources/gpus/node_shapes.json``: ``vm_source.regions`` "on request"). Such a part is compared by the price it is
actually sold at (by the month, or bought), never by an hourly on-demand rate as if it could be rented by the hour
(blind review 21: q07/q19 "switch to L20 if the quote is above 58.52 CNY/h", q03 "perhaps cheaper, about 106.18
CNY/h" inside a purchase). Kept apart from ``instance_on_request`` (which builds a next step from ``result``) so that
``result`` and ``gpu_lead`` can ask without an import cycle.
"""

from __future__ import annotations

from advisor.plan import node_shapes

ON_REQUEST = "on request"


def listed_on_request(gpu_id: str) -> bool:
    """The part's sourced cloud instance sizes are sold through the provider's sales in some regions only."""
    src = node_shapes.vm_source(gpu_id) or {}
    return src.get("regions") == ON_REQUEST


__all__ = ["ON_REQUEST", "listed_on_request"]
