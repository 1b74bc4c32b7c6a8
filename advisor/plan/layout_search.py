"""Every tensor-parallel size tried on the chosen GPU, and why the plan runs the one it runs (issue 25: "GPU choice
as an engineer makes it: the smallest setup that meets the target with headroom").

The screen (``sizing.screen``) tries every TP size the engine allows on the GPU (1, 2, 4, 8 within a server) at
every precision the answers allow (4-bit where accepted), but the plan checked only the cheapest of them on the
predictor and the memo named only the winner, so an expert read "4 × TP4" and asked why not TP2 (q04, q11, q33).
Here the chosen GPU's setups are sized as the chosen one is (``verify``: the predictor's check and the replicas
for the peak plus the plan's headroom on the plan's own curve), at the chosen precision for every TP size and at
the chosen TP size for every other precision; the one that needs the fewest GPUs for the peak with its headroom
wins, and the memo says in one sentence what each of the others missed or needed. At the same cost and count the
better precision that carries the peak with the plan's headroom is kept, whichever the screen ranked first (its
ranking prefers the setup that carries more): a better precision that may need as few GPUs is therefore always
sized (s20-precision20, q02), and the memo says what the precision set aside would give on those cards
(``precision_tie``).

Fewer cards a replica (s22-layouts22, re-check 11b, q26): the chosen GPU's setups on fewer cards a replica at a
precision no higher than the chosen one's are sized too, the screen's near misses among the setups sized where the
predictor keeps to the target (``layout_rescue``; s22-cleanup22b: on as many GPUs as the chosen one too, q03), and
"Layouts tried" names a lower precision on fewer cards and a higher one on the fewest cards past the chosen TP size
that were sized.

Costs: at most ``MAX_SIZED`` setups are sized, each a few predictor levels, cached like every level
(``sizing.simulate_at``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from advisor.plan import fp8_gain, gpu_choice, latency_pick, layout_rescue, one_request, sizing, spare_policy
from advisor.plan.capacity import claimed_capacity, headroom, one_down_load, served_curve, serving_replicas
from advisor.plan.context import Ctx
from advisor.plan.first_token_tie import FirstTokenTie, decide, holds
from advisor.plan.fp8_gain_reason import Fp8Gain
from advisor.plan.kv_limit import kv_short
from advisor.plan.latency_place import ttft_target_given
from advisor.plan.precision_tie import other_precision_speed
from advisor.plan.result import LayoutSearch, LayoutTry
from advisor.plan.single_card import over_pcie
from advisor.sizing import TP_DEGREES
from advisor.sizing.links import fast_link
from advisor.sizing.quant import get_format

BUDGET_KEYS = ("plan.layout25.short.budget", "plan.headroom19.short.budget_servers")  # the budget's sentences
MAX_SIZED = 6  # setups sized on the predictor besides the chosen one
ONE_NODE = "fleet"  # the region ``fleet.fits_free`` is asked about: a plan on the fleet is one node (never two)
GIB = 1024**3

def _key(k: sizing.Candidate) -> tuple[str, str, int]:
    return (k.weights, k.kv_dtype, k.tp)


def _bits(k: sizing.Candidate) -> float:
    """The weights' nominal bits: bf16 16, fp8 8, 4-bit 4 (advisor.sizing.quant)."""
    return get_format(k.weights).bits


def _better(k: sizing.Candidate, than: sizing.Candidate) -> bool:
    """``k``'s weights are of a higher precision than ``than``'s (more bits: bf16 over fp8 over 4-bit)."""
    return _bits(k) > _bits(than)


def _lower(weights: str, than: str) -> bool:
    """``weights`` has fewer bits than ``than``: a lower precision that may hold the model on fewer cards."""
    return get_format(weights).bits < get_format(than).bits


def _precision(c: Ctx, k: sizing.Candidate) -> float:
    """The tie-break on as many GPUs at the same cost, lower first: the higher precision (fewer bits given up),
    where it carries the peak with the plan's headroom policy (``sizing.HEADROOM``, rounded as the memo shows it);
    one that carries it with less (the replica limit) ranks as no precision at all, after every setup that has it."""
    if c.peak:
        # the claim as the memo will show it: the curve the serve command runs, capped at the claim, can put the
        # claim's own level above the target (q36: BF16 kept for a claim of 145 a replica, 45 % headroom, where the
        # memo's curve then claimed 116, 16 %)
        served_curve(c, k)
        if round(headroom(c, k, claimed_capacity(c, k)) * 100) < round(sizing.HEADROOM * 100):
            return 0.0
    return -_bits(k)


