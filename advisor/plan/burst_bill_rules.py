"""The rules of a hybrid plan's rented bursts (s23-burst23, blind review 12b on q39), registered into
``rule_base.RULES`` on import (``rules.RULE_MODULES`` lists this module):

- ``cost.burst_month``: one burst's bill and the month it falls in against the budget, beside the cost table's
  figure averaged over the year (``advisor.plan.burst_bill``): "the average month fits, a burst month does not";
- ``scaling.burst_reservation``: the rented GPUs reserved with the provider ahead of each burst, since creating
  pay-as-you-go GPU instances can fail for want of stock (the calendar starts the nodes, it does not secure them);
- ``gpu.burst_rent_choice``: the GPU rented for the bursts weighed by cost per capacity among the parts the region's
  clouds price (rented nodes need no spare parts; the same CUDA stack runs on the other NVIDIA parts), the team's
  own GPU kept only as a tie-breaker, and what the bursts would cost on a hosted API of the same model;
- ``sizing.hybrid_server_down``: the N+1 spare is counted per replica, but the owned cards stand in multi-card
  servers: one server down takes a server's worth of replicas, which the rented side covers (said with its figures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import (
    burst,
    burst_bill,
    burst_gpu,
    burst_load,
    burst_path,
    burstbill37,
    fleet,
    gpu_choice,
    node_shapes,
)
from advisor.plan import cost as costmod
from advisor.plan.capacity import claimed_capacity
from advisor.plan.cloud_overhead import rented_share
from advisor.plan.data import factor_range, gpus_by_id
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _money, _range, finding, rule
from advisor.plan.token_split import prefill_share

B2B_API_KEY = "duties37_burst.rent.api_b2b"  # the API line with the customers' contracts (s35-duties, q39)
TIE_SHARE = burst_gpu.TIE_SHARE  # the choice itself is made where the hybrid is costed (s24-burst24)


def _bill(f: Facts) -> burst_bill.BurstBill | None:
    if f.cost is None or f.chosen is None:
        return None
    return burst_bill.bill(f.cost.costs, f.ctx.answers, f.form, str(f.chosen.gpu.id))


def judged_on_burst_months(f: Facts) -> bool:
    """The budget is judged on the month without a burst and the burst months (a hybrid's burst bill against a
    budget: ``burst_bill.budget_head``), not on the cost table's year-averaged month."""
    b = _bill(f)
    return b is not None and b.verdict() is not None


def sold_by_month(f: Facts) -> bool:
    """The hybrid's bursts book a part the cloud sells only through its sales, by the month (s33-burst39)."""
    b = _bill(f)
    return b is not None and bool(b.months)


def _r(pair: tuple[float, float], f: Facts) -> str:
    return _range(pair[0], pair[1], f)


def _rate(pair: tuple[float, float], f: Facts) -> str:
    """A GPU-hour's price to the fen (cent): "¥6.36–¥16.77" (whole units would print "¥6–¥17")."""
    sym = "¥" if f.ctx.currency == "CNY" else "$"
    a, b = f"{sym}{pair[0]:,.2f}", f"{sym}{pair[1]:,.2f}"
    return a if a == b else f"{a}–{b}"


@rule("cost.burst_month", "cost")
def cost_burst_month(f: Facts) -> Finding | None:
    """A hybrid's rented bursts on a known schedule: one burst's bill (days × 24 h × GPUs × the rate with overhead) and
    the month with a burst in it against the monthly budget, beside the year-averaged figure the cost table shows;
    a warning where the burst month is over the budget."""
    b = _bill(f)
    if b is None:
        return None
    verdict = b.verdict()
    over = verdict not in (None, "both_fit")
    ov_lo, ov_hi = rented_share()  # the share the hybrid's burst row bills (forms, burst_gpu.monthly)
    factor = f"{1 + ov_lo:g}–{1 + ov_hi:g}"
    if b.months:  # sold by the month through the cloud's sales (s33-burst39): whole months booked, not hours
        m_lo, m_hi = factor_range("monthly_factor")
        formula: dict[str, Any] = {"tr": "burst39.bill.monthly", "months": b.months, "gpus": b.gpus,
                                   "rate": _r(b.rate, f), "mf": f"{m_lo:g}–{m_hi:g}", "factor": factor}
    else:
        formula = {"tr": "burst39.bill.hourly", "days": f"{b.days:g}", "gpus": b.gpus, "rate": _rate(b.rate, f),
                   "factor": factor}
    out = finding(
        "cost.burst_month", variant="budget" if verdict is not None else None, severity="warning" if over else None,
        gpus=b.gpus, days=f"{b.days:g}", per_year=b.per_year, rate=_rate(b.rate, f), factor=factor, formula=formula,
        api=_api_month(f, b) if verdict is not None else "", per_burst=_r(b.per_burst, f),
        api_detail=_api_per_burst(f, b) if verdict is not None else "", year=_r((b.per_burst[0] * b.per_year, b.per_burst[1] * b.per_year), f),
        averaged=_r(b.averaged, f), average=_r(b.average_month, f), month=_r(b.burst_month, f),
        budget=_money(b.budget, f), verdict={"tr": f"burst23.month.{verdict}"} if verdict else "",
        line={"tr": "burst23.month.with_line"} if f.cost.costs.monthly_with_line is not None else "")  # fmt: skip
    return _api_leads(f, b, out)


