"""The owning forms, costed as they really cost, and when the engine chooses them.

**On-premises** (``on_premises``): the team's own server in the office or server room. One purchase (the
catalog's capex rows: the card plus its share of a server; no cluster parts — the data-centre "hidden capex" of
transceivers and top-of-rack switches does not apply to one box), power from the mains (kWh = the GPUs' TDP × the
server factor × the stated PUE × the average draw × 730 h, at the power row's price or the user's quote), no
colocation fee, and an engineer's share only when the team has no ops staff (a team that runs servers already
looks after one more box).

**Hybrid** (``hybrid``): the steady base load on owned servers in colocation (capex with its hidden part,
power, colocation per kW, staff by the team's ops capability) and the peak above it on rented cloud GPUs for the
share of hours the bursts run (``Ctx.burst_share``: the answers' burst schedule, else an assumed share).

The whole setup bought (``costs.owned``, also shown beside a rented plan: "buying it would fit the one-off
budget") is the plan's setup laid out to BUY (``owned_layout``): the peak's replicas in whole servers plus a spare
server where the plan's redundancy rule needs N+1 — not the rented layout's cloud VM sizes and spare VM.

Both are stated with the one-off purchase AND the purchase spread over the plan's horizon (no resale value
counted: a conservative average), so a horizon total compares with renting month for month. Every figure is in
USD here and converted once with the plan's FX rate (deployment-facts §3.2 for the purchase, power, colocation
and hidden-capex facts; the PUE is a stated range, grade U).

When (``choose_form``): on-premises for a service nobody outside reaches (office LAN, private network, staff
only) that one server carries, when the purchase fits the one-off budget — or, with no one-off budget given, when
the service is on the office LAN (a cloud server is not on it) or owning costs less over the horizon; hybrid for a
public service whose load the team said is bursty or daily-peaked, run by a team with strong ops, over a horizon of
two years or more, when an owned base + rented burst costs less than renting everything (and than owning
everything).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from advisor.plan import (
    burst_gpu,
    capacity_per_million,
    node_shapes,
    office_power,
    office_purchase,
    power_tariff,
    staff_servers,
    stand_in_prices,
    usage_share,
)
from advisor.plan import cost as costmod
from advisor.plan import gpu_choice as gchoice
from advisor.plan import hybrid as hybrid_split
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, duration, factor, factor_range, gpu_choice_facts
from advisor.plan.result import Costs, Fix, MoneyRange, OwnedFormCost, PriceRow

HORIZON_MIN_HYBRID = 24  # months: an owned base needs years to pay back its purchase (cf. bare metal, rule 15)
Range = tuple[float, float]


@dataclass(frozen=True)
class Owned:
    """One owning form in USD: what the engine compares (the memo's figures are ``cost``, in the answers' money)."""

    form: str  # on_premises | bare_metal | hybrid
    capex: Range
    running_base: Range  # power + colocation + burst, a month (no staff)
    staff_if_counted: Range  # the engineer's share this form needs at the team's ops capability
    staff_if_no_ops: Range  # … when the team has no ops staff
    office: bool
    horizon: int
    cost: OwnedFormCost
    rows: tuple[PriceRow, ...]
    # s26-own26: the purchase row's server size where larger than the servers bought (``cost.server_size``)
    server_size: dict | None = None

    def staff(self, ops: str) -> Range:
        if self.office:  # the office box: an engineer's share only when the team has nobody who runs servers
            return self.staff_if_no_ops if ops == "none" else (0.0, 0.0)
        return self.staff_if_no_ops if ops == "none" else self.staff_if_counted

    def running(self, ops: str) -> Range:
        s = self.staff(ops)
        return self.running_base[0] + s[0], self.running_base[1] + s[1]

    def monthly(self, ops: str) -> Range:
        r = self.running(ops)
        return self.capex[0] / self.horizon + r[0], self.capex[1] / self.horizon + r[1]


@dataclass
class FormsOutcome:
    owned: Owned | None = None  # the whole setup bought (office for an internal service, colocation otherwise)
    hybrid: Owned | None = None
    capex_budget_usd: float | None = None
    fx: float = 7.0  # CNY per USD, the plan's
    ops: str = "basic"  # the team's ops capability the figures were costed for
    max_per_node: int = 8  # GPUs one server of this kind holds


def _usd(row: PriceRow, fx: float) -> Range:
    return (row.low / fx, row.high / fx) if row.unit.upper().startswith("CNY") else (row.low, row.high)


def _span(rows: list[PriceRow], fx: float) -> Range | None:
    if not rows:
        return None
    lows, highs = zip(*(_usd(r, fx) for r in rows), strict=True)
    return min(lows), max(highs)


def _mr(r: Range, conv: float) -> MoneyRange:
    lo, hi = sorted(r)
    return MoneyRange(low=round(lo * conv, 2), high=round(hi * conv, 2))


def _own(c: Ctx, book: PriceBook, fx: float, conv: float, gpu: str, tdp_watts: float, gpus: int, *, office: bool,
         form: str, burst: Range = (0.0, 0.0), burst_gpus: int = 0, budget_usd: float | None = None,
         purchase_unit: int = 1, servers: int | None = None, rented: dict | None = None,
         usage: tuple[float, float] | None = None, server_gpus: int | None = None,
         repair: Range = (0.0, 0.0), region: str | None = None) -> Owned | None:
    """``gpus`` GPUs bought and run in the office (``office``) or in colocation; None when the GPU has no capex row.
    ``server_gpus``: the cards in each server bought, where laid out in servers (a row built on a larger server's
    share is said so beside the purchase: ``server_size_price``)."""
    capex_rows = book.find(gpu, "capex")
    unit = _span(capex_rows, fx)
    if unit is None:
        return None
    mismatch = costmod.server_size(list(capex_rows), server_gpus, fx)
    rows = list(capex_rows)
    capex = (unit[0] * gpus, unit[1] * gpus)
    if not office:  # a rack in a data centre: transceivers, cabling, ToR switches, insurance (§3.2)
        h_lo, h_hi = factor_range("hidden_capex")
        capex = (capex[0] * h_lo, capex[1] * h_hi)
    f_lo, f_hi = factor_range("node_power_per_tdp")
    kw = (tdp_watts * gpus / 1000 * f_lo, tdp_watts * gpus / 1000 * f_hi)
    pue = office_power.premises_pue(c, gpus) if office else (1.0, 1.0)  # a colocation price per kW includes cooling
    idle = office_power.idle_draw(c, gpus, premises=office)
    # busy the hours the month's tokens take (``usage``: usage_share.draw_share, full batches to random arrivals;
    # issue 25, s26-usage26) or the service's own duty (s20-fleet20:
    # not a fleet's other work), idle the rest at the machine's own idle share (pages20: an office box is not a server)
    use_lo, use_hi = usage if usage is not None else (c.volume_utilisation,) * 2
    draw = (office_power.average_draw(c, gpus, premises=office, utilisation=use_lo)[0],
            office_power.average_draw(c, gpus, premises=office, utilisation=use_hi)[1])
    kwh = (kw[0] * pue[0] * draw[0] * costmod.HOURS_PER_MONTH, kw[1] * pue[1] * draw[1] * costmod.HOURS_PER_MONTH)
    power_rows = power_tariff.power_rows(book, gpu, region)  # the region's (a mainland node's) or the US tool's
    rows += power_rows
    price = _span(power_rows, fx) or (0.0, 0.0)
    power = (kwh[0] * price[0], kwh[1] * price[1])
    colo = (0.0, 0.0)
    if not office:
        colo_rows = book.find(gpu, "colo")
        rows += colo_rows
        per_kw = _span(colo_rows, fx) or (0.0, 0.0)
        colo = (kw[0] * per_kw[0], kw[1] * per_kw[1])
    staff_rows = book.find(gpu, "staff")
    rows += staff_rows
    rate = _span(staff_rows, fx) or (0.0, 0.0)
    # an engineer's share per server, the rule cost.compute counts by (staff_servers)
    nodes = servers if servers is not None else staff_servers.count(gpus, server_gpus)
    fte = factor("staff_fte")

    def share(level: str) -> Range:
        return fte[level][0] * nodes * rate[0], fte[level][1] * nodes * rate[1]

    # + a failed server's cards rented for its repair days where no spare server is bought (own_like)
    running_base = (power[0] + colo[0] + burst[0] + repair[0], power[1] + colo[1] + burst[1] + repair[1])
    horizon = costmod.amortisation_months(c.duration_months)  # the purchase spread as cost.compute spreads it
    owned = Owned(form=form, capex=capex, running_base=running_base, staff_if_counted=share(c.ops),
                  staff_if_no_ops=share("none"), office=office, horizon=horizon, cost=None,  # type: ignore[arg-type]
                  rows=tuple(rows))  # fmt: skip
    staff = owned.staff(c.ops)
    running, monthly = owned.running(c.ops), owned.monthly(c.ops)
    cost = OwnedFormCost(
        form=form, site="office" if office else "colocation", gpus_owned=gpus, gpus_burst=burst_gpus,
        purchase_unit=purchase_unit,
        burst_hours_share=c.burst_share if burst_gpus else None,
        capex=_mr(capex, conv), amortised_monthly=_mr((capex[0] / horizon, capex[1] / horizon), conv),
        it_kw=MoneyRange(low=round(kw[0], 2), high=round(kw[1], 2)),
        pue=MoneyRange(low=pue[0], high=pue[1]) if office else None,
        energy_kwh_monthly=MoneyRange(low=round(kwh[0]), high=round(kwh[1])),
        power_monthly=_mr(power, conv), colo_monthly=None if office else _mr(colo, conv),
        staff_monthly=_mr(staff, conv), staff_counted=staff[1] > 0,
        burst_monthly=_mr(burst, conv) if burst_gpus else None,
        running_monthly=_mr(running, conv), monthly=_mr(monthly, conv),
        horizon_total=_mr((capex[0] + running[0] * horizon, capex[1] + running[1] * horizon), conv),
        capex_budget=None if budget_usd is None else round(budget_usd * conv, 2),
        capex_within_budget=None if budget_usd is None else capex[1] <= budget_usd,
        capex_stand_in_straddle=_stand_in_straddle(capex, budget_usd, rows),
        average_draw=round(draw[0], 3), average_draw_high=round(draw[1], 3),
        idle_draw=MoneyRange(low=idle[0], high=idle[1]), **(rented or {}),
    )  # fmt: skip
    return Owned(form=form, capex=capex, running_base=running_base, staff_if_counted=owned.staff_if_counted,
                 staff_if_no_ops=owned.staff_if_no_ops, office=office, horizon=horizon, cost=cost, rows=tuple(rows),
                 server_size=mismatch)


def _stand_in_straddle(capex: Range, budget_usd: float | None, rows) -> bool:
    """Over the one-off budget only at the high end of a purchase priced on a stand-in (a grade-U or stale purchase
    row, not a quote) whose middle the budget covers: the quote, not the placeholder, says whether it fits
    (``purchase_rank.stand_in_straddle`` ranks setups on the same rule)."""
    if budget_usd is None or not capex[0] <= budget_usd < capex[1] or (capex[0] + capex[1]) / 2 > budget_usd:
        return False
    return bool(stand_in_prices.stand_ins([r for r in rows if r.kind == "capex"]))


def fits_one_off(own: Owned, budget_usd: float | None) -> bool:
    """The purchase fits the one-off budget at its high end, or straddles it on a stand-in price whose middle the
    budget covers (the quote decides: ``_stand_in_straddle``)."""
    return budget_usd is not None and (own.capex[1] <= budget_usd or own.cost.capex_stand_in_straddle)


def capex_budget_usd(c: Ctx, fx: float) -> float | None:
    b = c.answers.capex_budget
    if b is None:
        return None
    return b.amount / fx if b.currency == "CNY" else b.amount


def monthly_budget_usd(c: Ctx, fx: float) -> float | None:
    if c.budget_amount is None:
        return None
    return c.budget_amount / fx if c.currency == "CNY" else c.budget_amount


def purchase_unit(gpu) -> int:
    """GPUs bought at once: SXM/OAM parts come on 8-GPU baseboards (HGX, OAM platforms) and are sold as whole
    servers; PCIe cards (and NVLink-bridged NVL pairs, which are PCIe cards) one at a time."""
    baseboard = gpu.interconnect in ("nvlink", "infinity-fabric") and "nvl" not in gpu.id and "pcie" not in gpu.id
    return gpu.max_gpus_per_node if baseboard else 1


def _whole(gpus: int, unit: int) -> int:
    return max(unit, math.ceil(gpus / unit) * unit)


def owned_layout(c: Ctx, cand, region: str) -> node_shapes.Layout:
    """The setup ``cand`` laid out to BUY, not as it is rented: the replicas the peak needs (``layout.load_replicas``,
    never the GPUs that rounding to cloud VM sizes or the rented spare added) in whole servers — SXM/OAM parts as
    8-GPU servers, PCIe cards 1/2/4/8 to a server, as few servers as hold the load — plus one spare SERVER only
    where the plan's own redundancy rule asks for one (a paid or public service: ``gpu_choice.redundancy_reason``;
    an internal tool on one box has none). The rented layout priced a bought server as cloud VMs (3 × 1-GPU VMs
    with their N+1 became 3 H100 → one 8-GPU server, silently without the spare server the plan's own rule says a
    paid service needs to survive one failed server)."""
    lay = getattr(cand, "layout", None)
    if lay is not None and lay.owned and "spare_by_rent" in cand.notes:  # bought as laid out (own_like.NOTE)
        return lay
    load = lay.load_replicas if lay is not None else cand.replicas
    shape = node_shapes.shape_of(cand.gpu.id, owned=True)
    spare = int(gpu_choice_facts()["redundancy"]["spare_units"]) if gchoice.redundancy_reason(c) else 0
    if "second_unit" in cand.notes:  # the second server the plan recommends, bought with it (s17: second_unit)
        spare = 1
    return node_shapes.layout(cand.gpu.id, cand.tp, max(1, load), shape, spare=spare,
                              region_shares=gchoice.region_shares(c, region))  # fmt: skip


def bought_whole(c: Ctx, book: PriceBook, cand, region: str, fx: float, conv: float = 1.0,
                 bought: node_shapes.Layout | None = None, repair: Range = (0.0, 0.0)) -> Owned | None:
    """The setup ``cand`` bought whole (``owned_layout``, or ``bought`` where the caller laid it out already) and run
    where the plan runs it (the office/server room for an internal service, else colocation): its purchase, power,
    colocation and an engineer's share per server; None when the GPU has no purchase price. The purchase ranking
    weighs setups on this (``purchase_rank``), as the plan costs the one it buys."""
    lay = bought if bought is not None else owned_layout(c, cand, region)
    office = c.internal_only
    return _own(c, book, fx, conv, cand.gpu.id, cand.gpu.tdp_watts, lay.total_gpus, office=office, region=region,
                form="on_premises" if office else "bare_metal", budget_usd=capex_budget_usd(c, fx),
                purchase_unit=purchase_unit(cand.gpu), servers=lay.units,
                usage=usage_share.draw_share(c, cand, usage_share.of(c, cand)),
                server_gpus=lay.unit_gpus if getattr(lay, "owned", False) and lay.basis != "fleet" else None,
                repair=repair)  # fmt: skip (not the team's fleet)


def cost_forms(c: Ctx, book: PriceBook, cand, region: str, fx: float, conv: float,
               repair: Range = (0.0, 0.0)) -> FormsOutcome:
    """The owning forms of the plan's setup ``cand`` (a ``sizing.Candidate``): the whole setup bought, laid out to
    buy (``owned_layout``), and the hybrid split when there is a peak to rent (the peak needs two replicas or more;
    the rented cloud side is also what carries the load while an owned base server is down)."""
    budget = capex_budget_usd(c, fx)
    out = FormsOutcome(capex_budget_usd=budget, fx=fx, ops=c.ops, max_per_node=cand.gpu.max_gpus_per_node)
    if c.is_batch:
        return out
    gpu, tdp = cand.gpu.id, cand.gpu.tdp_watts
    unit = purchase_unit(cand.gpu)
    bought = owned_layout(c, cand, region)
    out.owned = bought_whole(c, book, cand, region, fx, conv, bought, repair)  # repair: USD a month (own_like)
    # a peak to rent needs a peak: the load itself takes two replicas or more. A one-replica service whose rented
    # layout carries a spare (N+1) has nothing above its base (it became "own one, rent the spare at peak hours")
    if bought.load_replicas >= 2 and cand.replicas >= 2 and not c.internal_only:
        owned_gpus = _whole(hybrid_split.base_replicas(c, cand) * cand.tp, unit)  # the steady load, on the curve
        burst_gpus = (cand.replicas - owned_gpus // cand.tp) * cand.tp  # a whole baseboard may carry more
        if burst_gpus <= 0:
            return out
        # the bursts rented on the part that carries them for least (s24-burst24): the plan's GPU or a cheaper one
        rented = burst_gpu.choose(c, book, cand, region, fx, burst_gpus)
        if rented is not None:
            hybrid = _own(c, book, fx, conv, gpu, tdp, owned_gpus, office=False, form="hybrid", region=region,
                          burst=burst_gpu.monthly(c, rented), burst_gpus=rented.count, budget_usd=budget,
                          purchase_unit=unit, rented=burst_gpu.fields(rented),
                          usage=usage_share.draw_share(c, cand, usage_share.carried(c, cand, owned_gpus)))  # fmt: skip
            if hybrid is not None:
                out.hybrid = Owned(**{**hybrid.__dict__, "rows": hybrid.rows + rented.rows})
    return out


def attach(out: costmod.CostOutcome, c: Ctx, book: PriceBook, cand, region: str) -> None:
    """Cost the owning forms of ``cand`` onto the plan's cost outcome (``out.forms``, ``out.costs.owned`` …)."""
    fx = float(book.fx()["cny_per_usd"])
    rep = out.costs.bare_metal_repair_monthly  # the repair-day rent cost.compute counted, in the answers' money
    repair = (rep.low / out.conv, rep.high / out.conv) if rep is not None else (0.0, 0.0)
    forms = cost_forms(c, book, cand, region, fx, out.conv, repair)
    out.forms = forms
    costs = out.costs
    costs.owned = forms.owned.cost if forms.owned is not None else None
    costs.hybrid = forms.hybrid.cost if forms.hybrid is not None else None
    if costs.bare_metal_server_size is None and forms.owned is not None and not forms.owned.cost.fleet_gpus \
            and forms.owned.capex[1] > 0:  # the server size bought, said once; nothing said of the team's own fleet
        costs.bare_metal_server_size = forms.owned.server_size
    if forms.capex_budget_usd is not None:
        costs.capex_budget = round(forms.capex_budget_usd * out.conv, 2)