def _ttft_at_peak(c: Ctx, k: sizing.Candidate) -> float | None:
    """The predicted P99 TTFT of ``k`` at the peak's share a replica (with the spare down where it has one: what
    each serving replica then takes); None without a TTFT target or a prediction."""
    if not c.peak or not c.ttft_slo_ms:
        return None
    n = one_down_load(c, k) or max(1, math.ceil(c.peak / max(1, serving_replicas(k)) - 1e-9))
    got = sizing.levels_at(c, k, [n])[0].ttft_ms.p99
    return float(got) if got is not None else None


def _ttft_tight(c: Ctx, k: sizing.Candidate) -> bool:
    """``k``'s first token at the peak keeps less than the plan's headroom to the target: its P99 TTFT above
    target / (1 + ``sizing.HEADROOM``). The headroom is sized on concurrency, but a layout whose P99 TTFT already
    sits at 92 % of the target at its peak share has none left for a longer prompt or a slower day (blind review
    16, q03: TP1 FP8 on one L20 a replica at 3,584 ms with one request against 4,000, kept over TP2 on as many
    cards, whose split prefill brings it to 3,156 ms at its own peak share). On as many GPUs at the same cost the
    layout that keeps it is preferred."""
    got = _ttft_at_peak(c, k)
    return got is not None and c.ttft_slo_ms is not None and got > c.ttft_slo_ms / (1 + sizing.HEADROOM) + 1e-9


def _ttft_room(c: Ctx, best: sizing.Candidate, same: list[sizing.Candidate]) -> dict | None:
    """The figures for the memo where ``best`` was kept over a layout of ``same`` (as many GPUs, the same cost and
    precision) for its first token's headroom at the peak (``_ttft_tight``); None where that did not decide."""
    if _ttft_tight(c, best) or not c.ttft_slo_ms:
        return None
    other = next((k for k in same if _ttft_tight(c, k)), None)
    if other is None:
        return None
    def load(k: sizing.Candidate) -> int:
        return one_down_load(c, k) or max(1, math.ceil(c.peak / max(1, serving_replicas(k)) - 1e-9))
    return {"tp": best.tp, "ttft": _ttft_at_peak(c, best), "other_tp": other.tp,
            "other_ttft": _ttft_at_peak(c, other), "load": load(best), "other_load": load(other),
            "target": round(c.ttft_slo_ms), "room": round(100 * sizing.HEADROOM)}


def _kv_room(c: Ctx, best: sizing.Candidate, same: list[sizing.Candidate]) -> dict | None:
    """The figures for the memo where ``best`` was kept over a layout of ``same`` (as many GPUs, the same cost and
    precision) because its KV cache holds the requests a replica carries at the peak at the full context and the
    other's does not (``kv_limit.kv_short``); None where that did not decide."""
    if kv_short(c, best):
        return None
    other = next((k for k in same if kv_short(c, k)), None)
    if other is None:
        return None
    return {"tp": best.tp, "other_tp": other.tp, "context": c.max_context, "full_fit": best.memory.max_concurrency_kv,
            "load": best.per_replica, "other_fit": other.memory.max_concurrency_kv, "other_load": other.per_replica}


def _load(k: sizing.Candidate) -> tuple[int, int]:
    """(serving replicas, their GPUs): the replicas that carry the peak with the headroom, no spare."""
    n = serving_replicas(k)
    return n, n * k.tp