def _api_leads(f: Facts, b: burst_bill.BurstBill, out: Finding) -> Finding:
    """``out`` titled with the hosted API as the bursts' path where it leads (blind review 23, q39), the rented part
    the alternative; unchanged elsewhere."""
    lead = api_lead(f)
    if lead is None:
        return out
    # the rented bursts' working is the fallback's (blind review 28, q39): said so before "Each burst rents …"
    detail = burst_path.FALLBACK_DETAIL if out.detail_key.endswith(".budget.detail") else out.detail_key
    return out.model_copy(update={"title_key": burst_path.TITLE, "detail_key": detail,
                                  "params": {**out.params, **lead}})


def api_lead(f: Facts) -> dict[str, Any] | None:
    """The params of the hosted API as the bursts' path where it leads (``burst_path.leads``: the data may go there,
    the month with the overflow on it fits the budget, the month with the rented burst does not), else None."""
    b = _bill(f)
    if b is None or b.verdict() is None or b.budget is None:
        return None
    api = _api_per_burst_range(f, b)
    if api is None:
        return None
    base = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    api_month = (base[0] + api[0], base[1] + api[1])
    if not burst_path.leads(api_month, b.burst_month, b.budget, f.ctx.answers, by_month=bool(b.months)):
        return None
    rented: Any = burst_gpu.rented_of(f.cost.costs, f.form) or {"tr": "numbers1_34.rented_plain", "n": b.gpus,
                                                                 "gpu": rented_name(f)}
    lead = burst_path.lead_params(_r(api_month, f), _r(api, f), rented, straddles=b.burst_month[0] <= b.budget,
                                   by_month=bool(b.months))
    # the figures, for a test or the app; one burst on the API, which page 1's cost row spreads over the year
    return {**lead, "api_month_range": [api_month[0], api_month[1]], "api_burst_range": [api[0], api[1]]}


def api_led_running(f: Facts) -> Any:
    """The plan's running month (the cost table's, the rented bursts spread over it) where the API leads the bursts:
    their overflow on the API spread instead, as page 1's cost row says it (``burst_bill.api_led_cost``); None where
    the API does not lead."""
    lead = api_lead(f)
    b = _bill(f)
    plan = f.cost.costs.recommended_monthly if f.cost is not None else None
    if lead is None or b is None or plan is None:
        return None
    return burst_bill.api_swapped(b, lead["api_burst_range"], (plan.low, plan.high))


def api_weighed(f: Facts) -> bool:
    """Page 1's burst-month reason weighs the hosted API beside the rented bursts (``cost_burst_month``'s ``api``)."""
    b = _bill(f)
    return b is not None and b.verdict() is not None and _api_per_burst_range(f, b) is not None


def _api_month(f: Facts, b: burst_bill.BurstBill) -> dict[str, Any] | str:
    """Page 1's burst-month reason with the bursts on a hosted API of the same model beside it (blind review 21, q39:
    "the hosted API for bursts only deserves more weight for this low-sensitivity data"): one burst's tokens on it and
    the burst month so billed (the owned fleet's month with the API's burst in place of the rented one), with the data
    condition the answers set; "" where no API is weighed (a fine-tune, highly sensitive data)."""
    api = _api_per_burst_range(f, b)
    if api is None:
        return ""
    base = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    c = f.ctx
    low = c.level == "low" and not c.personal_info  # as answered; else the data's owner says whether it may go
    month = (base[0] + api[0], base[1] + api[1])
    return {"tr": "burst39.api.month", "month": _r(month, f), "range": [month[0], month[1]], "burst": _r(api, f),
            "cond": {"tr": "burst39.api.cond.low" if low else "burst39.api.cond.check"}}


