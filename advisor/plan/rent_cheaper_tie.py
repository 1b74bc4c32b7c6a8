"""A tie on stand-in prices where renting what the load needs is the cheaper side at the middle (issue #25, blind
review 14: q26 bought 24 H20 at about ¥174k a month against ¥148k renting 18, q31 12 L20 at ¥58.9k against ¥45k
renting 9, and q31's memo said "rent if renting costs under ¥58,900", which its own ¥45k middle already met).

Why the two sides count different GPUs: both carry the peak with the plan's headroom with one unit down (N+1), but
the unit differs. A bought server fails whole (its power supply, board or a card's fault takes all its cards down),
so its spare is a whole server: 8 H20 on an SXM baseboard, or q31's 4-card L20 server. A rented spare is one
instance of the size the load is rented in (2 H20, 1 L20), which holds only where the instances sit on separate
hosts (else one host's failure takes several down and the spare would have to be as large as a server). At two
servers of load, the bought spare adds half as many GPUs again; per GPU, owning is no dearer than renting on the
same prices (q26 about ¥7,250 against ¥8,200 a month).

So the plan's own figures do not show owning cheaper, and the finding says so: the quotes decide, and the threshold
it gives is one the middle does not meet: the purchase at which owning's month comes down to the rent's middle
(``max_purchase``: the running costs' middle kept), against the purchase the plan assumes. The break-even at the
middle of the ranges is said in months too (past the horizon here, as the middle favours renting).

Like for like (session 26, blind reviews 15 and 16, q26/q31: "24 H20 bought in bf16 against 16 rented in FP8"): the
bought servers keep the better precision only where the lower one fills as many whole servers (``rent_sized``), so
precision does not make the difference; the spare does. The finding therefore also says what owning costs without
the spare server (``Lean``): only the servers the load needs, a replica's spare inside them as the rented plan's, its
month and break-even at the middle, and what a failed server leaves of the peak until it is repaired. The plan keeps
its spare server (``spare_policy`` rule 1: a production service rides out a failed server, and a bought one is
repaired in days, where a cloud moves a failed instance to another host); the figure shows the reader what that
choice costs, and the team may cover a failed server another way (instances rented for the repair days).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import stand_in_prices


def _mid(r: Any) -> float:
    return (r.low + r.high) / 2


def rent_cheaper(costs: Any) -> bool:
    """A tie on stand-in prices (``stand_in_prices.costs_tie``) with renting's middle below owning's."""
    if costs is None or not stand_in_prices.costs_tie(costs):
        return False
    return _mid(costs.cloud_monthly) < _mid(costs.bare_metal_monthly)


@dataclass(frozen=True)
class Figures:
    """What the finding says where renting is cheaper at the middle, in the plan's currency."""

    own_mid: float  # owning's month at the middle
    rent_mid: float  # renting's month at the middle
    own_gpus: int  # GPUs bought
    rent_gpus: int  # GPUs rented
    own_spare_gpus: int  # the bought spare: a whole server
    rent_spare_gpus: int  # the rented spare: one instance
    own_per_gpu: float  # owning's middle a GPU
    rent_per_gpu: float  # renting's middle a GPU
    running_mid: float  # power, colocation and staff a month at the middle
    max_purchase: float | None  # the purchase at which owning's middle meets renting's; None: no purchase does
    mid_months: float | None  # months to break even at the middle of every range; None: never


@dataclass(frozen=True)
class Lean:
    """Owning only the servers the load needs, no spare server (``lean``), at the middle of the plan's prices."""

    gpus: int  # GPUs in those servers
    servers: int  # the servers
    month_mid: float  # owning's month at the middle: purchase spread over the horizon and running costs, pro rata
    mid_months: float | None  # months to break even against the rent's middle; None: never
    left_pct: int  # the share of the peak carried with one of those servers down, in %
    replica_spare: bool  # those servers still carry the peak with one replica down (N+1 by the replica, as rented)
    # s27-own27, the hybrid spare: a failed server's cards rented for its repair days instead of a spare server
    unit_gpus: int = 0  # the cards in one server: what is rented while one is repaired
    server_day: float = 0.0  # renting those cards a day at the rent's middle a GPU
    cover_days: float | None = None  # server-days of that rent the horizon's saving pays; None: no saving
    max_purchase: float | None = None  # the purchase of those servers that breaks even at the horizon; None: none


