"""The quote that decides a purchase resting on stand-in prices (issue 25, blind review 20b, q26: "owning 78,281–125,110
CNY a month against renting 62,713–182,975 … rests on a placeholder H20 cloud price and a purchase price taken from
the 141 GB H20 module. I would not sign ¥2.16–2.65M of capex on that basis"; "with a third server owning costs ¥151k
against ¥123k renting").

Where a plan buys servers to own them in a data centre (bare metal, or rented first and bought on the quotes) and the
purchase row or the rent it is weighed against is a stand-in (``stand_in_prices.stand_ins``), an engineer signs the
capex only on a quote, and says which quote: the all-in price a server at which owning costs what renting costs over
the plan's horizon, every other price at the middle of its range (the gate). Above it, rent.

The gate is the plan's own cost model turned round: owning's month is the purchase ÷ the horizon's months + the
running costs (power, colocation, staff, and a failed server's cards rented for its repair days where no spare server
is bought); setting it equal to the rent's middle gives the purchase, split over the servers bought. "All-in" is the
purchase as the cost model counts it: the vendors' server price with the 10–15 % of transceivers, cabling, switches
and insurance (``hidden_capex``); ``per_server_quote`` is the server price before them, the figure a quote compares
with where the vendor quotes the bare server.

The cover the memo asks for is in the gate (q26): where the memo doubts renting a failed server's cards and names a
third server as the cover (``repair_cover.unsure``), the gate is also said for the servers with that one more, its
running costs with it and no repair-day rent. Where even a free purchase cannot bring owning under the rent, there
is no gate: the plan says so (``per_server`` None).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import stand_in_prices
from advisor.plan.data import factor_range

OWN_FORMS = ("bare_metal", "cloud_then_bare_metal")  # owned in a data centre, weighed against renting the same load


def _mid(r: Any) -> float:
    return (r.low + r.high) / 2


def running_mid(costs: Any) -> float:
    """Owning's running costs a month at the middle, without the repair-day rent: power, colocation, staff."""
    parts = (costs.bare_metal_power_monthly, costs.bare_metal_colo_monthly, costs.bare_metal_staff_monthly)
    return sum(_mid(p) for p in parts if p is not None)


def max_purchase(rent_mid: float, running: float, horizon: int) -> float | None:
    """The purchase at which owning's month (purchase ÷ horizon + running) equals the rent's; None where the running
    costs alone reach the rent (no purchase price pays)."""
    room = rent_mid - running
    return room * costmod.amortisation_months(horizon) if room > 0 else None


def compute(form: str, costs: Any, gpus: int, unit_gpus: int, cover_server: bool) -> dict[str, Any] | None:
    """The gate of a plan (see the module's text), in its currency; None where no owning is weighed against a rent,
    or neither side rests on a stand-in price. ``gpus``: the GPUs bought, ``unit_gpus`` the cards in a server;
    ``cover_server``: the memo names one more server as the cover for a failed one."""
    if form not in OWN_FORMS or costs is None or costs.bare_metal_capex is None or costs.cloud_monthly is None:
        return None
    stand_ins = stand_in_prices.stand_ins(costs.prices)
    if not stand_ins or unit_gpus < 1 or gpus < unit_gpus or costs.bare_metal_monthly is None:
        return None
    capex_mid = _mid(costs.bare_metal_capex)
    h_lo, h_hi = factor_range("hidden_capex")
    repair = _mid(costs.bare_metal_repair_monthly) if costs.bare_metal_repair_monthly is not None else 0.0
    horizon = costs.horizon_months
    run = running_mid(costs)
    months = costmod.amortisation_months(horizon)
    servers = max(1, gpus // unit_gpus)
    rent = _mid(costs.cloud_monthly)
    top = max_purchase(rent, run + repair, horizon)
    gate: dict[str, Any] = {
        "kind": "rent", "currency": costs.currency, "servers": servers, "unit_gpus": unit_gpus,
        "rent_mid": round(rent, 2), "horizon": months,
        "assumed_per_server": round(capex_mid / servers, 2),
        "per_server": round(top / servers, 2) if top is not None else None,
        "per_server_quote": round(top / servers / ((h_lo + h_hi) / 2), 2) if top is not None else None,
        "stand_in_rows": sorted({r.id for r in stand_ins}),
        "cover": None,
    }  # fmt: skip
    if cover_server:  # one more server: its share of the running costs, no repair-day rent
        more = servers + 1
        top_c = max_purchase(rent, run * more / servers, horizon)
        gate["cover"] = {"servers": more, "per_server": round(top_c / more, 2) if top_c is not None else None}
    return gate


def within_budget(costs: Any, gpus: int, unit_gpus: int, budget: float | None) -> dict[str, Any] | None:
    """Where renting is no fallback (the data stays on the team's own network: ``rent_fallback``), the quote that
    decides a purchase for the team's server room on stand-in purchase prices is the monthly budget's: the price a
    server at which the purchase spread over the horizon plus the running costs at the middle use the whole budget
    (q03, review 20b: "the ¥680k–920k capex rests on a U-grade placeholder, so it must be quoted"). None where no
    monthly budget is given, a one-off budget judges the purchase, or the purchase row is sourced."""
    owned = getattr(costs, "owned", None) if costs is not None else None
    if owned is None or owned.form != "on_premises" or owned.fleet_gpus or not budget or owned.capex_budget:
        return None
    stand_ins = stand_in_prices.stand_ins(costs.prices)
    if not any(r.kind == "capex" for r in stand_ins) or unit_gpus < 1:
        return None
    servers = max(1, gpus // unit_gpus)
    top = max_purchase(budget, _mid(owned.running_monthly), costs.horizon_months)
    # the server-room purchase is the price rows' sum, no hidden items added (``forms``): the quote is the all-in
    per = round(top / servers, 2) if top is not None else None
    return {"kind": "budget", "currency": costs.currency, "servers": servers, "unit_gpus": unit_gpus,
            "budget": budget, "horizon": costmod.amortisation_months(costs.horizon_months),
            "assumed_per_server": round(_mid(owned.capex) / servers, 2), "per_server": per, "per_server_quote": per,
            # the estimate's high end a server: a ceiling far above it is room, not a gate (``budget_room41``)
            "estimate_high_per_server": round(owned.capex.high / servers, 2),
            "stand_in_rows": sorted({r.id for r in stand_ins}), "cover": None}  # fmt: skip


__all__ = ["OWN_FORMS", "compute", "max_purchase", "running_mid", "within_budget"]
