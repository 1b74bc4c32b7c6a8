"""Rules of the team's current fleet used and subtracted (``advisor.plan.fleet``): what the plan takes of the
fleet, what it buys or rents besides, and what that costs a month. Registered in ``advisor.plan.rules``' registry
on import (that module imports this one at its end).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fleet_idle41, fleet_one_count, rent_basis
from advisor.plan.burst_gpu import rented_of
from advisor.plan.fleet_disagree import readings
from advisor.plan.result import Finding, OwnedFormCost
from advisor.plan.rule_base import Facts, _money, finding, rule
from advisor.plan.sales_only import listed_on_request


def on_fleet(f: Facts) -> OwnedFormCost | None:
    """The chosen form's figures when the team's fleet decided it (None otherwise)."""
    costs = None if f.cost is None else f.cost.costs
    if costs is None:
        return None
    o = costs.hybrid if f.form == "hybrid" else costs.owned if f.form in ("on_premises", "bare_metal") else None
    return o if o is not None and o.fleet_gpus else None


def _r(lo: float, hi: float, f: Facts) -> str:
    return _money(lo, f) if round(lo) == round(hi) else f"{_money(lo, f)}–{_money(hi, f)}"


def _free_first(f: Facts, o: OwnedFormCost) -> dict | None:
    """When the fleet is short by fewer GPUs than the purchase buys (q04: 12 H20 needed in groups of 4, 11 free,
    a whole 8-GPU server bought for the one missing), an engineer first frees the missing few from the fleet's
    current work, or moves that work onto the fleet's idle cards of another type, before buying a server: said
    as the first option, the purchase as the alternative (None when the purchase buys no more than is missing)."""
    from advisor.plan import gpu_choice
    from advisor.plan.data import gpus_by_id
    from advisor.plan.fleet import free_gpus

    bought, free, need = o.gpus_bought or 0, o.fleet_free or 0, f.chosen.total_gpus
    short = need - free  # GPUs the plan needs beyond the fleet's free ones, whatever the groups they fall in
    if not bought or not 0 < short < bought:
        return None
    move: dict | str = ""
    for gid, count in gpu_choice.fleets(f.ctx):
        idle = free_gpus(count, f.ctx.utilisation)
        if gid != f.chosen.gpu.id and idle >= short:  # another type's idle cards can take the work freed
            move = {"tr": "plan.fleetq.move", "other": gpus_by_id()[gid].name if gid in gpus_by_id() else gid,
                    "free": idle, "count": count}
            break
    return {"tr": "plan.fleetq.more.free_first", "short": short, "need": need, "gpu": f.chosen.gpu.name,
            "move": move, "n": bought, "capex": _r(o.capex.low, o.capex.high, f)}


def _moved(f: Facts, o: OwnedFormCost) -> dict | None:
    """Busy cards taken by moving their current work onto the fleet's idle cards of another type (q04): said, with
    the type that takes the work, instead of "nothing to buy" alone."""
    if not o.fleet_moved or f.chosen is None:
        return None
    from advisor.plan import gpu_choice
    from advisor.plan.data import gpus_by_id

    other = next((g for g, _ in gpu_choice.fleets(f.ctx) if g != f.chosen.gpu.id), None)
    name = gpus_by_id()[other].name if other in gpus_by_id() else (other or "")
    return {"tr": "plan.fleet14.moved", "n": o.fleet_moved, "gpu": f.chosen.gpu.name, "other": name}


def _this_service(f: Facts, o: OwnedFormCost, burst: int, util: int) -> dict | None:
    """The fleet's load is this service's base (s14-fleetload): the fleet carries today's load, the peaks need
    the rest; when the measurement says the fleet is busier than the plan's curve predicts, said, and trusted."""
    from advisor.plan import fleet as fleetmod
    from advisor.plan.sizing import HEADROOM

    if f.chosen is None or not fleetmod.this_service(f.ctx, f.chosen.gpu.id):
        return None
    multiple = fleetmod.peak_multiple(f.ctx)
    chk = fleetmod.base_check(f.ctx, f.chosen)
    busier: dict | str = ""
    # past 3× the page-1 warning (advisor.plan.fleet_disagree) says both readings, once
    if chk is not None and chk[1] > chk[0] and readings(f) is None:
        # s21-replica21: the per-replica figure the curve's GPU count rests on is said with it (round 10, q39: "up to
        # 12 per replica" in section 2 against "3 GPUs carry today's load", which rests on about 36 a replica)
        busier = {"tr": "replica21.fleet.busier", "busy": round(chk[1], 1), "curve": chk[0], "count": o.fleet_count,
                  "per": fleetmod.curve_per_replica(f.ctx, f.chosen) or 0,
                  "util": util, "multiple": f"{multiple:g}", "need": f.chosen.total_gpus,
                  "headroom": round(HEADROOM * 100)}
    rented = rented_of(f.cost.costs, f.form) if f.cost is not None else None
    by_month = burst and rented is not None and listed_on_request(str(o.burst_gpu))  # sold by the month (burst39)
    more = (_api_more(f, o.burst_plan_gpus, rented) if burst and rented is not None else None) or (
            {"tr": "burst39.fleetload.more.rent_month", "plan": o.burst_plan_gpus, "rented": rented} if by_month
            else {"tr": "burst24.fleetload.more.rent", "plan": o.burst_plan_gpus, "rented": rented,
                  "share": round((o.burst_hours_share or 0) * 100)} if burst and rented is not None
            else {"tr": "plan.fleetload14.more.rent", "n": burst, "share": round((o.burst_hours_share or 0) * 100)}
            if burst else {"tr": "plan.fleetload14.more.buy", "n": o.gpus_bought or 0}
            if o.gpus_bought else {"tr": "plan.fleetload14.more.none"})  # fmt: skip
    return {"count": o.fleet_count, "gpu": f.chosen.gpu.name, "util": util, "multiple": f"{multiple:g}",
            "more": more, "busier": busier}


