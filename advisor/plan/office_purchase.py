"""How long buying the office's box takes depends on what is bought (ninth blind review, issue #25: one RTX 4090 D
workstation was given the 30–90 days of a data-centre server order, "buy, deliver and install", when a single card or
workstation comes from retail or distributor stock in days to two weeks).

A desk-side workstation holds one or two cards; anything larger is a multi-GPU server that is quoted, built and
delivered like the data-centre ones, so it keeps their duration."""

from __future__ import annotations

from advisor.plan.data import duration

WORKSTATION_MAX_GPUS = 2  # cards a desk-side workstation takes (two double-width cards on an ATX board)


def is_workstation(form: str, gpus_bought: int | None) -> bool:
    """An office purchase of one workstation or card from stock: on premises, at most two GPUs bought."""
    return form == "on_premises" and gpus_bought is not None and 0 < gpus_bought <= WORKSTATION_MAX_GPUS


def procurement(form: str, gpus_bought: int | None) -> tuple[int, int, str]:
    """(days low, days high, the timeline label key) of the purchase of ``gpus_bought`` GPUs in ``form``."""
    if is_workstation(form, gpus_bought):
        lo, hi = duration("office_workstation_procurement")
        return lo, hi, "plan.timeline.procurement_workstation"
    lo, hi = duration("bare_metal_procurement")
    return lo, hi, "plan.timeline.procurement_office" if form == "on_premises" else "plan.timeline.procurement"
