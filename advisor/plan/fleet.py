"""The team's current fleet, used and subtracted (issue 25: "continuity with the current fleet").

A team that runs ``current_fleet`` = {gpu, count} at ``measured_utilisation`` u has about count × (1 − u) GPUs
free. When the plan's setup is on that GPU, an engineer plans on those first: they are paid for, so they cost only
what running them costs (power; colocation for a fleet in a data centre; an engineer's share as the owning forms
count it), and the plan buys or rents only what is missing. Where the fleet lives sets the form: a service nobody
outside reaches runs in the team's own server room (``on_premises``, no colocation); a public service's fleet is
taken to be colocated (``bare_metal``). Three ways are costed and the cheapest is chosen:

* own: the fleet's free GPUs + the missing ones bought (whole 8-GPU servers for SXM/OAM parts);
* hybrid (a public service whose load is bursty or peaks daily): the fleet (+ bought GPUs where it falls short)
  carries the steady base, sized on the plan's own predicted curve (``hybrid.base_replicas``), and cloud GPUs are
  rented for the peak above it for the share of hours an autoscaled fleet keeps them;
* renting everything (the cloud cost the engine computed for the same setup).

When the team says the fleet's load IS this service (``current_fleet.load_is_this_service``, s14-fleetload; q39:
16 L20 at 85 % carrying a business API whose demand triples a few weeks a year), none of it is other work: every
GPU of the fleet serves the service and carries its base, and the peak is the base × ``peak_multiple`` (the load
pattern's peak factor when not given). The plan's own curve says how many GPUs the base needs; when the measured
utilisation says the fleet is busier than that, the measurement is trusted (``measured_peak_replicas``): the peak
needs the busy GPUs × the multiple, with the plan's headroom, and the GPUs above the fleet are rented (hybrid) or
bought as above.

A fleet that cannot serve the model (its GPU missed the target or is not allowed there) is not used: the setup is
then on another GPU and nothing here applies. An Ascend fleet keeps its per-model support check (``gpu.domestic``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from advisor.plan import (
    burst_gpu,
    fleet_idle41,
    fleet_racked,
    forms,
    gpu_choice,
    hybrid,
    node_shapes,
    spare_policy,
    usage_share,
)
from advisor.plan import cost as costmod
from advisor.plan.capacity import FLEET_BASIS, claimed_capacity, serving_replicas
from advisor.plan.context import PEAK_FACTOR, Ctx
from advisor.plan.data import PriceBook
from advisor.plan.fleet_spread import machine_left
from advisor.plan.result import MoneyRange
from advisor.plan.sizing import HEADROOM, Candidate

Range = tuple[float, float]
# Rule 15 (deployment-facts): below ~50 % sustained utilisation, rent; the engine buys nothing below it either
# (engine._decide_form's bare-metal test)
OWN_MIN_UTILISATION = 0.5


@dataclass(frozen=True)
class FleetUse:
    """How the plan's setup sits on the team's fleet (GPU counts)."""

    gpu: str
    count: int  # GPUs the team runs
    utilisation: float  # their measured utilisation (or the load pattern's assumed one, said as an assumption)
    measured: bool
    free: int  # free at that utilisation
    need: int  # GPUs the plan's setup needs (the peak's replicas, plus one for N+1 where the service needs it)
    used: int  # of the free ones, in whole replicas
    office: bool  # the fleet stands in the team's own server room (an internal service), else in colocation
    this_service: bool = False  # the fleet's load is this service's base (s14-fleetload): every GPU serves it
    moved: int = 0  # busy cards the plan takes by moving their current work onto idle cards of another type
    signed: int = 0  # busy cards the sign-off spare takes whose work has no idle cards of another type to go to

    @property
    def missing(self) -> int:
        return max(0, self.need - self.used)


@dataclass
class FleetOutcome:
    use: FleetUse
    own: forms.Owned | None  # the free GPUs + the missing ones bought
    hybrid: forms.Owned | None  # the fleet (+ bought) carries the steady base; the peak above it rented
    peak_only_bought: int = 0  # GPUs ``own`` buys above the steady base: they run only the peak's hours


def free_gpus(count: int, utilisation: float) -> int:
    """GPUs free at ``utilisation`` (rounded down: a GPU 40 % busy is not free); all of them on a nearly idle fleet."""
    if fleet_idle41.nearly_idle(count, utilisation):
        return count
    return max(0, math.floor(count * (1.0 - utilisation) + 1e-9))


def this_service(c: Ctx, gpu_id: str | None = None) -> bool:
    """The team said the fleet's measured load is this service's own (its base), for the fleet's main GPU type."""
    f = getattr(c.answers, "current_fleet", None)
    return bool(f is not None and f.load_is_this_service and (gpu_id is None or f.gpu == gpu_id))


