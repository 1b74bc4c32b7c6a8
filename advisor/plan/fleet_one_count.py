"""Page 1 on the team's own cards gives one card count and one upgrade where the owner decides the first-token
target first (s37-fleet39, blind review 28, q04: "The card count is confusing: '空闲的 11 张卡', '不等于 11 张整卡空闲',
10 used and 12 recommended. Give one number and one optional upgrade.").

Where ``ttft_free_cards.relax`` raised an assumed target so the plan sits on the free cards, the headline puts the
owner's choice first (``memo_ttft_free.decision_first``): the plan's cards (10) or the usual target's layout (12). The
fleet's free share as cards' worth (11) is then a third count on page 1: the cost finding's title and the cost
table's fleet row say the cards used alone, and the free share is worked out once, in the fleet's GPU finding
(section 7), where it is the reason the cards suffice. The hardware row's one-more-replica layout, a second
12-card option for a machine down, is left to the placement finding (section 7): page 1 says what one machine down
leaves and points there.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.reachable import FREE_KEY


def decided_first(assumptions: Any) -> bool:
    """The assumed first-token target was raised to fit the free cards and the usual one's layout takes busy ones:
    page 1 opens on that choice (``memo_ttft_free.form_clause``'s condition)."""
    a = next((a for a in assumptions or [] if getattr(a, "key", None) == FREE_KEY), None)
    return a is not None and int(a.params["n"]) - int(a.params["free"]) > 0


COST_TITLE = "plan.rule.cost.fleet.title"  # the title with the free share as cards' worth
TITLE = "flt39_fleet.title"  # "Runs on 10 of your 16 × … — nothing to buy": the cards used alone
VALUE = "flt39_fleet.value"  # the cost table's fleet row, the same
DOWN = "flt39_fleet.down"  # the hardware row: what one machine down leaves, the layout that keeps more in section 7

__all__ = ["COST_TITLE", "DOWN", "TITLE", "VALUE", "decided_first"]
