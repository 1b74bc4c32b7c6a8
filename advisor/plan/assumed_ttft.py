"""A layout that rests on an assumed first-token target (issue 25, blind review 23, q04).

With no TTFT target given, the plan assumes one (``context.assumed_ttft_ms``: 2 s a chat turn plus 0.5 s per 1,000
prompt tokens past 2,000) and drops every layout one request on which misses it. On the team's own fleet that choice
can take busy cards: q04's TP4 on all 16 H20, moving other teams' work, where TP2 missed only the assumed 6,000 ms
(7,876 ms at P99 for one request) and would carry the peak on half the cards. The reviewer: "TP4 (and therefore all
16 H20) is forced by an assumed TTFT target ... ask the analysts for their real target before displacing other
work". The finding says so with the smaller layout's own size at a target just above what it gives (its one-request
P99 plus a tenth, rounded up to 500 ms), on the predictor the plan sizes every layout with (``layout_rescue``).

Only where the assumed target decides (a smaller layout misses nothing else) and the plan takes busy cards of the
team's fleet: there a wrong guess costs other teams' work, not only money."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from advisor.plan import idle_spares, layout_rescue, one_request, sizing
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.rules_fleet import on_fleet
from advisor.sizing import TP_DEGREES

STEP_MS = 500  # the relaxed target is said in half seconds: "about 9 s", not "8,664 ms"


def assumed(c: Any) -> bool:
    """The TTFT target is the plan's assumption, not the answers'."""
    return any(a.field in ("latency_slo.ttft_p99_ms", "ttft_p99_ms") for a in c.assumptions)


def takes_busy(f: Facts) -> bool:
    """The plan takes cards of the team's fleet that carry other work today (moved or signed off)."""
    ch = f.chosen
    return bool(idle_spares.moved_cards(f) or (ch is not None and idle_spares.signoff_cards(f.ctx, ch)))


def smaller(f: Facts) -> dict[str, Any] | None:
    """{"tp", "weights", "value", "target", "relaxed", "replicas", "gpus", "chosen_tp", "chosen_gpus"} for the
    smallest layout of the chosen GPU and precision that misses only the assumed TTFT target and, at a target just
    above its one-request P99, carries the peak on fewer GPUs than the plan's replicas that carry it; None otherwise."""
    c, ch = f.sized_ctx, f.chosen
    lay = getattr(ch, "layout", None)
    if ch is None or lay is None or c.is_batch or not c.peak or c.ttft_slo_ms is None:
        return None
    serving = max(1, lay.replicas - int(lay.spare_units)) * ch.tp
    for tp in (t for t in TP_DEGREES if t < ch.tp):
        if c.model.num_attention_heads % tp:
            continue
        k = one_request.setup(c, ch.gpu, ch.weights, ch.kv_dtype, tp)
        miss = one_request.miss(c, k) if k is not None else None
        if k is None or miss is None or miss.what != "ttft":
            continue
        relaxed = math.ceil(miss.value * 1.1 / STEP_MS) * STEP_MS
        loose = dataclasses.replace(c, ttft_slo_ms=float(relaxed))
        if one_request.miss(loose, k) is not None:
            continue  # the TPOT target too: not the assumed first-token target alone
        per = layout_rescue.capacity(loose, k)
        if per < 1:
            continue
        replicas = math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9) / per)
        if replicas * tp >= serving:
            continue
        return {"tp": tp, "weights": ch.weights, "value": round(miss.value), "target": round(c.ttft_slo_ms),
                "relaxed": relaxed, "relaxed_s": f"{relaxed / 1000:g}", "replicas": replicas, "gpus": replicas * tp,
                "chosen_tp": ch.tp, "chosen_gpus": serving, "total": lay.replicas * ch.tp}
    return None


@rule("sizing.assumed_ttft", "sizing")
def assumed_ttft(f: Facts) -> Finding | None:
    """The layout on the team's fleet, taking busy cards, rests on an assumed TTFT target that a smaller layout
    misses alone: ask for the real target before the other work moves (review 23, q04)."""
    if f.chosen is None or on_fleet(f) is None or not assumed(f.ctx) or not takes_busy(f):
        return None
    got = smaller(f)
    if got is None:
        return None
    from advisor.plan.fleet import free_gpus

    fleet = on_fleet(f)
    assert fleet is not None  # checked above
    free = free_gpus(int(fleet.fleet_count or 0), f.ctx.utilisation)
    # with its N+1 spare replica, on the free cards alone, or still on some busy ones
    spare = got["gpus"] + got["tp"]
    moves: dict[str, Any] = ({"tr": "numbers2_34.ttft.on_free", "spare": spare, "free": free} if spare <= free
                             else {"tr": "numbers2_34.ttft.fewer_busy", "spare": spare, "free": free})
    count = int(fleet.fleet_count or 0)
    on = ({"tr": "numbers2_34.ttft.on_all", "total": got["total"]} if got["total"] >= count
          else {"tr": "numbers2_34.ttft.on_some", "total": got["total"], "count": count})
    return finding("sizing.assumed_ttft", moves=moves, on=on, **got)


__all__ = ["assumed", "assumed_ttft", "smaller", "takes_busy"]
