"""A KV cache short at the full context on failover is a go/no-go with a concrete fix, not a footnote (issue 25,
blind review 32: q19 en "with one replica down each L20 carries 10 requests, but its KV cache holds '9 at the full
5,120-token context' ... add a fifth L20, rather than relying on average lengths"; q42 zh "the simple fix of a fifth
L20 replica (10 per replica on failure, about +25 %, still well within ¥100,000) should be offered, and the L20 plan
should not be signed without it"; q35 "it should end in a concrete ask ... as a gate, not leave it as a footnote").

Where a replica's KV cache holds materially fewer full-context requests than it carries (``kv_condition40.material``:
the line that already makes it a condition of the plan), the fix the plan can size itself is more replicas of the
same kind: N' = the replicas whose serving ones carry the peak within what the cache holds at the full context
(ceil(peak ÷ held)), plus the plan's own spares. Its month is the plan's own cloud rent per GPU (the monthly/reserved
figure page 1 quotes, every GPU every hour, so linear in the GPUs: ``Costs.recommended_monthly`` ÷ ``Costs.gpus``),
judged against the budget as the plan's own month is (the high end, with the priced network line). Where it fits,
the plan is signed only with it: a numbered step before the serve step. Where it does not, or its price is not the
plan's own linear rent (a purchase, a month scaled to the load, a batch), the plan relies on average lengths and the
step is a gate: one replica measured at the full context carrying its failover load, with the options that raise
what the cache holds (the remedies section 2 names; for a latent-attention MoE model, the engines' data-parallel
attention and a higher --gpu-memory-utilization), before committing. Nothing here changes the sized plan.

Since blind review 33 (q19/q42/q21: "the headline '4 × L20' contradicts next step 1, sign only with 5") the engine
puts such replicas in the plan itself where the budget carries them (``kv_plan42``: a rented plan, costed and judged
before the rest reads its month), so its KV cache then holds the failover and this module finds nothing to add there;
what is left here is the measured gate over the budget, and the within-budget step for a plan that module does not
re-size (a two-node plan, a purchase is a gate already).

Where the plan already asks first for a quote whose part would remove the shortfall (quote_first39: q19, q42), the
replicas are said in that step as what to sign failing the quote, not as a step of their own, so page 1 keeps its
pressure test among its three steps. Under a hosted-API lead the
added replicas are the fallback's step ("Only if you move to the self-hosted fallback"), and the gate is not a step
(api_lead_steps: page 1 leaves the fallback's KV condition out; q13's gate put its memo a page over).
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import sizing
from advisor.plan.capacity import serving_replicas
from advisor.plan.context import Ctx
from advisor.plan.kv_fit import DP_ATTENTION_FLAGS, MORE_ATTR, dp_attention_applies, higher_utilization
from advisor.plan.line_total import judged_total
from advisor.plan.money_text import round_money
from advisor.plan.quote_first39 import MATERIAL_SHORTFALL
from advisor.plan.quote_first39 import STEP_ID as QUOTE_STEP
from advisor.plan.result import NextStep, PlanResult, render

STEP_ID = "kv_replicas"
OTHERWISE = "kvfail42.otherwise"  # the fix said in the quote step, failing the quote
GATE_KEY = "kvfail42.step.gate"  # the measured go/no-go, where the replicas do not fit the budget
ATTR = MORE_ATTR  # the fix within the budget, on the led setup (section 2's remedies read it: kv_fit.py)


def material(fit: Any, load: int) -> bool:
    """The cache at the full context holds at least MATERIAL_SHORTFALL fewer than the ``load`` a replica carries
    (kept here, not in ``kv_condition40`` which imports this module for page 1's fix: no import cycle)."""
    return load > 0 and (load - fit.at_full) >= MATERIAL_SHORTFALL * load


def _rent_linear(result: PlanResult, gpus: int) -> bool:
    """The plan's month is its GPUs' monthly/reserved rent, every GPU every hour: linear in the GPUs."""
    c = result.costs
    if c is None or c.per_job or c.recommended_monthly is None or c.cloud_monthly is None or c.gpus != gpus:
        return False
    r, m = c.recommended_monthly, c.cloud_monthly
    return result.deployment_form == "cloud" and (r.low, r.high) == (m.low, m.high)


def sized(ctx: Ctx, ch: sizing.Candidate | None, result: PlanResult) -> dict[str, Any] | None:
    """The fix's figures: {"replicas", "add", "gpus", "load", "full", "was", "down", "context", "within", "priced",
    "low", "high", "more_low", "more_high", "total_low", "total_high", "budget", "currency"}; None where the cache's
    shortfall is not material (or there is none), for a hosted-API lead, or without a peak."""
    if ch is None or not ctx.peak or not ch.replicas or ctx.is_batch or result.capacity is None:
        return None
    fit = result.capacity.kv_fit
    if fit is None or not fit.load_over_full or fit.at_full <= 0:
        return None
    down = bool(fit.failover_per_replica and fit.failover_per_replica > fit.peak_per_replica)
    was = fit.failover_per_replica if down and fit.failover_per_replica else fit.peak_per_replica
    if was > fit.at_typical or not material(fit, was):
        return None  # short even at the average length (the sizing failed), or one request short: said in section 2
    spares = ch.replicas - serving_replicas(ch)
    serving = math.ceil(ctx.peak / fit.at_full)
    replicas = serving + spares
    if replicas <= ch.replicas:
        return None
    gpus = replicas * max(1, ch.tp)
    out: dict[str, Any] = {
        "replicas": replicas, "add": replicas - ch.replicas, "gpus": gpus, "tp": max(1, ch.tp), "gpu": ch.gpu.name,
        "chosen_n": ch.replicas * max(1, ch.tp), "load": math.ceil(ctx.peak / serving), "full": fit.at_full,
        "was": was, "down": down, "context": fit.context, "priced": False, "within": None,
        "budget": ctx.budget_amount, "currency": ctx.currency}  # fmt: skip
    if not _rent_linear(result, ch.replicas * max(1, ch.tp)) or result.costs is None:
        return out
    c = result.costs
    assert c.recommended_monthly is not None
    per = (c.recommended_monthly.low / c.gpus, c.recommended_monthly.high / c.gpus)
    low, high = per[0] * gpus, per[1] * gpus
    more = (low - c.recommended_monthly.low, high - c.recommended_monthly.high)
    total = judged_total(c)  # with the priced line, as the budget was judged
    line = (total.low - c.recommended_monthly.low, total.high - c.recommended_monthly.high) if total else (0.0, 0.0)
    out.update(priced=True, low=low, high=high, more_low=more[0], more_high=more[1], total_low=low + line[0],
               total_high=high + line[1], line=total is not None and total.high != c.recommended_monthly.high)
    if ctx.budget_amount is not None:
        out["within"] = high + line[1] <= ctx.budget_amount
    return out


def _money(v: float) -> str:
    return round_money(v)


def _options(ctx: Ctx, ch: sizing.Candidate) -> dict[str, Any]:
    """What to run the measured gate with: data-parallel attention and a higher --gpu-memory-utilization for a
    latent-attention MoE model (kv_fit.dp_attention_applies), else the engine as the serve command sets it."""
    raised = higher_utilization(ctx, ch)  # the flag sized, not "a higher … than the serve command's" (review 35, q35)
    util = {"util": f"{raised.utilization:g}", "gib": f"{raised.kv_gib:g}", "full": raised.full_fit} \
        if raised is not None and (raised.full_fit or 0) > ch.memory.max_concurrency_kv else None
    if dp_attention_applies(ctx, ch):
        flags = {"sglang": DP_ATTENTION_FLAGS["sglang"], "vllm": DP_ATTENTION_FLAGS["vllm"]}
        return {"tr": "rep44.opts.dp_util", **flags, **util} if util else {"tr": "kvfail42.opts.dp", **flags}
    return {"tr": "rep44.opts.util", **util} if util else {"tr": "kvfail42.opts.plain"}


def step(ctx: Ctx, ch: sizing.Candidate | None, fix: dict[str, Any]) -> NextStep:
    """The numbered step: sign only with the added replicas where they fit the budget, else the measured gate."""
    assert ch is not None
    cur = fix["currency"] or ""
    p: dict[str, Any] = {
        "gpu": fix["gpu"], "chosen_n": fix["chosen_n"], "replicas": fix["replicas"], "gpus": fix["gpus"],
        "load": fix["load"], "full": fix["full"], "was": fix["was"], "context": f"{fix['context']:,}",
        "when": {"tr": "kvfail42.when.down" if fix["down"] else "kvfail42.when.peak"},
        "more": {"tr": "kvfail42.more.one" if fix["add"] == 1 else "kvfail42.more.many", "add": fix["add"],
                 "replicas": fix["replicas"]}}  # fmt: skip
    if fix["priced"]:
        p["cost"] = {"tr": "kvfail42.cost", "low": _money(fix["low"]), "high": _money(fix["high"]), "gpus": fix["gpus"],
                     "more_low": _money(fix["more_low"]), "more_high": _money(fix["more_high"]), "currency": cur}
    if fix["priced"] and fix["within"] is not False:
        budget = ({"tr": "kvfail42.budget.within_line" if fix.get("line") else "kvfail42.budget.within",
                   "budget": _money(fix["budget"]), "currency": cur, "total_low": _money(fix["total_low"]),
                   "total_high": _money(fix["total_high"])} if fix["within"] else "")  # fmt: skip
        return NextStep(id=STEP_ID, key="kvfail42.step.add", params={**p, "budget": budget})
    if fix["priced"]:
        p["over"] = {"tr": "kvfail42.over.budget", "low": _money(fix["low"]), "high": _money(fix["high"]),
                     "budget": _money(fix["budget"]),
                     "currency": cur, "more": p["more"], "gpus": fix["gpus"], "gpu": fix["gpu"]}
    else:
        p["over"] = {"tr": "kvfail42.over.unpriced", "more": p["more"], "gpus": fix["gpus"], "gpu": fix["gpu"]}
    return NextStep(id=STEP_ID, key=GATE_KEY, params={**p, "opts": _options(ctx, ch)})


def with_step(steps: list[NextStep], ctx: Ctx, ch: sizing.Candidate | None, result: PlanResult) -> list[NextStep]:
    """``steps`` with the fix before the serve step (after the quote step, whose part would mend it too: then the
    fix is what to sign the chosen part with, failing that quote); unchanged where ``sized`` finds none."""
    fix = sized(ctx, ch, result)
    if fix is None or any(s.id == STEP_ID for s in steps):
        return steps
    s = step(ctx, ch, fix)
    quote = next((i for i, x in enumerate(steps) if x.id == QUOTE_STEP), None)
    g = result.gpu_choice
    if quote is not None and g is not None and g.quote_switch and s.key == "kvfail42.step.add" \
            and steps[quote].otherwise is None:
        # the fix for staying on the chosen part, the quote failing, said in the quote step as what to do then (review
        # 32, q42 zh: "the L20 plan should not be signed without it"); one step, so page 1 keeps its pressure test
        out = list(steps)
        cost = s.params.get("cost") or {}
        out[quote] = steps[quote].model_copy(update={"otherwise": {
            **s.params, "tr": OTHERWISE, "chosen": g.chosen.gpu_name, "unless": "",
            "more_low": cost.get("more_low", ""), "more_high": cost.get("more_high", ""),
            "currency": cost.get("currency", "")}})
        return out
    if quote is not None and g is not None and g.quote_switch:
        s.params["unless"] = {"tr": "kvfail42.unless", "n": quote + 1, "gpu": g.quote_switch["gpu"],
                             "chosen": g.chosen.gpu_name}
    else:
        s.params["unless"] = ""
    out = list(steps)
    at = next((i for i, x in enumerate(out) if x.id == "serve"), None)
    if at is None:
        at = quote + 1 if quote is not None else 0
    out.insert(at, s)
    return out


def attach(ch: sizing.Candidate | None, fix: dict[str, Any] | None) -> bool:
    """Note a fix within the budget on the led setup, for section 2's remedies (kv_fit.py reads it, as kv_card's);
    True where one was noted."""
    if ch is None or fix is None or not fix["priced"] or fix["within"] is False:
        return False
    setattr(ch, ATTR, fix)
    return True


def of(ch: sizing.Candidate | None) -> dict[str, Any] | None:
    return getattr(ch, ATTR, None) if ch is not None else None


def _step(result: PlanResult) -> tuple[int, NextStep] | None:
    """(number, the step) of the fix: its own step, or the quote step that says it as what to do failing the quote
    (then returned with the fix's key and parameters)."""
    for i, s in enumerate(result.next_steps):
        if s.id == STEP_ID:
            return i + 1, s
        if s.id == QUOTE_STEP and s.otherwise and s.otherwise.get("tr") == OTHERWISE:
            return i + 1, NextStep(id=STEP_ID, key=OTHERWISE, params=dict(s.otherwise))
    return None


def fix_clause(result: PlanResult, lang: str, *, quoted: bool) -> str:
    """Page 1's memory condition's fix from the step: the replicas to add (after the quote step's sentence where
    ``quoted``), or the step's go/no-go test; "" where the plan has no such step."""
    found = _step(result)
    if found is None:
        return ""
    n, s = found
    p = s.params
    if s.key == GATE_KEY:
        return render(lang, "kvfail42.fix.gate", {"n": n, "was": p["was"]})
    cost = p.get("cost") or {}
    params = {"n": n, "more": p["more"], "load": p["load"], "when": p["when"], "more_low": cost.get("more_low", ""),
              "more_high": cost.get("more_high", ""), "currency": cost.get("currency", ""),
              "within": {"tr": "kvfail42.fix.within"} if p.get("budget") else ""}
    if quoted and s.key == OTHERWISE:
        return ""  # the quote step says it, and the feasibility row names both ways with the step's number
    return render(lang, "kvfail42.fix.add", params)


def row_clause(result: PlanResult, lang: str, params: dict[str, Any], quote_n: int | None) -> str:
    """The feasibility row's KV clause with the step (``params``: edge_gate41's own); "" where there is none."""
    found = _step(result)
    if found is None:
        return ""
    m, s = found
    if s.key == GATE_KEY:
        # beside page 1's memory condition, which gives the figures: the row points to it (rep44, review 35, q35)
        return render(lang, "rep44.row.kv_gate" if params.get("where") else "kvfail42.row.kv_gate", {**params, "m": m})
    g = result.gpu_choice
    more = {"gpus": s.params["gpus"], "chosen": s.params["gpu"], "m": m}
    if s.key == OTHERWISE and g is not None and g.quote_switch:
        return render(lang, "kvfail42.row.kv_quote_add", {**params, **more, "gpu": g.quote_switch["gpu"]})
    return render(lang, "kvfail42.row.kv_add", {**params, **more})


def number(result: PlanResult) -> int | None:
    """The number of the step that says the fix (its own, or the quote step's)."""
    found = _step(result)
    return found[0] if found is not None else None


__all__ = ["ATTR", "OTHERWISE", "STEP_ID", "attach", "fix_clause", "number", "of", "row_clause", "sized", "step", "with_step"]
