"""The GPU a hybrid rents for its bursts, chosen where the hybrid is costed (issue 25, s24-burst24).

Round 13 on q39: the memo advised 8 × H20 for the bursts while the plan, the hardware row and the cost table priced
34 × L20 — a recommendation the plan did not take. The rented side is now chosen once, here, and every figure reads
it: the hybrid's costing (``forms.cost_forms``, ``fleet.cost``) prices the bursts on the part chosen, and the rules
and the memo say that part and that count (``OwnedFormCost.burst_gpu``).

How: a rented node needs no spare parts of the team's and another part of the same vendor runs the same CUDA and
vLLM stack, so continuity with the owned GPU only breaks a tie (``TIE_SHARE``). Each part the region's clouds price
that holds a replica as the plan's GPU does (as much memory; FP8 where the weights are FP8) carries the bursts'
work at as many cards as give it the plan GPUs' GPU time: decoding weighed by memory bandwidth, prefill by dense
compute in the weights' format, each by its share of the plan GPU's time at the planned load (``token_split``; the
H20's weak prefill counts, round 13 zh: "the suggestion to burst on 8 H20s does not mention H20's weak prefill").
The cheapest by more than the tie share is rented; otherwise the plan's own GPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.plan import burst_path, cloud_overhead, instance_fit, node_shapes
from advisor.plan import cost as costmod
from advisor.plan.burst import DAYS_PER_MONTH
from advisor.plan.candidate_gpus import candidate_gpus
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, factor_range, gpus_by_id
from advisor.plan.result import PriceRow, render
from advisor.plan.sales_only import listed_on_request
from advisor.plan.token_split import prefill_share

# the cheaper part must save more than this share of the rent before continuity stops deciding (a tie within it)
TIE_SHARE = 0.10


@dataclass(frozen=True)
class Rented:
    """The bursts' rented GPUs: the part, how many, what each costs an hour (USD, low/high) and the price rows."""

    gpu: str
    name: str
    count: int
    plan_gpus: int  # the plan's own GPUs whose work they carry (the count the sizing gives in the plan's GPU)
    price: tuple[float, float]
    rows: tuple[PriceRow, ...]
    factor: float  # rented cards per plan GPU (1.0 for the plan's own GPU)

    @property
    def other(self) -> bool:
        return self.factor != 1.0

    @property
    def by_month(self) -> bool:
        """The part is sold only through the cloud's sales, by the month (``sales_only``): each burst books whole
        months of it, never hours (s33-burst39: q39's H20 was billed 21 × 24 h at a placeholder hourly rate)."""
        return listed_on_request(self.gpu)

    def of(self, plan_gpus: int) -> int:
        """Rented cards that carry the work of ``plan_gpus`` of the plan's GPU (a server down, a burst's spare)."""
        return 0 if plan_gpus <= 0 else max(1, math.ceil(plan_gpus * self.factor - 1e-9))


def _tflops(g: Any, weights: str) -> float:
    return float((g.fp8_tflops_dense if weights == "fp8" else g.bf16_tflops_dense) or 0.0)


def factor(c: Ctx, cand: Any, g: Any) -> float | None:
    """Cards of ``g`` per card of the plan's GPU for the same work: decode by bandwidth, prefill by dense compute,
    each at its share of the plan GPU's time; None where either figure is missing."""
    mine = cand.gpu
    bw, tf, tf_mine = g.bandwidth_bytes_per_s, _tflops(g, cand.weights), _tflops(mine, cand.weights)
    if not bw or not mine.bandwidth_bytes_per_s or tf <= 0 or tf_mine <= 0:
        return None
    pre = prefill_share(c, cand) or 0.0
    return (1 - pre) * mine.bandwidth_bytes_per_s / bw + pre * tf_mine / tf


