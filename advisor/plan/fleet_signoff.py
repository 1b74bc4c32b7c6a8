"""The hardware row's clause for a spare replica the plan takes on busy cards of the team's own fleet, on the
condition that their other work moves off with its owners' sign-off (``fleet.signoff_spares``; blind review 21,
q04: "the 4-replica/16-card layout should be the headline, not an add-on ... the plan to move 30 % of the load onto
the L20s is plausible but needs the owners' sign-off"). Page 1 says the condition and what the plan is without it,
read from the N+1 finding that carries the figures, so the two cannot disagree."""

from __future__ import annotations

from typing import Any

from advisor.plan import fleet_choice43
from advisor.plan.result import render

SIGNOFF_TITLE = "plan.rule.sizing.redundancy.idle_signoff.title"


def signoff_clause(result: Any, lang: str) -> str:
    """"; the spare replica takes the last 4 cards once their other work moves off, which its owners sign off
    (without it: 3 replicas on 12 cards)"; "" where the plan has no such spare."""
    f = next((x for x in result.findings if x.title_key == SIGNOFF_TITLE), None)
    if f is None:
        return ""
    p = f.params
    took = fleet_choice43.choice(result)
    if took is not None:  # the layout page 1 weighs is the plan: its busy cards said, no second layout beside it
        return render(lang, "tc43.hardware.signoff", took)
    return render(lang, "fleet33.hardware.signoff", {"cards": p["cards"], "without": p["without"],
                                                     "without_gpus": p["without_gpus"],
                                                     "either": p.get("either_hw", ""),
                                                     # one more beside a free-card spare (review 23, q33: "the
                                                     # spare replica" where the plan has two)
                                                     "which": {"tr": "numbers2_34.which.more" if p.get("free_spare")
                                                               else "numbers2_34.which.the"}})


__all__ = ["SIGNOFF_TITLE", "signoff_clause"]
