"""The next steps start on the critical path (issue #25, blind review of session 18):

- a launch gated by a non-technical step (a filing, an approval, a purchase's lead time) starts that step first, with
  the other blocking steps named beside it (q30: "leads with pressure tests when the team should start its ICP and
  generative-AI filings now");
- an infeasible plan starts with the decision that makes it feasible, never with testing the setup it just ruled
  out (q40: "asks the team to load-test a plan it has already called infeasible"); when money is what is missing,
  that step says what the stated budget does buy (q29/q40: "say plainly what the budget does buy").

The technical steps follow, in the order the plan gave them; page 1 still shows the first three."""

from __future__ import annotations

import re
import shlex
from typing import Any

from advisor.catalog import get_model
from advisor.i18n import LANGUAGES, translate
from advisor.plan import (
    batch_api_line,
    batch_clock43,
    batch_words,
    filedwait38,
    filing_order,
    fixtab39,
    placeholder_purchase,
    procure36_rules,
    rent_cheaper_tie,
    replan_steps41,
    sales_deadline,
    sales_wait,
)
from advisor.plan.money_text import money_range
from advisor.plan.result import Fix, NextStep, PlanResult, Timeline, TimelineItem, _render_tr

GATE_IDS = ("gate", "waits")  # the step that starts what the launch waits for
DECIDE_ID = "decide_fix"  # the decision that makes an infeasible plan feasible
DECIDE_CHOICE = "numbers1_34.next.decide_choice"  # the same, left to the team among changes that trade quality
DECIDE_LEAD = "fixlead40.next.decide_choice"
DECIDE_LAST = "fo43_next.decide_choice"  # the same, closest in quality first, the far smaller model last (review 34)  # the same, with a change near the budget set out first (fixtab39)
# the changes that give up answer quality to fit (a smaller model): never pre-selected where others keep it
QUALITY_CHANGES = ("smaller_model", "hosted_smaller")
BENCH_IDS = ("serve", "ramp", "soak", "quant_ab", "batch_throughput", "fleet_load", "api_trial")
_HOSTED = ("hosted_api", "hosted_api_job")
_SETUP = "setup"
_PURCHASE = ("procurement", "procurement_office")
# the quotes step of a purchase on placeholder prices, or on a dated price older than the part's last export changes
# (s20-owncost20), and the gate step each folds into
_GATE_QUOTES = {"rows18.next.quotes_purchase": "steps18.next.gate_quotes",
                "owncost20.next.quotes_purchase_stale": "owncost20.next.gate_quotes_stale",
                **rent_cheaper_tie.GATE_KEYS,  # s25-tie25: with the condition to order on
                **placeholder_purchase.BUDGET_GATE_KEYS}  # s31-pricegate32: the monthly budget's gate
# the model a test command asks the server for (``advisor bench --model WORD``)
_MODEL_ARG = re.compile(r"(--model )('[^']*'|\S+)")
# a step asked before all others, not beside them: paid subject tutoring for pupils (双减, s20-duties20, q07)
ASK_FIRST = "double_reduction_check"


def critical_path_first(result: PlanResult) -> list[NextStep]:
    """``result.next_steps`` with the gate step, then (infeasible) the decision, before the technical steps."""
    rest = after_critical_path(result.next_steps)
    lead: list[NextStep] = []
    asked_first = any(i.id == ASK_FIRST for i in result.timeline.items)
    if asked_first:  # 双减: the question that decides whether the rest is worth starting
        lead.append(NextStep(id="ask_first", key="duties20.next.double_reduction", params={}))
    gate = _gate_step(result.timeline, rest, no_running_budget(result.answers), batch_words.clock(result.answers))
    if gate is not None:
        lead.append(gate)
        if gate.key == sales_wait.GATE_KEY:  # the quote step is the gate step: said once
            rest = [s for s in rest if s.key != sales_wait.CONFIRM_KEY]
            now = sales_deadline.start_now(result)  # a deadline: start on the on-demand part, as page 1 says (q32)
            if now is not None:
                lead[-1] = gate.model_copy(update={"key": sales_deadline.STEP_KEY, "params": {
                    **gate.params, **{f"od_{k}": now[k] for k in ("n", "gpu", "per_hour")},
                    "currency": now["currency"], "deadline": now["deadline"], "slack": now["slack"]}})
        if gate.key in _GATE_QUOTES.values():  # the quotes step is folded into the gate step
            rest = [s for s in rest if s.key not in _GATE_QUOTES]
    if not result.feasible and (result.fixes or not asked_first) and not replanned_already(result):
        decide = _decide_step(result)
        # review 31 (q40, q30): the steps after the decision follow the path it names (``replan_steps41``)
        decide, rest = replan_steps41.after_decision(decide, the_one_fix(result), rest)
        lead.append(decide)  # no change of answers to offer: the question above is the decision
        rest = _tests_on_the_fix(result, decide, rest)
    return lead + rest