def search(c: Ctx, chosen: sizing.Candidate, ok: list[sizing.Candidate], near: list[sizing.Candidate],
           verify: Callable[[sizing.Candidate], bool], rank: Callable[[sizing.Candidate], tuple],
           copy: Callable[[sizing.Candidate], sizing.Candidate], rtt_ms: int = 0,
           lay_out: Callable[[sizing.Candidate], sizing.Candidate] | None = None
           ) -> tuple[sizing.Candidate, LayoutSearch, list[sizing.Candidate]]:
    """The chosen GPU's setups sized like the chosen one; (the setup that needs the fewest GPUs for the peak with the
    plan's headroom — the chosen one unless another needs fewer —, the search for the memo, the setups sized that
    meet the target: a budget may call for one of them sized leaner). ``verify(k)`` sizes a
    candidate in place on the predictor (True when it meets the target); ``rank`` is the engine's ranking key;
    ``copy`` copies a candidate (the ranked list's own are left as they are); ``rtt_ms``: the slowest round trip on
    file that the region adds to every first token (``first_token_tie.round_trip_ms``); ``lay_out``: rounds a setup
    the screen left out to what is on sale, as the screen's own were (``gpu_choice.apply_layout``)."""
    gpu = chosen.gpu
    same_gpu = [k for k in ok if k.gpu.id == gpu.id and k is not chosen and _key(k) != _key(chosen)]
    # fewer cards a replica at another precision the answers allow (the smallest setup, issue 25: q26's FP8 on one
    # H20 beside BF16 on two), the screen's near misses among them sized on the predictor (``layout_rescue``)
    saved = layout_rescue.rescued(c, chosen, same_gpu, near, copy, lay_out)
    same_gpu += saved
    wanted = [k for k in same_gpu if k.weights == chosen.weights or k.tp <= chosen.tp]
    wanted.sort(key=rank)
    # a better precision at the chosen TP size is always looked at (past the cap too): on as many cards it is kept
    better = [k for k in wanted[MAX_SIZED:] if _better(k, chosen) and k.tp == chosen.tp]
    sized: dict[tuple[str, str, int], tuple[sizing.Candidate, bool]] = {_key(chosen): (chosen, True)}
    bounds: dict[tuple[str, str, int], int] = {}
    stops: dict[tuple[str, str, int], dict] = {}  # a near miss on fewer cards a replica: what stops it (``_stops``)
    floor = _load(chosen)[1]
    for k in wanted[:MAX_SIZED] + better:
        # no claim exceeds the screen's c_max: the peak with its headroom needs at least this many GPUs; one that
        # cannot need fewer than the chosen setup is not sized on the predictor (the predictor is most of a plan's
        # time), and the memo says "at least" — except a better precision that may need as few: on the same GPUs
        # it is the one kept, so it is sized (q02 served a 7B model in FP8 on one 24 GB card where BF16 fits it,
        # the memo saying "TP1 bf16 would need at least 1 GPU" beside the chosen 1, never sized)
        least = math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9) / max(1, k.c_max)) * k.tp
        # a near miss the predictor found within the target (``layout_rescue``) is sized on as many GPUs too: the
        # screen never ranked it against the chosen one, so the rules below decide (q03: TP1 FP8 on 4 L20s, no
        # all-reduce over PCIe, beside TP2 FP8 on as many; s22-cleanup22b)
        if least > floor or (least == floor and not _better(k, chosen) and not any(k is x for x in saved)):
            bounds[_key(k)] = least
            if k.tp < chosen.tp and any(k is x for x in saved):
                stops[_key(k)] = _stops(c, k)
            continue
        mine = copy(k)
        sized[_key(k)] = (mine, verify(mine))

    def cost(k: sizing.Candidate) -> tuple:  # the whole setup's hourly cost, then the GPUs the load needs
        return (round(k.price_mid * k.total_gpus, 6), _load(k)[1])

    best = chosen
    tie: FirstTokenTie | None = None
    gain: Fp8Gain | None = None
    margin: dict | None = None  # the failover figures that kept a layout (latency_pick.kept)
    for k, met in sized.values():
        if not met or k is chosen:
            continue
        # cheaper wins; at the same cost and GPUs the higher precision does (q26/q32 kept fp8 over a bf16 layout on
        # as many cards and called fp8 "the better precision": quality given up for nothing), then one card a
        # replica over a replica split across PCIe cards (no all-reduce over PCIe on every layer, one failure
        # domain a replica: ninth blind review, q31 chose TP2 on L20 beside a TP1 on the same 8 GPUs), then the
        # ranking
        if cost(k) != cost(best):
            if cost(k) < cost(best):
                best, tie, gain, margin = k, None, None, None
            continue
        # under a tight first-token target the answers set, a lower precision whose first token keeps to it where
        # the better one's does not is kept (round 10, q43/q09: first_token_tie); else the better precision
        # the GPU chosen for a live service's TPOT with one replica down (``latency_pick``): the layout that keeps
        # that margin, where only one of the two does (eleventh review, q13: BF16 on the L40S gave it back)
        held = latency_pick.kept(c, k, best) if latency_pick.decided(chosen) else None
        if held is not None:
            best, tie, gain = held["keep"], None, None
            margin = {x: v for x, v in held.items() if x not in ("keep", "other")}
            continue
        fast = _first_token(c, k, best, rtt_ms)
        if fast is not None:
            best = k if fast.lower == k.weights else best
            tie, gain, margin = fast, None, None
            continue
        # where the answers accept FP8 and it gives materially more on the same cards (a P99 TPOT a quarter lower
        # where BF16's is one users feel, or half as many requests again a replica where BF16's headroom is thin),
        # FP8 is kept (eleventh blind review, q32/q42/q38/q14: fp8_gain); a small gain keeps the better precision
        more = _fp8_gain(c, k, best)
        if more is not None:
            best = k if more.lower == k.weights else best
            tie, gain, margin = None, more, None
            continue
        # a layout whose KV cache holds the peak's requests a replica at the full context before one that does
        # not, then one card a replica (blind review 18, q31: TP1 FP8 on one L20 held 4 full-context requests
        # against the 5 a replica carried, beside TP2 on the same 8 cards holding all of its own)
        if (_precision(c, k), _ttft_tight(c, k), kv_short(c, k), over_pcie(k), rank(k)) < \
                (_precision(c, best), _ttft_tight(c, best), kv_short(c, best), over_pcie(best), rank(best)):
            best, tie, gain, margin = k, None, None, None
    same = [k for k, met in sized.values() if met and k is not best and cost(k) == cost(best)
            and _precision(c, k) == _precision(c, best)]
    room = _ttft_room(c, best, same)
    kv_room = None if room is not None else _kv_room(c, best, [k for k in same if not _ttft_tight(c, k)])
    if best is not chosen:  # the kept precision's other TP sizes, said as the chosen one's were ("at least")
        for k in same_gpu:
            if k.weights == best.weights and _key(k) not in sized and _key(k) not in bounds:
                least = math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9) / max(1, k.c_max)) * k.tp
                if least >= _load(best)[1]:
                    bounds[_key(k)] = least
    tries = _tries(c, best, sized, near, bounds, stops)
    meeting = [k for k, ok_ in sized.values() if ok_]
    return best, LayoutSearch(gpu=gpu.id, gpu_name=gpu.name, tries=tries, pcie=not fast_link(gpu),
                              first_token=tie, fp8_gain=gain, failover_tpot=margin, ttft_room=room,
                              kv_room=kv_room), meeting


