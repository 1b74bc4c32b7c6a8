"""A rented part sold only through the cloud's sales: the launch waits on its delivery (issue 25, blind review 23,
q32/q42: H20 "sold only by the month through sales" at a placeholder price, "yet the earliest launch is given as
'1–5 days', which ignores the sales lead time").

Alibaba Cloud sells the H20's instance family in some regions only, through its sales (``sales_only``). No source
here states how long its sales take to deliver, so the order is a blocking step of unknown length (never 0 days):
the launch row then reads "after what next step 1 lists (length unknown), then 1–5 days to set up", and a deadline
is met only if the delivery comes within the days the set-up leaves. The step names the cheapest alternative the
memo's GPU choice lists on a sourced, on-demand price (the L20 at Alibaba's quote) as the part to start on if the
delivery is late: a part that can be rented today at a listed price.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import sales_job
from advisor.plan.data import facts
from advisor.plan.result import NextStep, PlanResult, TimelineItem
from advisor.plan.sales_only import listed_on_request

ITEM_ID = "sales_order"
RENTED_FORMS = ("cloud", "cloud_then_bare_metal")
CONFIRM_KEY = "supply34.next.confirm_delivery"  # the confirm-instance step (instance_on_request) asking the date
GATE_KEY = "supply34.next.confirm_delivery_gate"  # the same step naming the delivery, as the step the launch waits on


def start_on(result: PlanResult) -> dict[str, Any] | None:
    """The first alternative of the GPU choice rented at a sourced price, by the hour (not sold only through a
    sales desk, not a purchase): its count, name and cost an hour as the choice states them; None if none."""
    g = result.gpu_choice
    if g is None:
        return None
    # never a part whose own supply is in doubt (export-sensitive: the A800/H800 stock, the H200): it is no part to
    # start on while waiting for another (q40 named 16 × A800)
    sensitive = set(facts()["gpu_availability"]["export_sensitive"])
    for a in g.alternatives:
        if a.price_sourced and a.purchase is None and not listed_on_request(a.gpu) and a.gpu != g.chosen.gpu \
                and a.gpu not in sensitive:
            return {"n": a.gpus, "gpu": a.gpu_name, "per_hour": f"{a.per_hour:,.2f}",
                    "currency": g.currency}
    return None


def apply(result: PlanResult, form: str) -> None:
    """Add the delivery as a step of unknown length where the plan rents a part sold only through the cloud's sales,
    the confirm-instance step asking its date (and naming the part to start on), and leave the deadline open (met
    only if the delivery comes within the set-up's slack). Where page 1 leads with a hosted API, the API's launch
    does not wait on it: only the quote step asks the date and names the part to start on."""
    hw, tl = result.hardware, result.timeline
    # an infeasible plan's launch waits on its blockers first: a delivery beside them is noise (q07's 双减, q40)
    if form not in RENTED_FORMS or not hw.gpu or not listed_on_request(hw.gpu) or not result.feasible:
        return
    if any(i.id == ITEM_ID for i in tl.items):
        return
    from advisor.plan.api_lead_steps import leads_with_api

    other = start_on(result)
    fallback: Any = {"tr": "supply34.timeline.sales_fallback", **other} if other is not None else ""
    fallback = fallback or sales_job.start_on(result) or ""  # a job: its runner-up GPU (salesdl35, q28)
    blocking = not leads_with_api(result)
    item = TimelineItem(id=ITEM_ID, label_key="supply34.timeline.sales_order", days_low=None, days_high=None,
                        blocking=blocking, label_params={"gpu": hw.gpu_name or hw.gpu},
                        ask_key="supply34.timeline.sales_ask")  # the part to start on: in the step, said once
    if blocking:  # an API's launch does not wait on it: the quote step asks the date, the timeline adds nothing
        at = next((n for n, i in enumerate(tl.items) if i.id == "setup"), len(tl.items))
        tl.items.insert(at, item)
    delivery = {"tr": item.label_key, **item.label_params, "clause": True}
    result.next_steps = [s.model_copy(update={"key": CONFIRM_KEY, "params": {
        **s.params, "delivery": delivery, "fallback": fallback}}) if s.id == "confirm_instance" else s
        for s in result.next_steps]
    if blocking and tl.deadline_days is not None and tl.meets_deadline:  # met only if delivered within the slack
        tl.meets_deadline = None
        tl.deadline_slack_days = tl.deadline_days - tl.launch_days_high


def as_gate(untimed: list[TimelineItem], steps: list[NextStep]) -> NextStep | None:
    """The confirm-instance step, asking the delivery date, as the step that starts what the launch waits for, where
    the delivery is the only wait of unknown length (one step on page 1, not a second one naming the same order)."""
    if [i.id for i in untimed] != [ITEM_ID]:
        return None
    step = next((s for s in steps if s.key == CONFIRM_KEY), None)
    return step.model_copy(update={"id": "waits", "key": GATE_KEY}) if step is not None else None


__all__ = ["CONFIRM_KEY", "GATE_KEY", "ITEM_ID", "apply", "as_gate", "start_on"]
