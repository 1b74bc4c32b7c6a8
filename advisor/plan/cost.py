"""Cost model: cloud (on-demand, monthly commitment, spot), bare metal (capex, amortisation, power, colocation,
staff, residual), break-even utilisation and months, cost per million output tokens — as low/high ranges.

All arithmetic is in USD per GPU-hour or per GPU, then converted once with the stated FX rate. Formulas
(deployment-facts §3.2): owned cost per month = capex × hidden-capex factor ÷ the horizon's months + power +
colocation + staff, each end of a range with the same end of every part (low with low, high with high); no resale
value is netted out, as in the break-even and the owning forms (advisor.plan.forms), so the month's figure is never
below the purchase spread over the months it is said over (s20-owncost20: q26/q31 read an owning cost whose low end
was below its own purchase ÷ 36, the resale value of a 25–35 % range taken off unsaid); break-even utilisation u* = the utilisation at which renting over the horizon costs what owning does (capex +
running costs), advisor.plan.payback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import (
    capacity_per_million,
    cloud_overhead,
    hosted_prices,
    instance_fit,
    power_tariff,
    reserved_floor,
    server_repair,
    server_size_price,
    staff_servers,
    vm_yardstick,
    volume_peak,
)
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, factor, factor_range
from advisor.plan.price_rows import region_uplift
from advisor.plan.result import BreakEven, CostPoint, Costs, MoneyRange, PriceRow, RegionUplift
from advisor.plan.site_words import answered_reach
from advisor.plan.volume_low_end import FLOOR

HOURS_PER_MONTH = 730.0
# the payback's words (issue 25): against a rent billed by the hour whether the GPUs are busy or not, so no
# utilisation in them ("after 11.5 months at 40 % utilisation" against a flat rent read as if use changed it). The
# ``util`` parameter stays in the record for a reader of the JSON; results saved before keep their old keys.
FLAT = "usage25.breakeven."


def usd_range(row: PriceRow, fx: float) -> tuple[float, float]:
    """The row's (low, high) in USD per unit: a CNY row divided by ``fx`` once."""
    if row.unit.upper().startswith("CNY"):
        return row.low / fx, row.high / fx
    return row.low, row.high


_usd = usd_range  # the name the cost table's callers import

# offshore regions whose own data-centre rows (a hyperscaler's list price there) replace US rows times the uplift
# (s18-prices: blind review q23/q34/q38/q43, "RunPod x uplift stand-ins"); a region's rows never price another region
REGIONAL = ("hong_kong", "singapore", "japan", "europe")


def _offshore(rows: list[PriceRow], region: str | None) -> list[PriceRow]:
    """``rows`` for an offshore ``region``: its own rows where it has some, else the rows of no named offshore
    region (US rows, which the uplift then scales); never a mainland placeholder (s18-rows: q21's Hong Kong A10 was
    priced from AWS's US row and the mainland's placeholder together)."""
    if region is not None and any(r.region == region and not r.user_quote for r in rows):
        return [r for r in rows if r.region == region or r.user_quote]
    return [r for r in rows if r.user_quote or r.region not in (*REGIONAL, "mainland")]


def cloud_rows(book: PriceBook, gpu: str, region: str, tp: int = 1) -> list[PriceRow]:
    """The rows a replica of ``tp`` GPUs is rented at in ``region``: only instances that hold the replica
    (``instance_fit``: a TP2 replica is never priced at a one-GPU VM's rate, q25). Remembered on the book (a plan
    asks thousands of times for a few parts' rows: a tenth of a plan whose levels were simulated already, issue #27);
    each caller gets a list of its own, as from ``book.find``."""
    key = ("cloud_rows", gpu, region, tp)
    hit = book.derived.get(key)
    if hit is None:
        hit = book.derived[key] = tuple(_cloud_rows(book, gpu, region, tp))
    return list(hit)


def _cloud_rows(book: PriceBook, gpu: str, region: str, tp: int) -> list[PriceRow]:
    if region == "mainland":
        return instance_fit.fitting(book.find(gpu, "on_demand", "mainland"), tp)
    return (_offshore(instance_fit.fitting(book.find(gpu, "on_demand"), tp), region)
            or _offshore(instance_fit.fitting(book.find(gpu, "reserved"), tp), region))


