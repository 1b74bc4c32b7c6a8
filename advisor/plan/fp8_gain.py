"""On as many GPUs at the same cost, FP8 (which the answers accept) is kept over BF16 where it gives materially more
on those cards (eleventh blind review: q32, q38, q42, q14).

The layout search keeps the better precision on a tie (``layout_search._precision``, session 20: q02's 7B on one
24 GB card, q26's note of what FP8 would give). Round 11's reviewers sent four plans back where the answers accept
FP8 and FP8 on the same cards is plainly better: q32 (a public chatbot, P99 TPOT 64 ms in BF16, 40 ms in FP8), q42
(54 → 36 ms), q38 (20 % headroom in BF16, about twice the requests in FP8), q14 (thin headroom on the L20s). An
engineer keeps BF16 where FP8 buys little the users feel, and takes FP8 (with the quality check against the BF16
baseline before launch) where it buys a lot; the two policies below draw that line (grade U: no source sets them;
FP8 W8A8 on Hopper/Ada cards is a small quality risk the A/B check catches, and the answers accept it):

- **speed** (``TPOT_CUT``): FP8's predicted P99 TPOT at the peak's load per replica at least 25 % below BF16's,
  where BF16's uses at least half the TPOT target (``TPOT_FELT``: the margin a surge or the predictor's error eats
  into) and is 50 ms or more (``TPOT_FLOOR_MS``, 20 tokens a second: below it the stream already runs well ahead of
  a reader, so making 20 ms into 11 ms buys nothing: q02's one 4090 D for four users, or q43's 25 ms against a
  40 ms target, keep BF16);
- **capacity** (``CAPACITY_GAIN``): one FP8 replica takes at least 1.5 × the requests within the target that a BF16
  replica takes, where BF16's headroom over the peak is thin (below ``THIN_ROOM``): a burst or a year's growth away
  from the limit, where FP8 gives the room at no cost.

Only 8 over 16 bits: 4-bit weights are never chosen for speed over a higher precision (the larger quality risk;
``higher_precision`` names the higher precision a 4-bit plan's budget covers, q01's legal text). No sector is
exempt: the A/B check on the team's own prompts is what protects a medical or legal service, and it stays a step
before launch (``sizing.quantized``).
"""

from __future__ import annotations

import math

from advisor.plan import sizing
from advisor.plan.capacity import capacity_up_to
from advisor.plan.chat_rule38 import RULE_MS
from advisor.plan.context import Ctx
from advisor.plan.fp8_gain_reason import Fp8Gain
from advisor.plan.gpu_choice import _copy
from advisor.plan.sizing import Candidate
from advisor.sizing.quant import get_format

TPOT_CUT = 0.25  # policy (U): FP8's P99 TPOT at the peak at least this share below BF16's is a material gain
TPOT_FELT = 0.5  # policy (U): ... where BF16's P99 TPOT uses at least this share of the TPOT target
TPOT_FLOOR_MS = RULE_MS  # policy (U): ... and is at least this (20 tokens a second; faster streams gain nothing felt)
CAPACITY_GAIN = 1.5  # policy (U): FP8 takes at least this many times BF16's requests a replica within the target ...
THIN_ROOM = 0.5  # policy (U): ... where BF16's headroom over the peak is below this share


def decide(c: Ctx, lower: Candidate, higher: Candidate) -> Fp8Gain | None:
    """The tie on as many GPUs decided for ``lower`` (8-bit weights) over ``higher`` (16-bit) by what FP8 gives on
    the same cards, or None where the gain is small (the better precision is kept). Read on copies: the levels
    probed here stay off the setups' own curves, which the memo prints and the claim rests on."""
    if c.is_batch or not c.peak or get_format(lower.weights).bits != 8 or get_format(higher.weights).bits < 16:
        return None
    lower, higher = _copy(lower), _copy(higher)
    per = higher.per_replica
    hi, lo = sizing.levels_at(c, higher, [per])[0], sizing.levels_at(c, lower, [lower.per_replica])[0]
    h_tpot, l_tpot = hi.tpot_ms.p99, lo.tpot_ms.p99
    if h_tpot is None or l_tpot is None or hi.ttft_ms.p99 is None or lo.ttft_ms.p99 is None:
        return None
    speed = (c.tpot_slo_ms is not None and h_tpot >= max(TPOT_FELT * c.tpot_slo_ms, TPOT_FLOOR_MS)
             and l_tpot <= (1 - TPOT_CUT) * h_tpot)
    h_cap = l_cap = None
    # the headroom BF16 really has: its capacity searched up to where it would not be thin (the plan's claim stops
    # at what the sizing needs, so its "20 %" can hide a replica that takes three times the peak: q12's BF16 L40S
    # takes 44 a replica for a peak of 15), then FP8's up to half as much again as BF16's, no further
    cap = capacity_up_to(c, higher, math.ceil(per * (1 + THIN_ROOM)))  # over the load a replica carries at the peak
    if cap / max(1, per) - 1 < THIN_ROOM:
        more = capacity_up_to(c, lower, math.ceil(CAPACITY_GAIN * cap))
        if more >= CAPACITY_GAIN * cap:
            h_cap, l_cap = cap, more
    if not speed and h_cap is None:
        return None
    return Fp8Gain(higher=higher.weights, lower=lower.weights, tp=lower.tp, load=per,
                   higher_tpot_ms=round(h_tpot, 1), lower_tpot_ms=round(l_tpot, 1),
                   higher_ttft_ms=round(float(hi.ttft_ms.p99), 1), lower_ttft_ms=round(float(lo.ttft_ms.p99), 1),
                   higher_capacity=h_cap, lower_capacity=l_cap, tpot_slo_ms=c.tpot_slo_ms)


def holds(g: Fp8Gain | None, chosen: Candidate | None) -> Fp8Gain | None:
    """The gain where the plan still runs the setup it was decided for (not bought or re-laid on another one)."""
    if g is None or chosen is None or (chosen.weights, chosen.tp) != (g.lower, g.tp):
        return None
    return g


__all__ = ["CAPACITY_GAIN", "TPOT_CUT", "TPOT_FELT", "TPOT_FLOOR_MS", "THIN_ROOM", "Fp8Gain", "decide", "holds"]
