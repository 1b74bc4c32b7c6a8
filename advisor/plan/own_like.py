"""Owning weighed against renting like for like (s28-own28, issue 25; blind reviews 14–17b, q26/q31: "24 H20 bought
in bf16 with a whole spare server against 16 rented in fp8 … an expert would own 2 servers in fp8 with N+1 inside the
two or a costed repair-day rental").

The rent beside a purchase is sized to the load (``rent_sized``): the replicas that carry the peak with the plan's
headroom and one spare replica, at the lowest precision the answers accept. The owned side is costed here on those
same GPUs in that same format, in whole servers of the size bought, and a failed server (which takes all its cards
down for its repair days, where a cloud moves a failed instance to another host) is covered the cheaper of two
honest ways at the middle of the prices:

- **N+1 inside the servers** (``spare="inside"``): servers enough that one of them down still leaves the load's
  GPUs; where rounding to whole servers already leaves that, it costs nothing more, else it is one more server;
- **renting for the repair days** (``spare="repair_rent"``): only the servers the rented GPUs fill, and a failed
  server's cards rented at the rent's middle for its expected repair days (failures a GPU-year × repair days,
  ``resources/plan/server_repair28.json``: a sourced failure rate, an assumed repair time).

The per-GPU purchase and running costs are the bought setup's, pro rata (the price rows are per GPU; staff is per
server, which the proportion keeps). Owning pays where its month is under renting's at the middle and the
purchase pays back within the horizon; the form, the headline and the cost finding all follow that one verdict
(``owning_pays``), whatever price rows apply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import rent_until_covered, stand_in_prices
from advisor.plan.server_repair import repair_facts, repair_rent_month, repair_server_days_month

NOTE = "spare_by_rent"  # a bought setup noted so: no spare server, a failed one's cards rented for its repair days


def by_rent(cand: Any) -> bool:
    """The setup is bought without a spare server, its failed server covered by rent (the engine's note)."""
    return NOTE in (getattr(cand, "notes", None) or [])


@dataclass(frozen=True)
class Like:
    """The owned side on the rented side's GPUs and format, in the plan's currency, at the middle of the prices."""

    gpus: int  # GPUs bought: the rented GPUs in whole servers (+ a server where N+1 inside needs one)
    servers: int
    unit_gpus: int  # cards a server
    weights: str | None  # the format both sides run (the rented side's)
    spare: str  # "inside" | "repair_rent": how a failed server is covered (the cheaper at the middle)
    repair_month: float  # renting a failed server's cards for its repair days, a month at the middle (0: inside)
    other_month: float  # the other way's cost a month at the middle (the spare server's whole month, or the rent)
    capex_mid: float
    running_mid: float  # power, colocation, staff (and the repair-day rent) a month at the middle
    month_mid: float  # owning's month at the middle: the purchase spread over the horizon + running
    rent_mid: float
    payback_mid: float | None  # months to pay back the purchase against the rent at the middle; None: never
    max_purchase: float | None  # the purchase at which owning breaks even over the horizon; None: none does
    horizon: int

    @property
    def pays(self) -> bool:
        """Owning is the cheaper month at the middle and its purchase pays back within the horizon."""
        return self.month_mid < self.rent_mid and self.payback_mid is not None and self.payback_mid <= self.horizon


def _mid(r: Any) -> float:
    return (r.low + r.high) / 2


def _running(costs: Any) -> tuple[float, float]:
    parts = (costs.bare_metal_power_monthly, costs.bare_metal_colo_monthly, costs.bare_metal_staff_monthly)
    return sum(p.low for p in parts if p is not None), sum(p.high for p in parts if p is not None)


def figures(costs: Any) -> Like | None:
    """The owned side like for like (see the module's text); None without a purchase or a rent to weigh, or where
    the rent is not sized apart from the purchase (then the two are the same GPUs already)."""
    if costs is None or costs.bare_metal_capex is None or costs.cloud_monthly is None:
        return None
    sized = costs.rent_sized or {}
    bought = int(sized.get("bought_gpus") or 0)
    unit = int(sized.get("bought_unit_gpus") or 0)
    if not sized.get("gpus") or bought <= 0 or unit <= 0:
        return None
    rented, load = int(sized["gpus"]), int(sized.get("load_gpus") or sized["gpus"])
    per_capex = _mid(costs.bare_metal_capex) / bought
    run_lo, run_hi = _running(costs)
    per_run = (run_lo + run_hi) / 2 / bought
    rent_mid = _mid(costs.cloud_monthly)
    horizon = costmod.amortisation_months(costs.horizon_months)
    servers = max(1, math.ceil(rented / unit))
    per_gpu_rent = (costs.cloud_monthly.low / rented, costs.cloud_monthly.high / rented)

    def month(gpus: int, extra: float) -> float:
        return per_capex * gpus / horizon + per_run * gpus + extra

    # N+1 inside: one server down must still leave the load's GPUs (else one more server)
    inside = servers if (servers - 1) * unit >= load else servers + 1
    repair = sum(repair_rent_month(servers * unit, unit, per_gpu_rent)) / 2
    inside_month, rent_month = month(inside * unit, 0.0), month(servers * unit, repair)
    if inside == servers or inside_month <= rent_month:
        n, spare, extra, other = inside, "inside", 0.0, rent_month - month(servers * unit, 0.0)
    else:
        n, spare, extra, other = servers, "repair_rent", repair, inside_month - month(servers * unit, 0.0)
    gpus = n * unit
    capex, running = per_capex * gpus, per_run * gpus + extra
    room = rent_mid - running
    return Like(gpus=gpus, servers=n, unit_gpus=unit, weights=sized.get("weights"), spare=spare,
                repair_month=extra, other_month=other, capex_mid=capex, running_mid=running,
                month_mid=capex / horizon + running, rent_mid=rent_mid,
                payback_mid=capex / room if room > 0 else None, max_purchase=room * horizon if room > 0 else None,
                horizon=horizon)  # fmt: skip


def stored(costs: Any, before: Like) -> dict[str, Any]:
    """The like-for-like figures of a plan that bought that setup (``costs``: its own, the repair-day rent in its
    running costs), kept on ``Costs.own_like``; ``before``: the figures weighed on the setup with a spare server
    (what the other cover, one more server, would add)."""
    capex, rent = _mid(costs.bare_metal_capex), _mid(costs.cloud_monthly)
    run_lo, run_hi = _running(costs)
    rep = costs.bare_metal_repair_monthly
    running = (run_lo + run_hi) / 2 + (_mid(rep) if rep is not None else 0.0)
    horizon = costmod.amortisation_months(costs.horizon_months)
    month, room = capex / horizon + running, rent - running
    payback = capex / room if room > 0 else None
    return {"servers": before.servers, "gpus": before.gpus, "unit_gpus": before.unit_gpus, "weights": before.weights,
            "spare": before.spare, "repair_month": _mid(rep) if rep is not None else 0.0,
            "other_month": before.other_month, "month_mid": month, "rent_mid": rent, "payback_mid": payback,
            "max_purchase": room * horizon if room > 0 else None, "capex_mid": capex, "horizon": horizon,
            "pays": month < rent and payback is not None and payback <= horizon}


def rent_now_on_quotes(form: str, ctx: Any, costs: Any) -> bool:
    """Rent now and buy on the quotes (``cloud_then_bare_metal`` decided on a measured load, s28-own28): owning and
    renting tie on stand-in prices and owning like for like is the dearer side, so the quotes decide, not a
    measurement (q31). The purchase is still the plan's condition: its price findings and quote step stay. Also where
    owning pays only without the server cover the service needs (``rent_until_covered``, s31-ctb32: q26)."""
    if rent_until_covered.holds(form, costs):
        return True
    return bool(form == "cloud_then_bare_metal" and costs is not None and ctx.duty_measured
                and stand_in_prices.costs_tie(costs) and owning_pays(costs) is False)


def owning_pays(costs: Any) -> bool | None:
    """The like-for-like verdict: True owning pays, False renting is cheaper; None where no like-for-like figure
    applies (the same GPUs on both sides: the plan's own figures are already like for like)."""
    stored = getattr(costs, "own_like", None) if costs is not None else None
    if stored:  # the plan bought the like-for-like setup (engine._spare_by_rent): its own figures say
        return bool(stored["pays"])
    got = figures(costs)
    return None if got is None else got.pays


__all__ = ["NOTE", "Like", "by_rent", "figures", "owning_pays", "repair_facts", "repair_rent_month", "rent_now_on_quotes", "repair_server_days_month", "stored"]
