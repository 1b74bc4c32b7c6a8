"""A rented plan whose N+1 spare server is what takes it over the monthly budget: the plan without it is the
recommendation, the spare its named upgrade (issue 25; blind reviews 20 and 21, q10, both languages sent back: "the
one-server option should be the recommendation, with the provider's written replacement time as the mitigation").

Why only rented, and only a business-facing production service: on rented servers the provider replaces failed
hardware, so a spare server covers the replacement delay alone, not a repair the team must make; the stop it
prevents is bounded by the provider's replacement time, which the team can get in writing. Where that spare is what
keeps the plan over the budget over most of its range, while one server of the same layout carries the peak within
the target and fits the budget over most of its range, recommending the plan the budget cannot carry (and calling
it "conditionally feasible") is the wrong way round. The N+1 stays where:

- the plan is owned (a failed server waits for the team's own repair or the vendor's part: ``spare_policy``),
- users pay per use, the service is open to the public or serves a bank's customers
  (``gpu_choice.redundancy_reason`` other than "production"),
- classified protection at level 3 asks for hot redundancy (GB/T 22239-2019 8.1.4.9 c),
- or the budget carries the spare over most of the range (``budget_share.part`` "most" or "within").

The single server is then a single point of failure, and ``sizing.single_point`` prices the second server against
the budget as it does for every one-unit plan (``second_unit``), here as the upgrade the budget decides.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import budget_fit43, budget_share, edge_risks38, gpu_choice
from advisor.plan.node_shapes import OWNED_FORMS
from advisor.plan.result import NextStep
from advisor.plan.sector_kinds import mlps_level

NOTE = "spare_over_budget"  # a candidate's note: "<note>:<gpus with the spare>:<its month low>:<high>:<its % in budget>"


def applies(c: Any, chosen: Any, form: str, region: str, month: tuple[float, float] | None) -> bool:
    """Whether the plan's N+1 spare may give way to the budget: rented whole servers, a business-facing production
    service (no per-use charge, not public, not a bank's), not level-3 protection, two or more servers of which one
    is the spare, and the budget covering under half of the plan's month (``month``: its low and high end)."""
    lay = getattr(chosen, "layout", None)
    budget = c.budget_amount
    if lay is None or month is None or budget is None or form in (*OWNED_FORMS, "hosted_api", "hybrid"):
        return False
    if c.is_batch or gpu_choice.redundancy_reason(c) != "production" or mlps_level(c, region) == 3:
        return False
    # two or more whole servers: the spare a spare server (``spare_units``) or held in the servers the headroom rounds
    # up to (``spare_in_units``, q10's 4 replicas on 2 servers for a peak 2 carry); that one server carries the bare
    # peak is the engine's check on the setup laid out without it
    if lay.basis == "fleet" or lay.regions != 1 or not lay.whole_server or lay.units < 2:
        return False
    return budget_share.part(month[0], month[1], budget) in ("low_end", "over")


def fits(month: tuple[float, float] | None, budget: float | None) -> bool:
    """The setup without the spare fits the budget over most of its range (``budget_share.part``)."""
    return month is not None and budget is not None and budget_share.part(month[0], month[1], budget) in ("most", "within")


def note(bare: Any, gpus: int, month: tuple[float, float], budget: float) -> None:
    """Mark the setup as the plan without its spare, with the figures of the plan that kept it."""
    bare.notes.append(f"{NOTE}:{gpus}:{month[0]:.2f}:{month[1]:.2f}:{budget_share.percent(month[0], month[1], budget)}")


def replacement_step(steps: list[Any], findings: Any, costs: Any = None, c: Any = None) -> list[Any]:
    """``steps`` with "get the provider's replacement time in writing" first, where the plan left its spare server out
    for the budget (the single-point finding names the upgrade): on one rented server that time is how long the
    service stops, and it is a contract term, agreed before the rent is signed; unchanged otherwise. A daily-peak load
    at low use asks there for hourly or daytime-only pricing too, with what the busy hours alone would bill
    (``edge_risks38.daytime_price``; review 27, q10)."""
    f = next((x for x in findings if x.id == "sizing.single_point" and isinstance(x.params.get("verdict"), dict)
              and x.params["verdict"].get("tr") in budget_fit43.UPGRADE), None)
    if f is None:
        return steps
    day = edge_risks38.daytime_price(costs, c)
    first = NextStep(id="replacement_time", key="q10lead32.next.replacement_time") if day is None else \
        NextStep(id="replacement_time", key="longctx38_next.replacement_day", params=day)
    return [first, *(s for s in steps if s.id != "replacement_time")]


def figures(ch: Any) -> dict[str, Any] | None:
    """The figures ``note`` kept ({"gpus", "low", "high", "pct"}); None on a setup that kept its spare."""
    found = next((n for n in getattr(ch, "notes", None) or [] if n.startswith(NOTE + ":")), None)
    if found is None:
        return None
    gpus, low, high, pct = found.split(":")[1:]
    return {"gpus": int(gpus), "low": float(low), "high": float(high), "pct": int(pct)}


__all__ = ["NOTE", "applies", "figures", "fits", "note", "replacement_step"]