def reserve_count(f: Facts) -> tuple[int, int] | None:
    """(GPUs a burst rents, GPUs one owned server down adds) for the reservation; None without a hybrid burst."""
    b = _bill(f)
    if b is None:
        return None
    down = _server_down(f)
    if b.months:  # sold by the month through the sales: no rented cover ordered on the day (``_no_same_day``)
        return b.gpus, 0
    return b.gpus, _as_rented(f, down.lost_gpus) if down is not None else 0


def rented_name(f: Facts) -> str:
    """The name of the GPU the bursts rent: the part the costing chose, else the plan's own."""
    hyb = f.cost.costs.hybrid if f.cost is not None else None
    if hyb is not None and hyb.burst_gpu_name:
        return hyb.burst_gpu_name
    return f.chosen.gpu.name if f.chosen is not None else ""


def _as_rented(f: Facts, plan_gpus: int) -> int:
    """``plan_gpus`` of the plan's own GPU as cards of the rented part (the same where it is the plan's GPU)."""
    hyb = f.cost.costs.hybrid if f.cost is not None else None
    if hyb is None or not hyb.burst_plan_gpus or not hyb.gpus_burst or plan_gpus <= 0:
        return plan_gpus
    return max(1, math.ceil(plan_gpus * hyb.gpus_burst / hyb.burst_plan_gpus - 1e-9))


@rule("scaling.burst_reservation", "cost")
def burst_reservation(f: Facts) -> Finding | None:
    """Bursts rent GPUs for days or weeks: reserve them with the provider ahead of each burst, with its lead time
    asked; creating pay-as-you-go instances can fail when the zone runs short (Alibaba Cloud's elasticity assurance
    page; AWS's Capacity Reservations page), most of all for scarce GPUs at busy seasons. A hybrid's rented bursts
    (its burst bill); a cloud plan's event replicas (``cloud_event_gpus``) where the bursts are events with dates."""
    got = reserve_count(f)
    if got is None or f.chosen is None:
        return _cloud_reservation(f)
    b = _bill(f)
    assert b is not None
    gpus = got[0]  # the burst's own count, as page 1 rents it (review 23, q39: 11 there, 14 here)
    # a part sold by the month through the cloud's sales is ordered, not reserved against on-demand stock (burst39)
    return _provider_sources(f, finding("scaling.burst_reservation", variant="sales" if b.months else None,
                                        gpus=gpus, gpu=rented_name(f),
                                        days=f"{b.days:g}", per_year=b.per_year, total=gpus,
                                        # a lost server's cover (got[1]): the order step and ``hybrid_server_down``
                                        # say it, outside the monthly cost
                                        spare=""))


def standby_cost(f: Facts, gpus: int) -> tuple[str, str] | None:
    """(what ``gpus`` rented GPUs cost, the span: a month where the part is sold by the month, else a day), at the
    middle of the burst's rate; None without a hybrid burst. Said where a lost owned server is covered, since the
    cost table counts only the bursts' GPUs (blind review 23, q39: "say clearly whether the 3 standby H20s for a
    lost owned server are in the monthly cost")."""
    b = _bill(f)
    if b is None or gpus <= 0:
        return None
    mid = (b.rate[0] + b.rate[1]) / 2  # a GPU-month where the part is sold by the month, else a GPU-hour
    return _money(gpus * (mid if b.months else mid * 24), f), "numbers1_34.span.month" if b.months else "numbers1_34.span.day"


def standby_phrase(f: Facts, spare: int, key: str = "numbers1_34.next.standby") -> dict[str, Any] | str:
    """The order step's words on the GPUs that cover one owned server down: not counted in the burst's order nor in
    the monthly cost, with what they cost while rented ("" where no server's worth is covered). s33-numbers1 (review
    23, q39): the headline rented 11, the order said 14 (the 11 and the 3 of a lost server) without saying so."""
    got = standby_cost(f, spare) if spare else None
    if got is None:
        return ""
    return {"tr": key, "n": spare, "cost": got[0], "span": {"tr": got[1]}}


def _provider_sources(f: Facts, out: Finding) -> Finding:
    """The reservation's source for the provider the plan rents from: Alibaba Cloud's page on the mainland, AWS's
    elsewhere (the rule's sources hold both)."""
    mainland = f.region in ("mainland", "mainland_plus_overseas")
    sources = [s for s in out.sources if ("aliyun" in s.url) == mainland]
    return out.model_copy(update={"sources": sources or out.sources})