def _tests_on_the_fix(result: PlanResult, decide: NextStep, steps: list[NextStep]) -> list[NextStep]:
    """The test commands after "decide on the one change … (another model) and re-plan" ask for that model, not the
    one just ruled out (round 13, q29: "next step 2 benchmarks Llama-3.3-70B right after step 1 says to re-plan on
    the 7B"). A published model is served under its repository id (``context._served_name``); a fine-tune keeps its
    own name (a smaller base model is not its checkpoint), and a choice among several changes leaves them as they are."""
    one = the_one_fix(result) if decide.key in ("steps18.next.decide_one", DECIDE_CHOICE, DECIDE_LEAD,
                                                DECIDE_LAST) else None
    if decide.key in (DECIDE_LEAD, DECIDE_LAST) and one is not None:  # the tests follow the change page 1 sets out first
        one = _lead(result, one) or one
    model_id = one.change.get("model") if one is not None else None
    if not model_id or (result.answers or {}).get("model_customisation") == "fine_tuned":
        return steps
    spec = get_model(model_id)
    served = shlex.quote(spec.hf_repo or spec.id)
    return [s.model_copy(update={"command": _MODEL_ARG.sub(lambda m: m.group(1) + served, s.command)})
            if s.id in BENCH_IDS and s.command else s for s in steps]  # fmt: skip


def the_one_fix(result: PlanResult) -> Fix | None:
    """The one change that makes the plan feasible alone within its budget (what "decide_one" names; page 1's closest
    option names it where it is the hosted API, ``closest_api``)."""
    alone = _alone(result.fixes)
    return alone[0] if len(alone) == 1 else None



def replanned_already(result: PlanResult) -> bool:
    """The one change on offer is other GPUs, and the setup the memo sets out (its "closest workable option") is the
    one that change names: the steps test that setup, and "first decide on the one change … and re-plan" asks for a
    plan the memo already is (s23-pages23, re-check 12b, q20)."""
    if len(result.fixes) != 1 or result.fixes[0].id != "other_gpus":
        return False
    p, hw = result.fixes[0].params, result.hardware
    return hw.gpu_name is not None and p.get("gpu") == hw.gpu_name and p.get("total") == hw.total_gpus \
        and p.get("weights") == hw.weights


def after_critical_path(steps: list[NextStep]) -> list[NextStep]:
    """The technical steps: those after the gate step and the decision (what an older rule put first comes first
    here, e.g. the quote for fewer cards)."""
    return [s for s in steps if s.id not in (*GATE_IDS, DECIDE_ID)]


def _blocking(tl: Timeline) -> list[TimelineItem]:
    return [i for i in tl.items if i.blocking and i.id != _SETUP]


# a step that need not finish before launch but is started now beside a long gate: the classified protection (等保)
# grading of a level-2 system, filed within 30 days of going live (blind review 15, q30: "等保 should start now")
START_NOW = {"mlps_filing": "gates25.next.other_mlps",
             filedwait38.ALGORITHM_STEP: filedwait38.ALGORITHM_NEXT}  # prepared with the generative-AI filing (q30)


def _start_now(i: TimelineItem) -> str | None:
    """A running service's grading is reviewed, not graded and first filed after going live (q26, review 20b)."""
    if i.id == "mlps_filing" and i.label_key == "misc32.timeline.mlps_running":
        return "misc32.next.other_mlps_running"
    return START_NOW.get(i.id)


