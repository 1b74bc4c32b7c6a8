"""The fixes table of an infeasible plan, read as one comparison (issue 25, blind review 29).

q40 (a 72B on a ¥5,000 budget), zh: "the alternatives table contradicts itself … Qwen2.5-3B on A10 needs 约 14,000
while 30B-A3B starts at ¥7,839; recheck and order the rows by cost"; en: "the fix table is cluttered". Three rules:

- the smaller-model rows in the order of the budget each needs (the high end of its cost, the figure the "also
  needs" column says), the A/B pointer on the first shown (``ordered``);
- the basis of the costs said once under the table: the latency targets as answered, unless a row names another
  (a near miss priced at a relaxed target, ``near_miss39``), and the order of the smaller models (``basis``);
- q29 (a 70B batch at ¥20,000, en and zh): "wrong fix put first: Qwen3 4B is offered as the main fix; Qwen3 30B-A3B
  … keeps far more quality". Where the one change within the budget is a far smaller dense model and a mixture of
  experts, not graded far weaker, starts within ``LEAD_SHARE`` of the budget, the MoE leads with its high end
  against the budget, and the far smaller model follows as the one sure to fit (``moe_lead``).
- blind review 34 (q29, en and zh): "the first fix a boss sees is Qwen3 4B replacing a 70B model; the only route
  that keeps quality near budget, the DeepSeek-V3 batch API, is buried … put the 4B as a last resort" with "the
  quality-test warning first". The rows in the order of closeness to the quality asked (``quality_rank``): the same
  model at another precision, a hosted API (the model's own, one priced on another, a batch API on a larger one),
  a mixture of experts, the smaller dense models largest first, and last the plan as asked with only more money or
  time; where the one change within the budget is a far smaller dense model, it follows the table as the last
  resort, its quality warning said before it (``last_resort``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan.money_text import round_money

# from this many times the budget at the plan's low end (and at the cheapest card weighed), the card chosen does
# not decide the plan: the why-this-GPU paragraph is cut to its opening sentence (review 29, q40: "the long
# A800/H800 paragraphs in 'Why this GPU' are irrelevant for a plan 16–46× over budget; cut them")
FAR_OVER = 5.0
# an MoE fix whose low end is at most this share over the budget leads before a far smaller dense model
LEAD_SHARE = 1.15


# the fix kinds page 1's fixes table labels (``memo_fixes36``); here, below both readers, so the next steps
# (``critical_steps``) can ask whether the table applies without importing the memo's module (an import cycle)
LABELED = ("smaller_model", "quantize", "quantize_4bit", "more_budget", "hosted_api", "hosted_api_job",
           "longer_batch")


def _billions(size: Any) -> float:
    try:
        return float(str(size).rstrip("B").replace(",", ""))
    except ValueError:
        return 0.0


def quality_rank(f: Any) -> tuple[int, float]:
    """Where ``f`` stands by closeness to the quality asked, closest first (blind review 34, q29): (class, order in
    it). The same model at another precision; a hosted API (cheapest first); a mixture of experts, then the dense
    smaller models, each largest first; last the plan as asked with only more money or time (no change of quality,
    but no way into the budget either)."""
    high = float(f.monthly_cost.high) if f.monthly_cost is not None else float("inf")
    if f.id in ("quantize", "quantize_4bit"):
        return (0, high)
    if f.id in ("hosted_api", "hosted_api_job", "hosted_smaller"):
        return (1, high)
    if f.id == "smaller_model":
        drop = f.params.get("drop") if isinstance(f.params.get("drop"), dict) else {}
        near = drop.get("tr") == "moe39.drop" and (drop.get("grade") or {}).get("tr") == "moe39_grade.near"
        return (2 if near else 3, -_billions(drop.get("small")))  # an MoE graded far weaker: among the dense
    return (4, high)


def batch_rank(got: dict[str, Any]) -> tuple[int, float]:
    """A provider's batch API line (``batch_api_line``) among the hosted APIs, by its own cost."""
    return (1, float(got.get("high") or float("inf")))


def last_resort(one: Any, others: Sequence[Any]) -> bool:
    """Whether the one change within the budget is a far smaller dense model with other changes closer in quality
    beside it: then it follows them, as the last resort (blind review 34, q29)."""
    drop = one.params.get("drop") if one.id == "smaller_model" else None
    return isinstance(drop, dict) and drop.get("tr") == "plan.smaller27.drop_far" and bool(others)


def ordered(fixes: Sequence[Any], ab: Any = "") -> list[Any]:
    """``fixes`` closest in quality to the model asked first (``quality_rank``, blind review 34; before it, by the
    budget each needs, review 29); the A/B pointer (said once: ``ab``, or the one they carry) moves to the first
    smaller model shown."""
    ranked = sorted(fixes, key=quality_rank)
    small = [f for f in ranked if f.id == "smaller_model"]
    if len(small) < 2 and not (ab and small):
        return ranked
    ab = ab or next((f.params["ab"] for f in small if f.params.get("ab")), "")
    first = small[0]
    return [f.model_copy(update={"params": {**f.params, "ab": ab if f is first else ""}})
            if f.id == "smaller_model" else f for f in ranked]


def _budget(result: Any) -> float | None:
    amount = (result.answers.get("monthly_budget") or {}).get("amount")
    return float(amount) if amount else None


