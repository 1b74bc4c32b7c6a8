"""The reason a plan's sizing finding gives for carrying less than the policy's headroom, checked against the plan's
own figures (s19-consist19: a plan of 4 × TP4 on two 8 × H20 servers needed 3 replicas for the headroom and was
said to be stopped by "64 replicas at most"). Shared by the property tests and the layout search's own tests."""

from __future__ import annotations

import math

from advisor.plan.sizing import HEADROOM, MAX_REPLICAS

BUDGET = ("plan.layout25.short.budget", "plan.headroom19.short.budget_servers")
REASONS = (*BUDGET, "plan.layout25.short.fleet", "plan.layout25.short.other", "plan.headroom19.short.laid_out")


REPAIR_RENT = "plan.rule.sizing.redundancy.repair_rent.title"
# the same layout where the rent is a placeholder or an unsure supply, said as no sure cover (session 31, q26)
REPAIR_UNSURE = "plan.rule.sizing.redundancy.repair_unsure.title"
# the same layout where renting is replaced no surer, both sides covered alike by parts cover (s32-q26own, q26)
REPAIR_PARTS = "plan.rule.sizing.redundancy.repair_parts.title"
REPAIRS = (REPAIR_RENT, REPAIR_UNSURE, REPAIR_PARTS)  # a spare replica inside, the repair-day rent costed


def spare_inside(r) -> int:
    """The N+1 spare replica bought servers hold among them (1) where the plan keeps no spare server and covers a
    failed server by renting its cards for the repair days, said so in its redundancy finding and costed in the
    owning month (s28-own28, q26: 8 replicas on 2 servers, 7 serving); 0 elsewhere."""
    said = r.finding("sizing.redundancy")
    lay = r.hardware.layout
    if said is None or said.title_key not in REPAIRS or lay is None or lay.spare_units:
        return 0
    return 1


def serving(r) -> int:
    """Replicas that carry the load: all of them less the spare units' replicas (or the spare replica inside
    servers bought without a spare server: ``spare_inside``)."""
    lay = r.hardware.layout
    spare = lay.spare_units * max(1, lay.unit_gpus // max(1, r.hardware.tp)) if lay is not None else 0
    return r.hardware.replicas - spare - spare_inside(r)


def amount(text: str) -> float:
    return float(text.replace(",", ""))


def assert_reason_is_its_cause(r) -> str | None:
    """The short sentence of ``r``'s sizing finding (its key returned; None when the plan has the headroom) states
    the cause the plan's figures show: the GPUs the headroom needs are the claim's, more than the plan serves on;
    the replica limit only when those need more than ``MAX_REPLICAS`` replicas; the budget only with a total over
    the budget the answers gave; whole servers counted as the layout counts them; the fleet only on the team's
    fleet."""
    f = r.finding("sizing.plan")
    short = f.params.get("short") if f is not None else None
    if not short:
        return None
    tr, tp, lay = short["tr"], r.hardware.tp, r.hardware.layout
    assert tr in REASONS, tr
    claimed, peak = r.capacity.max_concurrency_per_replica, f.params["peak"]
    target = math.ceil(peak * (1 + HEADROOM) - 1e-9)
    assert short["need"] == math.ceil(target / claimed) * tp, (short, claimed, peak)
    assert serving(r) * claimed < target, "a shortfall the plan's own figures do not show"
    over_limit = short["need"] // tp > MAX_REPLICAS or r.hardware.replicas >= MAX_REPLICAS
    assert (tr == "plan.layout25.short.other") == over_limit, (tr, short["need"] // tp)
    if tr in BUDGET:
        budget = r.costs.budget_monthly
        assert budget is not None and amount(short["budget"]) == round(budget)
        assert amount(short["total"]) > budget >= r.costs.recommended_monthly.low, (short, r.costs.recommended_monthly)
        assert amount(short["extra"]) > 0
    if tr == "plan.headroom19.short.budget_servers":
        assert lay is not None and lay.whole_server and lay.regions == 1
        assert short["have_units"] == lay.units and short["unit_gpus"] == lay.unit_gpus
        assert short["units"] == math.ceil(short["need"] / lay.unit_gpus) + lay.spare_units > lay.units
        assert short["need_replicas"] * tp == short["need"]
    assert (tr == "plan.layout25.short.fleet") == (lay is not None and lay.basis == "fleet"), tr
    if tr == "plan.headroom19.short.laid_out":
        assert short["have"] == serving(r) * tp < short["need"]
    return tr
