"""The next tensor-parallel size up weighed on the team's own cards where the plan's first token sits close to its
target (s42-hyb, blind review 35, q33: "the predicted 4.0 s is only 21 % under the 5 s TTFT target, with an error
band to 15,822 ms, yet TP4 (one replica of 4 cards per workstation, still N+1 across the two machines) was not tried,
though it would roughly halve the long-prompt prefill. Evaluate that before settling on TP2").

On a fleet the team owns, a larger replica costs nothing to buy, so the only questions are what it gives and what it
takes: the first token at the peak (predicted on the same predictor as the plan), and what a machine down leaves of
its fewer replicas. It is weighed where the plan's predicted P99 first token at its load is within ``THIN`` of the
target, the layout of twice the cards a replica fits the fleet with its N+1 spare, and the model splits that way.
The plan keeps its layout unless the larger one lowers the first token by at least ``WORTH`` and still meets the
per-token target with a replica down; either way the memo says which and why, and the ramp measures both.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import gpu_choice, node_shapes, sizing
from advisor.plan.fleet import free_gpus
from advisor.plan.fleet_spread import machine_left
from advisor.sizing.links import fast_link

THIN = 0.25  # the plan's first token within a quarter of its target: the larger layout is weighed
WORTH = 0.25  # what the larger layout must take off the first token to be the one measured first


def _s(ms: float) -> str:
    return f"{ms / 1000:.1f}"


def weigh(c: Any, ch: Any) -> dict[str, Any] | None:
    """The larger layout's figures and the verdict (``keep`` or ``try``), None where it is not weighed."""
    if ch is None or c.is_batch or not c.peak or not c.ttft_slo_ms or not ch.replicas \
            or getattr(ch.layout, "basis", None) != "fleet":  # laid out on the team's own cards only
        return None
    fl = gpu_choice.fleet(c, ch.gpu.id)
    up = ch.tp * 2
    if fl is None or up > ch.gpu.max_gpus_per_node or c.model.num_attention_heads % up:
        return None
    now = sizing.levels_at(c, ch, [max(1, math.ceil(c.peak / ch.replicas))])[0].ttft_ms.p99
    if now is None or now > c.ttft_slo_ms or now < c.ttft_slo_ms * (1 - THIN):
        return None
    engine = sizing._engine(c, ch.gpu)
    setup = sizing._screened(c, ch.gpu, ch.weights, ch.kv_dtype, up, engine,
                             (sizing._workload_token(c), sizing._token((ch.gpu, engine))))
    if setup is None or setup[4] < 1:
        return None
    mem, costs, best_tpot, best_ttft, c_max = setup
    replicas = math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM)) / c_max) + 1  # the load's, and the N+1 spare
    if replicas * up > max(ch.replicas * ch.tp, free_gpus(fl[1], c.utilisation)):
        return None  # no more cards than the plan's own or the fleet's free ones: nobody's work moves for it
    cand = sizing.Candidate(ch.gpu, ch.weights, ch.kv_dtype, up, mem, costs, c_max, replicas, best_ttft, best_tpot,
                            0.0, ch.price_mid, best_ttft, best_tpot)
    cand._peak = c.peak
    at = sizing.levels_at(c, cand, [math.ceil(c.peak / replicas)])[0]
    down = sizing.levels_at(c, cand, [math.ceil(c.peak / (replicas - 1))])[0]
    if at.ttft_ms.p99 is None or down.tpot_ms.p99 is None:
        return None
    whole = node_shapes.form_factor(ch.gpu.id) in ("sxm", "oam")
    left_up, left_now = machine_left(replicas, up, fl[1], whole), machine_left(ch.replicas, ch.tp, fl[1], whole)
    if left_up is None or left_now is None:
        return None
    gain = 1 - float(at.ttft_ms.p99) / float(now)
    holds = c.tpot_slo_ms is None or float(down.tpot_ms.p99) <= c.tpot_slo_ms
    return {"verdict": "try" if gain >= WORTH and holds else "keep", "tp": ch.tp, "up": up, "replicas": replicas,
            "cards": replicas * up, "ttft_up": _s(float(at.ttft_ms.p99)), "ttft_now": _s(float(now)),
            "left_up": left_up, "left_now": left_now, "peak": c.peak, "tpot_down": f"{float(down.tpot_ms.p99):.0f}",
            "target": f"{c.ttft_slo_ms / 1000:g}",
            # why it is not worth the replicas it gives up: a small gain (over PCIe, the all-reduces eat it), or the
            # per-token target missed with a replica down
            "gain": {"tr": "hyb44.tp_up.gain_small" if gain < WORTH else "hyb44.tp_up.gain",
                     "pct": f"{max(0.0, gain) * 100:.0f}",
                     "link": {"tr": "hyb44.tp_up.pcie"} if not fast_link(ch.gpu) and gain < WORTH else ""},
            "tpot": "" if holds else {"tr": "hyb44.tp_up.tpot_over", "target": f"{c.tpot_slo_ms:g}"}}


__all__ = ["THIN", "WORTH", "weigh"]
