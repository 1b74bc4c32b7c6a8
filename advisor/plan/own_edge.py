"""Owning cheaper at the middle of stand-in prices that overlap renting's: the decision and the quote that keeps it
(issue #25, blind review 19, q31 in both languages: owning was decided on the measured 75 % load and the team's own
ops, but the memo called owning against renting "a tie" on placeholder L20 server prices; an expert states the
decision and its condition: "owning wins while 3 servers cost under ¥X; get a quote").

The threshold is the plan's own arithmetic: renting's month at the middle, less owning's running costs at the middle
(power, colocation, staff: what a month of owning costs besides the purchase), over the months the purchase is
spread over, is the purchase at which owning's month meets renting's (``rent_cheaper_tie``'s ``max_purchase``, for
the side where owning is the cheaper one). Nothing is said where renting is cheaper at the middle (that is
``rent_cheaper_tie``'s finding) or no purchase would pay (the running costs alone reach the rent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import stand_in_prices
from advisor.plan.rent_cheaper_tie import running


@dataclass(frozen=True)
class Threshold:
    own_mid: float  # owning's month at the middle
    rent_mid: float  # renting's month at the middle
    running_mid: float  # power, colocation and staff a month at the middle
    max_purchase: float  # the purchase at which owning's middle meets renting's


def threshold(costs: Any) -> Threshold | None:
    """The purchase under which owning stays cheaper than renting at the middle, where the two printed months are a
    tie on stand-in prices and owning is the cheaper side at the middle; None elsewhere."""
    if costs is None or costs.bare_metal_capex is None or not stand_in_prices.costs_tie(costs):
        return None
    own, rent = costs.bare_metal_monthly, costs.cloud_monthly
    own_mid, rent_mid = (own.low + own.high) / 2, (rent.low + rent.high) / 2
    if own_mid >= rent_mid:
        return None
    lo, hi = running(costs)
    run_mid = (lo + hi) / 2
    room = rent_mid - run_mid
    if room <= 0:
        return None
    return Threshold(own_mid=own_mid, rent_mid=rent_mid, running_mid=run_mid,
                     max_purchase=room * costmod.amortisation_months(costs.horizon_months))


__all__ = ["Threshold", "threshold"]