def apply_chosen(out: costmod.CostOutcome, form: str) -> None:
    """For a chosen owning form, the plan's cost figures are that form's: its price rows join the prices used
    (sources shown in the memo), the cost per million tokens is its own (the purchase spread over the horizon +
    running), and the break-even compares it with renting the same setup (not colocated bare metal, which the
    plan did not choose: "owning never pays off" beside a bought server contradicted the plan)."""
    forms: FormsOutcome | None = out.forms
    own = None if forms is None else forms.owned if form == "on_premises" else forms.hybrid if form == "hybrid" \
        else None
    if forms is not None and form == "bare_metal" and forms.owned is not None and forms.owned.cost.fleet_gpus:
        own = forms.owned  # the team's colocated fleet (advisor.plan.fleet): its figures, not a purchase's
    if own is None:
        return
    costs = out.costs
    if own.office:  # no colocation in the office (the colocated comparison is not shown beside the box)
        costs.prices = [r for r in costs.prices if r.kind != "colo"]
    seen = {r.id for r in costs.prices}
    added = []
    for r in own.rows:  # each of the owned form's rows once, after the rows the plan already lists
        if r.id not in seen:
            seen.add(r.id)
            added.append(r)
    costs.prices = [*costs.prices, *added]
    if own.office and not own.cost.staff_counted:  # no engineer's share counted: no staff price row (review 27, q17)
        costs.prices = [r for r in costs.prices if r.kind != "staff"]
    out_tokens = costs.output_tokens_per_month or 0
    monthly = own.cost.monthly  # already in the answers' currency
    if out_tokens > 0:
        capacity_per_million.set_monthly(costs, monthly.low, monthly.high)
    cloud = out.cloud_usd
    if None in cloud or own.capex[1] <= 0:
        # no rent, or nothing to buy (the team's own GPUs): no purchase to pay back ("after about 0 months"), nor a VM
        # it is paid back against in the price table (s30-payback31)
        costs.break_even_months = costs.break_even_utilisation = None
        _drop_vm_yardstick(costs)
        return
    running = own.running(forms.ops)  # type: ignore[union-attr]
    # the months at the plan's one utilisation, the share the running costs were computed at (s23-util23)
    # against the always-on VM where the printed rent is a marketplace's (s30-payback31, advisor.plan.vm_yardstick)
    costs.break_even_months = costmod.against_rent(own.capex, running, out.payback_usd or cloud, own.horizon,  # type: ignore[arg-type]
                                                   costs.utilisation)
    # No utilisation break-even: the rent compared is the rented setup's bill (``out.cloud_usd``: its GPUs billed for
    # the hours they are up, the peak's replicas by day and one kept warm), which does not fall with the share of those
    # hours they are busy. Scaling it with use (the rent ÷ the assumed share × a share) put "owning needs at least 12 %
    # busy; not within 36 months at the tokens row's volume" in q03's table beside page 1's "pays off against that
    # rent after about 19 months" (blind review 11b, s22-owncost22): a rent the memo prints nowhere. A hybrid rents
    # part of its fleet either way.
    costs.break_even_utilisation = None


