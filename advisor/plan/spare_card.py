"""What an internal tool on one bought server is told to keep beside it when a second server is not in the plan
(issue 25, blind review 20b).

- A spare card on the shelf is costed against the one-off budget: under a hard grant it either fits beside the
  server, fits only if the quotes come in low, or does not fit, and then the purchase asks for what the vendor
  carries instead, a warranty with advance replacement (q17: "keep a spare card on the shelf" (~¥100k a card)
  beside a 4-card server that already straddles a ¥400k grant "would break the grant and is not costed").
- A small internal tool (a handful at once, unpaid, not highly sensitive) gets the second server as an option,
  not as advice: a day down while a part is replaced costs such a team little (q02: "a second ¥17–28k server for
  redundancy is overkill for a 4-user office chat tool").
"""

from __future__ import annotations

from typing import Any

# The most requests at once of a tool still "small" for redundancy: a team or an office, whose members can wait a
# day for a part (q02: 4 at once; q01: 6). Beyond it the tool serves a floor or a department (q17: 20; q41: a
# call centre's 30 seats), where a stop is felt.
SMALL_TEAM_PEAK = 8


def optional(c: Any) -> bool:
    """The second server is the team's option: an internal tool, unpaid, not highly sensitive, that at most
    ``SMALL_TEAM_PEAK`` people use at once."""
    audience = getattr(c.answers, "audience", None)
    return (audience == "internal" and not c.charges and c.level != "high" and c.peak_known
            and 0 < c.peak <= SMALL_TEAM_PEAK)


def shelf_verdict(s: Any, money: Any, span: Any) -> dict[str, Any]:
    """The verdict of ``sizing.single_point`` where a second server is over the budget: the downtime accepted in
    writing, and a spare card costed against the budget that decided (``s``: ``second_unit.SecondUnit``;
    ``money(v)``/``span(lo, hi)`` format amounts in the answers' currency)."""
    if s.capex is None or s.card is None:  # rented: the provider replaces what fails
        return {"tr": "campus32.sp.over_rented"}
    card = money(s.card[0]) if round(s.card[0]) == round(s.card[1]) else span(*s.card)
    if s.basis != "capex" or s.capex_budget is None:  # no one-off budget: the card is a purchase like the server
        return {"tr": "campus32.sp.over_monthly_card", "budget": money(s.budget or 0), "card": card,
                "months": None}
    budget = money(s.capex_budget)
    if s.capex[1] + s.card[1] <= s.capex_budget:
        return {"tr": "campus32.sp.card_fits", "budget": budget, "card": card}
    if s.capex[0] + s.card[0] <= s.capex_budget:
        return {"tr": "campus32.sp.card_if_low", "budget": budget, "card": card,
                "room": money(s.capex_budget - s.card[1])}
    return {"tr": "campus32.sp.card_over", "budget": budget, "card": card, "small": ""}


__all__ = ["SMALL_TEAM_PEAK", "optional", "shelf_verdict"]
