"""The fleet said once (s36-fleet38, blind review 27): q33 en "The findings 'Runs on 6 of your 8' and 'Your fleet'
repeat each other; merge them"; q18 zh: "Reason 5 ('现有 GPU：32 张') and the repeated '约合 17 张卡的算力空闲' are
filler".

Where the plan stays on the fleet's own GPU and its free cards carry it (``gpu.fleet``'s plain variant, with no other
GPU type of the fleet to explain), that finding says nothing the cost finding on the fleet (``cost.fleet``: "Runs on
6 of your 8 … idle at the measured 10 %") and section 2's "Why this GPU" (the same software stack, spare parts and
skills) do not: it is folded into them, neither a page 1 reason nor a section 7 item. The finding stays in the
result (the app and ``--json`` read it); only the memo and the reasons leave it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

PLAIN = "plan.fleet.same_free_enough"
COST_TITLE = "plan.rule.cost.fleet.title"
# the same title with the cards used alone where page 1 recommends the larger layout and says the other work there
# (``layout_headline40.FLEET_TITLE``; review 30, q33 zh): the fleet finding's free share is not said again either
LAYOUT_TITLE = "layout40_fleet.title"
# a nearly idle fleet's pair (``fleet_idle41``; review 31, q33): "Runs on all 8 … nearly idle" says it all too
IDLE_WHY, IDLE_TITLE = "lead41.fleet.same_idle", "lead41.cost_fleet.title_all"


def folded(f: Any, findings: Sequence[Any]) -> bool:
    """True for ``gpu.fleet`` where the cost finding on the fleet says all it says."""
    if f.id != "gpu.fleet" or f.params.get("others"):
        return False
    if any(x.id == "gpu.burst_rent_choice" for x in findings) and any(x.id == "cost.fleet" for x in findings):
        # s38-burst40 (q39, review 29: "far too long and repetitive"): a hybrid renting another part for its bursts
        # says the owned base (``cost.fleet``) and why that part, continuity only a tie-breaker
        # (``gpu.burst_rent_choice``); "Your fleet: 16 × L20 … rented for the peaks only, as 8 × H800" repeats both
        return True
    why = f.params.get("why")
    if not isinstance(why, dict) or why.get("tr") not in (PLAIN, IDLE_WHY):
        return False
    return any(x.id == "cost.fleet" and x.title_key in (COST_TITLE, LAYOUT_TITLE, IDLE_TITLE) for x in findings)


def findings(found: Sequence[Any], every: Sequence[Any]) -> list[Any]:
    """``found`` less a folded ``gpu.fleet`` (``every``: all the plan's findings, where ``cost.fleet`` is looked up)."""
    return [f for f in found if not folded(f, every)]


__all__ = ["findings", "folded"]