def _drop_vm_yardstick(costs: Costs) -> None:
    """No payback said: the always-on VM it would be against leaves the costs and their price rows."""
    if costs.payback_vm is None:
        return
    vm_id = costs.payback_vm["offer_id"]
    costs.payback_vm = None
    costs.prices = [r for r in costs.prices if r.id != vm_id]


def owning_fixes(c: Ctx, f, blockers: set[str]) -> list[Fix]:
    """Over the monthly budget, an internal service one server carries, no one-off budget given (or too small):
    buying the server with a one-off budget that covers its purchase, when its running costs fit the monthly
    budget. The engine re-plans the fix alone and keeps it only if the plan is then feasible within budget."""
    out_ = f.cost
    forms: FormsOutcome | None = getattr(out_, "forms", None)
    if "cost.budget_short" not in blockers or forms is None or forms.owned is None or not c.internal_only:
        return []
    own = forms.owned
    monthly = monthly_budget_usd(c, forms.fx)
    if not own.office or own.cost.gpus_owned > forms.max_per_node or monthly is None:
        return []
    if own.running(c.ops)[1] > monthly:
        return []
    amount = float(math.ceil(own.capex[1] * out_.conv / 1000) * 1000)
    budget = {"amount": amount, "currency": c.currency}
    return [Fix(id="buy_server", key="plan.fix.buy_server",
                params={"amount": f"{amount:,.0f}", "currency": c.currency, "running": {
                    "tr": "plan.fix.buy_server_running", "low": f"{own.running(c.ops)[0] * out_.conv:,.0f}",
                    "high": f"{own.running(c.ops)[1] * out_.conv:,.0f}", "currency": c.currency}},
                change={"capex_budget": budget})]


