"""The overseas node's faster card as the part to quote first (blind review 34, q34).

``node_quicker`` prices a card there that decodes materially faster than the node's own and the plan names it
beside the node, leaving the choice to the team ("the plan keeps the cheaper one that meets the target, and the
choice is yours"). Reviewers of q34 (4 × L4 in Singapore at a P99 TPOT of 74 ms, about 13.5 tokens/s a user;
2 × L40S at 35.2 ms for about ¥4–8k more a month against a ¥120,000 budget) wanted the faster card presented as the
default to quote. The rule, general over two-node plans:

- the node's slow tail is well under the plan's chat line (P99 TPOT over ``TAIL_MS``: under 15 tokens/s, the line
  ``chat_speed37`` draws on page 1), and the faster card's P99 is within the line itself (``TPOT_FLOOR_MS``, 20 a
  second);
- the whole plan with the faster card's extra month (the high ends) stays within the monthly budget.

Then the finding asks for its quote first, and a next step asks for it (before the serve step). The plan is
unchanged: the faster card may be priced only by a stand-in, and a quote entered (plan → quotes) re-plans on it.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.fp8_gain import TPOT_CUT, TPOT_FLOOR_MS
from advisor.plan.result import NextStep

TAIL_MS = TPOT_FLOOR_MS / (1 - TPOT_CUT)  # as chat_speed37: the slow tail a reader feels (66.7 ms, 15 tokens/s)
KEYS = {"gpuchoice24.node_quicker": "np43.node_quicker", "gpuchoice24.node_quicker_stand_in":
        "np43.node_quicker_stand_in"}
STEP_ID = "quote_node43"


def first(quick: dict[str, Any], total_high: float | None, more_high: float | None,
          budget: float | None) -> bool:
    """Whether the node's faster card is the part to quote first (see the module)."""
    if total_high is None or more_high is None or not budget:
        return False
    if quick["tpot"] <= TAIL_MS or quick["other_tpot"] > TPOT_FLOOR_MS:
        return False
    return total_high + max(0.0, more_high) <= budget


def with_step(steps: list[NextStep], findings: list[Any]) -> list[NextStep]:
    """A step asking for the faster card's quote, before the serve step, where the finding names it first."""
    f = next((x for x in findings if x.id == "region.split"), None)
    quick = f.params.get("faster") if f is not None else None
    if f is None or not isinstance(quick, dict) or quick.get("tr") not in KEYS.values() \
            or any(s.id == STEP_ID for s in steps):
        return steps
    p = {k: quick[k] for k in ("n", "gpu", "weights", "monthly", "other_tpot", "tpot", "chosen_gpu", "budget")}
    step = NextStep(id=STEP_ID, key="np43.next.node_quote", params={**p, "region": f.params.get("overseas")})
    at = next((i for i, s in enumerate(steps) if s.id == "serve"), len(steps))
    return [*steps[:at], step, *steps[at:]]


__all__ = ["KEYS", "STEP_ID", "TAIL_MS", "first", "with_step"]
