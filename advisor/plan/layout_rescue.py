"""A lower precision on fewer cards a replica that the screen set aside, sized on the predictor (issue 25, blind
re-check 11b, q26: "72B in FP8 fits one 96 GB H20, but TP1-fp8 was never tried" beside BF16 on two).

The screen (``sizing.screen``) drops a setup whose analytic first token, a P99 factor over the steady state, misses
the target even for one request. On a card of little compute that factor can decide alone: Qwen2.5-72B in FP8 on
one H20 read 5,194 ms against a 5,000 ms target at one request, where the predictor (the plan's authority for every
setup it runs) gives 4,104 ms and keeps to the target up to a dozen requests. Such a setup of the chosen GPU on fewer
cards a replica, at a precision no higher than the chosen one's, is given the requests a replica takes within the
target on the predictor (bisected, each level one cached predictor run) and goes into the layout search like any
setup the screen kept; the search's own rules then choose (fewer GPUs, then the better precision on as many).

s22-cleanup22b: every near miss the search would size (not only those on fewer cards that could need fewer GPUs),
sized on as many GPUs as the chosen setup too: q03's TP1 FP8 on one L20 (the screen's 4,577 ms at one request, the
predictor's about 3,600 within the 4,000 ms target) was left with the screen's figure beside TP2 FP8 on as many
cards; sized, the search's rules keep it (one card a replica, no all-reduce over PCIe).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from advisor.plan import sizing
from advisor.plan.capacity import headroom_target
from advisor.plan.capacity_probe import meets
from advisor.plan.context import Ctx


def _sized_by_search(k: sizing.Candidate, chosen: sizing.Candidate) -> bool:
    """``k`` runs the chosen GPU as a setup the layout search sizes (``layout_search.search``'s ``wanted``): the
    chosen precision on any number of cards, or any precision the answers allow on no more cards than the chosen
    setup (a higher precision on more cards is never looked at: it needs more GPUs for the same model)."""
    return k.gpu.id == chosen.gpu.id and (k.weights == chosen.weights or k.tp <= chosen.tp) and \
        (k.weights, k.kv_dtype, k.tp) != (chosen.weights, chosen.kv_dtype, chosen.tp)


def within(c: Ctx, k: sizing.Candidate, most: int) -> int:
    """The most requests one replica of ``k`` takes at once within the target on the predictor, up to ``most``;
    0 where one request already misses it. Bisected: the predictor's latencies grow with the load (its levels are
    read through a running maximum, ``sizing.levels_at``)."""
    if most < 1 or not meets(c, sizing.levels_at(c, k, [1])[0]):
        return 0
    lo, hi = 1, most + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(c, sizing.levels_at(c, k, [mid])[0]):
            lo = mid
        else:
            hi = mid
    return lo


def capacity(c: Ctx, k: sizing.Candidate) -> int:
    """The requests one replica of ``k`` takes at once within the target on the predictor (``within``), never above
    what its KV cache holds or the engine runs at once, nor above the peak with its headroom; 0 where one request
    misses it."""
    engine = sizing._engine(c, k.gpu)
    memory = k.memory.kv_tokens // max(1, c.prompt_avg + c.output_avg)
    return within(c, k, min(engine.max_num_seqs or memory, memory, headroom_target(c)))


def rescued(c: Ctx, chosen: sizing.Candidate, kept: list[sizing.Candidate], near: list[sizing.Candidate],
            copy: Callable[[sizing.Candidate], sizing.Candidate],
            lay_out: Callable[[sizing.Candidate], sizing.Candidate] | None) -> list[sizing.Candidate]:
    """The screen's near misses of the chosen GPU that the search sizes (``_sized_by_search``; ``kept``: the
    screen's own setups of that GPU, not looked at again) and that the predictor finds within the target, as setups
    the layout search sizes like any other: copies with the screen's ``c_max`` set to what a replica takes on the
    predictor (``capacity``), the replicas the peak needs at that, rounded to what is on sale by ``lay_out``. The
    search's own rules then decide (fewer GPUs, then the better precision on as many; "at least" for one that needs
    more). s22-cleanup22b: not only those on fewer cards that could need fewer GPUs (s22-layouts22): q03's TP1 FP8 on
    one L20 kept the screen's 4,577 ms "misses even for one request" where the predictor gives about 3,600 ms within
    the 4,000 ms target."""
    if c.is_batch or not c.peak:
        return []
    have = {(k.weights, k.kv_dtype, k.tp) for k in kept}
    out: list[sizing.Candidate] = []
    target = headroom_target(c)
    for k in near:
        if k.c_max or not _sized_by_search(k, chosen) or (k.weights, k.kv_dtype, k.tp) in have:
            continue
        mine = copy(k)
        per = capacity(c, mine)
        if per < 1:
            continue
        engine = sizing._engine(c, k.gpu)
        mine.c_max, mine.replicas, mine._peak = per, max(1, math.ceil(target / per)), c.peak
        # the screen's analytic figures at the load a replica carries, as ``sizing.screen`` sets them for its own
        tpot, ttft = sizing._steady(mine.costs, c, mine.per_replica, engine.max_num_batched_tokens or c.max_context)
        mine.tpot_p99_ms, mine.ttft_p99_ms = tpot, ttft
        mine.tokens_per_s_replica = mine.per_replica * 1000 / (tpot / sizing.P99_TPOT)
        out.append(lay_out(mine) if lay_out is not None else mine)
        have.add((k.weights, k.kv_dtype, k.tp))
    return out


__all__ = ["capacity", "rescued", "within"]