def cloud_event_gpus(f: Facts) -> tuple[int, int] | None:
    """(GPUs a cloud plan adds for its bursts, replicas kept on) where the bursts can be booked: a bursty load on
    rented GPUs that starts replicas beyond its warm ones, unless the answers say the bursts come unannounced
    (round 13, q23/q36: "recommend capacity reservations before scheduled events", as q39 does); None otherwise."""
    c, ch = f.ctx, f.chosen
    if f.form != "cloud" or ch is None or c.load != "bursty" or c.is_batch:
        return None
    sched = c.answers.burst_schedule
    if sched is not None and sched.known_in_advance is False:
        return None  # unannounced bursts: nothing to book a date for
    # every GPU all month where the part is sold only through the cloud's sales: no event GPU to book (s31-burst32)
    warm = burst_load.kept_on(f, ch, max(1, f.claimed_c_max or ch.c_max))
    if ch.replicas <= warm:
        return None
    return (ch.replicas - warm) * ch.tp, warm


def _cloud_reservation(f: Facts) -> Finding | None:
    got = cloud_event_gpus(f)
    if got is None or f.chosen is None:
        return None
    mainland = f.region in ("mainland", "mainland_plus_overseas")
    out = finding("scaling.burst_reservation", variant="cloud", gpus=got[0], gpu=f.chosen.gpu.name, warm=got[1],
                  when="" if burst.scheduled(f.ctx) else {"tr": "burst24.reserve.when.unknown"},
                  how={"tr": "burst24.reserve.how.mainland" if mainland else "burst24.reserve.how.offshore"})
    # s35-burstbill (review 26, q23 zh): a capacity reservation bills from its creation, used or not: what holding the
    # event GPUs costs beside the on-demand month (offshore only: the mainland's elasticity assurance has its own fee,
    # no sourced figure, asked as before)
    held = None if mainland or f.cost is None else burstbill37.reserve_params(f.cost.costs, got[0])
    if held is not None:
        out = out.model_copy(update={"params": {**out.params, **held, "gpus": got[0]},
                                     "detail_more": "num44.reserve_cost" if held.get("rs_every")
                                     else "burstbill37_reserve.cost"})
    return _provider_sources(f, out)


def _rented(f: Facts) -> burst_gpu.Rented | None:
    """The hybrid's rented side as the costing chose it (``burst_gpu.choose``), with the plan's own GPU's rent for the
    same work beside it; None without a hybrid."""
    ch, book, hyb = f.chosen, getattr(f, "book", None), f.cost.costs.hybrid if f.cost is not None else None
    if ch is None or book is None or hyb is None or not hyb.gpus_burst:
        return None
    return burst_gpu.choose(f.ctx, book, ch, f.region, float(f.cost.costs.fx_rate), hyb.burst_plan_gpus or hyb.gpus_burst)


def _in_plan_gpu(f: Facts, b: burst_bill.BurstBill, r: burst_gpu.Rented) -> tuple[float, float]:
    """One burst on the plan's own GPU (the part not rented): its cards × days × 24 h × its rate with the overhead."""
    ch = f.chosen
    assert ch is not None and f.cost is not None
    own = costmod.cloud_price(f.book, ch.gpu.id, "mainland" if f.region in ("mainland", "mainland_plus_overseas")
                              else f.region, float(f.cost.costs.fx_rate), ch.tp)
    if own is None:
        return b.per_burst
    ov_lo, ov_hi = rented_share()  # the share the hybrid's burst row bills (forms, burst_gpu.monthly)
    hours = b.days * 24 * r.plan_gpus
    conv = f.cost.conv
    return own[0] * conv * hours * (1 + ov_lo), own[1] * conv * hours * (1 + ov_hi)