def _first_token(c: Ctx, a: sizing.Candidate, b: sizing.Candidate, rtt_ms: int) -> FirstTokenTie | None:
    """The tie between two setups on as many GPUs at the same cost decided by the first token, for the lower
    precision of the two, where it carries the peak with the plan's headroom; None: the precision tie decides."""
    if _bits(a) == _bits(b) or ttft_target_given(c) is None:  # no tight target the answers set: nothing to weigh
        return None
    lower, higher = (a, b) if _bits(a) < _bits(b) else (b, a)
    if _precision(c, lower) == 0.0:  # short of the headroom: never kept over one that has it
        return None
    return decide(c, lower, higher, rtt_ms)


def _fp8_gain(c: Ctx, a: sizing.Candidate, b: sizing.Candidate) -> Fp8Gain | None:
    """The tie between two setups on as many GPUs at the same cost decided for FP8 by what it gives on those cards
    (``fp8_gain``), where it carries the peak with the plan's headroom; None: the precision tie decides."""
    if _bits(a) == _bits(b) or a.tp != b.tp:  # its figures are a replica's: two TP sizes' replicas are not alike
        return None
    lower, higher = (a, b) if _bits(a) < _bits(b) else (b, a)
    if _precision(c, lower) == 0.0:  # short of the headroom: never kept over one that has it
        return None
    return fp8_gain.decide(c, lower, higher)