def _api_more(f: Facts, plan: Any, rented: dict) -> dict | None:
    """The peaks' share said as the headline decides it where a hosted API takes each burst's overflow
    (``burst_path``): the API first, the rented part only where it falls short (issue 25, q39: reason 1 read "rented
    as 11 × H20 for the bursts" under a headline that sends the bursts to the API); None where the API does not lead."""
    from advisor.plan.burst_bill_rules import api_lead  # a rules module: loaded where used

    lead = api_lead(f)
    if lead is None:
        return None
    # how the rented part is sold (a month each through the sales) is the burst finding's, said there and on page 1's
    # budget row: not again in this reason, which page 1 lists beside that finding (s34 lead, q39 en at 6 pages)
    return {"tr": "rem36_burst.fleetload.more.api", "plan": plan, "rented": rented}


def _site_words(f: Facts, o: OwnedFormCost) -> dict:
    """Where the fleet stands (the office when the service is used on the office LAN: q33's workstations were "in
    your own server room"), whether an engineer's share is in the running cost (the cost table's staff row says
    the same: q33 read "an engineer's share included" above "staff not counted"), and the purchase spread over
    the horizon only when something is bought (s15-text)."""
    site = "plan.text15.site.office_lan" if o.site == "office" and f.ctx.reach == "lan" else \
        "costbasis21.fleet.site.racked" if o.colo_already_paid is not None else f"plan.fleet13.site.{o.site}"
    staff: dict = {"tr": "plan.text15.fleet.staff_counted" if o.staff_counted else "plan.text15.fleet.staff_not_counted"}
    new = powered_new(o)
    if new is not None:  # the team's own cards stand powered today (blind review 35, q04 zh: "not incremental")
        staff = {"tr": "hyb44.fleet.powered", "staff": staff, "new": _r(new[0], new[1], f)}
    spread: dict | str = ({"tr": "plan.text15.fleet.spread", "months": f.ctx.duration_months,
                           "monthly": _r(o.monthly.low, o.monthly.high, f)}
                          if (o.gpus_bought or 0) > 0 else "")
    return {"site": {"tr": site}, "staff": staff, "spread": spread}


def powered_new(o: OwnedFormCost) -> tuple[float, float] | None:
    """The share of the power bill that is new, where the plan runs on the team's own cards in its own room or
    office and buys or rents nothing: those cards draw their idle power today whether or not they serve, so only
    the draw above idle is added (power × (1 − idle ÷ average draw), low and high ends). None elsewhere (cards
    bought or rented, colocation billed per kW, or a result saved without the draw shares)."""
    if o.site != "office" or (o.gpus_bought or 0) > 0 or o.gpus_burst or not o.fleet_gpus or o.idle_draw is None \
            or not o.average_draw or not o.average_draw_high:
        return None
    low = o.power_monthly.low * max(0.0, 1 - o.idle_draw.low / o.average_draw)
    high = o.power_monthly.high * max(0.0, 1 - o.idle_draw.high / o.average_draw_high)
    return (min(low, high), max(low, high))


# every card of the fleet said as all of them (s33-fleet33: q04 and q08 take all 16 with the spare)
ALL_CARDS_TITLE = {"plan.rule.cost.fleet.title": "fleet33.cost_fleet.title_all",
                   "gpuwhy27.cost_fleet_moved.title": "fleet33.cost_fleet_moved.title_all"}


# the detail without the rent comparison, for a plan on owned cards alone
OWNED_DETAIL = "fleet36.cost_fleet.detail_owned"