def local_rows(rows: list[PriceRow], region: str) -> bool:
    """The rows are the region's own list prices (no uplift applies to them)."""
    return region in REGIONAL and any(r.region == region and not r.user_quote for r in rows)


def cloud_price(book: PriceBook, gpu: str, region: str, fx: float,
                tp: int = 1) -> tuple[float, float, list[PriceRow]] | None:
    """USD per GPU-hour (low, high) for on-demand in `region`, with the rows used: the region's own rows where it
    has some, else US rows times the uplift sourced for the region (price_rows.region_uplift: Tokyo and Europe
    their own, HK/SG the survey's)."""
    rows = cloud_rows(book, gpu, region, tp)
    if not rows:
        return None
    lows, highs = zip(*(usd_range(r, fx) for r in rows), strict=True)
    low, high = min(lows), max(highs)
    user = any(r.user_quote for r in rows)
    up = region_uplift(region)
    if up is not None and not user and not local_rows(rows, region):
        low, high = low * up.low, high * up.high
    return low, high, rows


def _mr(lo: float, hi: float) -> MoneyRange:
    lo, hi = (lo, hi) if lo <= hi else (hi, lo)
    return MoneyRange(low=round(lo, 2), high=round(hi, 2))


@dataclass
class CostInputs:
    gpu: str
    tdp_watts: float
    gpus: int
    warm_gpus: int  # GPUs that stay on even when idle (one replica)
    region: str
    tokens_per_month: float  # output tokens served per month (expected)
    input_tokens_per_month: float = 0.0  # prompt tokens served per month (expected)
    volume_basis: dict[str, Any] | None = None  # s15-burst: how the volume was counted (a memo phrase)
    warm: dict[str, Any] | None = None  # s16-capacity: what stays on off-peak (warm_floor.Warm.basis)
    tokens_high: float | None = None  # s18-volume: an assumed volume's high end, output tokens (None: no higher)
    # s24-ownrent24: the rent beside a purchase sized to the load (advisor.plan.rent_sized.record): its GPUs price the
    # cloud side; None where renting prices the plan's own ``gpus``
    rent: dict[str, Any] | None = None
    # issue 25: (expected, high) share of the setup's capacity the month's tokens fill, or the measured duty
    # (advisor.plan.usage_share); None: the load pattern's assumed share (said as an assumption)
    usage: tuple[float, float] | None = None
    # s26-usage26: (low, high) share of the hours the GPUs draw busy power (usage_share.draw_share); None: ``usage``
    draw: tuple[float, float] | None = None
    # s26-own26: the cards in each server bought, where the plan buys servers (a purchase row's server share is
    # stretched to it: advisor.plan.server_size_price); None: not laid out to buy
    owned_unit_gpus: int | None = None
    # s28-own28: a failed server covered by renting its cards for the repair days (no spare server bought): the
    # cards in one server; 0 where a spare is bought (advisor.plan.own_like)
    repair_unit_gpus: int = 0
    # s34-price36: GPUs in one replica; the rent is priced on an instance that holds them (instance_fit)
    tp: int = 1
    # review 29: every GPU committed, the peak-hour replicas too, where a mixed floor would otherwise be the reserved
    # option (advisor.plan.peak_reserved39: a public service's peak on on-demand stock, within the budget)
    reserve_peak: bool = False

    @property
    def rent_gpus(self) -> int:
        """The GPUs the cloud side rents: the load's in rented units beside a purchase, else the plan's."""
        return int(self.rent["gpus"]) if self.rent else self.gpus


@dataclass
class CostOutcome:
    costs: Costs
    series: list[CostPoint]
    cloud_usd: tuple[float | None, float | None]  # recommended cloud form, USD per month (or per job)
    owned_usd: tuple[float | None, float | None]  # bare metal, USD per month
    conv: float  # USD → the answer's currency
    forms: Any = None  # forms.FormsOutcome: on-premises and hybrid costed (set by forms.attach)
    fleet: Any = None  # fleet.FleetOutcome: the team's current fleet used (set by fleet.attach)
    # s30-payback31: (low, high) USD a month of the always-on VM a purchase is paid back against, where that is not
    # ``cloud_usd`` (a marketplace rent beside a service on the team's own network: advisor.plan.vm_yardstick)
    payback_usd: tuple[float, float] | None = None