def _stops(c: Ctx, k: sizing.Candidate) -> dict:
    """What stops a replica of ``k`` (a near miss sized on the predictor, ``layout_rescue``) past the requests it
    takes within the target: the target one more request misses and its P99 there (blind review 20, q17: FP8 32B
    fits one 48 GB L20, the memo split it TP2 over PCIe without saying why; one card keeps the 4,000 ms first
    token only up to 1 request, 4,009 ms at 2). {} where the next request misses neither (the KV cache or the
    engine's cap stops it)."""
    lv = sizing.levels_at(c, k, [k.c_max + 1])[0]
    ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    if c.ttft_slo_ms is not None and ttft is not None and ttft > c.ttft_slo_ms:
        return {"within": k.c_max, "missed": "ttft", "value": round(ttft), "target": c.ttft_slo_ms}
    if c.tpot_slo_ms is not None and tpot is not None and tpot > c.tpot_slo_ms:
        return {"within": k.c_max, "missed": "tpot", "value": round(tpot, 1), "target": c.tpot_slo_ms}
    return {}


def _tries(c: Ctx, best: sizing.Candidate, sized: dict, near: list[sizing.Candidate],
           bounds: dict[tuple[str, str, int], int], stops: dict[tuple[str, str, int], dict] | None = None
           ) -> list[LayoutTry]:
    gpu = best.gpu
    formats = [w for w in sizing.allowed_formats(c, gpu)]
    near_by = {_key(k): k for k in near if k.gpu.id == gpu.id}
    out: list[LayoutTry] = []
    for weights, kv in formats:
        held = False  # a higher precision: up to the first TP size past the chosen one that holds it
        for tp in TP_DEGREES:
            if tp > gpu.max_gpus_per_node:
                break
            higher_past = tp > best.tp and _lower(best.weights, weights) and not held
            if weights != best.weights and not higher_past and (
                    tp > best.tp or (tp < best.tp and not _lower(weights, best.weights))):
                continue  # other precisions: at the chosen TP size, a lower one on fewer cards a replica, and a
                # higher one on the fewest cards past the chosen TP size that hold it (FP8 on one H20 beside BF16 on two)
            key = (weights, kv, tp)
            if higher_past and (key in sized or key in bounds):  # a near miss there says nothing new (q03)
                held = True
            elif higher_past:
                continue
            if c.model.num_attention_heads % tp:
                # not said for a TP size past every card the plan has: a replica that large was never in question
                # (blind review 20, q02: "TP8 layouts are irrelevant noise for a single-card workstation")
                if tp <= best.total_gpus:
                    out.append(LayoutTry(tp=tp, weights=weights, outcome="heads"))
                continue
            if key in sized:
                k, met = sized[key]
                out.append(_sized(c, k, met, k is best))
                if met and k is not best and _same_price(k, best) and _ttft_tight(c, k) and not _ttft_tight(c, best):
                    # at the same price (whole servers: q26's TP1 fp8 on the same 2 servers as TP2), its GPU count
                    # does not say why it was passed over: its first token at the peak is said beside its larger
                    # headroom (review 27, q26: "say why TP2 wins (TTFT?)")
                    out[-1].ttft_tight = {"ttft": f"{_ttft_at_peak(c, k) or 0:,.0f}", "target": f"{c.ttft_slo_ms or 0:,.0f}",
                                          "room": round(100 * sizing.HEADROOM)}
                continue
            if key in bounds:
                out.append(LayoutTry(tp=tp, weights=weights, outcome="more", gpus=bounds[key],
                                     **(stops or {}).get(key, {})))
                continue
            if key in near_by:
                out.append(_missed(c, near_by[key]))
                continue
            fit = no_fit(c, gpu, weights, kv, tp)
            if fit is not None:
                out.append(fit)
    # the same setup (weights, TP) once: the KV-cache format variants of a precision collapse to its best
    seen: dict[tuple[str, int], LayoutTry] = {}
    order = {"chosen": 0, "meets": 1, "more": 1.5, "predictor": 2, "tpot": 3, "ttft": 4, "kv": 5, "weights": 6, "heads": 7}
    for t in out:
        prev = seen.get((t.weights, t.tp))
        if prev is None or (order[t.outcome], t.gpus or 0) < (order[prev.outcome], prev.gpus or 0):
            seen[(t.weights, t.tp)] = t
    return sorted(seen.values(), key=lambda t: (t.weights != best.weights, t.tp, t.weights))


def _same_price(a: sizing.Candidate, b: sizing.Candidate) -> bool:
    """The two whole setups cost the same an hour (``search``'s first comparison)."""
    return round(a.price_mid * a.total_gpus, 6) == round(b.price_mid * b.total_gpus, 6)


