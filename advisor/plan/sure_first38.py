"""When a sourced-price setup leads over a placeholder-priced part of unsure supply (s36-sourced, issue 25, blind
review 27).

``gpu_choice.Tiers.supply`` ranks a part priced only by a placeholder (grade U) whose supply is unsure (sold through
a cloud's sales, or export-sensitive) after a setup at a public price that meets the target within the budget (q19:
"the 4 × L20 at a listed 58.52 CNY/h is the plan a team can actually start on Monday"). A placeholder never decides
alone, but a sure large saving is not thrown away either: the sourced setup is the plan only where its month's low
end is at or below the placeholder setup's month's HIGH end, i.e. the placeholder part is not surely cheaper even at
the top of its range. Where even that top is cheaper (fixture 10: 24 × L20 at 164,171 CNY a month or more against
8 × H20 at 91,487 at most), the placeholder part stays the plan, its launch waiting on the quote, the sourced part
the sure fallback (``sure_fallback``), as before the supply tier.

Both months are the plans' own cost rows (``costs.recommended_monthly``), each on the basis its plan is billed, so
the comparison is made on two plans: first with the supply tier off (``RANK_SUPPLY``: the cost decides, as before
it), then, only where that plan rents a placeholder part of unsure supply, with the tier on. Every other plan is
the first one, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from advisor.plan.data import facts
from advisor.plan.result import PlanResult
from advisor.plan.sales_only import listed_on_request

# whether ``Tiers.supply`` ranks at all: off for the second plan made to weigh the placeholder part's month
RANK_SUPPLY: ContextVar[bool] = ContextVar("sourced38_rank_supply", default=True)
RENTED = ("cloud", "cloud_then_bare_metal")  # the forms that rent by the hour or month: q26 buys its H20 servers


def unsure_supply(gpu_id: str) -> bool:
    """The part is sold through a cloud's sales in some regions only, or its supply is export-sensitive (here, below
    ``gpu_choice``, which ranks on it and reads ``RANK_SUPPLY``: no import cycle)."""
    return listed_on_request(gpu_id) or gpu_id in set(facts()["gpu_availability"]["export_sensitive"])


def placeholder_led(result: PlanResult) -> bool:
    """The plan rents a part priced only by a placeholder whose supply is unsure: the case where a sourced setup may
    lead instead (a purchase is ranked on its own terms, ``purchase_rank``: q26's H20
    servers)."""
    g = result.gpu_choice
    return (g is not None and result.deployment_form in RENTED and not g.chosen.price_sourced
            and g.chosen.purchase is None and unsure_supply(str(g.chosen.gpu)))


def surely_cheaper(placeholder: PlanResult, sourced: PlanResult) -> bool:
    """The placeholder part's plan bills less a month even at the high end of its range than the sourced plan at
    its low end (both on their own cost rows); unknown months decide nothing."""
    held, sure = placeholder.costs, sourced.costs
    if held is None or sure is None or held.recommended_monthly is None or sure.recommended_monthly is None:
        return False
    low = sure.recommended_monthly.low
    if sure.cloud_peak_floor is not None:
        # its peak-hour replicas reserved for stock (peak_reserved39) is a choice made within the budget once it is
        # the plan, not a cost the part needs: weighed at its cheaper mixed month, as before that choice (review 29:
        # q07's 9 × L20 handed the lead to a placeholder H20 only because its month now reserves every GPU)
        low = min(low, float(sure.cloud_peak_floor["low"]))
    return held.recommended_monthly.high < low


def sure_first(make: Callable[[], PlanResult]) -> PlanResult:
    """``make()``'s plan with the supply tier off (the cost decides, a placeholder at the top of its range); where
    that plan rents a placeholder part of unsure supply (``placeholder_led``), the plan with the tier on where it
    leads with a sourced part that the placeholder one is not surely cheaper than (``surely_cheaper``) and is no
    more blocked."""
    if not RANK_SUPPLY.get():
        return make()
    token = RANK_SUPPLY.set(False)
    try:
        held = make()
    finally:
        RANK_SUPPLY.reset(token)
    if not placeholder_led(held):
        return held
    sourced = make()
    g, mine = sourced.gpu_choice, held.gpu_choice
    assert mine is not None  # placeholder_led
    if g is not None and g.chosen.gpu == mine.chosen.gpu:
        # the tier weighed the sourced setups at the size the predictor gives them and left the placeholder part
        # first (q11: the 8 × L20 of the screen needs more, over the budget): that plan, whose sentence names the
        # sourced part at that size
        return sourced
    led = g is not None and g.chosen.price_sourced
    # never a plan more blocked than the placeholder one
    return sourced if led and sourced.feasible >= held.feasible and not surely_cheaper(held, sourced) else held


__all__ = ["RANK_SUPPLY", "placeholder_led", "sure_first", "surely_cheaper", "unsure_supply"]
