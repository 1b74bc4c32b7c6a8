"""A rented plan on instances smaller than a whole server that a cloud lists only "on request" (issue 25, s18-h20rows).

Alibaba Cloud's ECS page lists the H20's family (gn8v: 96 GB HBM3 at 4 TB/s, NVLink 900 GB/s) in 1-, 2-, 4- and
8-GPU instance types, and says the family is sold in some regions, overseas ones included, through its sales
(``resources/gpus/node_shapes.json``: ``vm_source.regions`` "on request"). The plan rents the part in those sizes
(blind review: memos picked 2-card L20 replicas while their own weighing showed the H20 at 2.8 × the bandwidth per
CNY, only because the H20 was priced as whole 8-card servers), so the first step is to confirm that size in the
user's region with a price: the size is listed, its availability there and its hourly price are not.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import node_shapes
from advisor.plan.result import NextStep
from advisor.plan.sales_only import ON_REQUEST, listed_on_request

RENTED_FORMS = ("cloud", "cloud_then_bare_metal")


def confirm_first(steps: list[NextStep], hardware: Any, form: str) -> list[NextStep]:
    """``steps`` with "ask for this instance size in your region, with a price" first, where the rented plan sits on
    instances smaller than a whole server of a part whose sizes are listed on request; unchanged otherwise."""
    lay = getattr(hardware, "layout", None)
    if form not in RENTED_FORMS or lay is None or lay.basis != "vm_source" or not listed_on_request(hardware.gpu):
        return steps
    if lay.unit_gpus >= max(node_shapes.shapes()["form_factors"][lay.form_factor]["server_gpus"]):
        return steps  # whole servers: nothing smaller to confirm
    first = NextStep(id="confirm_instance", key="h20rows18.next.confirm_instance", params={
        "gpu": hardware.gpu_name or hardware.gpu, "unit": lay.unit_gpus, "units": lay.units})
    return [first, *(s for s in steps if s.id != "confirm_instance")]


__all__ = ["ON_REQUEST", "confirm_first", "listed_on_request"]
