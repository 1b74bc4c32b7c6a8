"""A GPU whose replica holds its failover load at the full context, chosen over one whose KV cache cannot (issue 25,
blind review 25: q36 "I would not accept A10 for the fallback … L20 fp8 at about 58.52 against 58.44 CNY/h, 0.1 %
more, holding 137 full-context requests against A10's 16, while each A10 replica carries 50–60. Take the L20."; q41
"at failover one A10 replica carries 30 while it holds 16 … L20 fp8 holds 137 and still fits the ¥20,000 budget";
q30 the same at 40).

``kv_card`` only named such a card beside the plan; here the engine chooses it, beside its other picks
(``decode_pick``, ``latency_pick``), before the form, the layouts and the spare are worked out, so the rest of the
plan is sized, simulated and costed on it as on any chosen setup. The rule applies where the chosen setup's replica
carries more requests at the peak, or with one replica down where the plan keeps a spare (``kv_fp8_set.load_to_hold``),
than its KV cache holds at the full context, and an FP8 cache on the same card would not hold them either (where it
would, ``kv_fp8_set`` sets it later: the cheaper fix). A setup on another GPU with more memory a card is taken instead
where it:

- is among the screen's setups (the answers' targets, precisions and parts) and of the same or a better standing
  (``gpu_choice.tiers``: where sold, the team's fleet, vendor, part grade, stock), priced on a sourced row of the
  plan's own region (not another region's row times an uplift, ``in_region_fallback.stand_in``: a card moved to for
  its memory must be one the region is known to sell at a known price; q21's A10 priced in Hong Kong would have given
  way to an L40S no provider sells there, q37's L40S to an H100 priced as a US row in Singapore), unless the chosen
  setup also streams slower than the chat line and the stand-in fits the budget (``slow_stream``, review 35 q13);
- meets the target on the predictor at the size the predictor sets (``verify``, which lays it out with its spare);
- holds its own load at the full context (its 16-bit cache, or the FP8 one ``kv_fp8_set`` would then set);
- costs, at that size, within the monthly budget where one is given, else at most ``kv_card.CLOSE`` more a month
  than the chosen setup (a policy: "about the same cost", q36's 0.1 %).

The cheapest such setup a month is chosen. The setup passed over is noted on the chosen one (``NOTE``) with the
figures the rule weighed, so "Why this GPU" says them in one sentence (``said``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import gpu_choice as gchoice
from advisor.plan import kv_card, pick_note, sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.capacity import one_down_load
from advisor.plan.in_region_fallback import stand_in
from advisor.plan.kv_fp8_set import load_to_hold
from advisor.plan.kv_pick_words import _pct  # noqa: F401 (the premium as said, read by tests)

MAX_CHECKED = 3  # setups checked on the predictor for this rule (each is a few simulated levels)
# a candidate note: ``kv_over:<gpu id>:<weights>:<kv dtype>:<its full-context count>:<its load>:<more %>:<basis>``
# (the cache the count is at: FP8 where the answers accept it on that GPU; basis "budget" or "margin")
NOTE = "kv_over"


def best_cache(ctx: Any, k: sizing.Candidate) -> tuple[int, str]:
    """(requests ``k``'s replica holds at the full context, the KV cache's dtype) with the cache the plan could give
    it: its own, or an FP8 one where the answers accept FP8 on this GPU (``kv_fp8_set`` sets it where that holds the
    load)."""
    fit = k.memory.max_concurrency_kv
    if k.kv_dtype != "fp8" and fp8_kv_allowed(ctx, k.gpu):
        fp8 = sizing._memory(ctx, k.gpu, k.weights, "fp8", k.tp, sizing._engine(ctx, k.gpu))
        if fp8.max_concurrency_kv > fit:
            return fp8.max_concurrency_kv, "fp8"
    return fit, k.kv_dtype


def full_fit(ctx: Any, k: sizing.Candidate) -> int:
    return best_cache(ctx, k)[0]


def short(ctx: Any, k: sizing.Candidate) -> bool:
    """An interactive setup whose replica carries more than its KV cache (FP8 included) holds at the full context."""
    if ctx.is_batch or not k.replicas or k.memory.kv_tokens <= 0:
        return False
    return load_to_hold(ctx, k) > full_fit(ctx, k)


def _monthly(out: Any) -> float | None:
    """The high end of a setup's rented month (USD), as the budget is judged on its high end."""
    high = out.cloud_usd[1] if out is not None else None
    return float(high) if high else None


