"""A bursty plan whose GPUs the cloud bills all month: what its burst wording says (s31-burst32, issue 25).

Since s31-q42fix32 a part whose cloud instances are sold only through the provider's sales (``instance_on_request``:
Alibaba Cloud's H20 family) is costed every GPU all month at the monthly price (``warm_floor``): none is started for
the burst days and handed back. The burst wording still spoke of the hourly billing it replaced (q36 on the H20:
"the extra replicas started for those whole days and stopped after; the cost's low end bills 2 days, its high end
6" beside a cost row billing all 3 GPUs all month; "start 1 more by calendar for each burst"; "reserve the 1 event
GPU"). Here the plan's own cost record decides (``Costs.cloud_warm["on_request"]``), so the scaling findings keep
every replica on, and the burst-days question says the days set the month's tokens, not what the GPUs cost.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import Assumption, OpenQuestion

BURST_DAYS_KEY = "cost19.assume.burst_days"
BURST_SHARE_KEY = "plan.assume.burst_schedule"


def billed_all_month(costs: Any) -> bool:
    """The plan's cloud GPUs are billed all month whatever the load (the part is sold only through the cloud's sales)."""
    w = getattr(costs, "cloud_warm", None) if costs is not None else None
    return bool(w and w.get("on_request"))


def of_facts(f: Any) -> bool:
    """``billed_all_month`` for the rules: a bursty load on rented cloud GPUs, by the plan's own cost."""
    return f.form == "cloud" and f.cost is not None and f.ctx.load == "bursty" and billed_all_month(f.cost.costs)


def restate(assumptions: list[Assumption], questions: list[OpenQuestion], costs: Any, gpus: int
            ) -> tuple[list[Assumption], list[OpenQuestion]]:
    """The bursts' assumed days or share, said as what they still set where every GPU runs all month: the month's
    tokens (and so the cost per token), not the GPUs' bill; the question's "changes" say the same."""
    if not billed_all_month(costs):
        return assumptions, questions
    keys = {BURST_DAYS_KEY: "burst32.assume.burst_days_all_month", BURST_SHARE_KEY: "burst32.assume.burst_share_all_month"}

    def moved(key: str | None, params: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        return (keys[key], {**params, "gpus": gpus}) if key in keys else (key, params)

    out_a = []
    for a in assumptions:
        key, params = moved(a.key, a.params)
        out_a.append(a.model_copy(update={"key": key, "params": params}) if key != a.key else a)
    out_q = []
    for q in questions:
        key, params = moved(q.assumption_key, q.assumption_params)
        if key == q.assumption_key:
            out_q.append(q)
            continue
        changes = ["tokens" if c == "cost" else c for c in q.changes if c != "budget_check"]
        out_q.append(q.model_copy(update={"assumption_key": key, "assumption_params": params, "changes": changes}))
    return out_a, out_q


__all__ = ["billed_all_month", "of_facts", "restate"]