def compute(ctx: Ctx, book: PriceBook, inp: CostInputs, *,
            batch_hours: tuple[float, float] | None = None, spot_ok: bool = True) -> CostOutcome:
    """``batch_hours``: (low, high) hours billed for one offline job (its run time + setup), not its deadline.
    ``spot_ok``: a batch may run on spot capacity (batch_policy.spot_verdict); else it is costed on demand only."""
    fx_info = book.fx()
    fx = float(fx_info["cny_per_usd"])
    conv = fx if ctx.currency == "CNY" else 1.0
    used: list[PriceRow] = []
    horizon = ctx.duration_months
    # one usage figure for the power and the per-million figures (issue 25): the month's own tokens over the setup's
    # capacity, or the measured duty; the load pattern's share only where neither is known. A fleet's other work
    # only says which cards are free (s20-fleet20)
    use_lo, use_hi = inp.usage if inp.usage is not None else (ctx.volume_utilisation,) * 2
    util = use_lo
    rent_gpus = inp.rent_gpus  # the cloud side's GPUs (``costs.gpus``); the purchase counts ``inp.gpus``
    costs = Costs(currency=ctx.currency, fx_rate=fx, fx_date=str(fx_info["date"]), fx_source=str(fx_info["source"]),
                  horizon_months=horizon, utilisation=util, gpus=rent_gpus,
                  utilisation_measured=ctx.duty_measured, rent_sized=inp.rent)  # fmt: skip
    if inp.usage is not None and not ctx.duty_measured:
        costs.usage_from_tokens = True
        costs.usage_high = round(use_hi, 4) if use_hi > use_lo else None
    # the power's hours: full batches at the low end, requests arriving at random at the high end (s26-usage26)
    draw_lo, draw_hi = inp.draw if inp.draw is not None else (use_lo, use_hi)
    if draw_hi > use_hi:
        costs.power_busy_high = round(draw_hi, 4)
    price = cloud_price(book, inp.gpu, inp.region, fx, inp.tp)
    # s22-uplift22c: storage and the support plan on every rented setup, egress only where the answers stream to
    # the public internet (cloud_overhead), named with its sources in the memo's cost arithmetic (s15-batchcost)
    ov_lo, ov_hi = cloud_overhead.rented_share()
    cloud_lo = cloud_hi = None
    payback_rent: tuple[float, float] | None = None  # the rent a purchase is paid back against, where not the printed
    if price:
        p_lo, p_hi, rows = price
        b_gpus = rent_gpus if batch_hours is not None else \
            inp.warm_gpus + (rent_gpus - inp.warm_gpus) * ctx.burst_share  # the GPUs the egress share is taken of
        hours = batch_hours or (HOURS_PER_MONTH, HOURS_PER_MONTH)
        total, parts, costs.cloud_egress_skipped = cloud_overhead.overhead(
            ctx, inp.region, tokens=inp.tokens_per_month, tokens_high=inp.tokens_high,
            gpu_bill=(p_lo * b_gpus * hours[0], p_hi * b_gpus * hours[1]), conv=conv, currency=ctx.currency,
            fx=fx, rows=rows)
        ov_lo, ov_hi = total.low, total.high
        costs.cloud_overhead, costs.cloud_overhead_parts = total, parts
        costs.cloud_overhead_share = round((ov_lo + ov_hi) / 2, 2)
        used.extend(rows)
        # to four decimals, not the cent: the memo multiplies it out to the cost printed beside it, and a converted
        # or uplifted price's lost fraction of a cent moved that product by 0.14 % (q13's 2.2332 USD read 2.23)
        costs.cloud_per_gpu_hour = MoneyRange(low=round(p_lo * conv, 4), high=round(p_hi * conv, 4))
        if not any(r.user_quote for r in rows) and not local_rows(rows, inp.region):
            costs.region_uplift = region_uplift(inp.region)
        if batch_hours is not None:
            s_lo, s_hi = factor_range("spot_factor")
            h_lo, h_hi = batch_hours
            costs.per_job = True
            costs.billed_hours = MoneyRange(low=round(h_lo, 2), high=round(h_hi, 2))  # the hours the cost multiplies
            od = (p_lo * rent_gpus * h_lo * (1 + ov_lo), p_hi * rent_gpus * h_hi * (1 + ov_hi))
            spot = (od[0] * s_lo, od[1] * s_hi)
            costs.cloud_on_demand_monthly = _mr(od[0] * conv, od[1] * conv)
            costs.cloud_billed_gpus = float(rent_gpus)
            if spot_ok:
                costs.cloud_spot_factor = MoneyRange(low=s_lo, high=s_hi)
                costs.cloud_spot_monthly = _mr(spot[0] * conv, spot[1] * conv)
                cloud_lo, cloud_hi = spot[0], od[1]
            else:  # on demand only: the job's cost never counts on a spot price it should not run on
                cloud_lo, cloud_hi = od
        else:
            share = ctx.burst_share
            billed = inp.warm_gpus + (rent_gpus - inp.warm_gpus) * share
            # the bursts' share as a low–high range where it is assumed (event days, s19-cost19): each end of the
            # bill at its own end, the middle (``billed``) the GPUs said on average
            b_lo, b_hi = (inp.warm_gpus + (rent_gpus - inp.warm_gpus) * s for s in
                          (ctx.burst_share_range or (share, share)))
            od = (p_lo * HOURS_PER_MONTH * b_lo * (1 + ov_lo), p_hi * HOURS_PER_MONTH * b_hi * (1 + ov_hi))
            m_lo, m_hi = factor_range("monthly_factor")
            mon = (p_lo * m_lo * HOURS_PER_MONTH * rent_gpus * (1 + ov_lo), p_hi * m_hi * HOURS_PER_MONTH * rent_gpus * (1 + ov_hi))
            # s19-reserve19: the commitment on the always-on floor only, the burst replicas on demand, where the
            # floor is below the peak and that is no dearer than committing for every GPU (reserved_floor)
            mixed = (reserved_floor.monthly(p_lo, HOURS_PER_MONTH, m_lo, ov_lo, inp.warm_gpus, b_lo),
                     reserved_floor.monthly(p_hi, HOURS_PER_MONTH, m_hi, ov_hi, inp.warm_gpus, b_hi))
            floor = reserved_floor.choose(inp.warm_gpus, rent_gpus, (inp.warm or {}).get("replicas"), (b_lo, b_hi),
                                          ctx.load, mixed, mon)
            if floor is not None:
                costs.cloud_reserved_all_monthly = _mr(mon[0] * conv, mon[1] * conv)
                if inp.reserve_peak:  # every GPU committed; the mixed bill kept as the cheaper option (review 29)
                    costs.cloud_peak_floor = {**floor.record(), "low": round(mixed[0] * conv, 2),
                                              "high": round(mixed[1] * conv, 2)}
                else:
                    costs.cloud_reserved_floor = floor.record()
                    mon = mixed
            costs.cloud_on_demand_monthly = _mr(od[0] * conv, od[1] * conv)
            costs.cloud_monthly = _mr(mon[0] * conv, mon[1] * conv)
            # no spot price for a service at all: a reclaimed machine takes a production service down for its users,
            # public (s36-chat50, blind review 27, q20 zh: "抢占式 769–1,071 USD should not appear for an always-on
            # public service") or staff-only (blind review 34, s41-spot: q41 zh "抢占式 … 13,001–17,710 CNY" for an
            # insurer's production system, q38 "spot instances do not suit a production HR tool"); spot suits only a
            # batch that saves its progress and restarts, which keeps it (above, batch_policy.spot_verdict): none set
            costs.cloud_billed_gpus = round(billed, 2)
            if ctx.burst_share_range is not None and rent_gpus > inp.warm_gpus:
                costs.cloud_billed_gpus_range = MoneyRange(low=round(b_lo, 2), high=round(b_hi, 2))
            costs.cloud_warm = inp.warm
            mf = factor("monthly_factor")
            costs.cloud_monthly_factor = RegionUplift(low=m_lo, high=m_hi, source=str(mf["source"]), date=str(mf["date"]),
                                                      grade=str(mf["grade"]), term_months=mf.get("term_months"))  # fmt: skip
            # the plan that reserves its peak-hour replicas for stock bills the commitment, cheaper or not (review 29)
            best = mon if costs.cloud_peak_floor is not None else min((od, mon), key=lambda r: r[0] + r[1])
            cloud_lo, cloud_hi = best
            vm = _vm_yardstick(ctx, book, inp, rows, fx)
            if vm is not None:  # rented by the month, as an always-on VM is (the same factors as the row above)
                v_lo, v_hi = vm.usd_per_gpu_hour
                payback_rent = (v_lo * m_lo * HOURS_PER_MONTH * rent_gpus * (1 + ov_lo),
                                v_hi * m_hi * HOURS_PER_MONTH * rent_gpus * (1 + ov_hi))
                costs.payback_vm = {"offer_id": vm.row.id, "gpu": vm.row.gpu, "low": round(payback_rent[0] * conv, 2),
                                    "high": round(payback_rent[1] * conv, 2),
                                    # its month's factors, printed beside it (review 29, q02: "4,554–6,133 CNY a
                                    # month does not match 9.74 CNY/GPU-hour on demand: show the discount applied")
                                    "gpus": rent_gpus, "price": [v_lo * conv, v_hi * conv],
                                    "discount": [m_lo, m_hi], "factor": [1 + ov_lo, 1 + ov_hi]}
                used.append(vm.row)

    capex_rows = book.find(inp.gpu, "capex")
    owned_lo = owned_hi = None
    if capex_rows and batch_hours is None:
        used.extend(capex_rows)
        c_lo = min(usd_range(r, fx)[0] for r in capex_rows) * inp.gpus
        c_hi = max(usd_range(r, fx)[1] for r in capex_rows) * inp.gpus
        costs.bare_metal_server_size = server_size(capex_rows, inp.owned_unit_gpus, fx)
        h_lo, h_hi = factor_range("hidden_capex")
        c_lo, c_hi = c_lo * h_lo, c_hi * h_hi
        amort = amortisation_months(horizon)
        am_lo, am_hi = c_lo / amort, c_hi / amort
        kw_lo, kw_hi = (inp.tdp_watts * inp.gpus / 1000 * f for f in factor_range("node_power_per_tdp"))
        colo = book.find(inp.gpu, "colo")
        power = power_tariff.power_rows(book, inp.gpu, inp.region)  # the region's (a mainland node's) or the US tool's
        staff = book.find(inp.gpu, "staff")
        used.extend(colo + power + staff)
        col_lo, col_hi = (kw_lo * min(r.low for r in colo), kw_hi * max(r.high for r in colo)) if colo else (0.0, 0.0)
        # average draw: idle ≈ half of full power (server_idle_draw, a stated assumption), busy the share the month's
        # tokens keep the setup busy, from the estimate's low to its high end (issue 25)
        use = util
        pw_full = (kw_lo * HOURS_PER_MONTH * min(r.low for r in power), kw_hi * HOURS_PER_MONTH * max(r.high for r in power)) \
            if power else (0.0, 0.0)
        pw_lo, pw_hi = pw_full[0] * average_draw(draw_lo), pw_full[1] * average_draw(draw_hi)
        fte = factor("staff_fte")[ctx.ops]
        nodes = staff_servers.count(inp.gpus, inp.owned_unit_gpus)  # per server bought (staff_servers)
        st_lo = fte[0] * nodes * (min(r.low for r in staff) if staff else 0.0)
        st_hi = fte[1] * nodes * (max(r.high for r in staff) if staff else 0.0)
        costs.bare_metal_capex = _mr(c_lo * conv, c_hi * conv)
        costs.bare_metal_amortised_monthly = _mr(am_lo * conv, am_hi * conv)
        costs.bare_metal_power_monthly = _mr(pw_lo * conv, pw_hi * conv)
        costs.bare_metal_colo_monthly = _mr(col_lo * conv, col_hi * conv)
        costs.bare_metal_staff_monthly = _mr(st_lo * conv, st_hi * conv)
        owned_lo, owned_hi = am_lo + pw_lo + col_lo + st_lo, am_hi + pw_hi + col_hi + st_hi
        costs.bare_metal_monthly = _mr(owned_lo * conv, owned_hi * conv)
        opex_lo, opex_hi = pw_lo + col_lo + st_lo, pw_hi + col_hi + st_hi
        if inp.repair_unit_gpus and cloud_lo is not None and cloud_hi is not None:
            # the failed server's cards rented for its repair days, at the rent a GPU this plan prints
            rep = server_repair.repair_rent_month(inp.gpus, inp.repair_unit_gpus, (cloud_lo / inp.rent_gpus, cloud_hi / inp.rent_gpus))
            costs.bare_metal_repair_monthly = _mr(rep[0] * conv, rep[1] * conv)
            opex_lo, opex_hi = opex_lo + rep[0], opex_hi + rep[1]
            owned_lo, owned_hi = owned_lo + rep[0], owned_hi + rep[1]
            costs.bare_metal_monthly = _mr(owned_lo * conv, owned_hi * conv)
        if cloud_lo is not None and cloud_hi is not None:
            # s22-rentbasis22b: paid back against the rent the memo prints (``cloud_lo``/``cloud_hi``: the setup's
            # GPUs billed for the hours they are up, the cheaper of on demand and monthly/reserved), as an owned
            # form's payback is (forms.apply_chosen). It used to be against renting only the busy hours (every GPU
            # around the clock × the assumed 40 %) with the power at 40 % beside a monthly figure at the volume's
            # share: q24 read "owning needs at least 43 % busy" of a service whose spare stays up whether busy or
            # not. A rent that does not fall with the busy share has no utilisation break-even.
            costs.break_even_months = against_rent((c_lo, c_hi), (opex_lo, opex_hi), payback_rent or (cloud_lo, cloud_hi),
                                                   horizon, use)
        # cumulative series: cloud vs owned (capex at month 0)
        series = []
        for m in range(0, horizon + 1):
            pt = CostPoint(
                month=m,
                cloud_low=round((cloud_lo or 0) * m * conv, 0),
                cloud_high=round((cloud_hi or 0) * m * conv, 0),
                bare_metal_low=round((c_lo + opex_lo * m) * conv, 0),
                bare_metal_high=round((c_hi + opex_hi * m) * conv, 0),
            )
            series.append(pt)
        costs_series = series
    else:
        costs_series = [
            CostPoint(month=m, cloud_low=round((cloud_lo or 0) * m * conv, 0), cloud_high=round((cloud_hi or 0) * m * conv, 0))
            for m in range(0, horizon + 1)
        ]
    costs.prices = dedupe_rows(used)
    set_volume(costs, inp.tokens_per_month, inp.input_tokens_per_month, inp.volume_basis, inp.tokens_high)
    if inp.tokens_per_month > 0 and cloud_lo is not None:  # rebased on the capacity later (capacity_per_million)
        capacity_per_million.set_monthly(costs, cloud_lo * conv, cloud_hi * conv)
    return CostOutcome(costs, costs_series, (cloud_lo, cloud_hi), (owned_lo, owned_hi), conv, payback_usd=payback_rent)


