"""The concurrency one replica takes within the target, as the plan claims it and caps the engine at
(``--max-num-seqs``): the sizing screen's c_max, never above the highest level that meets the target on the plan's
own predicted curve. One definition, read by the engine, the hybrid split and the binding constraint."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan import capacity_probe, sizing
from advisor.plan.context import Ctx

FLEET_BASIS = "fleet"  # HardwareLayout.basis of a setup laid out on the team's own GPUs (fleet.py re-exports it)


def claimed_capacity(c: Ctx, ch: sizing.Candidate) -> int:
    """Concurrency per replica the plan claims (and caps the engine at): the screen's c_max, never above the
    highest level that meets the target in the plan's own predicted curve (the analytic screen can sit above the
    level where the predicted TPOT/TTFT p99 breaks the target)."""
    if c.is_batch:
        return ch.c_max
    levels, _ = plan_curve(c, ch)
    return max(1, min(ch.c_max, _highest_level_within_slo(c, levels) or ch.per_replica))


def capacity_up_to(c: Ctx, ch: sizing.Candidate, need: int) -> int:
    """The requests one replica takes within the target on its own predicted curve, searched up to ``need`` (not the
    plan's share per replica, as ``claimed_capacity`` is): an alternative compared with the chosen setup is asked
    for the whole peak with its headroom on one replica, so a layout that whole servers split into many replicas
    does not read as a limit (round 10, q03: "H20 … takes only 6 at once" was 24 ÷ the 4 serving replicas of its
    8-card server, the search's bound, not the target's). Never above the screen's c_max (the KV cache)."""
    levels, _ = plan_curve(c, ch)
    shown = _highest_level_within_slo(c, levels)
    found = capacity_probe.refine(c, ch, levels, need)
    return max(1, min(ch.c_max, max(shown or 0, found or 0) or ch.per_replica))


def claim_to_headroom(c: Ctx, ch: sizing.Candidate) -> int:
    """What one replica of ``ch``, as laid out, takes within the target on its own curve searched up to the whole
    peak with its headroom (``capacity_up_to``): ``decode_pick`` weighs whole setups on it, and a setup it chose
    claims as much (``_decode_pick_need``), so the rule and the memo rest on one figure. A batch job: the screen's
    c_max."""
    return ch.c_max if c.is_batch or not c.peak else capacity_up_to(c, ch, headroom_target(c))


def probe_alternative(c: Ctx, ch: sizing.Candidate, need: int):
    """For "why this GPU" (``gpu_dearer``): what one replica of another setup takes within the target searched up to
    ``need`` (``capacity_up_to``), and its predicted level one request past that (what stops it)."""
    per = capacity_up_to(c, ch, need)
    return per, sizing.levels_at(c, ch, [per + 1])[0]


def engine_cap(c: Ctx, ch: sizing.Candidate) -> int:
    """The requests one replica's engine runs at once, as the serve command sets it (``--max-num-seqs``): the claim
    for a service, so "takes up to N" ≤ the cap ≤ the highest level the curve shows within the target; a batch
    job's cap is what its KV cache holds (the screen's c_max). Never the engine default: the claim once sat above
    a command capped at 256."""
    return max(1, ch.c_max if c.is_batch else claimed_capacity(c, ch))


def served_curve(c: Ctx, ch: sizing.Candidate, cap: int | None = None):
    """The curve the memo shows (levels, knee): ``plan_curve``'s levels as the engine runs them with the serve
    command's cap (``sizing.capped_curve``): a level above the cap has users waiting for a seat, as the server
    started by that command would. The search (``plan_curve``, the claim, the binding constraint) explores a replica
    at the engine's default cap: what it could take, not what the command lets it take."""
    levels, _ = plan_curve(c, ch)
    cap = engine_cap(c, ch) if cap is None else cap  # the caller's cap, read before this curve's runs (engine)
    shown = [int(lv.concurrency or 0) for lv in levels]
    # the cap is a level the memo shows (the serve command's figure must be one the table backs): a claim found on
    # an earlier layout's curve can fall between this layout's levels (a replica added for the headroom)
    return sizing.capped_curve(c, ch, shown if cap in shown or c.is_batch else sorted({*shown, cap}), cap)


def plan_curve(c: Ctx, ch: sizing.Candidate):
    """The plan's own predicted curve (levels, knee): around the load per replica, with the load each replica takes
    when the N+1 spare is down among its levels (the level the claim must reach for the spare to be real) and the
    highest level within the target between the last level shown to meet it and the first shown to miss it
    (``capacity_probe.refine``: the level the claim rests on)."""
    extra = [n for n in (one_down_load(c, ch),) if n]
    levels, knee = sizing.curve(c, ch, ch.per_replica, ch.checked, extra=extra)
    found = capacity_probe.refine(c, ch, levels, _need_per_replica(c, ch))
    breaks = _break_level(c, ch, levels)
    more = [n for n in (found, breaks) if n is not None and n not in {lv.concurrency for lv in levels}]
    if not more:
        return levels, knee
    return sizing.curve(c, ch, ch.per_replica, ch.checked, extra=[*extra, *more])


BREAK_SPAN = 8  # the curve reaches a level that breaks the target up to this many times the load per replica


def _break_level(c: Ctx, ch: sizing.Candidate, levels: Any) -> int | None:
    """The lowest level the plan has already predicted above the curve's top where the target breaks, when every
    level shown meets it: the binding sentence quotes that level ("at 37 each output token takes 102 ms"), and a
    curve that stopped at twice the load read as if nothing beyond it had been predicted (q39: the table ended at
    12 per replica). Only levels already simulated (no new predictor run), at most ``BREAK_SPAN`` × the load."""
    if not levels or not all(capacity_probe.meets(c, lv) for lv in levels):
        return None
    top, bound = max(lv.concurrency or 0 for lv in levels), BREAK_SPAN * max(1, ch.per_replica)
    for k in sorted(k for k in ch.checked if top < k <= bound):
        if not capacity_probe.meets(c, sizing.levels_at(c, ch, [k])[0]):
            return k
    return None


def _need_per_replica(c: Ctx, ch: sizing.Candidate) -> int | None:
    """The concurrency per serving replica the sizing asks for: the peak with its headroom over the replicas that
    serve, and at least the load with the spare down (None for a batch job)."""
    if c.is_batch or not c.peak:
        return None
    need = math.ceil(headroom_target(c) / max(1, serving_replicas(ch)))
    return max(need, one_down_load(c, ch) or 0, _fleet_one_down(c, ch), _decode_pick_need(c, ch), ch.per_replica)


def _fleet_one_down(c: Ctx, ch: sizing.Candidate) -> int:
    """On the team's own GPUs with no spare, the share of the peak each other replica takes with one down: the memo
    says what the setup keeps then (``spare_policy.one_down_carried``), so the claim is searched that far (session
    27's q08: 3 × TP4 910B claimed 12, the sizing share, and the memo said "keeps 24 of the 30 with one down" while
    one replica meets the target up to 17 on its own curve). 0 elsewhere."""
    lay = ch.layout
    if lay is None or lay.basis != FLEET_BASIS or lay.spare_units or ch.replicas < 2:
        return 0
    return math.ceil(c.peak / (ch.replicas - 1) - 1e-9)


def _decode_pick_need(c: Ctx, ch: sizing.Candidate) -> int:
    """Where ``decode_pick`` chose this GPU, the whole peak with its headroom: the rule weighed what one replica takes
    on its own curve up to there (``claim_to_headroom``), and the claim, the serve command's cap and the
    memo's "Why this GPU" state that figure, not one stopped at this layout's share (blind review 17, q42: "56
    against 48 requests for 24 % more" while the rule had weighed 88 against 48). 0 elsewhere."""
    from advisor.plan.decode_pick import NOTE

    return headroom_target(c) if any(n.startswith(NOTE + ":") for n in ch.notes) else 0


def one_down_load(c: Ctx, ch: sizing.Candidate) -> int | None:
    """Concurrency per replica at the peak with the spare units down; None without a spare."""
    lay = ch.layout
    # a spare replica held inside servers bought without a spare server is a spare too (own_like.NOTE)
    if lay is None or not (lay.spare_units or "spare_by_rent" in getattr(ch, "notes", ())) or not c.peak:
        return None
    return max(1, math.ceil(c.peak / serving_replicas(ch)))


def _highest_level_within_slo(c: Ctx, levels: Any) -> int | None:
    """The highest predicted concurrency whose TTFT and TPOT p99 both meet the target, below the first that
    misses (a level past a miss is not claimed); None when even the lowest misses."""
    best = None
    for lv in sorted(levels, key=lambda x: x.concurrency or 0):
        ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
        ok = (c.ttft_slo_ms is None or (ttft is not None and ttft <= c.ttft_slo_ms)) and (
            c.tpot_slo_ms is None or (tpot is not None and tpot <= c.tpot_slo_ms))
        if not ok:
            break
        best = lv.concurrency
    return best


SHRINK_STEPS = 3
CARRY_ROUNDS = 6  # the curve moves with the load per replica; a few rounds settle it (one or two in practice)


def serving_replicas(ch: sizing.Candidate) -> int:
    """Replicas that carry the load: all of them less the spare units kept for N+1."""
    lay = ch.layout
    if lay is None:
        return ch.replicas
    # bought without a spare server (own_like.NOTE): the spare is a replica the servers hold among them
    inside = 1 if "spare_by_rent" in getattr(ch, "notes", ()) else 0
    return max(1, ch.replicas - lay.spare_units * max(1, lay.unit_gpus // max(1, lay.tp)) - inside)


def headroom_target(c: Ctx) -> int:
    """Concurrency the serving replicas are sized for: the peak plus the plan's headroom (``sizing.HEADROOM``)."""
    return math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9)


def headroom(c: Ctx, ch: sizing.Candidate, claimed: int | None = None) -> float:
    """The headroom the plan really has at the peak, as the policy states it ("plan for 20 % more than the peak"):
    what the replicas that serve take within the target on the plan's own curve (the N+1 spare held back for a
    failure, not counted) over the peak, less one. It read 29 % with the spare counted where one replica down left
    5 % (q11), and 17 % for a plan sized exactly to the 20 % policy (1 − peak ÷ capacity)."""
    cap = claimed if claimed is not None else claimed_capacity(c, ch)
    return cap * serving_replicas(ch) / max(c.peak, 1) - 1


def carry_peak(c: Ctx, ch: sizing.Candidate, relayout: Callable[[int], object]) -> bool:
    """Size the replicas from the claimed capacity, so the peak is really carried, with the plan's headroom: the
    replicas that serve (the N+1 spare left out) × the concurrency one replica takes within the target on the plan's
    own predicted curve ≥ the peak × (1 + ``sizing.HEADROOM``). ``relayout(load_replicas)`` rounds the setup to
    whole units again (spares added back). The predictor's check at one load per replica could pass while the curve
    the memo shows misses at a lower level (a short sample's p99): "meets the target at the peak of 40" sat beside
    4 a replica within the target on 5 replicas; and a plan sized to the bare peak shipped with 0 % headroom (q10,
    q17, q33). The replicas the bare peak needs are kept on the candidate (``peak_replicas``): a fleet that cannot
    give the headroom, or a budget, falls back to them and says so. False when the peak itself is not carried."""
    if c.is_batch or not c.peak:
        return True
    target = headroom_target(c)
    for _ in range(CARRY_ROUNDS):
        claimed = claimed_capacity(c, ch)
        _note_peak_replicas(c, ch, claimed)
        if _carries(c, ch, claimed, target):
            _shrink(c, ch, relayout, target)
            return True
        if ch.replicas >= sizing.MAX_REPLICAS:
            return _carries(c, ch, claimed, c.peak)
        need = max(_load_replicas(ch) + 1, math.ceil(target / max(1, claimed)))
        relayout(min(sizing.MAX_REPLICAS, need))
    claimed = claimed_capacity(c, ch)
    _note_peak_replicas(c, ch, claimed)
    return _carries(c, ch, claimed, c.peak)


def _shrink(c: Ctx, ch: sizing.Candidate, relayout: Callable[[int], object], target: int) -> None:
    """Step back while one replica fewer still carries ``target``: the smallest setup that meets the target with
    the headroom. The screen's analytic count can be more than the predictor's curve needs, and a noisy level on
    the way up can add more replicas than the settled curve needs (q11: a TP2 setup grew to 8 replicas where 6
    carry the peak with its headroom). A few steps at most (each is a curve at a new load)."""
    for _ in range(SHRINK_STEPS):
        load = _load_replicas(ch)
        # one replica fewer is tried only where the claim as it stands would still carry the target on it: each try
        # is a curve at a new load (the predictor is most of a plan's time)
        if load <= 1 or (serving_replicas(ch) - 1) * claimed_capacity(c, ch) < target:
            return
        relayout(load - 1)
        claimed = claimed_capacity(c, ch)
        if not _carries(c, ch, claimed, target):
            relayout(load)
            _note_peak_replicas(c, ch, claimed_capacity(c, ch))
            return
        _note_peak_replicas(c, ch, claimed)


def _note_peak_replicas(c: Ctx, ch: sizing.Candidate, claimed: int) -> None:
    """The serving replicas the bare peak needs (no headroom) at the claimed capacity."""
    ch.peak_replicas = max(1, math.ceil(c.peak / max(1, claimed)))  # type: ignore[attr-defined]


def _load_replicas(ch: sizing.Candidate) -> int:
    return ch.layout.load_replicas if ch.layout is not None else ch.replicas


def _carries(c: Ctx, ch: sizing.Candidate, claimed: int, target: int | None = None) -> bool:
    """The replicas that serve carry the peak at the claimed capacity; with two regions, so does the load the layout
    was sized for: a region's share of it is rounded up from that load (node_shapes.layout), so load × claimed ≥ the
    peak carries each region's share there with its own spare down (q34: 40 % of 60 in Singapore on one replica of
    20). One region: the replicas whole units add serve too. ``target``: the concurrency to carry (the peak when
    not given)."""
    want = c.peak if target is None else target
    if serving_replicas(ch) * claimed < want:
        return False
    two = ch.layout is not None and ch.layout.regions > 1
    return not two or _load_replicas(ch) * claimed >= want