def choose(c: Ctx, book: PriceBook, cand: Any, region: str, fx: float, plan_gpus: int) -> Rented | None:
    """The rented side of a hybrid whose peak needs ``plan_gpus`` more of the plan's GPU; None where the plan's GPU
    has no cloud price in the region (nothing to rent it against)."""
    where = "mainland" if region in ("mainland", "mainland_plus_overseas") else region
    own = costmod.cloud_price(book, cand.gpu.id, where, fx, cand.tp)
    if own is None:
        return None
    mine = Rented(cand.gpu.id, cand.gpu.name, plan_gpus, plan_gpus, (own[0], own[1]), tuple(own[2]), 1.0)
    best, cat = mine, gpus_by_id()
    hourly = hourly_first(c, mine)
    for gid in dict.fromkeys(candidate_gpus(c, region)):
        g = cat.get(gid)
        if g is None or gid == cand.gpu.id or g.vendor != cand.gpu.vendor:
            continue  # the same vendor's stack only: another vendor's is a port, not a rental (continuity)
        if hourly and listed_on_request(gid):
            continue  # a burst of days is rented by the hour where a part is (``hourly_first``)
        if g.usable_memory_bytes < cand.gpu.usable_memory_bytes or (cand.weights == "fp8" and not g.fp8_tflops_dense):
            continue
        per = factor(c, cand, g)
        price = costmod.cloud_price(book, gid, where, fx)
        if per is None or price is None:
            continue
        count = max(1, math.ceil(plan_gpus * per - 1e-9))
        shape = node_shapes.shape_of(gid, owned=False)
        whole = instance_fit.whole_only(list(price[2]))  # priced only on the share of an instance sold whole
        if shape.whole_server or whole:  # rented only as whole servers (SXM with no sourced smaller instance): whole ones
            unit = whole or max(shape.sizes)
            count = math.ceil(count / unit) * unit
        option = Rented(gid, g.name, count, plan_gpus, (price[0], price[1]), tuple(price[2]), per)
        if _billed(c, option) < _billed(c, best):
            best = option
    return best if best is mine or _billed(c, best) < (1 - TIE_SHARE) * _billed(c, mine) else mine


def hourly_first(c: Ctx, mine: Rented) -> bool:
    """A part sold only by the month is passed over for bursts of days while the plan's own GPU rents by the hour.

    s38-burst40 (issue 25; blind reviews 27-29 on q39): 11 H20 booked through the cloud's sales for a whole month per
    21-day burst ranked cheaper on paper (a placeholder price at the monthly factor), but review 28 said no to a
    month billed for 21 days of use and review 29 read the plan as API-first with a month-long fallback. A burst is
    rented for its days: a part rented by the hour is chosen, its hours billed, and a part sold by the month stays
    for plans with no burst schedule (no days to bill) or whose own GPU is not rented by the hour either. (Passing
    over export-sensitive parts too was tried: q39 then rents 34 L20 at ¥270,756–¥313,375 a burst, over the budget
    at both ends, and the plan turns infeasible; the H800 it rents instead carries its supply caveat in section 7.)"""
    return not mine.by_month and booked_months(c.answers) is not None


def _billed(c: Ctx, r: Rented) -> float:
    """What the bursts bill a month on average at the middle price (USD, overhead aside): the GPUs × their price × the
    hours billed (``billed_hours_share``), so a part sold by the month ranks on the months it is booked for, not on
    the hours a burst lasts."""
    s_lo, s_hi = billed_hours_share(c, r)
    return r.count * (r.price[0] * s_lo + r.price[1] * s_hi)


def booked_months(answers: Any) -> int | None:
    """Months a year a part sold by the month is booked for the bursts: the bursts a year × the whole months each
    one spans (a burst of 21 days books one), at most 12; None without both figures of the burst schedule (a daily
    peak or an assumed share of the hours: no burst to book a month for, so every month)."""
    sched = answers.get("burst_schedule") if isinstance(answers, dict) else getattr(answers, "burst_schedule", None)
    if sched is None:
        return None
    per_year, days = (sched.get("per_year"), sched.get("days_each")) if isinstance(sched, dict) else \
        (sched.per_year, sched.days_each)
    if not per_year or not days:
        return None
    return int(min(12, per_year * math.ceil(float(days) / DAYS_PER_MONTH - 1e-9)))


