"""The placeholder part's quote comes first where it would mend what is marginal on the sourced plan (s37-spare,
issue 25, blind review 28).

``sure_first38`` leads with a part at a public price over a cheaper-looking part priced only by a placeholder whose
supply is unsure, and ``quote_switch38`` says the monthly quote under which that part would cost less. Both stand.
But "perhaps cheaper, sold only by the month" was the only reason the memo gave against the other part, and monthly
billing is none for a service that runs every hour of the year (q42: "get the H20 monthly quote before committing";
zh: "make the H20 quote step 1 before committing to L20"). Where the sourced plan is marginal in a way the other part
would mend, its quote is the step before the serve step, with the figures: the sourced replica's KV cache holds fewer
full-context requests than it carries (with one replica down, where the plan keeps a spare; ``kv_fit``), and the
other part's replica, at the size the switch names (the plan's spare included), holds its own load there (read as
``kv_card`` reads a listed card's: the same memory estimate at its own weights, cache and TP).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import kv_plan42, sizing
from advisor.plan.capacity import serving_replicas
from advisor.plan.context import Ctx
from advisor.plan.result import NextStep, PlanResult

STEP_ID = "quote_first"


# the least shortfall, as a share of the requests a replica carries, that puts the quote before serving: q19's 9 of 10
# (review 29: "the H20 quote step is important and should stay first") and q42's 11 of 14 are; 11 of 12 is not
MATERIAL_SHORTFALL = 0.10


def mends(ctx: Ctx, chosen: sizing.Candidate | None, ok: list[sizing.Candidate],
          result: PlanResult) -> dict[str, Any] | None:
    """The step's figures ({"gpu", "n", "per_card", "chosen", "chosen_n", "full", "load", "down", "context",
    "other_fit", "other_load", "currency"}) where the sourced plan's KV cache holds fewer full-context requests than
    a replica carries and the part of the quote switch would hold its own load there; None otherwise."""
    g = result.gpu_choice
    q = g.quote_switch if g is not None else None
    kv = result.capacity.kv_fit if result.capacity is not None else None
    # the replicas the plan added so one down stays within each cache at the full context (kv_plan42): the other
    # part would have mended the shortfall they answer, so its quote still comes first, at the threshold of the plan
    # with them (blind review 33, q42 zh: "the H20 threshold was computed against 4 L20s")
    added = kv_plan42.noted(chosen)
    if q is None or g is None or kv is None or chosen is None or not ctx.peak:
        return None
    if added is None and not kv.load_over_full:
        return None
    full = added["full"] if added is not None else kv.at_full
    carried = added["was"] if added is not None else \
        kv.failover_per_replica if kv.failover_per_replica is not None else kv.peak_per_replica
    if carried and (carried - full) < MATERIAL_SHORTFALL * carried:
        return None  # one request short of twelve: average lengths absorb it; section 2 still says it (fixture 06)
    u = g.unsourced_cheaper
    k = next((x for x in ok if u is not None and x.gpu.id == u.gpu and x.weights == u.weights), None)
    if k is None or k.memory.kv_tokens <= 0:
        return None
    fit = sizing._memory(ctx, k.gpu, k.weights, k.kv_dtype, k.tp, sizing._engine(ctx, k.gpu)).max_concurrency_kv
    spares = chosen.replicas - serving_replicas(chosen)
    serving = max(1, int(q["n"]) // max(1, k.tp) - spares)
    load = math.ceil(ctx.peak / serving)
    if fit < load or fit <= full:
        return None
    down = added is not None or kv.failover_per_replica is not None
    said = {"export": bool(q.get("export")), "gpu": q["gpu"], "n": q["n"], "per_card": f"{q['per_card']:,}",
            "chosen": g.chosen.gpu_name, "chosen_n": g.chosen.gpus, "full": full, "context": f"{kv.context:,}",
            "load": carried, "down": down, "other_fit": fit, "other_load": load, "currency": g.currency}
    if added is not None:  # the step says why the plan has the replicas the quote would spare
        said.update(added=chosen.replicas - added["before"], before=added["before"])
    return said


def with_step(steps: list[NextStep], said: dict[str, Any] | None) -> list[NextStep]:
    """``steps`` with the quote before the serve step (first where there is none); unchanged without ``said``."""
    if said is None or any(s.id == STEP_ID for s in steps):
        return steps
    # the switch's supply caveat where the part's export status can cut it off (s37-seq, review 29, q19)
    supply: dict[str, Any] | str = {"tr": "seq39_supply.export"} if said.get("export") else ""
    key = "kvp42.quote_first" if said.get("added") else "seq39_next.quote_first" + ("_down" if said["down"] else "_peak")
    out = list(steps)
    at = next((i for i, s in enumerate(out) if s.id == "serve"), 0)
    out.insert(at, NextStep(id=STEP_ID, key=key, params={**{k: v for k, v in said.items() if k not in ("down", "export")},
                                                         "supply": supply}))
    return out


def caveat_once(result: PlanResult) -> None:
    """The quote switch's supply caveat is said in the quote step where the plan has one: dropped from the GPU
    choice's switch sentence then, so the memo says it once."""
    g = result.gpu_choice
    q = g.quote_switch if g is not None else None
    if g is None or not q or not q.get("export") or not any(s.id == STEP_ID for s in result.next_steps):
        return
    result.gpu_choice = g.model_copy(update={"quote_switch": {k: v for k, v in q.items() if k != "export"}})


__all__ = ["STEP_ID", "caveat_once", "mends", "with_step"]