def _mid(r: Range) -> float:
    return (r[0] + r[1]) / 2


def _procurement_fits(c: Ctx, own: Owned | None = None) -> bool:
    """The purchase arrives before the deadline: a server's 30–90 days, or for an office box (``own``) the lead time
    the timeline gives it — a workstation from stock in days (twelfth blind review: "By when must it launch? Another
    answer changes the deployment form" on q01/q02's office boxes, where a 60-day deadline rented a cloud VM for a
    box that arrives in 3–14 days; s22-duties22c)."""
    if own is not None and own.office:
        _, hi, _ = office_purchase.procurement("on_premises", own.cost.gpus_owned)
    else:
        _, hi = duration("bare_metal_procurement")
    return c.deadline_days is None or c.deadline_days >= hi


SHORT_HORIZON_MONTHS = 12  # s18-rows: buying's 30-90 days of lead time are up to a quarter of such a horizon


def short_rent_fits(c: Ctx, cloud_usd: tuple[float | None, float | None], monthly_usd: float | None) -> bool:
    """A server-room box with no one-off budget over a short horizon, where renting fits the monthly budget: an
    engineer rents (seventh blind review, q38/q41: "buying two A10 servers (30-95 day lead time, placeholder prices)
    for a 12-month horizon is debatable when renting fits the budget"). Owning's lower figure rests on a purchase
    price and a lead time that are both placeholders, and the months spent waiting for it are months already paid."""
    return (c.duration_months <= SHORT_HORIZON_MONTHS and monthly_usd is not None and cloud_usd[1] is not None
            and cloud_usd[1] <= monthly_usd)