def _sized(c: Ctx, k: sizing.Candidate, met: bool, chosen: bool) -> LayoutTry:
    if not met:
        return LayoutTry(tp=k.tp, weights=k.weights, outcome="predictor")
    n, gpus = _load(k)
    claimed = claimed_capacity(c, k)
    return LayoutTry(tp=k.tp, weights=k.weights, outcome="chosen" if chosen else "meets", gpus=gpus, replicas=n,
                     headroom=round(headroom(c, k, claimed), 3), **_rounded(c, k, gpus, claimed))


def _rounded(c: Ctx, k: sizing.Candidate, gpus: int, claimed: int) -> dict:
    """On whole servers, the GPUs the peak with its headroom needs at the claimed capacity before they are rounded
    up to whole servers (``LayoutTry.load_gpus``: the same claim as the headroom said beside it)."""
    lay, need = k.layout, headroom_gpus(c, k, claimed)
    if lay is None or not lay.whole_server or need >= gpus:
        return {}
    return {"load_gpus": need, "unit_gpus": lay.unit_gpus}


def _missed(c: Ctx, k: sizing.Candidate) -> LayoutTry:
    """A setup that holds the context but that the screen set aside as missing the target even for one request, said
    with the predictor's figure at one request (``one_request.miss``, as the latency table reads it). Where the
    predictor finds one request within the target, the screen's figure is not said (s22-cleanup22b: q03's "4,577 ms"
    where the predictor gives about 3,600): such a setup the search did not size is said by the GPUs the peak with its
    headroom needs at what a replica takes on the predictor ("at least"), else as missing on the predictor."""
    got = one_request.miss(c, k)
    if got is not None:
        value = round(got.value) if got.what == "ttft" else round(got.value, 1)
        return LayoutTry(tp=k.tp, weights=k.weights, outcome=got.what, value=value, target=got.target)
    per = layout_rescue.capacity(c, k)
    if per < 1:
        return LayoutTry(tp=k.tp, weights=k.weights, outcome="predictor")
    gpus = math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9) / per) * k.tp
    return LayoutTry(tp=k.tp, weights=k.weights, outcome="more", gpus=gpus)


def no_fit(c: Ctx, gpu, weights: str, kv: str, tp: int) -> LayoutTry | None:
    """Why a setup the screen dropped does not hold: the weights, or one full-context request's KV cache."""
    engine = sizing._engine(c, gpu)
    mem = sizing._memory(c, gpu, weights, kv, tp, engine)
    if not mem.weights_fit:
        return LayoutTry(tp=tp, weights=weights, outcome="weights" if mem.weights_bytes > mem.engine_budget_bytes else "kv",
                         value=round(mem.weights_bytes / GIB, 1),
                         target=round(mem.engine_budget_bytes / GIB, 1))
    if mem.kv_tokens < c.max_context:
        return LayoutTry(tp=tp, weights=weights, outcome="kv")
    return None


def headroom_gpus(c: Ctx, ch: sizing.Candidate, claimed: int) -> int:
    """GPUs the serving replicas would need for the policy's headroom at the claimed capacity."""
    return math.ceil(math.ceil(c.peak * (1 + sizing.HEADROOM) - 1e-9) / max(1, claimed)) * ch.tp