def _vm_yardstick(ctx: Ctx, book: PriceBook, inp: CostInputs, rows: list[PriceRow], fx: float) -> Any:
    """The always-on VM a purchase on the team's own network is paid back against, where the plan's GPU is rented only
    on a marketplace (advisor.plan.vm_yardstick); None where the printed rent is itself like for like."""
    if inp.rent or not vm_yardstick.always_on_private(ctx, answered_reach(ctx)) or not vm_yardstick.marketplace_only(rows):
        return None
    return vm_yardstick.find(book.rows, inp.gpu, inp.region, fx)


def server_size(rows: list[PriceRow], unit_gpus: int | None, fx: float) -> dict[str, int] | None:
    """Where the dearest purchase row holds a share of a larger server than the ``unit_gpus``-card servers bought,
    its size and theirs (``server_size_price.mismatch``, said beside the purchase); None elsewhere."""
    return server_size_price.mismatch(max(rows, key=lambda r: usd_range(r, fx)[1]), unit_gpus) if rows else None


def amortisation_months(horizon: int) -> int:
    """The months a purchase is spread over in a monthly owning cost: the plan's horizon, the months the break-even
    and the cumulative series count it over (a fixed 36 beside a 24-month horizon read "owning costs less a month"
    next to "does not pay back within the horizon")."""
    return max(1, horizon)


