"""A lower precision on fewer cards a replica that the screen set aside, sized on the predictor (issue 25, blind
re-check 11b, q26: "72B in FP8 fits one 96 GB H20, but TP1-fp8 was never tried" beside BF16 on two).

The screen (``sizing.screen``) drops a setup whose analytic first token, a P99 factor over the steady state, misses
the target even for one request. On a card of little compute that factor can decide alone: Qwen2.5-72B in FP8 on
one H20 read 5,194 ms against a 5,000 ms target at one request, where the predictor (the plan's authority for every
setup it runs) gives 4,104 ms and keeps to the target up to a dozen requests. Such a setup of the chosen GPU on fewer
cards a replica, at a precision no higher than the chosen one's, is given the requests a replica takes within the
target on the predictor (bisected, each level one cached predictor run) and goes into the layout search like any
setup the screen kept; the search's own rules then choose (fewer GPUs, then the better precision on as many).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from advisor.plan import sizing
from advisor.plan.capacity import headroom_target
from advisor.plan.capacity_probe import meets
from advisor.plan.context import Ctx
from advisor.sizing.quant import get_format


def _fewer_cards(k: sizing.Candidate, chosen: sizing.Candidate) -> bool:
    """``k`` runs the chosen GPU on fewer cards a replica, at a precision no higher than the chosen setup's (a
    higher one on fewer cards holds less: the screen's verdict on it stands)."""
    return (k.gpu.id == chosen.gpu.id and k.tp < chosen.tp
            and get_format(k.weights).bits <= get_format(chosen.weights).bits)


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


def rescued(c: Ctx, chosen: sizing.Candidate, kept: list[sizing.Candidate], near: list[sizing.Candidate],
            copy: Callable[[sizing.Candidate], sizing.Candidate],
            lay_out: Callable[[sizing.Candidate], sizing.Candidate] | None, floor: int) -> list[sizing.Candidate]:
    """The screen's near misses of the chosen GPU on fewer cards a replica (``_fewer_cards``; ``kept``: the
    screen's own setups of that GPU, not looked at again) that the predictor finds within the target, as setups the
    layout search sizes: copies with the screen's ``c_max`` set to what a replica takes on the predictor (never
    above what its KV cache holds or the engine runs at once, nor above the peak with its headroom), the replicas
    the peak needs at that, rounded to what is on sale by ``lay_out``. Only those whose replicas for the peak with
    its headroom take fewer GPUs than ``floor`` (the chosen setup's): on as many, the screen's verdict stands, as it
    does for every setup the search does not size (the chosen one is then kept: q03's TP2 on L20 stays)."""
    if c.is_batch or not c.peak:
        return []
    have = {(k.weights, k.kv_dtype, k.tp) for k in kept}
    out: list[sizing.Candidate] = []
    target = headroom_target(c)
    for k in near:
        if k.c_max or not _fewer_cards(k, chosen) or (k.weights, k.kv_dtype, k.tp) in have:
            continue
        mine = copy(k)
        engine = sizing._engine(c, k.gpu)
        memory = mine.memory.kv_tokens // max(1, c.prompt_avg + c.output_avg)
        per = within(c, mine, min(engine.max_num_seqs or memory, memory, target))
        if per < 1 or math.ceil(target / per) * k.tp >= floor:
            continue
        mine.c_max, mine.replicas, mine._peak = per, max(1, math.ceil(target / per)), c.peak
        # the screen's analytic figures at the load a replica carries, as ``sizing.screen`` sets them for its own
        tpot, ttft = sizing._steady(mine.costs, c, mine.per_replica, engine.max_num_batched_tokens or c.max_context)
        mine.tpot_p99_ms, mine.ttft_p99_ms = tpot, ttft
        mine.tokens_per_s_replica = mine.per_replica * 1000 / (tpot / sizing.P99_TPOT)
        out.append(lay_out(mine) if lay_out is not None else mine)
        have.add((k.weights, k.kv_dtype, k.tp))
    return out


__all__ = ["rescued", "within"]
