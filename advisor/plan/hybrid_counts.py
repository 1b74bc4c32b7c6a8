"""A hybrid that rents another part for its bursts counts its replicas in the plan's own GPU (s33-numbers1, issue 25,
blind review 23 on q39): "the N+1 line says '50 replicas (50 × NVIDIA L20 48GB)' although only 16 L20 exist".

The sizing counts the peak's work in replicas of the owned GPU (50 × L20), and the costing rents that work beyond the
owned cards as another part (34 L20s' work on 11 × H20: ``burst_gpu``). The findings that state the count in the
owned GPU (the plan's size, N+1) keep their figures and say which cards exist: the team's own and the rented part
that carries the rest, so no reader looks for 50 L20s.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.burst_gpu import rented_of
from advisor.plan.result import Finding

# the findings whose title or detail counts the replicas as the owned GPU: N+1's "50 replicas in all (50 × L20)",
# the finding right after the plan's size ("50 × (1 × L20) meets the target"), which it then explains once
COUNTED = {"sizing.redundancy": "detail"}
DOWN = "sizing.hybrid_server_down"  # one owned multi-card server down: its count of servers and cards per server
NODES_TITLE = "hybrid38_nplus1.title"
# its detail in the same real cards (session 36: the detail still said "50 replicas in all (50 × L20)" under a title
# that names 16 owned and 11 rented)
NODES_DETAIL = "hybrid38_nplus1.detail"


def said_apart(findings: list[Finding], costs: Any, form: str | None) -> list[Finding]:
    """``findings`` with the owned-GPU counts of ``COUNTED`` said with the cards that do the work; unchanged where
    the bursts rent no other part."""
    rented = rented_of(costs, form)
    hyb = getattr(costs, "hybrid", None)
    if rented is None or hyb is None:
        return findings
    extra = {"owned": hyb.gpus_owned, "rented": rented, "plan": hyb.burst_plan_gpus}
    out = []
    for x in findings:
        part = COUNTED.get(x.id)
        if part is None:
            out.append(x)
            continue
        key = x.title_key if part == "title" else x.detail_key
        wrapped = {**x.params, **extra, "base": {"tr": key, **x.params}}
        update: dict[str, Any] = {f"{part}_key": f"numbers1_34.counted.{part}", "params": wrapped}
        down = next((d for d in findings if d.id == DOWN), None)
        if down is not None and x.id == "sizing.redundancy":
            # s38-burst40 (review 29, q39: "far too long and repetitive"): the server-down finding already says the
            # N+1 count is per replica (its spare), that the owned cards stand in servers and that the rented part
            # covers a server's worth; "N+1 in machines: … the 1 spare replica covers a card, not a server" said it
            # again in other words
            continue
        if down is not None:  # s36-hybrid (review 27, q39: "'N+1: 49 replicas carry the peak, plus 1 spare' mixes
            # owned L20 replicas with H20 'work'; rewrite it in real nodes"): the owned servers and the rented part
            # the title now names the cards that exist, so the detail keeps its own words (no second "only 16 are
            # your own")
            update = {"title_key": NODES_TITLE, "params": wrapped}
            if part == "detail":
                update["detail_key"] = NODES_DETAIL
            wrapped.update(servers=down.params["servers"], server=down.params["server"], gpu=down.params["gpu"],
                           spare_n=down.params["spare"])
        out.append(x.model_copy(update=update))
    return out


__all__ = ["COUNTED", "DOWN", "NODES_DETAIL", "NODES_TITLE", "said_apart"]