def short_reason(f, c: Ctx, ch: sizing.Candidate, claimed: int, room: int) -> dict | None:
    """Why the plan has less headroom than the policy (``sizing.HEADROOM``), as one translatable sentence; None
    when it has the policy's headroom (rounded as the memo shows it). The cause is ``short_cause``'s: the budget
    (the headroom dropped to stay within it: the engine's note; on whole servers, the servers it takes said too),
    the team's fleet (the headroom is given from free GPUs only, never bought), the replica limit, or none of
    them: then the sentence states the GPUs needed and laid out, no reason (an 8-GPU plan once blamed the limit of
    64 replicas for a headroom that needed 3)."""
    policy = round(sizing.HEADROOM * 100)
    if c.is_batch or not c.peak or room >= policy:
        return None
    need = headroom_gpus(c, ch, claimed)
    base = {"policy": policy, "room": room, "need": need}
    cause = short_cause(c, ch, claimed)
    if cause == "budget":
        note = _budget_note(ch) or ("0", "0")
        line_high, line = _line_in_total(f)
        out = {"tr": BUDGET_KEYS[0], **base, "extra": f"{float(note[0]):,.0f}", "line": line,
               "total": f"{float(note[1]) + line_high:,.0f}", "budget": f"{c.budget_amount or 0:,.0f}",
               "currency": c.currency}
        servers = _servers_for(ch, need)  # the same sentence, the servers it takes said too
        if servers is not None:
            out.update(tr=BUDGET_KEYS[1], need_replicas=need // ch.tp, **servers)
        return out
    if cause == "fleet":
        from advisor.plan import fleet

        use = fleet.use_of(c, ch)
        return {"tr": "plan.layout25.short.fleet", **base, "free": use.free, "count": use.count,
                "util": round(use.utilisation * 100)}
    if cause == "limit":
        return {"tr": "plan.layout25.short.other", **base, "max": sizing.MAX_REPLICAS}
    from advisor.plan.capacity import serving_replicas

    return {"tr": "plan.headroom19.short.laid_out", **base, "have": serving_replicas(ch) * ch.tp}


def short_cause(c: Ctx, ch: sizing.Candidate, claimed: int) -> str:
    """What kept the plan below the policy's headroom: "budget" (the engine dropped it to stay within the budget
    and noted what it costs), "fleet" (laid out on the team's free GPUs), "limit" (the headroom needs more than
    ``sizing.MAX_REPLICAS`` replicas to carry the load, or the plan already lays out that many), else "none"
    (no cause the plan knows of: the sentence names none)."""
    if _budget_note(ch) is not None:
        return "budget"
    if ch.layout is not None and ch.layout.basis == "fleet":
        return "fleet"
    if headroom_gpus(c, ch, claimed) // max(1, ch.tp) > sizing.MAX_REPLICAS or ch.replicas >= sizing.MAX_REPLICAS:
        return "limit"
    return "none"


def _line_in_total(f) -> tuple[float, dict | str]:
    """(the network line's high end a month, the clause saying so) for the headroom's total: a priced line in the
    plan's total is added, as the budget row adds it; an unpriced one is said not counted (s23-pages23, issue 25: q10
    judged the headroom on the GPUs alone beside a budget row "with the network line"); ("" without a line)."""
    costs = f.cost.costs if getattr(f, "cost", None) is not None else None
    if costs is None:
        return 0.0, ""
    if costs.monthly_with_line is not None and costs.recommended_monthly is not None:
        return costs.monthly_with_line.high - costs.recommended_monthly.high, {"tr": "pages23.headroom.with_line"}
    if costs.line_excluded:
        return 0.0, {"tr": "pages23.headroom.line_unpriced"}
    return 0.0, ""


def _budget_note(ch: sizing.Candidate) -> list[str] | None:
    """(what the headroom costs a month, the plan with it) from the engine's ``headroom_budget`` note."""
    return next((n.split(":")[1:] for n in ch.notes if n.startswith("headroom_budget:")), None)


def _servers_for(ch: sizing.Candidate, need: int) -> dict | None:
    """On whole servers of one region: the servers the headroom's ``need`` GPUs take with the plan's spare servers
    (``units``) beside those laid out (``have_units``), each of ``unit_gpus``; None otherwise (a GPU count is the
    whole story where GPUs are rented or bought one at a time)."""
    lay = ch.layout
    if lay is None or not lay.whole_server or lay.regions != 1:
        return None
    units = math.ceil(need / lay.unit_gpus) + lay.spare_units
    spare = {"tr": "plan.headroom19.with_spare"} if lay.spare_units else ""
    return {"units": units, "have_units": lay.units, "unit_gpus": lay.unit_gpus, "spare": spare}


__all__ = ["LayoutSearch", "LayoutTry", "finish", "headroom_gpus", "search", "short_cause", "short_reason"]


def finish(found: LayoutSearch | None, c: Ctx, chosen: sizing.Candidate | None, form: str,
           sized: Sequence[sizing.Candidate] = ()) -> LayoutSearch | None:
    """The search as the memo shows it: its chosen entry re-read off the setup the plan finally runs (laid out on
    the team's fleet, bought, or leaner for the budget, perhaps on another TP size of those tried); None when the
    plan runs another GPU or a setup not tried (bought instead, a hosted API). ``sized``: the search's setups that
    meet the target, for what a lower precision set aside on as many GPUs would give (``precision_tie``)."""
    if found is None or chosen is None or form == "hosted_api" or chosen.gpu.id != found.gpu:
        return None
    if found.batch:  # the minimum layout the screen sized; the plan may run it twice over (batch_double says why)
        mine = found.chosen
        return found if mine is not None and (mine.weights, mine.tp) == (chosen.weights, chosen.tp) else None
    from advisor.plan import fleet

    if fleet.measured_peak_replicas(c, chosen) is not None:
        # sized on the fleet's measured load, not on the curve every layout here was sized on: "49 GPUs with 96 %
        # headroom" beside "bf16 would need 18" compared two different yardsticks (q39)
        return None
    mine = next((t for t in found.tries if (t.weights, t.tp) == (chosen.weights, chosen.tp)), None)
    if mine is None or mine.outcome not in ("chosen", "meets"):
        return None
    if spare_policy.more_note(chosen) is not None and mine.outcome == "chosen":
        # one serving unit more for the failover margin (``spare_policy``, rule 3): the layouts stay compared on
        # the load as the search sized them (the N+1 finding says why the plan runs one unit more), else the other
        # precision read "would need 1 GPU" beside the chosen 2 with no reason given (q43)
        found.first_token = holds(found.first_token, chosen)
        found.fp8_gain = fp8_gain.holds(found.fp8_gain, chosen)
        return found
    for t in found.tries:
        if t.outcome == "chosen" and t is not mine:
            t.outcome = "meets"
    n, gpus = _load(chosen)
    mine.outcome, mine.gpus, mine.replicas = "chosen", gpus, n
    claimed = claimed_capacity(c, chosen)
    mine.headroom = round(headroom(c, chosen, claimed), 3)
    rounded = _rounded(c, chosen, gpus, claimed)
    mine.load_gpus, mine.unit_gpus = rounded.get("load_gpus"), rounded.get("unit_gpus")
    found.first_token = holds(found.first_token, chosen)  # decided for the setup the plan still runs, else unsaid
    found.fp8_gain = fp8_gain.holds(found.fp8_gain, chosen)
    other_precision_speed(found, c, chosen, sized)
    if chosen.layout is not None and chosen.layout.basis == fleet.FLEET_BASIS:
        _on_fleet(found, c, chosen, sized)
    return found


def _on_fleet(found: LayoutSearch, c: Ctx, chosen: sizing.Candidate, sized: Sequence[sizing.Candidate]) -> None:
    """A plan on the team's own cards: the other layouts that meet the target as they would sit on its free cards
    too (round 13, q08: "TP4 would need 16 (4 replicas, 113 % headroom)" was TP4 rounded up to whole 8-card
    servers to rent, beside a chosen TP8 laid out on the fleet), and where the plan keeps a layout that rides out a
    replica down over one on fewer cards that does not (``spare_policy``, rule 4), the figures with one down."""
    from advisor.plan import fleet  # fleet imports the capacity chain this module sits on

    for t in found.tries:
        k = next((x for x in sized if (x.weights, x.tp) == (t.weights, t.tp) and x.gpu.id == chosen.gpu.id), None)
        if t.outcome != "meets" or k is None:
            continue
        mine = gpu_choice._copy(k)
        fleet.lay_out(c, mine)
        if not fleet.fits_free(c, mine, ONE_NODE):  # it would need cards bought: the search's figures stand
            continue
        n, gpus = _load(mine)
        t.gpus, t.replicas, t.load_gpus, t.unit_gpus = gpus, n, None, None
        t.headroom = round(headroom(c, mine, claimed_capacity(c, mine)), 3)
    over = spare_policy.fleet_over(chosen)
    if over is None or chosen.replicas < 2:
        return
    # the figures at the share each of the others takes, or at the cap where that share is above it (round 14,
    # q08: "15 each on the other 2" beside --max-num-seqs 12): then what they keep of the peak, said as short
    share, cap, carried = spare_policy.one_down_carried(c, chosen)
    lv = sizing.levels_at(c, chosen, [min(share, cap)])[0]
    found.failover_fleet = {"weights": over[0], "tp": over[1], "replicas": chosen.replicas, "load": min(share, cap),
                            "ttft": lv.ttft_ms.p99, "tpot": lv.tpot_ms.p99, "carried": carried,
                            "peak": int(c.peak)}
