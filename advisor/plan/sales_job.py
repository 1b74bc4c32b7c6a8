"""A job on a rented part sold only through the cloud's sales: the part to run it on meanwhile (issue #25, blind
review 24, q28 en: "L20 is listed on demand at ¥14.63 and needs 281 GPU-hours … It should be named as the concrete
fallback with its GPU count"; zh: sold through sales, typically by the month, a monthly minimum breaks the budget).

A job's memo has no service GPU choice (``sales_wait.start_on`` reads that); its runner-up is in the finding that
says why the chosen part (``sizing.batch_gpu_choice``): the GPUs the deadline needs on it, its listed price a
GPU-hour and the job's GPU-hours on it. That part is the one to run the job on when the delivery is late or the
sales-only part is sold only by the month: rented by the hour at a sourced price, never a sales-only or
export-sensitive part itself.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import facts
from advisor.plan.sales_only import listed_on_request

FINDING = "sizing.batch_gpu_choice"
FALLBACK_KEY = "salesdl35.timeline.sales_fallback_job"


def start_on(result: Any) -> dict[str, Any] | None:
    """The runner-up GPU to run the job on, as the why-this-GPU finding states it (count, name, listed price a
    GPU-hour, GPU-hours and the work's cost on it), as a ``{"tr": …}`` clause; None where there is none."""
    f = next((x for x in result.findings if x.id == FINDING), None)
    if f is None:
        return None
    p = f.params
    gid = p.get("other_id")
    sensitive = set(facts()["gpu_availability"]["export_sensitive"])
    if not gid or not p.get("other_listed") or listed_on_request(gid) or gid in sensitive:
        return None
    return {"tr": FALLBACK_KEY, "n": p["other_gpus"], "gpu": p["other"], "price": p["other_price"],
            "hours": p["other_hours"], "work": p["other_work"]}


__all__ = ["FALLBACK_KEY", "start_on"]
