"""One card a replica for a live service whose replica split over PCIe cards runs close to its TPOT target at
failover (eleventh blind review: q13 "2 × L4 at TP2 for a 14B fp8 model is an odd choice over one L40S a replica; the
25 % cost rule is doing the engineering here", "TPOT hits 92 ms at 40 concurrent users in failover"; q34 the same).

The single-card rule (``single_card``) pays up to 25 % more for one card a replica on cost and operations alone. Where
the users wait on each token, the split replica's own figure decides more: with the N+1 spare down each serving
replica takes the peak's share (``capacity.one_down_load``), and a P99 TPOT within ``near()`` of the target there
leaves no room for a long answer or a slower route. A setup of the same standing on another GPU that serves a replica
from one card (or an NVLink group), meets the target on the predictor, keeps its own one-down P99 TPOT outside that
same margin and costs at most ``premium()`` more an hour is chosen instead; the memo says both figures and both
prices (``GpuChoice.latency_pick``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import pick_note, single_card, sizing
from advisor.plan.capacity import one_down_load
from advisor.plan.data import gpu_choice_facts
from advisor.plan.sizing import Candidate

MAX_CHECKED = 2  # single-card setups checked on the predictor for this rule (each is a few simulated levels)
NOTE = "latency_over"  # a candidate note: ``latency_over:<gpu id>:<tp>:<weights>:<gpus>`` the setup it was chosen over


def premium() -> float:
    """The premium one card a replica may cost over a split replica near its TPOT target at failover (a policy)."""
    return float(gpu_choice_facts()["single_card_latency"]["premium"])


def near() -> float:
    """How close to the TPOT target (a share of it) the split replica's failover figure counts as near."""
    return float(gpu_choice_facts()["single_card_latency"]["near"])


def failover_tpot(c: Any, k: Candidate) -> tuple[int, float] | None:
    """(requests a serving replica takes with the spare down, their predicted P99 TPOT ms); None without a spare or
    a prediction."""
    n = one_down_load(c, k)
    if not n or not k.checked:
        return None
    tpot = sizing.levels_at(c, k, [n])[0].tpot_ms.p99
    return (n, float(tpot)) if tpot is not None else None


def applies(c: Any, chosen: Candidate) -> tuple[int, float] | None:
    """The chosen setup's failover figure where the rule looks further: a live service (not a batch job) with a TPOT
    target, a replica split over PCIe cards and its one-down P99 TPOT within ``near()`` of the target."""
    if c.is_batch or c.tpot_slo_ms is None or not single_card.over_pcie(chosen):
        return None
    down = failover_tpot(c, chosen)
    if down is None or down[1] < (1.0 - near()) * c.tpot_slo_ms:
        return None
    return down


def prefer(c: Any, chosen: Candidate, pool: list[Candidate], *, same_standing: Callable[[Candidate], bool],
           hourly: Callable[[Candidate], float], verify: Callable[[Candidate], bool]) -> Candidate | None:
    """The setup to choose instead of ``chosen``, or None: the cheapest of ``pool`` (the screen's ranked setups) on
    another GPU that serves a replica from one card or an NVLink group, of the same standing, checked on the predictor
    with ``verify(k)`` (which sizes it), at most ``premium()`` dearer an hour at that size and with its one-down P99
    TPOT outside ``near()`` of the target. At most ``MAX_CHECKED`` setups are checked."""
    if applies(c, chosen) is None:
        return None
    mine = hourly(chosen)
    limit = mine * (1.0 + premium()) + 1e-9

    def fits(k: Candidate) -> bool:
        return k is not chosen and k.gpu.id != chosen.gpu.id and not single_card.over_pcie(k) and same_standing(k) \
            and hourly(k) <= limit

    picks: list[Candidate] = []
    for k in [k for k in pool if fits(k)][:MAX_CHECKED]:
        if not verify(k) or not fits(k):  # sized on the predictor: it may need more replicas than the screen said
            continue
        down = failover_tpot(c, k)
        if down is not None and down[1] < (1.0 - near()) * c.tpot_slo_ms:
            picks.append(k)
    return min(picks, key=hourly) if picks else None