def _others(items: list[TimelineItem], gate: TimelineItem | None) -> list[Any]:
    """The other blocking steps, each with its days where known, for one list."""
    # a step made with the gate (the algorithm filing, inside the generative-AI filing's days: s37-seq) is started
    # with it, as one that need not finish first is
    return [{"tr": _start_now(i) if not i.blocking or i.within else
             "steps18.next.other_days" if i.length_known else "steps18.next.other_unknown",
             "step": {"tr": i.label_key, **i.label_params, "clause": True}, "days": i.days_in("en") if i.length_known else ""}
            for i in items if i is not gate and i.id != ASK_FIRST]  # fmt: skip


def _alongside_key(gate: TimelineItem, items: list[TimelineItem]) -> str:
    """"Start alongside it: …", and where the B25 licence and the generative-AI filing both gate the launch, the
    order said as unknown: no source here says the filing waits for the licence, so they start together and the
    provincial CAC is asked (round 14, q07/q11: the serial path was "asserted without a source"; s25-dates25)."""
    return "filing25.next.alongside_order" if filing_order.both_gate(gate, items) else "steps18.next.alongside"


def no_running_budget(answers: dict[str, Any]) -> bool:
    """The team pays for hardware once and has no monthly budget: a GPU rented for the tests is a bill it cannot pay
    (blind review 20b, q17: "如能租到同型号 GPU…在租用的 GPU 上进行" in a grant-only plan)."""
    return bool(answers.get("capex_budget")) and not answers.get("monthly_budget")


def _gate_step(tl: Timeline, steps: list[NextStep], no_rent: bool = False,
               batch: dict[str, Any] | None = None) -> NextStep | None:
    """The timed step that sets the earliest launch, started now (others beside it); or, with none timed, the
    steps of unknown length the launch waits for (``batch``: an offline job's, said as the job's start and, with a
    deadline, its clock that starts only after them: ``batch_words.clock``)."""
    gate = tl.gate
    items = _blocking(tl)
    if gate is None:
        untimed = tl.untimed
        if not untimed:
            return None
        merged = sales_wait.as_gate(untimed, steps)  # the delivery asked in the quote step for it (s33, q32)
        if merged is not None:
            return merged
        waits = [{"tr": i.label_key, **i.label_params, "clause": True} for i in untimed]
        if batch is not None:  # a deadline: both readings of its clock, the approved provider (review 34, q06/q28)
            return NextStep(id="waits", key=batch_clock43.step_key(batch["key"], untimed),
                            params={"steps": waits, **batch["params"]})
        node = tl.node_only
        if node is not None:  # they hold the overseas node alone: the mainland node launches first (s37-seq, q34)
            return NextStep(id="waits", key="seq39_next.waits_node",
                            params={"steps": waits, "region": {"tr": f"plan.region.{node}"}})
        return NextStep(id="waits", key="steps18.next.waits", params={"steps": waits})
    # an institution's procurement process comes before the order, not alongside it (s34-procure36, q17)
    first = gate.id in _PURCHASE and any(i.id == procure36_rules.STEP_ID for i in items)
    others = _others([i for i in items if not (first and i.id == procure36_rules.STEP_ID)]
                     + [i for i in tl.items if not i.blocking and i.id in START_NOW], gate)
    params: dict[str, Any] = {"step": {"tr": gate.label_key, **gate.label_params, "clause": True}, "days": gate.days_in("en"),
                              "others": {"tr": _alongside_key(gate, items), "steps": others} if others else ""}
    if first:
        params["others"] = {"tr": "procure36_next.process_first", "rest": params["others"]}
    if gate.id in _PURCHASE:
        quotes = next((s for s in steps if s.key in _GATE_QUOTES), None)
        if quotes is not None:  # placeholder or stale prices: the vendors' quotes are how the purchase starts (q31)
            return NextStep(id="gate", key=_GATE_QUOTES[quotes.key], params={**params, **quotes.params})
        # no running budget: the tests wait for a vendor's loaner or the delivered server's acceptance, not a rental
        key = "campus32.next.gate_purchase_no_rent" if no_rent else "steps18.next.gate_purchase"
        return NextStep(id="gate", key=key, params=params)
    # the launch is the gate's days plus the setup's (engine._timeline): said so, not "fit inside that time" beside
    # a launch 1–5 days later (q16: "91–125 days contradicts 'the technical steps fit inside', which makes it 90–120")
    setup = next((i for i in tl.items if i.id == "setup" and i.length_known and i.days_high), None)
    if setup is not None:
        return NextStep(id="gate", key="arith33.next.gate", params={**params, "setup": setup.days_in("en")})
    return NextStep(id="gate", key="steps18.next.gate", params=params)


