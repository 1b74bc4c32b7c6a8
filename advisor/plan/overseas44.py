"""Whether the review-35 rules for a node outside the mainland apply (issue #25, blind review 35): the stand-in FP8
part kept over a listed part dearer than its whole range (``node_supply.dearer_per_user``,
``supply_lead._dearer_per_user``), the faster card within the budget where the cheaper one streams below the chat
line (``node_faster44``, ``kv_pick.slow_stream``), a plan B over the budget said as none (``in_region_fallback``).

On in every plan. The switch exists so that the tests pinning the machinery these rules now pass over (the node moved
onto a listed part, the faster card only named beside the node, the close card only named to quote) keep q05, q13,
q34 and q37 as their examples, as ``chat_rule38.SIZE_TO_RULE`` does for the chat rule.
"""

from __future__ import annotations

from contextvars import ContextVar

RULES_ON: ContextVar[bool] = ContextVar("ovs44_rules_on", default=True)


def on() -> bool:
    return RULES_ON.get()


__all__ = ["RULES_ON", "on"]