def moe_lead(one: Any, others: Sequence[Any], result: Any) -> Any | None:
    """The MoE fix that leads before ``one`` (a far smaller dense model, the one change within the budget), or
    None: the cheapest at its low end of those graded "weaker", not "far weaker", within ``LEAD_SHARE`` of the
    budget there."""
    drop = one.params.get("drop") if one.id == "smaller_model" else None
    budget = _budget(result)
    if not isinstance(drop, dict) or drop.get("tr") != "plan.smaller27.drop_far" or not budget:
        return None
    found = []
    for f in others:
        d = f.params.get("drop") if f.id == "smaller_model" else None
        if not isinstance(d, dict) or d.get("tr") != "moe39.drop" or f.monthly_cost is None:
            continue
        if (d.get("grade") or {}).get("tr") == "moe39_grade.near" and f.monthly_cost.low <= LEAD_SHARE * budget:
            found.append(f)
    return min(found, key=lambda f: f.monthly_cost.low, default=None)


def thinking_said(lead: Any) -> Any:
    """``lead`` marked to say, shortly, that it thinks by default where its model does: said first now, before
    the fix that carried the long sentence (``thinking_default.say_once``)."""
    from advisor.catalog import get_model
    from advisor.plan.thinking_default import thinks_by_default

    if isinstance(lead.params.get("think"), dict) or not thinks_by_default(get_model(lead.change["model"])):
        return lead
    return lead.model_copy(update={"params": {**lead.params, "think": {"short": True}}})


def lead_text(lead: Any, label: str, cost: str, needs: str, result: Any, lang: str) -> str:
    """"**Closest in quality, just over what you asked** (<cost>; at its high end N % over your budget of B; also
    needs …): <its row>" as one paragraph after the change sure to fit, as its trade-off (blind review 30, q29: the
    MoE misses both the budget and the deadline, so it no longer leads)."""
    budget = _budget(result) or 0.0
    high = float(lead.monthly_cost.high)
    cur = result.costs.currency if result.costs is not None else ""
    if high <= budget:
        against = translate(lang, "tab39_fixes.lead_within", budget=round_money(budget), currency=cur)
    else:
        against = translate(lang, "tab39_fixes.lead_over", pct=f"{max(1, round((high / budget - 1) * 100))}",
                            budget=round_money(budget), currency=cur)
    return translate(lang, "tab39_fixes.lead", change=label, cost=cost, against=against, needs=needs)


def basis(result: Any, rows: Sequence[Any], lang: str) -> str:
    """The sentence under the table saying what each row is priced at: the latency targets as answered unless a row
    names another, and the order of the smaller models where there are two or more; "" for a batch (priced at
    its deadline, which its rows say) or without a latency target."""
    slo = result.answers.get("latency_slo") or {}
    ttft, tpot = slo.get("ttft_p99_ms"), slo.get("tpot_p99_ms")
    if getattr(result.costs, "per_job", False) or not ttft or not tpot:
        return ""
    out = translate(lang, "tab39_fixes.basis", ttft=f"{float(ttft):,.0f}", tpot=f"{float(tpot):,.0f}")
    if sum(1 for f in rows if f.id == "smaller_model") > 1:  # the hosted API named in the order only where it is
        # a row of the table (blind review 35, q40: said above the table, it is not "listed second" in it)
        out += translate(lang, "fo43_fixes.order" if any(f.id.startswith("hosted_api") for f in rows) else "api44.fixes.order")
    return out


def gpu_why(result: Any, lang: str) -> str:
    """The why-this-GPU paragraph of a plan at least ``FAR_OVER`` times over its monthly budget whichever part it
    rents: the opening sentence (the chosen setup and the next two, with their prices) and that the card does not
    decide it; "" where that does not hold (the full paragraph then). The bound: each part's cheapest hourly figure
    weighed (whole servers at the cards the load needs), scaled to the plan's low monthly as the chosen one's is."""
    from advisor.plan import gpu_lead

    g, costs = result.gpu_choice, result.costs
    if result.feasible or g is None or costs is None or costs.per_job or not costs.budget_monthly:
        return ""
    rec = costs.recommended_monthly
    if rec is None or not g.chosen.per_hour or rec.low < FAR_OVER * costs.budget_monthly:
        return ""
    hourly = [o.per_hour for o in (g.chosen, *g.alternatives) if o.per_hour]
    if g.unsourced_cheaper is not None and g.unsourced_cheaper.per_hour:
        hourly.append(g.unsourced_cheaper.per_hour)
    if g.weighing is not None:
        hourly += [float(w.per_hour_if_cards) for w in g.weighing.whole_server if w.per_hour_if_cards]
    least = min(hourly) * rec.low / g.chosen.per_hour  # the cheapest part at the plan's own price basis
    opening = gpu_lead.lead(g, lang)
    if not opening or least < FAR_OVER * costs.budget_monthly:
        return ""
    times = f"{math.floor(least / costs.budget_monthly)}"  # "at least": rounded down
    return opening + ("" if lang == "zh_CN" else " ") + translate(
        lang, "tab39_gpu.far_over", times=times, budget=round_money(costs.budget_monthly), currency=costs.currency)


__all__ = ["gpu_why", "LEAD_SHARE", "basis", "batch_rank", "last_resort", "lead_text", "moe_lead", "ordered",
           "quality_rank", "thinking_said"]