def set_volume(costs: Costs, output_tokens: float, input_tokens: float, basis: dict[str, Any] | None,
               high: float | None) -> None:
    """The month's tokens (output, input), how they were counted and an assumed volume's high end, in ``costs``;
    nothing where there are none. The per-million figures at the month's volume follow where a monthly cost is
    already divided (a setup re-laid after it was costed: advisor.plan.engine)."""
    if output_tokens <= 0:
        return
    costs.output_tokens_per_month = round(output_tokens)
    # a month raised to the busiest hour's floor is said to two significant figures, its input with it (s29-volume29:
    # q12 printed "133,333,333 / 40,000,000", a ratio's quotient read as a count); a month raised to the people's
    # cap is their exact product, said as it is (s30-floor30: two figures made q33's 105,600,000 read 110,000,000)
    raised = (basis or {}).get(FLOOR)
    costs.input_tokens_per_month = round(volume_peak.two_figures(input_tokens) if raised and not raised.get("cap")
                                         else input_tokens)
    costs.volume_basis = basis
    costs.output_tokens_per_month_high = round(high) if high is not None and high > output_tokens else None
    if costs.per_million_monthly is not None:
        capacity_per_million.set_monthly(costs, costs.per_million_monthly.low, costs.per_million_monthly.high)


def _mid_months(capex: float, cloud_monthly: float, running_monthly: float) -> float | None:
    """Months to break even at mid-range prices (each range's midpoint): the figure to plan with when the best and
    worst cases pair opposite ends of every range (cheapest purchase against dearest rent, and the reverse)."""
    return capex / (cloud_monthly - running_monthly) if cloud_monthly > running_monthly else None