def peak_multiple(c: Ctx) -> float:
    """The peak as a multiple of today's (base) load: as the team gave it, else the load pattern's peak factor."""
    f = getattr(c.answers, "current_fleet", None)
    given = getattr(f, "peak_multiple", None) if f is not None else None
    return float(given) if given else PEAK_FACTOR[c.load]


def _available(c: Ctx, gpu_id: str, count: int) -> int:
    """Fleet GPUs the plan may run on: all of them when their load is this service's, else the free share."""
    return count if this_service(c, gpu_id) else free_gpus(count, c.utilisation)


def movable(c: Ctx, gpu_id: str, count: int) -> int:
    """Busy GPUs of this type whose current work fits on the fleet's idle cards of another type: an engineer moves
    that work before buying a server for a few missing cards (q04: 16 H20 and 16 L20 at 30 %, the plan needs 12 H20
    and 11 are free; the H20s' other work moves onto idle L20s). 0 with one GPU type, or when the others are busy."""
    busy = count - free_gpus(count, c.utilisation)
    idle = sum(free_gpus(n, c.utilisation) for g, n in gpu_choice.fleets(c) if g != gpu_id)
    return busy if 0 < busy <= idle else 0


def base_check(c: Ctx, cand: Candidate) -> tuple[int, float] | None:
    """For a fleet whose load is this service's: (GPUs the plan's curve says today's load needs, GPUs the
    measurement says it keeps busy = count × utilisation). None when the fleet's load is other work."""
    fl = gpu_choice.fleet(c, cand.gpu.id)
    if fl is None or not this_service(c, fl[0]) or not c.peak:
        return None
    # the curve's figure is taken once, on the setup as screened: laid out on the measured size, a replica's curve
    # is predicted around a smaller load and would give another figure
    curve = getattr(cand, "fleet_curve_base_gpus", None)
    if curve is None:
        base_conc = max(1, math.ceil(c.peak / peak_multiple(c) - 1e-9))
        per = max(1, claimed_capacity(c, cand))
        curve = math.ceil(base_conc / per) * cand.tp
        cand.fleet_curve_base_gpus = curve  # type: ignore[attr-defined]
        cand.fleet_curve_per_replica = per  # type: ignore[attr-defined]
    return int(curve), fl[1] * c.utilisation


def curve_per_replica(c: Ctx, cand: Candidate) -> int | None:
    """The requests one replica takes within the target on the curve ``base_check`` read today's load against (the
    setup as screened, a replica loaded with a larger share): the figure behind "the curve says N GPUs would carry
    it", which the fleet-load step divides by too. None where no base check applies. It can exceed the plan's own
    claim (q39: about 36 against 12), which is searched only up to the load each replica of the final layout takes,
    and the memo names the two apart (round 10: "up to 12 per replica … against a curve where about 36 fit")."""
    if base_check(c, cand) is None:
        return None
    return getattr(cand, "fleet_curve_per_replica", None)


def measured_peak_replicas(c: Ctx, cand: Candidate) -> int | None:
    """Replicas the peak needs when the measurement says the fleet is busier than the curve predicts: the busy
    GPUs × the peak multiple, loaded no further than the plan's headroom allows (None when the curve stands)."""
    chk = base_check(c, cand)
    if chk is None or chk[1] <= chk[0]:
        return None
    return math.ceil(chk[1] * peak_multiple(c) * (1 + HEADROOM) / cand.tp - 1e-9)