def billed_hours_share(c: Ctx, r: Rented) -> tuple[float, float]:
    """(low, high) share of a month's hours the rented burst GPUs bill on average: the bursts' share of the hours for
    a part rented by the hour; for a part sold by the month, the months booked a year ÷ 12 × the monthly price's
    share of the on-demand month (``monthly_factor``: the same factor the cloud rows bill a month by)."""
    if not r.by_month:
        return c.burst_share, c.burst_share
    months = booked_months(c.answers)
    booked = 1.0 if months is None else months / 12
    m_lo, m_hi = factor_range("monthly_factor")
    return booked * m_lo, booked * m_hi


def rented_of(costs: Any, form: str | None) -> dict[str, Any] | None:
    """The hybrid's rented burst GPUs as the memo names them ("11 × NVIDIA H20 96GB"), where the plan is the hybrid
    (``form``; another form keeps ``costs.hybrid`` as a comparison only) and they are another part than the plan's
    own GPU; None otherwise (the texts that say "N more" of the plan's GPU stay true)."""
    hyb = getattr(costs, "hybrid", None)
    if form != "hybrid" or hyb is None or not hyb.gpus_burst or not hyb.burst_gpu_name or hyb.burst_plan_gpus is None:
        return None
    return {"tr": "burst24.rented", "n": hyb.gpus_burst, "gpu": hyb.burst_gpu_name, "plan": hyb.burst_plan_gpus}





def hardware_text(result: Any, lang: str) -> str | None:
    """Page 1's hardware line for a hybrid that rents another part for its bursts ("your 16 × L20 + 11 × H20 rented
    for the bursts (the work of 34 more L20 …)"), one text for the memo, the app's card and the CLI; None otherwise
    (their own layout text stays true)."""
    hw, hyb = result.hardware, result.costs.hybrid
    rented = rented_of(result.costs, result.deployment_form)
    if rented is None or hyb is None or not hw.gpu:
        return None
    # the API takes each burst's overflow (burst_path): the rented part said as its fallback, never as the decision
    # (issue 25, q39: "your 16 × L20 + 11 × H20 rented for the bursts" under an API-first headline)
    key = "rem36_burst.key.hardware" if burst_path.lead_finding(result) is not None else "burst24.key.hardware"
    return render(lang, key, {
        "owned": hyb.gpus_owned, "gpu": hw.gpu_name or hw.gpu, "n": rented["n"], "other": rented["gpu"],
        "plan": rented["plan"], "replicas": hw.replicas, "per": hw.gpus_per_replica, "weights": hw.weights or "—"})


def monthly(c: Ctx, r: Rented) -> tuple[float, float]:
    """USD a month the rented burst GPUs cost, averaged over the year: their hours (730 h × the share billed,
    ``billed_hours_share``: the bursts' hours, or the months booked at the monthly price for a part sold by the month)
    × the rate × (1 + the rented share's storage and support; their egress, if any, is the service's)."""
    ov_lo, ov_hi = cloud_overhead.rented_share()
    s_lo, s_hi = billed_hours_share(c, r)
    hours = costmod.HOURS_PER_MONTH * r.count
    return r.price[0] * hours * s_lo * (1 + ov_lo), r.price[1] * hours * s_hi * (1 + ov_hi)


def fields(r: Rented) -> dict[str, Any]:
    """The ``OwnedFormCost`` fields that name the rented part where it is another than the plan's GPU."""
    if not r.other:
        return {}
    return {"burst_gpu": r.gpu, "burst_gpu_name": r.name, "burst_plan_gpus": r.plan_gpus}

__all__ = ["TIE_SHARE", "Rented", "billed_hours_share", "booked_months", "choose", "factor", "fields", "hardware_text",
           "hourly_first", "monthly", "rented_of"]