def choose_form(c: Ctx, cloud_usd: tuple[float | None, float | None], forms: FormsOutcome | None) -> str | None:
    """``on_premises`` or ``hybrid`` when the answers call for one (see the module's text), else None: the engine's
    other forms decide. ``cloud_usd``: renting the same setup, USD a month."""
    if forms is None or c.is_batch:
        return None
    budget = capex_budget_usd(c, forms.fx)  # the answers' (open questions re-decide with other budgets)
    cloud = None if None in cloud_usd else _mid(cloud_usd)  # type: ignore[arg-type]
    monthly = monthly_budget_usd(c, forms.fx)

    def breaks_budget(o: Owned) -> bool:
        """Owning would be over the monthly budget (even its low end: the engine's "budget short") where renting
        is not: choosing to own, e.g. because a one-off budget was given, must never turn a feasible plan
        infeasible. Judged on the running costs when a one-off budget pays the purchase, else on the purchase
        spread over the horizon too."""
        if monthly is None or cloud_usd[0] is None:
            return False
        judged = o.running(c.ops) if budget is not None else o.monthly(c.ops)
        # the plan's other form: renting, or for a team with no one to run servers the hosted API (the engine's
        # next choice; s19: one L20 ranked before two 4090 D cards left renting above the budget, and the office box
        # at ¥14,000+ a month was bought over a hosted API at ¥20)
        hosted_next = c.ops == "none" and not c.fine_tuned and c.level != "high"
        return judged[0] > monthly and (cloud_usd[0] <= monthly or hosted_next)

    own = forms.owned
    if (own is not None and own.office and c.internal_only and own.cost.gpus_owned <= forms.max_per_node
            and _procurement_fits(c, own) and not breaks_budget(own)):
        fits = fits_one_off(own, budget)
        cheaper = cloud is not None and _mid(own.monthly(c.ops)) <= cloud
        # renting misses the monthly budget while the box's running costs fit it (the purchase is the one-off's)
        rescues = (monthly is not None and cloud_usd[1] is not None and cloud_usd[1] > monthly
                   and own.running(c.ops)[1] <= monthly)  # fmt: skip
        if budget is not None:
            if fits and (c.reach == "lan" or cheaper or rescues):
                return "on_premises"
        elif c.ops != "none" and (c.reach == "lan" or (cheaper and not short_rent_fits(c, cloud_usd, monthly))):
            return "on_premises"
    # an owned base run beside a rented burst needs a team that runs servers well (as buying outright does, in the
    # engine): with basic ops a few per cent off renting (q11 at 4 %, on placeholder prices) buys nothing. Rule 15
    # (deployment-facts §4): owning wins only "if you have ops staff"; "strong" is the answer that says the team
    # runs hardware and on-call, which an owned base in colocation beside a cloud burst needs. Where it would pay
    # but the team's ops is weaker, the memo says so (rule ops.hybrid_needs_ops), never a silent drop.
    if c.ops == "strong" and hybrid_pays(c, cloud_usd, forms, breaks_budget):
        return "hybrid"
    return None