def measured_headroom(c: Ctx, cand: Candidate) -> float | None:
    """The headroom at the peak on the measurement the plan was sized on: the serving GPUs (the N+1 spare left out)
    over the busy GPUs × the peak multiple, less one. None when the curve stands (the capacity's own headroom is the
    plan's). q39: the sizing table said "96 %" (the curve's) beside 50 GPUs sized on the measured 85 % with 20 %."""
    chk = base_check(c, cand)
    if chk is None or chk[1] <= chk[0]:
        return None
    return serving_replicas(cand) * cand.tp / max(chk[1] * peak_multiple(c), 1e-9) - 1


def serves(c: Ctx, cand: Candidate | None, region: str) -> bool:
    """The setup is on the fleet's GPU and the fleet has room for one replica at least (a single-node service;
    a batch job is costed per job and is left to the cloud)."""
    fl = gpu_choice.fleet(c, cand.gpu.id) if cand is not None else None  # the team's GPUs of the setup's type
    if fl is None or cand is None or c.is_batch or region == "mainland_plus_overseas":
        return False
    gid, count = fl
    return bool(cand.gpu.id == gid and _available(c, gid, count) >= cand.tp)


def fits_free(c: Ctx, cand: Candidate, region: str) -> bool:
    """The setup runs on the fleet's free GPUs alone (nothing to buy or rent)."""
    return serves(c, cand, region) and use_of(c, cand).missing == 0


def on_free_alone(c: Ctx, cand: Candidate, region: str) -> bool:
    """The setup, spares included, sits on the fleet's free cards alone: no busy card's work moves for it (a fleet
    whose load is this service's own counts every card)."""
    if not serves(c, cand, region):
        return False
    use = use_of(c, cand)
    return use.need <= use.free


def _load_replicas(cand: Candidate) -> int:
    """Replicas the bare peak needs (``capacity.carry_peak`` notes them; the headroom is added below as far as the
    free GPUs allow, not bought: the layout's own count includes it)."""
    lay = cand.layout
    load = max(1, int(lay.load_replicas) if lay is not None else cand.replicas)
    bare = getattr(cand, "peak_replicas", None)
    return min(load, int(bare)) if bare else load


def _fleet_replicas(c: Ctx, cand: Candidate) -> int:
    """Replicas that carry the load on the fleet, with the headroom every plan is sized for (``sizing.HEADROOM``
    over the peak, at the concurrency a replica takes within the target on the plan's own curve) as far as the
    fleet's free GPUs allow: idle cards cost nothing to use, and 0 % headroom is not what an engineer signs (q33: 4
    of 8 idle 4090Ds at 0 %). Never fewer than the load needs; never more than the free GPUs hold beside the spare."""
    load = _load_replicas(cand)
    gid_count = gpu_choice.fleet(c, cand.gpu.id)
    if gid_count is None or not c.peak or c.is_batch:
        return load
    measured = measured_peak_replicas(c, cand)
    if measured is not None:  # the fleet is busier than the curve says: its measurement sizes the peak
        return max(load, measured)
    if cand.layout is not None and cand.layout.basis == FLEET_BASIS:
        # laid out on the fleet already: the count the costs were computed on (the curve moves with it)
        return max(1, int(cand.layout.load_replicas))
    claimed = claimed_capacity(c, cand)
    want = math.ceil(math.ceil(c.peak * (1 + HEADROOM) - 1e-9) / max(1, claimed))
    room = _available(c, gid_count[0], gid_count[1]) // max(1, cand.tp) - _required_spare(c)
    within = _within_knee(c, cand)
    if within is not None and within <= room and not this_service(c, gid_count[0]):
        want = max(want, within)  # idle cards keep each replica at or below its knee (q04, ninth blind review)
    return max(load, min(want, room))


