"""The rules of bursty and hybrid loads (s15-burst), registered into ``rule_base.RULES`` on import (``rules``
imports this module), plus the texts of the two scaling rules ``rules`` keeps (warm replicas, pre-staged
weights), worked out here from ``advisor.plan.burst``:

- ``scaling.warm_replica``: how many replicas stay on between bursts and how the rest come up — by calendar when
  the burst dates are known ahead (no autoscaler for a team to run), else on the engine's queue; on a fleet that
  carries today's load, all of it stays on and the rented nodes take the bursts;
- ``scaling.prestage_weights``: the weights kept in the region for every node a burst adds, fetched once from
  ModelScope on a mainland node (Hugging Face is not reliably reachable there);
- ``icp.burst_access_record``: a filed domain that also resolves to rented burst nodes makes their cloud provider
  an access provider, which takes the filing on (接入备案) before traffic goes there;
- ``cost.burst_hosted_api``: a hosted API for the bursts' extra load, when it costs less than renting GPUs for it.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import burst, burst_all_month, hosted_weigh
from advisor.plan.batch_words import batch_detail
from advisor.plan.burst_gpu import rented_of
from advisor.plan.burst_load import burst_tokens, kept_on
from advisor.plan.burst_load import fleet_base as _fleet_base
from advisor.plan.data import duration
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _money, _range, finding, rule
from advisor.plan.weight_download import checkpoint_bytes, quantised_on_load

NVME_GB_S = 7.0  # PCIe4 NVMe sequential read (deployment-facts §3.3: 140 GB in ~20 s)
LINK_GB_S = 0.125  # 1 Gbit/s (§3.3: 140 GB in ~19 min)


def warm_finding(f: Facts, ch: Any) -> Finding:
    """A bursty plan's scaling: the replicas kept on (the steady load's + the spare), the peak's, and how the
    others come up (calendar when the dates are known, the queue otherwise; a little-ops team is told to use the
    cloud's own scaling group rather than run an autoscaler)."""
    c = f.ctx
    per = max(1, f.claimed_c_max or ch.c_max)
    how = {"tr": "plan.burst15.how.calendar" if burst.scheduled(c) else "plan.burst15.how.queue"}
    base = _fleet_base(f, ch)
    if base is not None:
        warm, multiple = base
        steady = max(1, math.ceil(c.peak / multiple - 1e-9))
        rented = rented_of(f.cost.costs, f.form) if f.cost is not None else None
        got = finding("scaling.warm_replica", variant="fleet_rented" if rented else "fleet", rented=rented or "",
                      gpu=ch.gpu.name, warm=warm, peak_replicas=ch.replicas,
                      extra=max(0, ch.replicas - warm), steady=steady, peak=c.peak, multiple=f"{multiple:g}",
                      how=how)  # fmt: skip
        # s38-burst40 (review 29, q39: "far too long and repetitive"): with a rented part, page 1's fleet reason
        # (``cost.fleet``: today's load on your GPUs, the peaks' work rented as that part) and this title say the
        # load and the count; the detail keeps only how the rented nodes come up
        return got.model_copy(update={"detail_key": "burst40_warm.fleet_rented.detail"}) if rented else got
    st = burst.steady(c)
    warm = kept_on(f, ch, per)
    load_warm = min(warm, max(1, math.ceil(st.concurrency / per)))
    if burst_all_month.of_facts(f):  # every GPU billed all month: none started for the bursts (s31-burst32, q36)
        return finding("scaling.warm_replica", variant="on_request", warm=warm, load_warm=load_warm, per=per,
                       steady=st.words(), peak=c.peak, gpu=ch.gpu.name)
    if ch.replicas <= warm:  # the warm floor is the peak's count: nothing scales out, nothing starts by calendar
        # (ninth blind review, q23: "keep 2 warm, scale to 2", "start the 0 extra replicas by calendar")
        return finding("scaling.warm_replica", variant="all_warm", warm=warm, load_warm=load_warm, per=per,
                       steady=st.words(), peak=c.peak)
    variant = "calendar" if burst.scheduled(c) else "autoscale_little_ops" if c.ops != "strong" else "autoscale"
    return finding("scaling.warm_replica", variant=variant, warm=warm, load_warm=load_warm, per=per,
                   peak_replicas=ch.replicas, extra=max(0, ch.replicas - warm), steady=st.words(),
                   lag=_scale_out_lag(f, ch, warm, per) if variant != "calendar" else "",
                   # known dates, and still a fallback for a burst day busier than planned on a cloud that can
                   # scale (sixth blind review, q36: "no autoscaling fallback for unplanned surges on event days")
                   fallback={"tr": "plan.inputs17.burst.fallback"} if variant == "calendar" and ch.replicas > warm
                   and f.form not in ("bare_metal", "on_premises") else "")  # fmt: skip


def carried_warm(findings: list[Finding]) -> bool:
    """The plan's warm replicas are its peak's count (the ``all_warm`` scaling finding): no burst share of the hours
    prices anything, so the memo neither states nor asks it (ninth blind review, q23: "burst GPUs costed at 35 % of
    the hours" beside a cost table that bills both GPUs around the clock)."""
    return any(x.id == "scaling.warm_replica" and x.title_key.endswith(".all_warm.title") for x in findings)


def _scale_out_lag(f: Facts, ch: Any, warm: int, per: int) -> dict[str, Any] | str:
    """What a queue-triggered scale-out costs at a burst's start (s16-lead, q23's reviewers): a new node serves only
    after its VM, engine and weights are up, and meanwhile the burst queues on the warm replicas, so an unannounced
    burst misses a TTFT target for those minutes; bursts that follow the team's own events belong on the calendar.
    The weight read is the only sourced step, so the text names it as that and says the whole start takes minutes
    to be timed (fifteenth blind review, q23: "a new node serves after about 2 s of weight load ignores VM boot,
    image pull … and CUDA-graph capture")."""
    if ch.replicas <= warm:
        return ""  # nothing is started for a burst
    gb = _read_bytes(f) / 1e9  # a new node reads the checkpoint as stored (BF16 where it quantises to FP8 on load)
    base = {"nvme": max(1, round(gb / NVME_GB_S)), "warm": warm}
    ttft = f.ctx.ttft_slo_ms
    if ttft is None:
        return {"tr": "numbers25.lag_no_target", **base}
    return {"tr": "numbers25.lag", **base, "cap": warm * per, "ttft": f"{ttft:,.0f}"}


def _adds_nodes(f: Facts) -> bool:
    """The plan starts nodes for its bursts (so each new node loads the weights): a hybrid's rented peak, or a
    bursty plan with more replicas than it keeps warm."""
    ch = f.chosen
    if f.form == "hybrid":
        return True
    if f.ctx.load != "bursty" or ch is None:
        return False
    return ch.replicas > kept_on(f, ch, max(1, f.claimed_c_max or ch.c_max))


def _from_modelscope(f: Facts) -> bool:
    """The plan's serve command fetches a published model from ModelScope (``commands.finish_serve_command``: a
    mainland node and a publisher's mirror; the command itself is finished after the rules run)."""
    from advisor.plan.commands import modelscope_repo

    c = f.ctx
    if c.fine_tuned or not f.serves_mainland_from_mainland:
        return False
    return bool(modelscope_repo(c.served_name) or modelscope_repo(c.model.hf_repo or ""))


def _read_bytes(f: Facts) -> int:
    """The bytes a node downloads and reads from disk for the chosen weights (``weight_download``)."""
    ch = f.chosen
    return checkpoint_bytes(f.ctx.model, ch.weights, ch.memory.weights_bytes_all_gpus)


def prestage_finding(f: Facts) -> Finding:
    out = batch_detail(_prestage_finding(f), f.ctx.is_batch)  # a batch's "before the job starts" (review 27)
    ch = f.chosen
    if not quantised_on_load(f.ctx.model, ch.weights):
        return out
    # FP8 quantised on load: the checkpoint fetched and read is BF16; the GPUs hold the FP8 size (q28, q36). The
    # rule's own title and detail stay, with what the GPUs hold said after them.
    inner = {"tr": out.title_key, **out.params}, {"tr": out.detail_key, **out.params}
    return out.model_copy(update={
        "title_key": "wording18.prestage.online_fp8.title", "detail_key": "wording18.prestage.online_fp8.detail",
        "params": {**out.params, "title": inner[0], "detail": inner[1], "native": _native_name(f),
                   "gpu_gb": round(ch.memory.weights_bytes_all_gpus / 1e9)}})


def _native_name(f: Facts) -> str:
    return str(f.ctx.model.native_weights).upper()


def _prestage_finding(f: Facts) -> Finding:
    gb = round(_read_bytes(f) / 1e9)
    modelscope = _from_modelscope(f)
    burst = _adds_nodes(f)
    # the team's own machine (an office box, its own server room): no same-region bucket, its local disk (q01, q33:
    # "copy weights to object storage in the same region" read as cloud boilerplate for an office workstation)
    premises = not burst and f.form == "on_premises" and not f.ctx.fine_tuned
    variant = ("burst" if burst else "premises" if premises else "") + ("_modelscope" if modelscope else "")
    if not variant and f.ctx.fine_tuned:
        # the team's own checkpoint: nothing is downloaded from abroad (sixth blind review, q41: "the 'downloads from
        # abroad' note does not apply to a local checkpoint"); kept on fast local storage for restarts all the same
        variant = "own"
    return finding("scaling.prestage_weights", variant=variant.lstrip("_") or None, gb=gb,
                   nvme=max(1, round(gb / NVME_GB_S)), link=max(1, round(gb / LINK_GB_S / 60)))  # fmt: skip


@rule("icp.burst_access_record", "cost")
def icp_burst_access_record(f: Facts) -> Finding | None:
    """A filed domain served partly from rented cloud burst nodes on the mainland: the cloud provider is an access
    provider of the domain too and needs an access record (接入备案) before the domain resolves to its servers
    (facts §2.1: a filing names the mainland server or the provider's access code; changes within 30 days)."""
    c = f.ctx
    if f.form != "hybrid" or not f.serves_mainland_from_mainland or c.icp != "filed":
        return None
    if c.internal_only or c.is_batch or not c.has_mainland_users:
        return None
    lo, hi = duration("icp_access_record")
    return finding("icp.burst_access_record", low=lo, high=hi)


def _extra_rent(f: Facts, warm_gpus: int) -> tuple[float, float] | None:
    """What renting the bursts' extra GPUs costs a month, in the answers' currency (their share of the bill)."""
    costs = f.cost.costs
    if f.form == "hybrid" and costs.hybrid is not None and costs.hybrid.burst_monthly is not None:
        return costs.hybrid.burst_monthly.low, costs.hybrid.burst_monthly.high
    od = costs.cloud_on_demand_monthly
    if f.form != "cloud" or od is None:
        return None
    ch = f.chosen
    extra = max(0, ch.total_gpus - warm_gpus)
    if extra <= 0:
        return None
    # each end of the bill at its own end of the bursts' share (an assumed range of event days, s19-cost19)
    parts = [extra * s / (warm_gpus + extra * s) for s in burst.share_range(f.ctx) if warm_gpus + extra * s > 0]
    if len(parts) < 2:
        return None
    return od.low * parts[0], od.high * parts[1]


@rule("cost.burst_hosted_api", "cost")
def cost_burst_hosted_api(f: Facts) -> Finding | None:
    """Bursts on rented GPUs (cloud or hybrid): a hosted API of the same model for the bursts' extra load, when it
    costs less than renting GPUs for it (review: a hosted API for the fair days was never weighed, though the
    memo's own table showed it cheaper). Not for a fine-tune (no hosted API serves it) or highly sensitive data."""
    from advisor.plan import cost as costmod

    c, ch = f.ctx, f.chosen
    if c.load != "bursty" or f.form not in ("cloud", "hybrid") or ch is None or f.cost is None or c.is_batch:
        return None
    if c.fine_tuned or c.level == "high":
        return None
    if hosted_weigh.cheaper_than_plan(f):  # the whole service on the API costs less: weighed as such, not its bursts
        return None
    base = _fleet_base(f, ch)
    per = max(1, f.claimed_c_max or ch.c_max)
    warm = base[0] if base is not None else kept_on(f, ch, per)
    rent = _extra_rent(f, warm * ch.tp)
    tokens = burst_tokens(f)
    if rent is None or tokens <= 0:
        return None
    conv = f.cost.conv
    share = burst.share_words(c)
    h_lo, h_hi = costmod.hosted_api_monthly(c, tokens)
    hosted = (h_lo * conv, h_hi * conv)
    extra = max(0, ch.replicas - warm)
    if sum(hosted) < sum(rent):  # the bursts' extra load on the API, the steady load on the warm replicas
        return costmod.sized_hosted_sources(finding(
            "cost.burst_hosted_api", hosted=_range(*hosted, f), rent=_range(*rent, f), warm=warm, extra=extra,
            share=share, saved=_money((sum(rent) - sum(hosted)) / 2, f)), c)
    # the whole service on the API, cheaper than the plan: weighed for every load, not bursty ones alone, by
    # ``cost.hosted_weighed`` (advisor.plan.hosted_weigh, s16-hosted), among the deciding reasons
    return None


__all__ = ["burst_tokens", "carried_warm", "kept_on", "prestage_finding", "warm_finding"]