def average_draw(share: float) -> float:
    """A server's average draw around the clock as a share of full load, busy ``share`` of the hours and idle the
    rest at about half its full draw (server_idle_draw, a stated assumption)."""
    return 0.5 + 0.5 * share


def against_rent(capex: tuple[float, float], running: tuple[float, float], rent: tuple[float, float], horizon: int,
                 share: float) -> BreakEven:
    """Months until a purchase ``capex`` (low, high) with ``running`` costs a month is paid back against ``rent`` a
    month (best case for owning: the cheapest purchase and running against the dearest rent; worst: the reverse), at
    the busy share ``share`` the running costs were computed at: the one payback of a bought setup against the rent
    the memo prints (bare metal beside a rented plan, an owned form, two nodes together; s22-rentbasis22b)."""
    best = capex[0] / (rent[1] - running[0]) if rent[1] > running[0] else None
    worst = capex[1] / (rent[0] - running[1]) if best is not None and rent[0] > running[1] else None
    mid = _mid_months((capex[0] + capex[1]) / 2, (rent[0] + rent[1]) / 2, (running[0] + running[1]) / 2)
    return _break_even_months(best, worst, horizon, share, mid)


def _break_even_months(best: float | None, worst: float | None, horizon: int, util: float,
                       mid: float | None = None) -> BreakEven:  # fmt: skip
    """Months until owning pays off at ``util`` (best case for owning … worst case). An end is None where owning
    never pays off (renting costs less every month) or not within the horizon (it used to read 999 months, or a
    break-even after 1,070 months); the reason says which."""
    # a share under half a percent (a bought box the month's tokens keep barely busy, s22-owncost22) said as 1 %,
    # never "at 0 % utilisation"
    pct = max(1, round(util * 100)) if util > 0 else 0
    if best is None:  # then worst is None too: the worst case is never better than the best
        return BreakEven(reason="never", reason_key=FLAT + "never", reason_params={"util": pct})
    if best > horizon:
        return BreakEven(reason="beyond_horizon", reason_key=FLAT + "beyond_horizon",
                         reason_params={"util": pct, "horizon": horizon})  # fmt: skip
    low = round(best, 1)
    # where the worst case never pays back, the mid-range figure says what to expect (the best case alone read as
    # "8.3 months, or never", which undercut a buy recommendation an engineer would make on the middle of the range)
    mid_in = round(mid, 1) if mid is not None and mid <= horizon else None
    suffix = "_mid" if mid_in is not None else ""
    if worst is None:
        return BreakEven(low=low, mid=mid_in, reason="worst_case_never",
                         reason_key=FLAT + "worst_case_never" + suffix,
                         reason_params={"util": pct, "low": low, "mid": mid_in})  # fmt: skip
    if worst > horizon:
        return BreakEven(low=low, mid=mid_in, reason="worst_case_beyond_horizon",
                         reason_key=FLAT + "worst_case_beyond_horizon" + suffix,
                         reason_params={"util": pct, "horizon": horizon, "low": low, "mid": mid_in})  # fmt: skip
    return BreakEven(low=low, high=round(worst, 1))