def _within_knee(c: Ctx, cand: Candidate) -> int | None:
    """Replicas that keep each at or below the knee of the plan's own curve (the one the memo shows), None when the
    curve has no knee. Past the knee a replica serves fewer tokens a second for more latency; where the fleet's idle
    GPUs hold the replicas that avoid it, they cost only what running them costs."""
    from advisor.plan.capacity import served_curve

    knee = served_curve(c, cand)[1].concurrency
    return math.ceil(c.peak / knee - 1e-9) if knee else None


def _required_spare(c: Ctx) -> int:
    """Replicas added for N+1 on the fleet where the service needs it: one (its servers are already there; a spare
    replica, not a server). Bought when the free GPUs fall short."""
    return 1 if gpu_choice.redundancy_reason(c) else 0


def idle_spares(c: Ctx, cand: Candidate, load: int) -> int:
    """Spare replicas on the fleet beside the ``load`` replicas that carry the peak: the one N+1 needs where the
    service needs it, and more from the fleet's idle GPUs, which cost only their power (ninth blind review: q33 left
    4 of 8 idle 4090Ds unused and one replica down queued the other's 12 requests to 15 s; q18 kept 5 of 17 free
    H100s idle while one server down left 80 % of the peak): an internal tool gets a spare replica where the idle
    GPUs hold one, and on 8-GPU servers spares are added, as far as the idle GPUs allow, until the replicas left
    with the fullest server down still carry the peak. Never bought, never on a fleet whose load is this service's
    own (all of it serves already), never on busy cards whose work would have to move (``spare_policy.spare_room``;
    blind review 16, q04: that replica is recommended with its condition, ``fleet_next_replica``)."""
    spare = _required_spare(c)
    fl = gpu_choice.fleet(c, cand.gpu.id)
    if fl is None or c.is_batch or not c.peak or this_service(c, fl[0]):
        return spare
    free = free_gpus(fl[1], c.utilisation)
    room = spare_policy.spare_room(free, cand.tp)  # in whole replicas
    if not spare and room >= load + 1:
        spare = 1
    whole = node_shapes.form_factor(cand.gpu.id) in ("sxm", "oam")
    if load >= 1 and (whole or spare):
        # PCIe cards too, in the team's machines taken as two halves (``machine_left``; blind review 31, q33: all 8
        # cards free, "lead with 4 × TP2 on the 8 cards, 2 per machine, which also survives a whole machine down")
        def rides(n: int) -> bool:
            left = machine_left(n, cand.tp, fl[1], whole)
            return left is not None and left >= load

        while room >= load + spare + 1 and not rides(load + spare):
            spare += 1
        if not rides(load + spare):
            spare = max(_required_spare(c), min(spare, 1 if room >= load + 1 else 0))  # more would not ride it out
    return spare + signoff_spares(c, cand, load, spare)