@rule("cost.fleet", "cost")
def cost_fleet(f: Facts) -> Finding | None:
    """The plan runs on GPUs the team already owns: the free share at the measured utilisation costs only its
    running costs; what is missing is bought (own server room or colocation) or rented for the peak (hybrid)."""
    o = on_fleet(f)
    if o is None or f.chosen is None:
        return None
    bought, burst = o.gpus_bought or 0, o.gpus_burst
    more = ({"tr": "plan.fleet13.more.rent", "n": burst, "share": round((o.burst_hours_share or 0) * 100)}
            if burst else _free_first(f, o) or {"tr": "plan.fleet13.more.buy", "n": bought,
                                                 "capex": _r(o.capex.low, o.capex.high, f)}
            if bought else _moved(f, o) or {"tr": "plan.fleet13.more.none"})  # fmt: skip
    cloud = f.cost.cloud_usd
    conv = f.cost.conv
    rent: dict[str, Any] = {"tr": "review30.fleet.rent_plain",
                            "rent": "—" if None in cloud else _r(cloud[0] * conv, cloud[1] * conv, f)}
    od = f.cost.costs.cloud_on_demand_monthly
    deployed = rent_basis.reserved_deployed(f.cost.costs, f.chosen.total_gpus)
    if f.form == "hybrid" and od is not None:
        # the rent the hybrid's cost table prints (on demand, scaled to the load): a hybrid's table shows no reserved
        # floor, so its figure here read as a second rent for the same setup (round 13 zh, q39: "the rent comparison
        # appears as both ¥43,390–123,355 and ¥52,411–138,654")
        rent = {"tr": "review30.fleet.rent_plain", "rent": _r(od.low, od.high, f)}
    elif deployed is not None:
        # the deployed GPUs reserved every hour, as an owned fleet runs, with the product that gives it (review 19,
        # q33: "appears to price 4 GPUs at the reserved rate, not the 6 deployed": it was the load's rent)
        (lo, hi), basis = deployed
        rent = {"tr": "review30.fleet.rent", "rent": _r(lo, hi, f), "basis": basis}
    util = round((o.fleet_utilisation or 0) * 100)
    this = _this_service(f, o, burst, util)
    if this is not None:
        from advisor.plan import burst_bill_rules  # a rules module: loaded where used

        # the API leads the bursts: their overflow on it in the running month, as page 1's cost row (s37-fleet39)
        run = burst_bill_rules.api_led_running(f) or o.running_monthly
        return finding("cost.fleet", variant="this_service", **this, running=_r(run.low, run.high, f), monthly=_r(o.monthly.low, o.monthly.high, f),
                       months=f.ctx.duration_months, rent=rent, **_site_words(f, o))  # fmt: skip
    out = finding("cost.fleet", used=o.fleet_gpus, count=o.fleet_count, gpu=f.chosen.gpu.name, free=o.fleet_free,
                  util=util, measured={"tr": "plan.fleet13.measured" if f.ctx.utilisation_measured
                                       else "plan.fleet13.assumed"},
                  more=more, running=_r(o.running_monthly.low, o.running_monthly.high, f),
                  monthly=_r(o.monthly.low, o.monthly.high, f), months=f.ctx.duration_months, rent=rent,
                  **_site_words(f, o))  # fmt: skip
    if more.get("tr") == "plan.fleet14.moved":  # the free ones and the busy ones whose work moves, as one sum
        # (blind review 17, q04: "'11 free at 30 %' but the plan takes 12 and moves one card's work" read as a gap)
        out.title_key = "gpuwhy27.cost_fleet_moved.title"
        out.params.update(moved=more["n"], other=more["other"])
    if not bought and not burst:
        # nothing bought or rented: the cards are owned either way, so what renting them would cost decides nothing
        # (blind review 25, q04 zh: "the '租用同样配置每月 ¥62,946–¥183,261' comparison is irrelevant for owned cards")
        out.detail_key = OWNED_DETAIL
    if out.title_key == fleet_one_count.COST_TITLE and fleet_one_count.decided_first(f.ctx.assumptions):
        out.title_key = fleet_one_count.TITLE  # one card count on page 1 (s37-fleet39, review 28, q04)
    if o.fleet_gpus == o.fleet_count and out.title_key in ALL_CARDS_TITLE:  # "all 16 of your H20", not "16 of your 16"
        out.title_key = ALL_CARDS_TITLE[out.title_key]  # (blind review 16, q04 zh; s33-fleet33 takes every card)
        if out.title_key == "fleet33.cost_fleet.title_all" and fleet_idle41.nearly_idle(o.fleet_count or 0,
                                                                               f.ctx.utilisation):
            out.title_key = "lead41.cost_fleet.title_all"  # not "about 8 cards' worth idle" of 8 (review 31, q33)
    return out
