"""Why the rental comparison prices more GPUs than the plan runs (q08, fifth blind review: "the rental comparison
prices 16 cards while the plan uses 12").

A plan on the team's own fleet (or bought) runs its replicas on the cards it has; the cloud figure beside it is what
renting the same setup would cost, and renting comes in what clouds sell: whole 8-GPU servers for SXM/OAM parts with
no sourced VM size, VM sizes otherwise. The memo said the count without the reason.
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import node_shapes
from advisor.plan.result import PlanResult


def note(result: PlanResult, lang: str) -> str:
    """" (renting comes in whole servers of 8: the plan's 12 take 2 servers, 16 GPUs)", or "" where the counts
    agree (or a plan of two nodes, whose cost sums both)."""
    hw, c = result.hardware, result.costs
    if result.nodes or not hw.gpu or not hw.total_gpus or not c.gpus:
        return ""
    lay = hw.layout
    sized = c.rent_sized
    if sized and c.gpus == sized["gpus"] and sized["bought_gpus"] == hw.total_gpus:
        # beside a purchase, renting is priced on the load in the units clouds rent (advisor.plan.rent_sized)
        out = translate(lang, "ownrent24.rent.sized_note", load=sized["load_gpus"], spare=sized["spare_gpus"],
                        gpus=sized["gpus"], bought=sized["bought_gpus"])  # fmt: skip
        if sized.get("weights"):  # rented at the lower precision accepted, the servers bought keep theirs (gpu26)
            out += translate(lang, "gpuswap26.rent.precision_note", weights=sized["weights"], tp=sized["tp"],
                             bought_weights=sized["bought_weights"])
        return out
    if c.gpus < hw.total_gpus and lay is not None and lay.basis == "fleet":
        # spares on the fleet's idle GPUs (fleet.idle_spares): free to run when owned, not added when renting
        return translate(lang, "memo.owned20.rent_without_idle_spares", plan=hw.total_gpus, gpus=c.gpus,
                         extra=hw.total_gpus - c.gpus)  # fmt: skip
    if c.gpus <= hw.total_gpus:
        return ""
    shape = node_shapes.shape_of(hw.gpu, False)
    unit = max(shape.sizes)
    key = "memo.rent16.whole_servers" if shape.whole_server else "memo.rent16.rounded"
    return translate(lang, key, plan=hw.total_gpus, gpus=c.gpus, n=unit, units=-(-c.gpus // unit))