def signoff_spares(c: Ctx, cand: Candidate, load: int, spare: int) -> int:
    """One spare replica more on the fleet's busy cards (1, else 0), taken into the plan on the condition that the
    other work on them moves off, which its owners sign off (``spare_policy`` rule 5; blind review 21, q04 and q08
    in both languages: "one server down leaves 1 of 3 replicas ... the 4-replica / 16-card layout should be the
    headline, not an add-on", "I would make the 4th replica the recommendation, since the cards are 'mostly
    idle'"). Only on 8-GPU servers, where the replicas on the free cards leave fewer with the fullest server down
    than one more replica spread over the fleet's servers would, and the fleet holds it; never on a fleet whose
    load is this service's own (all of it serves already)."""
    fl = gpu_choice.fleet(c, cand.gpu.id)
    if fl is None or c.is_batch or not c.peak or this_service(c, fl[0]) or load < 1:
        return 0
    # on 8-GPU servers, or PCIe cards in the team's own machines taken as two of half the fleet each (blind review
    # 22, q33: "the headline says 6 of 8 cards while the placement section recommends all 8, which reads as two
    # answers": the 4th replica on the last 2 cards is the plan, on the same sign-off)
    whole = node_shapes.form_factor(cand.gpu.id) in ("sxm", "oam")
    now, more = load + spare, load + spare + 1
    left_now = machine_left(now, cand.tp, fl[1], whole)
    if more * cand.tp > fl[1] or (left_now is not None and left_now >= load):
        return 0
    free, moves = free_gpus(fl[1], c.utilisation), movable(c, fl[0], fl[1])
    if now * cand.tp > free + moves:
        return 0  # the load itself is short of the fleet's cards: what is bought is the sizing's business
    if now * cand.tp <= free:
        # the peak's replicas and their spare sit on free cards: the spare would be the only reason to displace
        # other work, so the plan stays on the free cards and that replica is the conditional upgrade
        # (``fleet_next_replica.one_more``; blind review 25, q08: "make three replicas on the 12 idle cards the
        # default and the fourth conditional"; q04 zh: "the plan that evicts nobody")
        return 0
    # the other work the spare displaces has somewhere to go: idle cards of another type take it (q04's L20s), or it
    # is less than the spare's own cards, a fleet "mostly idle" (q08: 20 % of 16 910B is 3.2 cards' worth); a busier
    # fleet's work is no one's to displace for a spare (a 75 % fleet keeps its spares on free cards alone)
    if more * cand.tp > free + moves and fl[1] * c.utilisation >= cand.tp:
        return 0
    left_more = machine_left(more, cand.tp, fl[1], whole)
    return 1 if left_now is not None and left_more is not None and left_more > left_now else 0


def _spare(c: Ctx, cand: Candidate) -> int:
    """The spare replicas of the setup on the fleet: as laid out, else as ``idle_spares`` gives them."""
    lay = cand.layout
    if lay is not None and lay.basis == FLEET_BASIS:
        return int(lay.spare_units)
    return idle_spares(c, cand, _fleet_replicas(c, cand))


def lay_out(c: Ctx, cand: Candidate) -> None:
    """Lay the setup out on the fleet (once the fleet decided the form): replicas of ``tp`` GPUs on the team's
    servers (no rounding to whole units to buy), with the spare replicas ``idle_spares`` gives."""
    ff = node_shapes.form_factor(cand.gpu.id)
    shape = node_shapes.Shape(ff, (cand.tp,), False, FLEET_BASIS, owned=True)
    load = _fleet_replicas(c, cand)
    cand.layout = node_shapes.layout(cand.gpu.id, cand.tp, load, shape, spare=idle_spares(c, cand, load))
    cand.replicas = cand.layout.replicas


