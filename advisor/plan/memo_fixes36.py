"""An infeasible plan's fixes on page 1 as one answer and a short table (s34-rows36, blind review 25, q40).

q40 (a 72B on a ¥5,000 budget): the one change within the budget (the hosted API) sat among six self-hosted options
each far over it (14k–230k), a long sentence apiece, and a 4-bit route whose A800 stock paragraph the GPU section
says again: "put the API first with its two checks and collapse the rest into a short table" (zh: "a four-row table
with one cost each"). The rule, for any plan with exactly one change that works alone within the budget and others
that need more: that change first, with its checks; the others one row each,
one cost and what each also needs; below it, where every self-hosted row is over the budget even at its low end,
by how many times (s35-sentences, blind review 26, q40). A change tried that saves nothing (as dear as the plan as asked)
keeps a row that says so and why, not the plan's cost again (reviews 26 and 27, q40). Fixes of a kind this table cannot name in a few words keep the full list (``table``
returns None).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan import fixtab39
from advisor.plan.critical_steps import the_one_fix
from advisor.plan.money_text import about, round_money
from advisor.plan.result import MoneyRange, PlanResult, render

OVER = "sentences37_fixes.over"
SELF_HOSTED = ("smaller_model", "quantize", "quantize_4bit", "more_budget")  # the rows that rent GPUs
# the kinds a row can name in a few words (their label key's parameters are read off the fix's own)
LABELED = fixtab39.LABELED  # the fix kinds page 1's fixes table labels (kept in fixtab39: critical_steps reads it too)


def _span(lo: float, hi: float) -> str:
    a, b = round_money(lo), round_money(hi)
    return a if a == b else f"{a}–{b}"


def _label(kind: str, fixes: Sequence[Any], lang: str, mixed: bool = False) -> str:
    p = fixes[0].params
    if kind == "smaller_model":  # each size its own row: its drop graded, the A/B said on the first (s27, q29)
        # a hybrid-thinking model's row says its cost is with thinking off, shortly (review 28: Qwen3 30B-A3B's row
        # in q40, the only Qwen3 there, said nothing of it; ``thinking_default`` marks the first such fix)
        think = translate(lang, "moe39.think_short") if isinstance(p.get("think"), dict) else ""
        return render(lang, "blk39_fixes.smaller_one", {k: v for k, v in p.items() if k in ("model", "drop", "ab")}
                      | {"total": p.get("total", ""), "gpu": p.get("gpu", ""), "spare": _spare(p),
                         "card": _card_why(p, lang, mixed)}) + think
    if kind == "quantize":  # offered only where the answers refuse it: said as the change to that answer (review 26)
        return render(lang, "rows36.fixes.quantize", {"weights": p.get("weights", ""), "total": p.get("total", ""),
                                                      "gpu": p.get("gpu", ""), "spare": _spare(p)})
    if kind == "quantize_4bit":
        return translate(lang, "rows36.fixes.quantize_4bit", repo=p.get("repo", ""))
    if kind == "more_budget":
        return translate(lang, "rows36.fixes.more_budget")
    if kind in ("hosted_api", "hosted_api_job"):  # priced on another model's list: a change of model (s33, q29)
        other = p.get("priced_on")
        label = translate(lang, "rows36.fixes.hosted_api_other", model=other) if other else \
            translate(lang, "rows36.fixes.hosted_api")
        return label + _rate(p.get("rate"), lang)
    # the quota the hours rest on is the plan's guess, said in the row too (s34-small36, review 25 q29: "an invented
    # quota that sets the '158 hours' fix, so say it is a guess")
    hours = f"{float(p.get('hours', 0)):,.0f}"
    if not p.get("quota"):  # no near setup, no quota assumed
        return translate(lang, "rows36.fixes.longer_batch_plain", hours=hours)
    if p.get("work"):  # the gap to the cost sentence's hours named as margin (review 27, q29)
        return render(lang, "batchword38_fixes.longer_batch", {"hours": hours, "quota": p["quota"], "gpu": p.get("gpu", ""),
                                                                "work": p["work"], "margin": p.get("margin", "")})
    return render(lang, "rows36.fixes.longer_batch", {"hours": hours, "quota": p["quota"], "gpu": p.get("gpu", "")})


def _card_why(p: dict[str, Any], lang: str, mixed: bool) -> str:
    """Why a smaller model's row rents its card (review 28, q40: "the 3B and 7B options on A10s are odd next to the
    14B on H20; state why L20 was not used"; zh: "the 14B on H20 comes out cheaper than 7B on A10 at the low end …
    flag that the H20 prices are placeholders"): a row priced on a placeholder says so, always, with the priced card
    that cost more where one served it (``fix_priced_part``); where the rows rent different cards (``mixed``), a
    row on a publicly priced card says it is the cheapest such card meeting the target for that size, with the
    placeholder-priced one that may cost less where there was one; "" otherwise."""
    got = p.get("placeholder")
    held: dict[str, Any] = got if isinstance(got, dict) else {}
    tr = held.get("tr")
    if tr == "numbers1_34.fix.placeholder_only":
        if held.get("dearer"):
            return translate(lang, "blk39_fixes.placeholder_dearer", gpu=held["gpu"], other=held["dearer"])
        return translate(lang, "blk39_fixes.placeholder_only", gpu=held["gpu"])
    if not mixed:
        return ""
    if tr == "numbers1_34.fix.placeholder_part":
        return translate(lang, "blk39_fixes.cheapest_priced_part", n=held["n"], gpu=held["gpu"])
    return translate(lang, "blk39_fixes.cheapest_priced")


def _rate(rate: Any, lang: str) -> str:
    """A batch's hosted API row: the job's tokens in its deadline only within the provider's rate limits (review 27,
    q29 en: "the hosted-API row (25 B tokens in 12 h) needs a rate-limit caveat"); "" without a rate to carry."""
    if not isinstance(rate, dict) or not rate.get("tokens"):
        return ""
    return render(lang, "batchword38_fixes.rate", {k: rate[k] for k in ("tokens", "hours", "rps")})


def _spare(p: dict[str, Any]) -> dict[str, Any] | str:
    """The N+1 spare among the row's cards, as the list form's setup clause says it (``fixes17.setup_clause``):
    review 27 (q40, en and zh) read a 3B model "on 2 × A10" as odd hardware, where one card serves the load and the
    other is its spare. "" where the re-plan keeps no spare or rents whole servers (that clause words it otherwise)."""
    setup = p.get("setup")
    if not isinstance(setup, dict) or setup.get("tr") != "plan.fix17.setup_cards":
        return ""
    spare = setup.get("spare")
    return spare if isinstance(spare, dict) else ""


def _no_saving_why(fix: Any, lang: str) -> str:
    """By how much its cheaper setups miss the target, so a near miss reads as one (review 25, q40)."""
    why = fix.params.get("why")
    setups = why.get("setups") if isinstance(why, dict) else None
    missed = [int(x["missed"]["ms"]) for x in setups or [] if isinstance(x.get("missed"), dict)]
    if setups and missed:
        return translate(lang, "sentences37_fixes.no_saving_missed", ms=_span(min(missed), max(missed)),
                         target=f"{int(setups[0]['missed']['target']):,}")
    return translate(lang, "sentences37_fixes.no_saving")


def _no_saving_cost(fix: Any, lang: str) -> str:
    """"no cheaper than the plan as asked", with its reason where its cheaper setups miss the TTFT target: 4-bit
    weights shrink the memory, not the prefill compute that sets the first token on the card (blind review 34, q40:
    "the AWQ row needs one line of reasoning … or readers will doubt it"); the bare phrase otherwise."""
    why = fix.params.get("why")
    setups = why.get("setups") if isinstance(why, dict) else None
    ttft = [x for x in setups or [] if isinstance(x.get("missed"), dict) and x["missed"].get("tr") == "plan.fix17.missed_ttft"]
    if fix.id != "quantize_4bit" or not ttft or not fix.params.get("gpu"):
        return translate(lang, "sentences37_fixes.no_saving_cost")
    return translate(lang, "fo43_fixes.no_saving_cost_why", gpu=fix.params["gpu"])


def _relax(near: Any, lang: str, currency: str, result: PlanResult) -> str:
    """After a no-saving row's misses: by how much the nearest misses, against the predictor's error where within
    it, and the relaxation its cost beside is for (``near_miss39``), with the monthly budget that cost needs where
    it is over the budget (as every row over it says); "" where it was not priced."""
    if not isinstance(near, dict):
        return ""
    key = "moe39_near.relax_within" if near.get("within") else "moe39_near.relax"
    out = translate(lang, key, miss=near["miss"], err=near["err"], pct=near["pct"], relaxed=near["relaxed"])
    budget = (result.answers.get("monthly_budget") or {}).get("amount")
    if budget is not None and near["high"] > float(budget):
        out += translate(lang, "rows36.fixes.and") + translate(
            lang, "rows36.fixes.needs_budget", amount=f"{math.ceil(near['high'] / 1000) * 1000:,.0f}", currency=currency)
    return out


def _measure_first(result: PlanResult, near: Any, lang: str, currency: str) -> str:
    """After "TP4 a replica: TP2 misses …": where that miss (the layout search's figure, the one the row prints) is
    within the predictor's median TTFT error at one request, measure TP2 first, with its cost at the target relaxed
    until the screen meets it (review 28, q40: "worth a measurement before it drives the cost"); "" otherwise."""
    t = _fewer_try(result)
    if not isinstance(near, dict) or t is None or t.outcome != "ttft" or not t.value or not t.target \
            or near.get("err_frac") is None or t.tp != near.get("tp"):
        return ""
    miss = t.value / t.target - 1
    if miss > float(near["err_frac"]):
        return ""
    return translate(lang, "moe39_near.measure_first", tp=near["tp"], miss=f"{max(1, round(miss * 100))}",
                     err=near["err"], cost=f"{_span(near['low'], near['high'])} {currency}", relaxed=near["relaxed"])


def _fewer_missed(result: PlanResult, lang: str) -> str:
    """Why "more budget" costs the plan's own layout and not one on fewer cards a replica: the layout search's figure
    where the next smaller TP size that holds the weights misses a target even for one request (review 27, q40: "the
    plan uses TP4 … when a budget-bound plan should show the TP2 minimum", TP2 missing the 2,000 ms TTFT at 2,183)."""
    found = result.layouts_tried
    chosen = found.chosen if found is not None else None
    t = _fewer_try(result)
    if chosen is None or t is None or t.outcome not in ("ttft", "tpot"):
        return ""
    return translate(lang, f"layoutwhy37_row.{t.outcome}", tp=chosen.tp, fewer=t.tp, value=f"{t.value or 0:,.0f}",
                     target=f"{t.target or 0:,.0f}")


def _fewer_try(result: PlanResult) -> Any:
    """The layout tried with the next fewer cards a replica than the chosen one, same weights (None: none)."""
    found = result.layouts_tried
    chosen = found.chosen if found is not None else None
    if found is None or chosen is None:
        return None
    below = [t for t in found.tries if t.weights == chosen.weights and t.tp < chosen.tp
             and t.outcome not in ("weights", "heads", "kv")]
    return max(below, key=lambda x: x.tp, default=None)


def _needs(fixes: Sequence[Any], lang: str, currency: str) -> str:
    budgets = [float(f.with_budget["amount"]) for f in fixes if f.with_budget]
    hours = [float(f.with_deadline_hours) for f in fixes if f.with_deadline_hours]
    parts = []
    if hours:
        parts.append(translate(lang, "rows36.fixes.needs_hours", hours=_span(min(hours), max(hours))))
    if budgets:
        job = any(f.per_job for f in fixes)
        parts.append(translate(lang, "rows36.fixes.needs_budget_job" if job else "rows36.fixes.needs_budget",
                               amount=_span(min(budgets), max(budgets)), currency=currency))
    if fixes[0].id == "more_budget":
        amount = float(fixes[0].params.get("amount") or 0)
        parts.append(translate(lang, "rows36.fixes.needs_budget", amount=round_money(amount), currency=currency))
    return translate(lang, "rows36.fixes.and").join(parts) if parts else "—"


def _cost(fixes: Sequence[Any], lang: str, currency: str) -> str:
    costs: list[MoneyRange] = [f.monthly_cost for f in fixes if f.monthly_cost is not None]
    if not costs:
        return "—"
    span = f"{_span(min(c.low for c in costs), max(c.high for c in costs))} {currency}"
    return translate(lang, "rows36.fixes.cost_job" if any(f.per_job for f in fixes) else "rows36.fixes.cost_month",
                     cost=span)


def table(result: PlanResult, lang: str) -> dict[str, Any] | None:
    """{"one": the change within the budget, "rows": [{"change", "cost", "needs"}]} or None where the rule does not
    apply (no single change within the budget, nothing else offered, or a kind the table cannot name)."""
    one = the_one_fix(result)
    others = [f for f in result.fixes if f is not one]
    if result.feasible or one is None or not others:
        return None
    if any(f.id not in LABELED for f in (*others, *result.fixes_no_saving)):
        return None
    cur = result.costs.currency if result.costs is not None else ""
    # an MoE close to the budget before a far smaller dense model; the smaller models by the budget each needs
    # (review 29: q29, q40; fixtab39)
    # the far smaller model within the budget after the changes closer in quality, as the last resort (review 34,
    # q29): the MoE then takes its place among the rows, not a paragraph of its own
    last = fixtab39.last_resort(one, others)
    lead = None if last else fixtab39.moe_lead(one, others, result)
    near_moe = fixtab39.moe_lead(one, others, result) if last else None
    # the A/B pointer on the first smaller model shown: in the table, where the one within the budget comes last
    ab = one.params.get("ab") if last else ""
    if ab:
        one = one.model_copy(update={"params": {**one.params, "ab": ""}})
    others = fixtab39.ordered([f for f in others if f is not lead], ab)
    ranked: list[tuple[tuple[int, float], dict[str, Any]]] = []
    # the smaller models on more than one card: each row says why its card (review 28, q40)
    mixed = len({f.params.get("gpu") for f in others if f.id == "smaller_model"}) > 1
    budget_asked = (result.answers.get("monthly_budget") or {}).get("amount")
    for f in others:  # one row each: one line, one cost, what it also needs
        fewer = (_fewer_missed(result, lang) + _measure_first(result, f.params.get("near"), lang, cur)) \
            if f.id == "more_budget" else ""
        shown = fixtab39.thinking_said(f) if near_moe is not None and (f.id, f.change) == (
            near_moe.id, near_moe.change) else f  # ``ordered`` copies the smaller models: matched by their change
        ranked.append((fixtab39.quality_rank(f), {
            "change": _label(f.id, [shown], lang, mixed) + fewer + _still_over(f, result, lang),
            "cost": _cost([f], lang, cur), "needs": _needs([f], lang, cur)}))
        extra = _batch_row(f, lang, cur, budget_asked)
        if extra is not None:
            ranked.append((fixtab39.batch_rank(f.params["batch_line"]), extra))
    # closest in quality first; a batch API line among the hosted APIs by its own cost (review 34, q29)
    rows = [r for _, r in sorted(ranked, key=lambda x: x[0])]
    # a change tried that saves nothing (a 4-bit checkpoint whose cheaper setups miss the target) keeps its row,
    # said as no saving and why, not with the plan's own cost again: review 26 (q40 zh) cut the row that repeated the
    # full plan's cost as "left out"; review 27 (q40, en and zh) asked where the 4-bit route, the usual cheapest for a
    # 72B, had gone
    for f in result.fixes_no_saving:
        if f.id in LABELED:
            near = f.params.get("near")  # priced at the target relaxed to its nearest miss (review 28, q40)
            if isinstance(near, dict) and near.get("as_fp8"):  # no cheaper than FP8 at the asked target (review 29)
                rows.append({"change": _label(f.id, [f], lang), "cost": _no_saving_cost(f, lang),
                             "needs": _no_saving_why(f, lang) + translate(lang, "tab39_fixes.as_fp8",
                                                                          relaxed=near["relaxed"])})
                continue
            cost = translate(lang, "moe39_near.cost", cost=f"{_span(near['low'], near['high'])} {cur}", tp=near["tp"],
                             gpu=near["gpu"], relaxed=near["relaxed"]) if isinstance(near, dict) else \
                _no_saving_cost(f, lang)
            rows.append({"change": _label(f.id, [f], lang), "cost": cost,
                         "needs": _no_saving_why(f, lang) + _relax(near, lang, cur, result)})
    over = _over(others, result, lang)
    said = fixtab39.basis(result, others, lang)
    if said:
        over = (over + ("" if lang == "zh_CN" or not over else " ") + said) if over else said
    lead_text = "" if lead is None else fixtab39.lead_text(
        lead, _label(lead.id, [fixtab39.thinking_said(lead)], lang), _cost([lead], lang, cur),
        _needs([lead], lang, cur), result, lang)
    return {"one": one, "rows": rows, "over": over, "lead": lead_text, "last": last,
            "api_row": any(f.id.startswith("hosted_api") for f in others)}  # the order's words name an API row only if any


def _still_over(f: Any, result: PlanResult, lang: str) -> str:
    """A longer batch that meets the deadline yet still costs more than the budget even at its low end says so in
    its row: it lifts the deadline blocker only (blind review 34, q29: "the 158-hour batch row still costs ¥244k–271k
    and fixes nothing"); "" otherwise."""
    budget = (result.answers.get("monthly_budget") or {}).get("amount")
    if f.id != "longer_batch" or not budget or f.monthly_cost is None or f.monthly_cost.low <= float(budget):
        return ""
    cur = result.costs.currency if result.costs is not None else ""
    return translate(lang, "fo43_fixes.still_over", times=about(f.monthly_cost.low / float(budget)),
                     budget=round_money(float(budget)), currency=cur)


def _over(fixes: Sequence[Any], result: PlanResult, lang: str) -> str:
    """"Every self-hosted change here still costs about 1.8–46× your budget of 5,000 CNY a month." where each
    self-hosted row costs more than the budget even at its low end (blind review 26, q40: "the table should also say
    plainly that every self-hosted fix stays 2–40× over the budget"); "" otherwise."""
    budget = result.costs.budget_monthly if result.costs is not None else None
    costs = [f.monthly_cost for f in fixes if f.id in SELF_HOSTED and f.monthly_cost is not None and not f.per_job]
    if not budget or not costs or any(c.low <= budget for c in costs):
        return ""
    lo, hi = about(min(c.low for c in costs) / budget), about(max(c.high for c in costs) / budget)
    return translate(lang, OVER, times=lo if lo == hi else f"{lo}–{hi}", budget=round_money(budget),
                     currency=result.costs.currency)


def _batch_row(f: Any, lang: str, currency: str, budget: float | None) -> dict[str, Any] | None:
    """A provider's batch API priced for the job, carried on the hosted API's fix (``batch_api_line``): its own row
    right after it, its sentence whole (the source's grade, the price against the budget, the change of model and
    the deadline to ask about), as the list form prints it on its own line (s34-small36, review 25 q29: "deserves its
    own line, not a clause buried in the API bullet"). Where it costs more than ``budget`` (the job's, as answered),
    its "also needs" says the budget, rounded up to the thousand as the next step's option says it
    (``batch_api_line.option``), never "—" (review 27, q29 zh: "the DeepSeek-V3 row says '还需要 —' yet costs twice
    the budget")."""
    got = f.params.get("batch_line")
    if not got:
        return None
    needs = "—"
    if budget is not None and got["high"] > float(budget):
        needs = translate(lang, "rows36.fixes.needs_budget_job", amount=f"{math.ceil(got['high'] / 1000) * 1000:,.0f}",
                          currency=currency)
    return {"change": render(lang, got["tr"], got), "cost": translate(
        lang, "rows36.fixes.cost_job", cost=f"{_span(got['low'], got['high'])} {currency}"), "needs": needs}


__all__ = ["LABELED", "table"]
