"""Plan B on a part sold in the region, where the chosen part there is priced only by a stand-in (issue 25, blind
reviews 21–22: q25 "name the A10 (TP2, available in ap-east-1) … as plan B before the HKMA submission", q37 "name a
fallback that is actually sold in-region … in case no quote comes", q43 "the memo should name a fallback part").

A Hong Kong or Singapore node whose GPU has no price row of that region is priced from another region's row times
the region's uplift (``cost.cloud_price``): no provider there has quoted it (AWS sells no g6e in either, and the L40S
needs a US export licence into Hong Kong). The fallback is the best-ranked setup of the same screen on a part that
IS priced by a row of the region (AWS ap-east-1's A10, Google Cloud's L4 in Singapore, AWS Singapore's A100),
checked on the same predictor at the same peak, with its GPU rent: the row's USD per GPU-hour × its GPUs × the
month's hours. Never a price invented: no in-region row, no fallback.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import gpu_choice as gchoice
from advisor.plan import overseas44, single_card, sizing, stand_in_twin
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook
from advisor.plan.money_text import money_range, number_text
from advisor.plan.price_rows import PROXY_REGIONS, _offer_names
from advisor.plan.result import MoneyRange, NextStep, PriceRow

MAX_TRIED = 4  # parts with a row of the region checked on the predictor (their best-ranked setup each; the price
# list has at most three in one region today, so "no part priced there meets the target" is said of them all)


def in_region_rows(book: PriceBook, gpu_id: str, region: str, tp: int = 1) -> list[PriceRow]:
    """The region's own sourced rows for the part (no user quote, no placeholder), as the engine prices it there: on
    an instance that holds a replica of ``tp`` GPUs (q25: a TP2 plan B was priced at the one-GPU g5.xlarge)."""
    rows = costmod.cloud_rows(book, gpu_id, region, tp)
    if not costmod.local_rows(rows, region):
        return []
    return [r for r in rows if r.region == region and not r.user_quote and r.grade != "U"]


def stand_in(out: Any) -> bool:
    """The plan's rent rests on another region's row times the uplift (``cost.compute`` marks it)."""
    return out is not None and out.costs.region_uplift is not None


def find(c: Ctx, region: str, chosen: Any, out: Any, ranked: list[Any], book: PriceBook,
         verify: Callable[[Any], tuple[float | None, float | None, bool]],
         sizes: dict[str, int] | None = None) -> dict[str, Any] | None:
    """The fallback record (see ``record``), or None: not a Hong Kong or Singapore node, the chosen part priced by
    a row of the region (or a user's quote), or no part of the screen with a row there. ``ranked``: the screen's
    setups, those meeting the target first; ``verify``: the predictor's (ttft, tpot, meets) of a setup, laid out;
    ``sizes``: the GPU choice's setups (gpu id → GPUs), for the second part to ask for where no part priced there
    meets the target (``stand_in_twin``, review 27 q43)."""
    if region not in PROXY_REGIONS or chosen is None or c.is_batch or not stand_in(out):
        return None
    tried: list[tuple[Any, float | None, float | None, bool, list[PriceRow]]] = []
    seen: set[str] = set()
    priced = [k for k in ranked if k.gpu.id != chosen.gpu.id and in_region_rows(book, k.gpu.id, region, k.tp)]
    # the engineer's rule for the plan's own choice holds for its plan B too (``single_card``, q38): one larger card a
    # replica before a replica split over PCIe cards when it costs at most the premium more (issue #25, blind
    # review 30, q37: 6 replicas of 4 × L4 over PCIe ranked a cent an hour before 4 × A100 80GB, one card each)
    priced = single_card.prefer(priced, lambda a, b: gchoice.tiers(c, region, a, book) == gchoice.tiers(
        c, region, b, book), gchoice.hourly)
    for k in priced:  # each part's best-ranked setup only
        if k.gpu.id in seen:
            continue
        rows = in_region_rows(book, k.gpu.id, region, k.tp)
        seen.add(k.gpu.id)
        mine = gchoice._copy(k)
        ttft, tpot, meets = verify(mine)
        tried.append((mine, ttft, tpot, meets, rows))
        if meets:
            tried[-1] = _cheaper_layout(tried[-1], ranked, region, book, verify)
            break
        if len(tried) >= MAX_TRIED:
            break
    if not tried:
        return None
    pick = next((t for t in tried if t[3]), tried[0])
    fb = record(c, region, chosen, book, *pick)
    if fb["meets"] and c.budget_amount is not None and fb["monthly"][0] > c.budget_amount and overseas44.on():
        # over the budget even at its low end: no plan B, only the floor of what is priced there; the second part to
        # ask the same hosts for is named instead (blind review 35, q25: "the only priced fallback, 20 × A10, over
        # budget, is not a real plan")
        fb["over_budget"] = True
        fb["also_ask"] = stand_in_twin.find(c, region, chosen, ranked, book, verify, sizes)
    if not fb["meets"]:  # none sold there meets it: a part on the same stand-in that does is still worth a quote
        fb["also_ask"] = stand_in_twin.find(c, region, chosen, ranked, book, verify, sizes)
    return fb


def _rent(k: Any, rows: list[PriceRow], book: PriceBook) -> float:
    """A laid-out setup's GPU rent an hour at its rows' lowest price (for comparing two setups of one part)."""
    fx = float(book.fx()["cny_per_usd"])
    return min(costmod.usd_range(r, fx)[0] for r in rows) * k.total_gpus


def _cheaper_layout(best: tuple[Any, float | None, float | None, bool, list[PriceRow]], ranked: list[Any],
                    region: str, book: PriceBook, verify: Callable[[Any], tuple[float | None, float | None, bool]]
                    ) -> tuple[Any, float | None, float | None, bool, list[PriceRow]]:
    """The part's cheapest setup that meets the target once laid out with its spare (blind review 29, q20: "6 × L4
    (TP2, fp8) for a 7B model looks odd, because TP1 on an L4 fits the fp8 weights easily"): the screen ranks
    setups before their N+1 spare, which costs a TP2 replica two GPUs and a TP1 replica one, so a setup ranked below
    the first can rent fewer GPUs. Only setups of the part on no more GPUs before their spare are checked."""
    first = best[0]
    for k in ranked:
        if k.gpu.id != first.gpu.id or k.tp == first.tp and k.weights == first.weights \
                or k.total_gpus >= best[0].total_gpus:
            continue
        rows = in_region_rows(book, k.gpu.id, region, k.tp)
        if not rows:
            continue
        mine = gchoice._copy(k)
        ttft, tpot, meets = verify(mine)
        if meets and _rent(mine, rows, book) < _rent(best[0], best[4], book):
            best = (mine, ttft, tpot, meets, rows)
    return best


def record(c: Ctx, region: str, chosen: Any, book: PriceBook, k: Any, ttft: float | None, tpot: float | None,
           meets: bool, rows: list[PriceRow]) -> dict[str, Any]:
    """What the plan says of the fallback: the setup, its GPU rent a month (the row's range × GPUs × hours, in the
    answer's currency), the row it rests on, and the predictor's P99s beside the targets."""
    fx = float(book.fx()["cny_per_usd"])
    conv = fx if c.currency == "CNY" else 1.0
    lows, highs = zip(*(costmod.usd_range(r, fx) for r in rows), strict=True)
    per_lo, per_hi = min(lows), max(highs)
    hours = costmod.HOURS_PER_MONTH
    if ttft is None or tpot is None:  # the setup re-laid after its check: the figures at its load per replica
        lv = sizing.levels_at(c, gchoice._copy(k), [max(1, math.ceil(c.peak / max(1, k.replicas)))])[0]
        ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    over = [(ttft or 0) / c.ttft_slo_ms if c.ttft_slo_ms else 0.0,
            (tpot or 0) / c.tpot_slo_ms if c.tpot_slo_ms else 0.0]
    row = rows[0]
    worst = 0 if over[0] >= over[1] else 1
    return {"region": region, "instead_of": chosen.gpu.name, "gpu_id": k.gpu.id, "gpu": k.gpu.name,
            "offer": {lang: names[0] for lang, names in _offer_names([row]).items()},
            "n": k.total_gpus, "tp": k.tp, "replicas": k.replicas, "weights": k.weights,
            "usd_per_gpu_hour": [round(per_lo, 4), round(per_hi, 4)], "hours": hours,
            "monthly": [round(per_lo * k.total_gpus * hours * conv, 2), round(per_hi * k.total_gpus * hours * conv, 2)],
            "currency": c.currency, "row_ids": [r.id for r in rows], "source": row.source, "date": row.date,
            "grade": row.grade, "url": row.url,
            "meets": bool(meets), "ttft_p99_ms": None if ttft is None else round(ttft, 1),
            "tpot_p99_ms": None if tpot is None else round(tpot, 1), "ttft_slo_ms": c.ttft_slo_ms,
            "tpot_slo_ms": c.tpot_slo_ms, "worst_metric": ("ttft", "tpot")[worst], "worst_over": round(max(over), 3)}


def same_size(choice: Any, fb: dict[str, Any] | None) -> None:
    """The GPU choice's alternative on plan B's part said at plan B's size where that is smaller (``_cheaper_layout``
    found it; the choice had weighed the part at its best-ranked setup as checked): "Why this GPU" and plan B then
    quote one figure for the part (review 29, q20)."""
    if choice is None or fb is None or not fb["meets"]:
        return
    for i, o in enumerate(choice.alternatives):
        if o.gpu == fb["gpu_id"] and o.gpus > fb["n"]:
            per_gpu = o.per_hour / o.gpus
            choice.alternatives[i] = o.model_copy(update={"gpus": fb["n"], "weights": fb["weights"],
                                                          "per_hour": round(per_gpu * fb["n"], 2),
                                                          "units": None, "unit_gpus": None, "whole_server": False})


def with_step(steps: list[NextStep], fb: dict[str, Any] | None) -> list[NextStep]:
    """The step asking the region's hosts for a quote, followed by plan B in one sentence: what to rent if no host
    quotes the chosen part there (q25: "as plan B before the HKMA submission")."""
    if fb is None:
        return steps
    return [s.model_copy(update={"otherwise": phrase(fb)}) if s.id == "quotes" else s for s in steps]


def phrase(fb: dict[str, Any]) -> dict[str, Any]:
    """The fallback as a translatable phrase: its setup and its GPU rent from the row where it meets the target;
    where it does not, no count or month (the predictor added replicas to no avail: q43's 28 × A10 at 150 ms), only
    the part, the row and how far its best P99 is over the target."""
    common = {"asked": fb["instead_of"], "region": {"tr": f"plan.region.{fb['region']}"}, "gpu": fb["gpu"],
              "tp": fb["tp"], "weights": fb["weights"],
              "offer": {"by_lang": {"en": fb["offer"].get("en", ""), "zh_CN": fb["offer"].get("zh_CN", "")}}}
    if not fb["meets"]:
        metric = fb["worst_metric"]
        near = {"metric": metric.upper(), "pct": round((fb["worst_over"] - 1) * 100),
                "figure": number_text(fb[f"{metric}_p99_ms"]), "target": number_text(fb[f"{metric}_slo_ms"])}
        tw = fb.get("also_ask")
        if tw is None:
            return {"tr": "offgpu33.fallback.misses", **common, **near}
        # review 27 (q43): the second part to ask the same hosts for, on the same stand-in, never "no fallback"
        return {"tr": "hkfb37.fallback.twin", **common, **near, "twin": tw["gpu"], "twin_n": tw["n"],
                "twin_tp": tw["tp"], "twin_weights": tw["weights"], "grade": tw["grade"],
                "twin_monthly": money_range(MoneyRange(low=tw["monthly"][0], high=tw["monthly"][1]), tw["currency"]),
                "twin_offer": {"by_lang": {"en": tw["offer"].get("en", ""), "zh_CN": tw["offer"].get("zh_CN", "")}},
                "export": {"tr": "hkfb37.fallback.export"} if tw["export_controlled"] else "",
                "budget": {"tr": f"hkfb37.budget.{tw['budget']}"} if tw.get("budget") else ""}
    lo, hi = fb["monthly"]
    if fb.get("over_budget"):
        return _over_budget(fb, common)
    return {"tr": "offgpu33.fallback.meets", **common, "n": fb["n"],
            "monthly": money_range(MoneyRange(low=lo, high=hi), fb["currency"])}


def _over_budget(fb: dict[str, Any], common: dict[str, Any]) -> dict[str, Any]:
    """The part priced there that meets the target only over the budget, said as no plan, with the second part to ask
    the same hosts for where one meets the target (``stand_in_twin``)."""
    over = {"n": fb["n"], "monthly": money_range(MoneyRange(low=fb["monthly"][0], high=fb["monthly"][1]),
                                                  fb["currency"])}
    tw = fb.get("also_ask")
    if tw is None:
        return {"tr": "ovs44.fallback.over_budget", **common, **over}
    return {"tr": "ovs44.fallback.over_budget_twin", **common, **over, "twin": tw["gpu"], "twin_n": tw["n"],
            "twin_tp": tw["tp"], "twin_weights": tw["weights"], "grade": tw["grade"],
            "twin_monthly": money_range(MoneyRange(low=tw["monthly"][0], high=tw["monthly"][1]), tw["currency"]),
            "twin_offer": {"by_lang": {"en": tw["offer"].get("en", ""), "zh_CN": tw["offer"].get("zh_CN", "")}},
            "export": {"tr": "hkfb37.fallback.export"} if tw["export_controlled"] else "",
            "budget": {"tr": f"hkfb37.budget.{tw['budget']}"} if tw.get("budget") else ""}


def quote_first(result: Any) -> list[NextStep]:
    """The quote step (with plan B beside it) before every other step where the plan's part there rests on a stand-in
    (blind review 23, q25/q37/q43: "the plan has no confirmed hardware until a local provider quotes, with the first
    next step being that quote"): an outsourcing review or impact assessment is of the provider, so it follows the
    quote; unchanged where an API leads (plan B is then in the JSON only) or no such step exists."""
    steps = list(result.next_steps)
    if result.in_region_fallback is None:
        return steps
    at = next((i for i, s in enumerate(steps) if s.id == "quotes" and s.otherwise), None)
    if at is None or at == 0:
        return steps
    return [steps[at], *steps[:at], *steps[at + 1:]]


def hardware_clause(result: Any, lang: str, first_steps: int) -> str:
    """Page 1's hardware row: " — not confirmed: no provider in Hong Kong is known to sell it until one quotes (next
    step 1, with plan B)", the plan B said as one that misses the target where none priced there meets it (q43);
    "" where the plan's part is priced by a row of its region, an API leads, or the quote step is not on page 1."""
    from advisor.plan.result import render

    fb = result.in_region_fallback
    if fb is None:
        return ""
    n = next((i for i, s in enumerate(result.next_steps[:first_steps], start=1) if s.id == "quotes" and s.otherwise),
             None)
    if n is None:
        return ""
    tw = fb.get("also_ask")
    usable = fb["meets"] and not fb.get("over_budget")  # a plan B over the budget is none (review 35, q25)
    key = "supply34.key.unconfirmed_" + ("meets" if usable else "misses")
    if not usable and tw is not None:
        key = "hkfb37.key.unconfirmed_twin"
    elif fb.get("over_budget"):
        key = "ovs44.key.unconfirmed_over"
    return render(lang, key, {"region": {"tr": f"plan.region.{fb['region']}"}, "n": n, "gpu": fb["instead_of"],
                              "twin": tw["gpu"] if tw is not None else ""})


def cost_clause(result: Any, lang: str, first_steps: int) -> str:
    """Page 1's cost row beside the stand-in figure: plan B's GPU rent from the region's own price row, where page 1
    names the unconfirmed part and plan B meets the target: "; priced there today: plan B, 20 × NVIDIA A10 24GB,
    31,873 USD a month of GPU rent, over the budget (next step 1)" (blind review 27, q25: "the boss should see the
    confirmed figure, or both, not the speculative one"); "" elsewhere (no plan B priced there meets the target)."""
    from advisor.plan.result import render

    fb = result.in_region_fallback
    if fb is None or not fb["meets"] or fb.get("over_budget") or not hardware_clause(result, lang, first_steps):
        return ""
    n = next(i for i, s in enumerate(result.next_steps[:first_steps], start=1) if s.id == "quotes" and s.otherwise)
    lo, hi = fb["monthly"]
    budget = result.costs.budget_monthly
    both = _both_nodes(result)
    t_lo, t_hi = both if both is not None else (lo, hi)  # the budget is of the whole plan, every node in it
    fit = "" if budget is None else "within" if t_hi <= budget else "over" if t_lo > budget else "part"
    said = "" if both is None else render(lang, "prc44.fallback.both_nodes", {
        "monthly": money_range(MoneyRange(low=t_lo, high=t_hi), fb["currency"])})
    return render(lang, "misc38_key.fallback_cost", {
        "n": fb["n"], "gpu": fb["gpu"], "step": n,
        "monthly": money_range(MoneyRange(low=lo, high=hi), fb["currency"]),
        "budget": said + (render(lang, f"misc38_budget.{fit}", {}) if fit else "")})


def _both_nodes(result: Any) -> tuple[float, float] | None:
    """Where plan B replaces one node of several, the month of all nodes it results in: the other nodes' months plus
    plan B's GPU rent (blind review 36, q05: "if the A100 fallback ('63,261 CNY' for SG alone) is needed the total
    rises to about ¥95–102k, which should be stated"); None for a single node."""
    fb = result.in_region_fallback
    others = [n.monthly for n in result.nodes if n.region != fb["region"] and n.monthly is not None]
    if not others or len(others) == len(result.nodes):
        return None
    return fb["monthly"][0] + sum(m.low for m in others), fb["monthly"][1] + sum(m.high for m in others)


__all__ = ["cost_clause", "find", "hardware_clause", "in_region_rows", "phrase", "quote_first", "record", "stand_in", "with_step"]