@rule("gpu.burst_rent_choice", "cost")
def burst_rent_choice(f: Facts) -> Finding | None:
    """The GPU the hybrid rents for its bursts, as its costing chose it (``advisor.plan.burst_gpu``): the cheapest part
    of the same vendor the region's clouds price that holds a replica, at the cards that carry the bursts' GPU time,
    against the team's own GPU (continuity only breaks a tie: a rented node needs no spare parts); the cost table,
    the burst month and the reservation price the same part (round 13, q39: the memo advised 8 × H20 while the plan
    priced 34 × L20). With the bursts' tokens on a hosted API of the same model, where one prices it."""
    b = _bill(f)
    ch = f.chosen
    r = _rented(f)
    if b is None or ch is None or r is None:
        return None
    # said on page 1 where the burst month is judged on a budget (``_api_month``): not again here
    api = "" if b.verdict() is not None and _api_per_burst_range(f, b) is not None else _api_per_burst(f, b)
    if r.other:
        other = gpus_by_id()[r.gpu]
        pre = prefill_share(f.ctx, ch) or 0.0
        tf = other.fp8_tflops_dense if ch.weights == "fp8" else other.bf16_tflops_dense
        tf_mine = ch.gpu.fp8_tflops_dense if ch.weights == "fp8" else ch.gpu.bf16_tflops_dense
        ratio = r.plan_gpus / ch.tp / max(1, r.count // ch.tp)  # replicas of the plan's GPU each rented one carries
        cap = claimed_capacity(f.ctx, ch)  # the serve command's --max-num-seqs (as fleet_disagree says it)
        return finding("gpu.burst_rent_choice", variant="rented", gpus=r.plan_gpus, gpu=ch.gpu.name,
                       cost=_r(_in_plan_gpu(f, b, r), f), n=r.count, other=r.name, other_cost=_r(b.per_burst, f),
                       decode=round(100 - 100 * pre), prefill=round(100 * pre),
                       bw=f"{other.bandwidth_bytes_per_s / ch.gpu.bandwidth_bytes_per_s:.1f}",
                       tf=f"{(tf or 0) / (tf_mine or 1):.2f}", seqs=math.ceil(cap * ratio - 1e-9), cap=cap,
                       ratio=f"{ratio:.1f}", api=api,
                       basis={"tr": "burst39.basis.month"} if b.months else "")  # fmt: skip
    return finding("gpu.burst_rent_choice", gpus=b.gpus, gpu=ch.gpu.name, cost=_r(b.per_burst, f), days=f"{b.days:g}",
                   api=api)


def _api_per_burst(f: Facts, b: burst_bill.BurstBill) -> dict[str, Any] | str:
    """What one burst's extra tokens would cost on a hosted API of the same model (its list prices): the year-averaged
    burst tokens × 12 ÷ bursts a year; "" for a fine-tune (no API serves it) or highly sensitive data."""
    got = _api_per_burst_range(f, b)
    if got is None:
        return ""
    # a business service's prompts are its customers': their contracts' sub-processor clauses decide whether the
    # overflow may go to a third party (s35-duties, blind review 26 q39), not only the data's sensitivity
    key = B2B_API_KEY if f.ctx.audience == "business" else "burst23.rent.api"
    return {"tr": key, "cost": _range(got[0], got[1], f), "rent": _r(b.per_burst, f)}


def _api_per_burst_range(f: Facts, b: burst_bill.BurstBill) -> tuple[float, float] | None:
    """One burst's extra tokens on a hosted API of the same model, in the answers' currency; None for a fine-tune or
    highly sensitive data (no API weighed)."""
    c = f.ctx
    if c.fine_tuned or c.level == "high" or f.cost is None:
        return None
    tokens = burst_load.burst_tokens(f) * 12 / max(1, b.per_year)
    if tokens <= 0:
        return None
    lo, hi = costmod.hosted_api_monthly(c, tokens)
    conv = f.cost.conv
    return lo * conv, hi * conv


@dataclass(frozen=True)
class _ServerDown:
    owned: int
    server: int
    servers: int
    lost: int  # replicas one server carries
    lost_gpus: int
    spare: int  # the plan's spare replicas
    left: int  # owned GPUs still up
    off_peak: int  # GPUs rented off-peak while a server is down (today's measured load on the rest)


def _server_down(f: Facts) -> _ServerDown | None:
    """A hybrid on the team's own multi-card servers: what one server down takes and what the rented side covers."""
    ch = f.chosen
    if f.form != "hybrid" or ch is None or f.cost is None or f.cost.costs.hybrid is None:
        return None
    found = gpu_choice.fleet(f.ctx, ch.gpu.id)
    if found is None or not fleet.this_service(f.ctx, found[0]):
        return None
    owned = int(f.cost.costs.hybrid.gpus_owned)
    server = min(owned, max(node_shapes.shape_of(ch.gpu.id, owned=True).sizes))  # cards per server, at most
    lost = max(1, server // ch.tp)
    lay = getattr(ch, "layout", None)
    spare = int(getattr(lay, "spare_units", 0) or 0) if lay is not None and lay.basis == "fleet" else 1
    if owned <= server or lost <= spare:
        return None
    busy = math.ceil(found[1] * (f.ctx.utilisation or 0) - 1e-9)  # today's load on the measurement the plan sized on
    left = owned - server
    return _ServerDown(owned, server, math.ceil(owned / server), lost, lost * ch.tp, spare, left, max(0, busy - left))


@rule("sizing.hybrid_server_down", "sizing")
def hybrid_server_down(f: Facts) -> Finding | None:
    """N+1 counted per replica on owned multi-card servers: one server down takes a server's worth of replicas, more
    than the spare; the hybrid covers it on the rented side (off-peak today's load on the other servers, during a
    burst that many more beside the burst), at the rent of a day of repair; not bought as a spare server."""
    d = _server_down(f)
    b = _bill(f)
    ch = f.chosen
    if d is None or b is None or ch is None:
        return None
    mid = (b.rate[0] + b.rate[1]) / 2  # a GPU-month where the part is sold by the month, else a GPU-hour
    span, per = ("burst39.span.month", mid) if b.months else ("burst39.span.day", mid * 24)
    more, off = _as_rented(f, d.lost_gpus), _as_rented(f, d.off_peak)
    rented = burst_gpu.rented_of(f.cost.costs, f.form) if f.cost is not None else None
    if b.months:
        return _no_same_day(f, d, b, rented)
    return finding("sizing.hybrid_server_down", variant="rented" if rented else None, owned=d.owned, gpu=ch.gpu.name,
                   server=d.server, servers=d.servers, lost=d.lost, spare=d.spare, left=d.left, burst=b.gpus,
                   more=more, lost_gpus=d.lost_gpus, rented=rented["gpu"] if rented else "",
                   off={"tr": "burst23.down.off.some" if d.off_peak else "burst23.down.off.none", "off": off,
                        "left": d.left},
                   span={"tr": span}, day=_money(more * per, f))  # fmt: skip


def _no_same_day(f: Facts, d: _ServerDown, b: burst_bill.BurstBill, rented: dict[str, Any] | None) -> Finding:
    """A lost owned server where the bursts' part is sold only by the month through the cloud's sales: it cannot be
    started on the day, so it is no cover (blind review 24, q39: "it covers a lost owned server with 3 × H20 ... but
    the memo says H20 is 'not sold on demand'"). Where the hosted API takes the bursts' overflow (``api_lead``), it
    takes the lost server's share meanwhile; else the loss is said uncovered, with the covers that would hold."""
    ch = f.chosen
    assert ch is not None
    # the hosted API covers where the data may go there and it is weighed at all, whether or not it takes the bursts'
    # overflow (s36-hybrid: the rented GPUs lead the bursts, the API is the option beside them)
    api = burst_path.data_may_go(f.ctx.answers) and _api_per_burst_range(f, b) is not None
    part = rented["gpu"] if rented else rented_name(f)
    mid = (b.rate[0] + b.rate[1]) / 2  # a GPU-month
    more = _as_rented(f, d.lost_gpus)
    kind = "api" if api else "none"
    off = {"tr": f"q39h35.down.off.{kind}.{'some' if d.off_peak else 'none'}", "off": d.off_peak, "left": d.left,
           "gpu": ch.gpu.name}
    got = finding("sizing.hybrid_server_down", variant="rented" if rented else None, owned=d.owned, gpu=ch.gpu.name,
                  server=d.server, servers=d.servers, lost=d.lost, spare=d.spare, left=d.left, burst=b.gpus,
                  more=more, lost_gpus=d.lost_gpus, rented=part, off=off, same_day=False,
                  cover="api" if api else "none", month=_money(more * mid, f))  # fmt: skip
    return got.model_copy(update={"title_key": f"q39h35.down.{kind}.title", "detail_key": f"q39h35.down.{kind}.detail",
                                  # a warning either way (s36-hybrid, review 27: "one owned 8-card server failing
                                  # takes 8 replicas belongs on page 1"): the API's cover rests on the data and its
                                  # rate limits, no sure cover
                                  "severity": "warning"})


__all__ = ["TIE_SHARE", "api_led_running", "burst_rent_choice", "burst_reservation", "cost_burst_month", "hybrid_server_down",
           "judged_on_burst_months", "reserve_count", "sold_by_month"]
