"""What a rented plan keeps running around the clock, off-peak included (issue 25, s16-capacity).

A day/night plan is billed on demand as its always-on part every hour plus the rest for the hours the peak needs it.
Two things set that always-on part, and the fifth blind review sent back memos that left both out:

- **N+1 holds off-peak too.** A production service keeps its spare at night: scaling to one replica leaves a live
  service with nothing behind it for those hours ("the spare is costed only for peak hours", q09/q22/q24/q25/q37).
  So a plan with an N+1 spare keeps the steady replica *and* the spare on.
- **Whole units scale, not GPUs.** A part sold only as whole 8-GPU servers (H800, H20, A800 with no sourced VM size)
  cannot be scaled down by the GPU: the server that holds the always-on replica is billed whole ("priced only as
  whole 8-GPU servers, yet 5.3 GPUs a month are billed on average", q10). Every unit on sale scales as a unit.
- **What a cloud sells only through its sales is not rented by the hour.** A part whose instances the provider sells
  in some regions only, through its sales (``instance_on_request``: Alibaba Cloud's H20 family), cannot be started
  for the peak's hours each day and handed back at night: every instance runs all month (blind review 20b, q42: "the
  cost model rents the third replica by the hour at peak only, 平均 2.5 张 … unrealistic when the memo itself says
  H20 instances are sold 只在部分地域、经其销售提供").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import node_shapes


@dataclass(frozen=True)
class Warm:
    """GPUs billed every hour (``gpus``) and why: ``replicas`` always on (the steady load's + the N+1 spare),
    ``spare`` of them the spare, rounded up to ``units`` whole units of ``unit_gpus``; ``whole_server`` when the
    unit is an 8-GPU server (the scaling unit is then a server)."""

    gpus: int
    replicas: int
    spare: int
    units: int
    unit_gpus: int
    whole_server: bool
    on_request: bool = False  # the part's instances are sold through the provider's sales: none rented by the hour
    kept_on: bool = False  # ``on_request`` kept GPUs on all month that the load alone would have handed back

    def basis(self, scaled_share: float) -> dict[str, Any]:
        """The record the cost keeps (``Costs.cloud_warm``) for the memo to say what stays on; ``scaled_share``:
        the share of hours the rest runs (1.0 for a steady load: nothing scales down)."""
        out = {"gpus": self.gpus, "replicas": self.replicas, "spare": self.spare, "units": self.units,
               "unit_gpus": self.unit_gpus, "whole_server": self.whole_server, "scaled_share": scaled_share}
        return {**out, "on_request": True, "kept_on": self.kept_on} if self.on_request else out


def spare_replicas(layout: Any) -> int:
    """Replicas the layout's N+1 spare units hold (0 without a spare)."""
    if layout is None or not layout.spare_units:
        return 0
    return int(layout.spare_units) * max(1, int(layout.unit_gpus) // max(1, int(layout.tp)))


def warm(cand: Any, steady_replicas: int, *, spare_counted: bool = False) -> Warm:
    """The always-on part of ``cand`` (a sizing candidate with its ``layout``): ``steady_replicas`` for the off-peak
    load (at least one per region), plus the N+1 spare unless ``spare_counted`` (a bursty plan's count includes it),
    rounded up to whole units on sale; never more than the plan has."""
    lay = getattr(cand, "layout", None)
    tp = max(1, int(cand.tp))
    total = int(cand.tp) * int(cand.replicas)
    if lay is None:  # no layout (a bare screen candidate): one unit is one replica
        n = max(1, min(int(cand.replicas), steady_replicas))
        return Warm(gpus=min(total, n * tp), replicas=n, spare=0, units=n, unit_gpus=tp, whole_server=False)
    spare = spare_replicas(lay)
    base = max(steady_replicas, int(lay.regions))  # each region keeps its own replica on
    replicas = min(int(cand.replicas), base if spare_counted else base + spare)
    unit, whole = int(lay.unit_gpus), bool(lay.whole_server)
    if lay.owned:  # laid out to buy (cards packed into servers): the cloud comparison rents the units sold to rent
        shape = node_shapes.shape_of(str(lay.gpu), False)
        unit, whole = node_shapes.unit_for(shape, tp), shape.whole_server
    unit = max(1, unit)
    units = max(1, math.ceil(replicas * tp / unit))
    gpus = min(total, units * unit)
    if _sold_on_request(cand):  # no instance to start for the peak's hours and hand back: all of them, all month
        return Warm(gpus=total, replicas=int(cand.replicas), spare=spare, units=max(1, math.ceil(total / unit)),
                    unit_gpus=unit, whole_server=whole, on_request=True, kept_on=gpus < total)
    return Warm(gpus=gpus, replicas=replicas, spare=min(spare, replicas), units=units, unit_gpus=unit,
                whole_server=whole)


def _sold_on_request(cand: Any) -> bool:
    """The cloud sells ``cand``'s part through its sales in some regions only (``instance_on_request``)."""
    from advisor.plan.instance_on_request import listed_on_request

    gpu = getattr(cand, "gpu", None)
    return gpu is not None and listed_on_request(str(gpu.id))


def billed_note(costs: Any, lang: str) -> str:
    """The words after the on-demand formula that say which GPUs are billed every hour: the always-on replica, the
    N+1 spare kept on off-peak, whole servers where the part comes only so; "" when every GPU runs every hour of a
    steady load (nothing to explain). ``costs``: a ``Costs`` with ``cloud_billed_gpus`` and ``cloud_warm``."""
    from advisor.i18n import translate

    billed, gpus, w = costs.cloud_billed_gpus, costs.gpus, costs.cloud_warm
    some = billed is not None and billed < gpus
    shown: Any = int(billed) if billed is not None and billed == int(billed) else billed
    if getattr(costs, "cloud_billed_gpus_range", None) is not None:  # an assumed range of burst days (s19-cost19)
        from advisor.plan.cloud_price_labels import billed_range_text

        shown = billed_range_text(costs)  # the row's worked product prints it so: the note names the same figure
    if w is not None and w.get("kept_on") and w.get("scaled_share", 1.0) < 1.0:  # said where the load would scale
        return translate(lang, "warm32.billed.on_request", gpus=gpus)
    if w is None or w.get("scaled_share", 1.0) >= 1.0:
        return translate(lang, "memo.batchcost15.billed_note", billed=shown, gpus=gpus) if some else ""
    spare = translate(lang, "memo.capacity16.with_spare") if w["spare"] else ""
    if w["whole_server"]:
        key = "memo.capacity16.billed_servers" if some else "memo.capacity16.all_on_servers"
        return translate(lang, key, billed=shown, gpus=gpus, unit=w["unit_gpus"], units=w["units"], spare=spare)
    if w["spare"]:
        key = "memo.capacity16.billed_spare" if some else "memo.capacity16.all_on_spare"
        return translate(lang, key, billed=shown, gpus=gpus)
    return translate(lang, "memo.batchcost15.billed_note", billed=shown, gpus=gpus) if some else ""


__all__ = ["Warm", "billed_note", "spare_replicas", "warm"]