def hybrid_pays(c: Ctx, cloud_usd: tuple[float | None, float | None], forms: FormsOutcome | None,
                breaks_budget: Callable[[Owned], bool] | None = None) -> bool:
    """Every condition of the hybrid form except the team's ops: a public service with a bursty or daily-peaked
    load over a long enough horizon, within the one-off and monthly budgets, cheaper than renting everything and
    than owning everything."""
    hyb = forms.hybrid if forms is not None else None
    if hyb is None or c.internal_only or c.is_batch or None in cloud_usd or not _procurement_fits(c):
        return False
    if c.answers.load_pattern not in ("bursty", "diurnal") or c.duration_months < HORIZON_MIN_HYBRID:
        return False
    budget = capex_budget_usd(c, forms.fx)  # type: ignore[union-attr]
    if budget is not None and hyb.capex[1] > budget:
        return False
    if breaks_budget is None:
        monthly = monthly_budget_usd(c, forms.fx)  # type: ignore[union-attr]
        judged = hyb.running(c.ops) if budget is not None else hyb.monthly(c.ops)
        if monthly is not None and judged[0] > monthly and cloud_usd[0] <= monthly:  # type: ignore[operator]
            return False
    elif breaks_budget(hyb):
        return False
    cloud = _mid(cloud_usd)  # type: ignore[arg-type]
    own = forms.owned  # type: ignore[union-attr]
    mine = _mid(hyb.monthly(c.ops))
    all_owned = _mid(own.monthly(c.ops)) if own is not None else math.inf
    return mine < cloud and mine < all_owned


def monthly_usd(form: str, forms: FormsOutcome | None) -> Range | None:
    """What the budget check compares for an owning form, USD a month: the running costs when a one-off budget
    pays for the purchase (that budget is checked on its own), else the purchase spread over the horizon too."""
    if forms is None:
        return None
    own = forms.owned if form == "on_premises" else forms.hybrid if form == "hybrid" else None
    if own is None:
        return None
    return own.running(forms.ops) if forms.capex_budget_usd is not None else own.monthly(forms.ops)


__all__ = ["SHORT_HORIZON_MONTHS", "FormsOutcome", "Owned", "apply_chosen", "attach", "bought_whole", "choose_form",
           "cost_forms", "fits_one_off", "hybrid_pays", "monthly_usd", "owned_layout", "short_rent_fits"]