def dedupe_rows(rows: list[PriceRow]) -> list[PriceRow]:
    """``rows`` with each price row once, in order."""
    seen, out = set(), []
    for r in rows:
        if r.id not in seen:
            seen.add(r.id)
            out.append(r)
    return out


# the hosted-API findings' source where no sourced price row covers the model (resources/plan/facts.json); a model
# whose size class has list prices (advisor.plan.hosted_prices) cites that list instead
HOSTED_PLACEHOLDER_TITLE = "Hosted open-model API prices (placeholder range; check the provider's price list)"


def sized_hosted_sources(finding: Any, ctx: Ctx) -> Any:
    """``finding`` citing the price list of the model's size class and market: the placeholder range's source gives
    way to the list the figures were costed on (the number keeps its source); kept where no list covers the size."""
    tier = hosted_prices.hosted_rates(ctx).tier
    if tier is None:
        return finding
    kept = [x for x in finding.sources if x.title != HOSTED_PLACEHOLDER_TITLE]
    return finding.model_copy(update={"sources": [*hosted_prices.tier_sources(tier), *kept], "verify": True})


def hosted_api_monthly(ctx: Ctx, tokens_per_month: float, input_tokens_per_month: float | None = None
                       ) -> tuple[float, float]:
    """USD a month (a job for a batch) on a hosted API: input AND output tokens at their own rates (a long prompt
    costs more than its answer; output-only was 2–20× low). Without an input count, the answers' prompt:output
    ratio gives it. Cached input is not priced (no sourced rate). Rates by the model's size and the users' market."""
    if input_tokens_per_month is None:
        input_tokens_per_month = ctx.input_for(tokens_per_month)
    rates = hosted_prices.hosted_rates(ctx)
    (i_lo, i_hi), (o_lo, o_hi) = rates.input_usd, rates.output_usd
    return (tokens_per_month / 1e6 * o_lo + input_tokens_per_month / 1e6 * i_lo,
            tokens_per_month / 1e6 * o_hi + input_tokens_per_month / 1e6 * i_hi)