def lean(costs: Any, fig: Figures, lay: Any, carried_per_replica: int, peak: float) -> Lean | None:
    """Owning without the spare server: the purchase and running costs in proportion to the GPUs kept (the price
    rows are per GPU; staff is counted per 8 GPUs, as ``cost.compute`` does, so the proportion keeps its basis),
    weighed against the same rent's middle; None where the plan has no spare server, or ``lay`` is no bought
    layout."""
    if lay is None or not getattr(lay, "owned", False) or lay.spare_units < 1 or lay.units <= lay.spare_units:
        return None
    servers = lay.units - lay.spare_units
    gpus = servers * lay.unit_gpus
    share = gpus / max(1, fig.own_gpus)
    run_lo, run_hi = running(costs)
    run_mid = (run_lo + run_hi) / 2 * share
    capex_mid = _mid(costs.bare_metal_capex) * share
    room = fig.rent_mid - run_mid
    per_server = max(1, lay.unit_gpus // max(1, lay.tp))
    left = (servers - 1) * per_server * max(0, carried_per_replica)
    spare_ok = (servers * per_server - 1) * max(0, carried_per_replica) >= peak
    pct = 0 if peak <= 0 else min(100, int(100 * left / peak))
    horizon = costmod.amortisation_months(costs.horizon_months)
    day = fig.rent_per_gpu * lay.unit_gpus * 24 / costmod.HOURS_PER_MONTH
    saving = room * horizon - capex_mid  # what owning those servers saves on the rent over the horizon
    return Lean(gpus=gpus, servers=servers, month_mid=capex_mid / horizon + run_mid,
                mid_months=capex_mid / room if room > 0 else None, left_pct=pct, replica_spare=spare_ok,
                unit_gpus=int(lay.unit_gpus), server_day=day,
                cover_days=saving / day if saving > 0 and day > 0 else None,
                max_purchase=room * horizon if room > 0 else None)


def running(costs: Any) -> tuple[float, float]:
    """Owning's running costs a month (power, colocation, staff), low and high: the month without the purchase."""
    parts = (costs.bare_metal_power_monthly, costs.bare_metal_colo_monthly, costs.bare_metal_staff_monthly)
    return sum(p.low for p in parts if p is not None), sum(p.high for p in parts if p is not None)


def figures(costs: Any, own_spare_gpus: int) -> Figures | None:
    """The figures of a plan whose rent is cheaper at the middle (``rent_cheaper``) and sized apart from the purchase
    (``costs.rent_sized``); None elsewhere. ``own_spare_gpus``: the GPUs of the spare server bought."""
    sized = costs.rent_sized if costs is not None else None
    if not sized or not rent_cheaper(costs) or costs.bare_metal_capex is None:
        return None
    own_mid, rent_mid = _mid(costs.bare_metal_monthly), _mid(costs.cloud_monthly)
    run_lo, run_hi = running(costs)
    run_mid = (run_lo + run_hi) / 2
    months = costmod.amortisation_months(costs.horizon_months)
    room = rent_mid - run_mid  # what a month of renting leaves to pay for the purchase
    capex_mid = _mid(costs.bare_metal_capex)
    return Figures(own_mid=own_mid, rent_mid=rent_mid, own_gpus=int(sized["bought_gpus"]), rent_gpus=int(sized["gpus"]),
                   own_spare_gpus=own_spare_gpus, rent_spare_gpus=int(sized["spare_gpus"]),
                   own_per_gpu=own_mid / sized["bought_gpus"], rent_per_gpu=rent_mid / sized["gpus"],
                   running_mid=run_mid, max_purchase=room * months if room > 0 else None,
                   mid_months=capex_mid / room if room > 0 else None)  # fmt: skip


TIE_RENT_TITLE = "tie25.rule.cost.buy.tie_rent.title"  # ``cost.buy``'s title where renting is cheaper at the middle
# the quotes step (and the gate step it folds into) where renting is cheaper at the middle: the same step, with the
# condition to order on (``placeholder_purchase.quotes_first``, ``critical_steps``)
QUOTES_KEYS = {"rows18.next.quotes_purchase": "tie25.next.quotes_purchase",
               "owncost20.next.quotes_purchase_stale": "tie25.next.quotes_purchase_stale"}
GATE_KEYS = {"tie25.next.quotes_purchase": "tie25.next.gate_quotes",
             "tie25.next.quotes_purchase_stale": "tie25.next.gate_quotes_stale"}


def order_condition(findings: list[Any]) -> dict[str, Any] | None:
    """What the quotes must show before the servers are ordered, as a ``{"tr": …}`` clause, where ``cost.buy`` found
    renting cheaper at the middle (the purchase its threshold names); None elsewhere: the next steps then say only
    "get quotes before ordering", which a purchase the plan's own middle favours needs no more than."""
    f = next((x for x in findings if x.id == "cost.buy" and x.title_key == TIE_RENT_TITLE), None)
    if f is None:
        return None
    threshold = f.params.get("threshold") or {}
    # one purchase branch, the servers sized (s27-ownrent27b, review 17: step 1 named "all 3" and "the 2 the load
    # needs" beside a headline that rents: buy 2, buy 3 or rent); the spare-less variant is the finding's figure
    if "max_purchase" in threshold:
        return {"tr": "tie25.next.condition.purchase", "max_purchase": threshold["max_purchase"]}
    return {"tr": "tie25.next.condition.none"}


__all__ = ["GATE_KEYS", "QUOTES_KEYS", "TIE_RENT_TITLE", "Figures", "Lean", "figures", "lean", "order_condition",
           "rent_cheaper", "running"]