def _fix_label(f: Fix) -> dict[str, Any]:
    model = f.params.get("model")
    if f.id == "smaller_model" and model:
        return {"tr": "steps18.fix.smaller_model_named", "model": model}
    return {"tr": f"steps18.fix.{f.id}"}


def _alone(fixes: list[Fix]) -> list[Fix]:
    """Changes that make it feasible within the budget as given (s19-volume19, q40: on its customers' people a
    hosted API fits the 5,000 CNY; "nothing above fits the budget" was said beside it)."""
    return [f for f in fixes if not (f.with_budget or f.id == "more_budget") and not f.with_deadline_hours]


def _option(f: Fix, currency: str) -> dict[str, Any]:
    """One change in the neutral choice: its label, its cost, and the budget or deadline it needs beside it."""
    need: dict[str, Any] | str = ""
    if f.with_budget and f.with_deadline_hours:
        need = {"tr": "numbers1_34.next.need.both", "hours": f"{f.with_deadline_hours:,.0f}",
                "amount": f"{float(f.with_budget['amount']):,.0f}", "currency": f.with_budget.get("currency", currency)}
    elif f.with_budget:
        need = {"tr": "numbers1_34.next.need.budget", "amount": f"{float(f.with_budget['amount']):,.0f}",
                "currency": f.with_budget.get("currency", currency)}
    elif f.with_deadline_hours:
        need = {"tr": "numbers1_34.next.need.deadline", "hours": f"{f.with_deadline_hours:,.0f}"}
    cost = money_range(f.monthly_cost, currency) if f.monthly_cost is not None else ""
    if not cost:
        return {"tr": "numbers1_34.next.option_bare", "fix": _fix_label(f), "need": need}
    return {"tr": "numbers1_34.next.option", "fix": _fix_label(f), "cost": cost, "need": need,
            "per": {"tr": "numbers1_34.per.job" if f.per_job else "numbers1_34.per.month"}}


def _decide_choice(result: PlanResult, one: Fix) -> NextStep:
    """The choice left to the team where the one change within the budget gives up quality (a smaller model) and
    others keep it at a cost (s33-numbers1, blind review 23 q29: "Next step 1 steers the team to 'a smaller model,
    Qwen3 4B' as *the* change. That is a product decision the memo should not pre-empt"): every change with its cost
    and what it needs, in the fix list's order, after a quality test; the tests below are for the one within budget."""
    cur = result.costs.currency
    asked = (result.answers.get("monthly_budget") or {}).get("amount")  # the job's budget as answered
    lead = _lead(result, one)
    fixes = result.fixes if lead is None else [lead, *(f for f in result.fixes if f is not lead)]
    others = [f for f in result.fixes if f is not one]
    last = not any(f.id not in fixtab39.LABELED for f in (*others, *result.fixes_no_saving)) \
        and fixtab39.last_resort(one, others)
    if last:  # as page 1's table: closest in quality first, the far smaller model last (review 34, q29)
        ranked = [(fixtab39.quality_rank(f), o) for f in others for o in (_option(f, cur),)]
        ranked += [(fixtab39.batch_rank(f.params["batch_line"]), o) for f in others
                   for o in batch_api_line.option(f, cur, asked)]
        options = [o for _, o in sorted(ranked, key=lambda x: x[0])] + [_option(one, cur)]
    else:
        options = [o for f in fixes for o in (_option(f, cur), *batch_api_line.option(f, cur, asked))]
    # joined per language with a separator of its own: the labels hold commas ("a smaller model, Qwen3 4B")
    joined = {lang: translate(lang, "numbers1_34.next.options_sep").join(
        _render_tr(lang, o) for o in options) for lang in LANGUAGES}
    key = DECIDE_CHOICE if lead is None else (DECIDE_LAST if last else DECIDE_LEAD)
    return NextStep(id=DECIDE_ID, key=key,
                    params={"options": {"by_lang": joined}, "fix": _fix_label(one if lead is None else lead)})