def clear(c: Any, k: Candidate) -> bool:
    """``k``'s one-down P99 TPOT lies outside ``near()`` of the target (the margin the rule chose its GPU for)."""
    down = failover_tpot(c, k) if c.tpot_slo_ms is not None else None
    return down is not None and down[1] < (1.0 - near()) * c.tpot_slo_ms


def decided(k: Candidate) -> bool:
    """This rule chose ``k``'s GPU (its note is on it)."""
    return any(n.startswith(NOTE + ":") for n in k.notes)


def kept(c: Any, a: Candidate, b: Candidate) -> dict[str, Any] | None:
    """Between two layouts of the GPU this rule chose, on as many cards at the same cost, the one that keeps the
    failover margin where only one does (the layout search would otherwise keep the higher precision and give the
    margin back: q13's L40S in BF16 read 73 ms of 100 with one replica down, FP8 well under it): {"keep", "other",
    "tpot", "other_tpot", "load", "target"}; None where both or neither keep it."""
    ca, cb = clear(c, a), clear(c, b)
    if ca == cb:
        return None
    keep, other = (a, b) if ca else (b, a)
    mine, theirs = failover_tpot(c, keep), failover_tpot(c, other)
    assert mine is not None and theirs is not None  # clear() read both
    return {"keep": keep, "other": other, "weights": keep.weights, "other_weights": other.weights, "tp": other.tp,
            "load": mine[0], "tpot": round(mine[1], 1), "other_load": theirs[0], "other_tpot": round(theirs[1], 1),
            "target": round(c.tpot_slo_ms), "near_pct": round(near() * 100)}


def mark(pick: Candidate, over: Candidate) -> None:
    """Note on ``pick`` the setup it was chosen over (the memo finds it among the ranked setups by these keys)."""
    pick.notes[:] = [n for n in pick.notes if not n.startswith(NOTE + ":")]
    pick.notes.append(f"{NOTE}:{over.gpu.id}:{over.tp}:{over.weights}:{over.total_gpus}")


def carry(src: Candidate, dst: Candidate) -> None:
    """``dst``, another layout of ``src``'s GPU, keeps the note of why that GPU was chosen."""
    pick_note.carry(NOTE, src, dst)


def passed_over(chosen: Candidate, setups: list[Candidate]) -> Candidate | None:
    """The split setup ``chosen`` was picked over by this rule, found among ``setups``; None when it did not decide."""
    note = next((n for n in chosen.notes if n.startswith(NOTE + ":")), None)
    if note is None:
        return None
    _, gid, tp, weights, gpus = note.split(":", 4)
    return next((k for k in setups if (k.gpu.id, str(k.tp), k.weights, str(k.total_gpus)) == (gid, tp, weights, gpus)),
                None)


def clause(c: Any, chosen: Candidate, other: Candidate, hourly: Callable[[Candidate], float]) -> dict[str, Any] | None:
    """What the memo says: the premium and its limit, each setup's one-down load and P99 TPOT, and the target; None
    where a figure is missing (nothing is said without both)."""
    mine, theirs = failover_tpot(c, chosen), failover_tpot(c, other)
    if mine is None or theirs is None or hourly(other) <= 0:
        return None
    return {"more_pct": round((hourly(chosen) / hourly(other) - 1.0) * 100), "limit_pct": round(premium() * 100),
            "load": mine[0], "tpot": round(mine[1], 1), "other_load": theirs[0], "other_tpot": round(theirs[1], 1),
            "target": round(c.tpot_slo_ms), "near_pct": round(near() * 100)}


__all__ = ["NOTE", "applies", "carry", "clause", "clear", "decided", "failover_tpot", "kept", "mark", "near", "passed_over", "prefer", "premium"]