def judge_budget(costs: Costs, budget: float, total: MoneyRange | None = None) -> tuple[bool, float, bool] | None:
    """(within, needed, straddles) of ``costs.recommended_monthly`` (or ``total``: the setup with its priced network
    line, advisor.plan.line_total) against ``budget``, written into ``costs``; None without a recommended cost.
    Judged on the HIGH end, on the figures the memo shows (to the cent): a budget equal to the shown high end is
    within it; the low end under the budget and the high end over it straddles."""
    rec = total if total is not None else costs.recommended_monthly
    if rec is None:
        return None
    within = rec.high <= budget
    straddles = rec.low <= budget < rec.high
    costs.within_budget, costs.budget_straddles = within, straddles
    return within, rec.high, straddles


def hosted_api_rates(conv: float, ctx: Ctx | None = None) -> tuple[MoneyRange, MoneyRange]:
    """(input, output) hosted API rates per million tokens, in the answer's currency, for the model's size class."""
    rates = hosted_prices.hosted_rates(ctx)
    (i_lo, i_hi), (o_lo, o_hi) = rates.input_usd, rates.output_usd

    def per_m(lo: float, hi: float) -> MoneyRange:  # to a hundredth of a cent: lists price in fractions of a cent
        # ($0.165 a million was printed and costed as $0.17, so the break-even worked out from the printed rates
        # disagreed with the API's month by 3 %, s21-apiregion21b)
        return MoneyRange(low=round(min(lo, hi), 4), high=round(max(lo, hi), 4))

    return per_m(i_lo * conv, i_hi * conv), per_m(o_lo * conv, o_hi * conv)