def use_of(c: Ctx, cand: Candidate) -> FleetUse:
    """The setup's GPUs on the fleet: the peak's replicas (+ the spares) × tp, from its free GPUs first."""
    gid, count = gpu_choice.fleet(c, cand.gpu.id)  # type: ignore[misc]
    free = _available(c, gid, count)
    need = (_fleet_replicas(c, cand) + _spare(c, cand)) * cand.tp
    used = min(need, (free // cand.tp) * cand.tp)
    moved = 0
    signed = 0
    if used < need and not this_service(c, gid):  # short: the busy cards whose work idle cards of another type take
        used = min(need, ((free + movable(c, gid, count)) // cand.tp) * cand.tp)
        moved = max(0, used - free)
        if used < need and _spare(c, cand) and signoff_spares(c, cand, _fleet_replicas(c, cand),
                                                              _spare(c, cand) - 1):
            # the sign-off spare's busy cards with no idle cards of another type to take their work: taken, not
            # bought, on the owners' sign-off (q08: all 16 910B, the other work's 3.2 cards' worth moved off)
            signed = min(need, (count // cand.tp) * cand.tp) - used
            used += signed
    return FleetUse(gpu=gid, count=count, utilisation=c.utilisation, measured=c.utilisation_measured, free=free,
                    need=need, used=used, office=c.internal_only, this_service=this_service(c, gid),
                    moved=moved, signed=signed)  # fmt: skip


def _with_purchase(c: Ctx, running: forms.Owned, bought: forms.Owned | None, conv: float, budget: float | None,
                   use: FleetUse, gpus_bought: int) -> forms.Owned:
    """``running`` (every GPU the form runs, the fleet's included) with only the bought GPUs' purchase as capex."""
    capex: Range = bought.capex if bought is not None else (0.0, 0.0)
    # the racks of the fleet's GPUs, kept for its other work, are paid already (round 10, q18)
    running = fleet_racked.without_paid_colo(running, running.cost.gpus_owned - gpus_bought, not use.this_service,
                                             conv, c.ops)
    horizon = running.horizon
    run = running.running(c.ops)
    o = running.cost

    def mr(r: Range) -> MoneyRange:
        lo, hi = sorted(r)
        return MoneyRange(low=round(lo * conv, 2), high=round(hi * conv, 2))

    cost = o.model_copy(update={
        "capex": mr(capex), "amortised_monthly": mr((capex[0] / horizon, capex[1] / horizon)),
        "monthly": mr((capex[0] / horizon + run[0], capex[1] / horizon + run[1])),
        "horizon_total": mr((capex[0] + run[0] * horizon, capex[1] + run[1] * horizon)),
        "capex_within_budget": None if budget is None else capex[1] <= budget,
        "fleet_gpus": running.cost.gpus_owned - gpus_bought, "fleet_count": use.count, "fleet_free": use.free,
        "fleet_utilisation": use.utilisation, "gpus_bought": gpus_bought, "fleet_moved": use.moved,
    })  # fmt: skip
    rows = {r.id: r for r in running.rows + (bought.rows if bought is not None else ())}
    return replace(running, capex=capex, cost=cost, rows=tuple(rows.values()))


def cost(c: Ctx, book: PriceBook, cand: Candidate, region: str, fx: float, conv: float) -> FleetOutcome | None:
    """The fleet's ways of carrying the setup ``cand`` (laid out by ``lay_out``), USD (see the module's text)."""
    if not serves(c, cand, region):
        return None
    use = use_of(c, cand)
    gpu, tdp, unit = cand.gpu.id, cand.gpu.tdp_watts, forms.purchase_unit(cand.gpu)
    budget = forms.capex_budget_usd(c, fx)
    form = "on_premises" if use.office else "bare_metal"
    # the hours the month's tokens keep it busy (issue 25, s26-usage26: full batches to random arrivals)
    usage = usage_share.draw_share(c, cand, usage_share.of(c, cand))

    def owned(run_gpus: int, bought: int, form_: str, **kw: Any) -> forms.Owned | None:
        running = forms._own(c, book, fx, conv, gpu, tdp, run_gpus, office=use.office, form=form_, region=region,
                             budget_usd=budget, purchase_unit=unit, usage=usage, **kw)  # fmt: skip
        purchase = forms._own(c, book, fx, conv, gpu, tdp, bought, office=use.office, form=form_, region=region,
                              purchase_unit=unit) if bought else None  # fmt: skip
        if running is None or (bought and purchase is None):
            return None
        return _with_purchase(c, running, purchase, conv, budget, use, bought)

    bought = forms._whole(use.missing, unit) if use.missing else 0
    own = owned(use.used + bought, bought, form)
    out = FleetOutcome(use=use, own=own, hybrid=None)
    if use.office or c.load not in ("bursty", "diurnal") or use.need < 2 * cand.tp:
        return out
    # the base: on the plan's curve; a fleet carrying this service's load today carries all of its base
    base = use.used if use.this_service else hybrid.base_replicas(c, cand) * cand.tp
    base_fleet = min(use.used, base)
    base_bought = forms._whole(base - base_fleet, unit) if base > base_fleet else 0
    burst = use.need - base_fleet - base_bought
    if burst <= 0:
        return out
    # the bursts rented on the part that carries them for least (s24-burst24): the plan's GPU or a cheaper one
    rented = burst_gpu.choose(c, book, cand, region, fx, burst)
    if rented is None:
        return out
    out.peak_only_bought = max(0, bought - max(0, base - use.used))
    hyb = owned(base_fleet + base_bought, base_bought, "hybrid", burst=burst_gpu.monthly(c, rented),
                burst_gpus=rented.count, rented=burst_gpu.fields(rented))  # fmt: skip
    if hyb is not None:
        seen = {r.id for r in hyb.rows}
        out.hybrid = replace(hyb, rows=hyb.rows + tuple(r for r in rented.rows if r.id not in seen))
    return out


def attach(out: costmod.CostOutcome, c: Ctx, book: PriceBook, cand: Candidate, region: str) -> None:
    """Cost the fleet's ways onto the plan's cost outcome (``out.fleet``)."""
    fx = float(book.fx()["cny_per_usd"])
    out.fleet = cost(c, book, cand, region, fx, out.conv)


def _judged(c: Ctx, o: forms.Owned, fx: float) -> Range:
    """What the form costs a month for the choice: running costs when a one-off budget pays for the purchase,
    else the purchase spread over the horizon too (as ``forms.monthly_usd``)."""
    return o.running(c.ops) if forms.capex_budget_usd(c, fx) is not None else o.monthly(c.ops)


def choose_form(c: Ctx, out: costmod.CostOutcome | None) -> str | None:
    """The fleet's form when using it is the cheapest way (None: no fleet to use, or renting everything costs
    less). A purchase must fit the one-off budget and the procurement time the deadline; GPUs bought only for the
    peak run only its share of the hours (``Ctx.burst_share``), and below the utilisation at which the engine buys
    at all (``OWN_MIN_UTILISATION``, rule 15) they are rented for the peak instead (the hybrid)."""
    fo: FleetOutcome | None = getattr(out, "fleet", None) if out is not None else None
    if fo is None or out is None:
        return None
    fx = out.forms.fx if out.forms is not None else 7.0
    budget = forms.capex_budget_usd(c, fx)
    options: list[tuple[float, int, str]] = []
    for rank, o in enumerate((fo.own, fo.hybrid)):
        if o is None:
            continue
        buys = (o.cost.gpus_bought or 0) > 0
        if buys and (not forms._procurement_fits(c) or (budget is not None and o.capex[1] > budget)):
            continue
        if o is fo.own and fo.hybrid is not None and fo.peak_only_bought and \
                c.burst_share < OWN_MIN_UTILISATION:
            continue  # bought for the peak, idle most hours: rule 15 rents it
        options.append((forms._mid(_judged(c, o, fx)), rank, o.form))
    if not options:
        return None
    best, _, form = min(options)
    if None not in out.cloud_usd and forms._mid(out.cloud_usd) < best:  # type: ignore[arg-type]
        return None
    return form


def chosen_owned(c: Ctx, out: costmod.CostOutcome | None, form: str) -> forms.Owned | None:
    """The fleet's costed way behind ``form`` when the fleet decided it, else None."""
    if out is None or choose_form(c, out) != form:
        return None
    fo: FleetOutcome = out.fleet
    return fo.hybrid if form == "hybrid" else fo.own


def apply_chosen(c: Ctx, out: costmod.CostOutcome, form: str) -> bool:
    """For a form the fleet decided, the plan's owning figures are the fleet's (``costs.owned``/``costs.hybrid``
    and ``forms.apply_chosen``'s prices, cost per million tokens and break-even). False when the fleet did not."""
    own = chosen_owned(c, out, form)
    if own is None or out.forms is None:
        return False
    if form == "hybrid":
        out.forms.hybrid = own
        out.costs.hybrid = own.cost
    else:
        out.forms.owned = own
        out.costs.owned = own.cost
    forms.apply_chosen(out, form)
    return True


__all__ = ["FLEET_BASIS", "FleetOutcome", "FleetUse", "apply_chosen", "attach", "base_check", "choose_form",
           "chosen_owned", "cost", "fits_free", "free_gpus", "idle_spares", "lay_out", "measured_headroom", "measured_peak_replicas", "peak_multiple",
           "on_free_alone", "serves", "signoff_spares", "this_service", "use_of"]