def prefer(c: Any, chosen: sizing.Candidate, pool: list[sizing.Candidate], *, region: str, book: Any,
           verify: Callable[[sizing.Candidate], bool], cost_of: Callable[[sizing.Candidate], Any],
           within: Callable[[Any], bool | None]) -> sizing.Candidate | None:
    """The setup to choose instead of ``chosen`` (see the module), noted with what it was chosen over; None where
    ``chosen`` holds its load, or no setup of ``pool`` qualifies. ``verify(k)`` sizes ``k`` on the predictor and says
    whether it meets the target; ``cost_of(k)`` costs a setup as the plan does; ``within(out)`` judges a cost outcome
    against the monthly budget (None: no budget given)."""
    if not short(c, chosen):
        return None
    mine_tier = gchoice.tiers(c, region, chosen, book)
    mine_fit = full_fit(c, chosen)

    def fits(k: sizing.Candidate) -> bool:
        t = gchoice.tiers(c, region, k, book)
        better = all(a <= b for a, b in ((t.region, mine_tier.region), (t.fleet, mine_tier.fleet),
                                         (t.vendor, mine_tier.vendor), (t.grade, mine_tier.grade),
                                         (t.stock, mine_tier.stock)))
        return k is not chosen and k.gpu.id != chosen.gpu.id and k.gpu.memory_bytes > chosen.gpu.memory_bytes \
            and better and not gchoice.placeholder_priced(region, k, book) and full_fit(c, k) > mine_fit

    mine = _monthly(cost_of(chosen))
    if mine is None:
        return None
    best: tuple[float, sizing.Candidate, str] | None = None
    for k in [k for k in pool if fits(k)][:MAX_CHECKED]:
        if not verify(k) or short(c, k):  # sized on the predictor: its load is read at the replicas it set
            continue
        cost = _monthly(out := cost_of(k))
        judged = within(out)
        if cost is None or stand_in(out) and not (judged and slow_stream(c, chosen)):
            continue
        if judged is False or (judged is None and cost > mine * (1.0 + kv_card.CLOSE) + 1e-9):
            continue
        if best is None or cost < best[0]:
            best = (cost, k, "slow" if stand_in(out) else "budget" if judged else "margin")
    if best is None:
        return None
    cost, pick, basis = best
    more = round((cost / mine - 1.0) * 100, 1)
    pick.notes[:] = [n for n in pick.notes if not n.startswith(NOTE + ":")]
    fit, kv = best_cache(c, chosen)
    pick.notes.append(f"{NOTE}:{chosen.gpu.id}:{chosen.weights}:{kv}:{fit}:{load_to_hold(c, chosen)}:{more}:{basis}")
    return pick


def slow_stream(c: Any, k: sizing.Candidate) -> bool:
    """The setup's predicted P99 TPOT at its load a replica is slower than the chat line (``chat_rule38.RULE_MS``,
    20 tokens a second). Such a setup gives way even to a card priced by a stand-in (another region's row × the
    uplift) within the budget: its users sit below the memo's own speed line, and the part priced there comes back
    as plan B (``in_region_fallback``) if no host quotes the faster card (issue #25, blind review 35, q13: "5 × L4
    leaves only 2.8 GiB of KV and 13.8 tok/s per user, so 2 × L40S (only 2.5 % dearer) should be the default")."""
    from advisor.plan import chat_rule38, overseas44

    if not overseas44.on():
        return False
    load = max(1, -(-c.peak // max(1, k.replicas)))
    tpot = sizing.levels_at(c, gchoice._copy(k), [load])[0].tpot_ms.p99
    return tpot is not None and tpot > chat_rule38.RULE_MS


def carry(src: sizing.Candidate, dst: sizing.Candidate) -> None:
    """``dst``, another layout of ``src``'s GPU, keeps the note of why that GPU was chosen."""
    pick_note.carry(NOTE, src, dst)


def passed_over(k: sizing.Candidate | None) -> dict[str, Any] | None:
    """What ``k`` was chosen over by this rule, from its note; None where the rule did not choose it."""
    note = next((n for n in (k.notes if k is not None else []) if n.startswith(NOTE + ":")), None)
    if note is None:
        return None
    _, gid, weights, kv, fit, load, more, basis = note.split(":", 7)
    return {"gpu": gid, "weights": weights, "kv_dtype": kv, "full_fit": int(fit), "load": int(load),
            "more_pct": float(more), "basis": basis}


def said(choice: Any, ctx: Any, chosen: sizing.Candidate | None) -> Any:
    """``choice`` (the plan's ``GpuChoice``) with the sentence's figures (``GpuChoice.kv_pick``) where this rule chose
    the GPU and the plan as laid out still holds its load at the full context (a later step could have changed the
    layout: then nothing is claimed). Each setup's figures are the rule's: the passed-over one's as it weighed them,
    the chosen one's as the plan's KV-fit row reads them (the same memory estimate). The passed-over GPU's other
    layouts leave the list of next setups: they are not what was weighed (q41 listed the A10 at TP4 as "costs more
    at the size that meets the target" beside this sentence's cheaper A10 at TP1)."""
    over = passed_over(chosen)
    if choice is None or chosen is None or over is None or short(ctx, chosen):
        return choice
    from advisor.catalog import get_gpu

    down = one_down_load(ctx, chosen)
    name = get_gpu(over["gpu"]).name
    d = {"gpu_name": chosen.gpu.name, "other": name, "weights": over["weights"], "kv_dtype": over["kv_dtype"],
         "context": ctx.max_context, "other_full": over["full_fit"], "other_load": over["load"],
         "full": chosen.memory.max_concurrency_kv, "load": load_to_hold(ctx, chosen), "down": down is not None,
         "more_pct": over["more_pct"], "basis": over["basis"], "limit_pct": round(kv_card.CLOSE * 100),
         "budget": ctx.budget_amount, "currency": choice.currency}
    cheaper = choice.cheaper_card

    def other(pick: dict[str, Any] | None) -> dict[str, Any] | None:  # a split layout of it passed over: said here
        return None if pick is not None and choice._option(pick["other"]).gpu == over["gpu"] else pick

    return choice.model_copy(update={
        "kv_pick": d, "alternatives": [a for a in choice.alternatives if a.gpu != over["gpu"]],
        "dearer": [x for x in choice.dearer if x.gpu_name != name],
        "cheaper_card": None if cheaper is not None and cheaper.gpu_name == name else cheaper,
        "single_card": other(choice.single_card), "single_card_declined": other(choice.single_card_declined)})


__all__ = ["MAX_CHECKED", "NOTE", "best_cache", "carry", "full_fit", "passed_over", "prefer", "said", "short"]