def _lead(result: PlanResult, one: Fix) -> Fix | None:
    """The change page 1 sets out before ``one`` (an MoE near the budget before a far smaller model,
    ``fixtab39.moe_lead``): named first among the options and the one the test commands ask for (review 29, q29:
    "the bench/next step names the 4B, not the leading alternative")."""
    others = [f for f in result.fixes if f is not one]
    if any(f.id not in fixtab39.LABELED for f in (*others, *result.fixes_no_saving)):
        return None
    return fixtab39.moe_lead(one, others, result)


def _decide_step(result: PlanResult) -> NextStep:
    fixes = result.fixes
    funded = [f for f in fixes if f.with_budget or f.id == "more_budget"]
    alone = _alone(fixes)
    if funded and not alone:  # money is what is missing: the least extra, and what the budget as given buys
        return _decide_budget(result, funded)
    if len(alone) == 1 and alone[0].id in QUALITY_CHANGES and len(fixes) > 1:
        return _decide_choice(result, alone[0])
    if len(alone) == 1:
        return NextStep(id=DECIDE_ID, key="steps18.next.decide_one", params={"fix": _fix_label(alone[0])})
    if alone:
        return NextStep(id=DECIDE_ID, key="steps18.next.decide_among",
                        params={"n": len(alone), "fixes": [_fix_label(f) for f in alone]})
    return NextStep(id=DECIDE_ID, key="steps18.next.decide_none", params={})


def _needed(f: Fix) -> float:
    if f.with_budget:
        return float(f.with_budget["amount"])
    return float(f.params.get("amount") or (f.monthly_cost.high if f.monthly_cost else 0) or 0)


def _decide_budget(result: PlanResult, funded: list[Fix]) -> NextStep:
    least = min(funded, key=_needed)
    per_job = least.per_job
    currency = (least.with_budget or {}).get("currency") or least.params.get("currency") or result.costs.currency
    params: dict[str, Any] = {
        "fix": _fix_label(least), "amount": f"{_needed(least):,.0f}", "currency": currency,
        "per": {"tr": "steps18.per.job" if per_job else "steps18.per.month"}, "buys": _budget_buys(result, currency),
        "also": {"tr": "steps18.also_deadline", "hours": f"{least.with_deadline_hours:,.0f}"}
        if least.with_deadline_hours else "",
    }  # fmt: skip
    return NextStep(id=DECIDE_ID, key="steps18.next.decide_budget", params=params)


def _budget_buys(result: PlanResult, currency: str) -> Any:
    """"20,000 CNY pays for about 13–19 % of the job through a hosted API": the budget against the hosted price of
    the same tokens (the plan's own figure), or "" when the plan has no such figure or the budget may cover it."""
    budget = (result.answers.get("monthly_budget") or {}).get("amount")
    hosted = next((f for f in result.fixes if f.id in _HOSTED and f.monthly_cost is not None), None)
    if not budget or hosted is None or hosted.monthly_cost is None:
        return ""
    low, high = hosted.monthly_cost.low, hosted.monthly_cost.high
    if low is None or high is None or low <= 0 or budget >= low:
        return ""
    lo, hi = round(100 * budget / high), round(100 * budget / low)
    same = {"tr": "steps18.buys.job" if hosted.per_job else "steps18.buys.month", "budget": f"{budget:,.0f}",
            "currency": currency, "pct": f"{lo}–{hi}" if lo != hi else str(lo)}
    # and of a smaller model's hosted API, the nearest the budget comes to the whole volume (s19, q40)
    smaller = next((f for f in result.fixes if f.id == "hosted_smaller" and f.monthly_cost is not None), None)
    if smaller is None or smaller.monthly_cost is None or smaller.monthly_cost.high <= budget:
        return same
    s_lo = round(100 * budget / smaller.monthly_cost.high)
    s_hi = round(100 * budget / max(smaller.monthly_cost.low, 1e-9))
    return {"tr": "plan.gpu19.buys_two", "same": same, "smaller": {
        "tr": "plan.gpu19.buys_smaller", "model": smaller.params.get("model", ""),
        "pct": f"{s_lo}–{s_hi}" if s_lo != s_hi else str(s_lo)}}


__all__ = ["BENCH_IDS", "DECIDE_ID", "GATE_IDS", "after_critical_path", "critical_path_first", "replanned_already", "the_one_fix"]
