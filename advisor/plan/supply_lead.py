"""The plan sized on a part the team can get in its region and in time; the cheaper part named as the one to quote
(issue #25, blind review 25: q37 "an L40S that 'no provider in Singapore is known to sell' … size on what is actually
offered in Singapore"; q25 "show the sourced fallback in the headline"; q32 "lead with the L20 setup the team will
actually run in 10 days, with its command, and show H20 as a later swap"; q28 "the primary H20 rests on a grade-U
price, sold through its sales with delivery unknown, against a 48-hour deadline … make the L20 the primary"; q43
"'feasible: yes' overclaims … mark feasibility as conditional").

The engine already knows both facts; until now they only decorated a plan sized on the cheaper part:

- ``in_region_fallback``: the Hong Kong / Singapore part is priced by another region's row × the uplift (no provider
  there is known to sell it), and the best part priced by a row of the region, checked on the predictor;
- ``sales_deadline`` / ``sales_job``: the part is sold only through the cloud's sales, delivery unknown, against a
  launch deadline or a job's deadline, with a part rented on demand at a listed price beside it.

Where such a part exists, meets the targets and fits the budget, the plan is planned again with it as the only GPU
allowed and that plan becomes the body (setup, serve command, costs, curve, steps): the part it can rent today in
its region. The cheaper part is named as the one to quote, with the figure under which it would pay to switch
(this plan's own low end, a sourced price). Where no such part exists, the plan stays on the unconfirmed part and the
feasibility row says the condition (``feasible_text``); the engine's ``feasible`` boolean is unchanged. Decided from
the plan's own records, never from a scenario.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import batch_job37
from advisor.plan.data import facts
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, NextStep, PlanResult, render
from advisor.plan.sales_deadline import start_now
from advisor.plan.sales_only import listed_on_request
from advisor.plan.sales_wait import RENTED_FORMS
from advisor.plan.supply_params import params

STEP_ID = "supply_quote"
# a launch deadline this near: the quote to switch parts is a later optimisation, after the launch's steps (review 31)
SOON_DAYS = 30
BATCH_FINDING = "sizing.batch_gpu_choice"  # a job's why-this-GPU finding: its runner-up part (``sales_job``)


def _budget_high(result: PlanResult) -> float | None:
    c = result.costs
    return c.budget_monthly if c is not None else None


def _sales_job_part(result: PlanResult) -> str | None:
    """A job on a sales-only part with a deadline: its runner-up part, rented by the hour at a sourced price."""
    if not (result.answers or {}).get("batch_deadline_hours") or result.deployment_form not in RENTED_FORMS:
        return None
    f = result.finding(BATCH_FINDING)
    gid = f.params.get("other_id") if f is not None else None
    if not gid or listed_on_request(gid) or gid in set(facts()["gpu_availability"]["export_sensitive"]):
        return None
    return str(gid)


def pick(result: PlanResult) -> tuple[str, str] | None:
    """(kind, GPU id to size the plan on): "region" where the part is not known to be sold in the region and a part
    priced there meets the target within the budget; "sales" where the part is sold only through the sales with its
    delivery unknown against a deadline, and a part rented on demand at a listed price fits. None elsewhere (an
    infeasible plan, a two-node plan, the team's fleet, a part already had)."""
    hw = result.hardware
    if not result.feasible or result.nodes or not hw.gpu or result.deployment_form not in RENTED_FORMS:
        return None
    if result.start_with is not None and result.start_with.form == "hosted_api":  # an API leads; this plan is its
        return None  # fallback, and an "only GPU allowed" re-plan would read as the team fixing the GPU (q12/q13)
    fb = result.in_region_fallback
    if fb is not None:
        return ("region", str(fb["gpu_id"])) if fits_region(fb, _budget_high(result)) else None
    if not listed_on_request(hw.gpu):
        return None
    if start_now(result) is not None:  # a launch deadline the delivery could miss, an on-demand part within budget
        other = start_now(result) or {}
        g = result.gpu_choice
        gid = next((a.gpu for a in (g.alternatives if g is not None else []) if a.gpu_name == other.get("gpu")), None)
        return ("sales", gid) if gid else None
    gid = _sales_job_part(result)
    return ("sales", gid) if gid else None


def fits_region(fb: dict[str, Any], budget: float | None) -> bool:
    """The part priced by a row of the region (``in_region_fallback``) meets the target, its GPU rent within
    ``budget`` (a month, the plan's currency; None: no budget)."""
    return bool(fb["meets"]) and (budget is None or fb["monthly"][1] <= budget)


def with_step(steps: list[NextStep], switch: dict[str, Any]) -> list[NextStep]:
    """The step that quotes the part set aside, before the serve step (the second step where there is none)."""
    out = list(steps)
    at = next((i for i, s in enumerate(out) if s.id == "serve"), min(1, len(out)))
    if switch.get("kind") == "sales" and switch.get("deadline_days") is not None \
            and float(switch["deadline_days"]) <= SOON_DAYS:
        # blind review 31 (q32: "Next step 1 (quote 3 × H20 and maybe switch) is noise for a 10-day launch … move it
        # to a later optimisation"): the plan launches on the part it rents today and meets its targets, so the
        # quote for the cheaper part comes after the launch's own steps
        at = len(out)
    out.insert(at, NextStep(id=STEP_ID, key=_key(switch, "next"), params=params(switch)))
    return out


def lead(result: PlanResult, replan: Callable[[dict[str, Any]], PlanResult | None]) -> PlanResult:
    """``result`` re-planned on the part ``pick`` names, with the cheaper part named as the one to quote
    (``supply_switch``), where that plan is feasible within the budget; ``result`` unchanged otherwise.
    ``replan``: the plan of the answers with a change (the engine's own ``plan``)."""
    p = pick(result)
    if p is None:
        return result
    kind, gid = p
    if ((result.answers or {}).get("gpu_constraint") or []) == [gid]:
        return result
    r = replan({"gpu_constraint": [gid]})
    if r is None or not r.feasible or r.hardware.gpu != gid or r.costs is None or r.costs.within_budget is False \
            or r.costs.recommended_monthly is None or r.deployment_form != result.deployment_form \
            or _weighed(r) != _weighed(result) \
            or ((_kv_short(r) or _kv_added(r)) and not (_kv_short(result) or _kv_added(result))):
        # the same decision on another part, the API weighed
        return result  # alike, its KV cache holding its peak at the full context where the plan's did
    if kind == "region" and _dearer_per_user(result, r):
        return result  # the stand-in part stays, its quote first and the listed part its plan B (review 35, q37)
    hw, tl = result.hardware, result.timeline
    old = result.costs.recommended_monthly if result.costs is not None else None
    switch: dict[str, Any] = {
        "kind": kind, "gpu_id": hw.gpu, "gpu": hw.gpu_name or hw.gpu, "n": hw.total_gpus, "region": result.region,
        "lead_gpu": r.hardware.gpu_name or gid, "lead_n": r.hardware.total_gpus,
        "below": round(r.costs.recommended_monthly.low, 2), "currency": r.costs.currency,
        "per_job": bool(r.costs.per_job),
        "was": [round(old.low, 2), round(old.high, 2)] if old is not None else None,
        "deadline_days": tl.deadline_days, "slack_days": tl.deadline_slack_days,
        "deadline_hours": (result.answers or {}).get("batch_deadline_hours"),
    }
    # a one-off job of a day or two on a part rented now: the quote's wait outlasts the job, so no quote step and no
    # page-1 clause for the part set aside (blind review 26, q28: "step 4 (ask sales for 12×H20) is noise for a
    # one-off 19-hour job"; "drop the H20 alternative from the headline Hardware row"); section 2 still names it
    switch["quiet"] = kind == "sales" and batch_job37.short_job(r.costs)
    steps = r.next_steps if switch["quiet"] else with_step(r.next_steps, switch)
    # the answers as given (the re-plan's "only GPU allowed" is this rule's, not the team's)
    return r.model_copy(update={"answers": result.answers, "next_steps": steps, "supply_switch": switch})


def _dearer_per_user(result: PlanResult, r: PlanResult) -> bool:
    """The part listed in the region costs more at its low end than the stand-in part at its high end, for the same
    peak (blind review 35, q37: "4 × A100 at GCP list 6.2 USD/GPU-h for a 14B model"; q05's Singapore node the same,
    ``node_supply.dearer_per_user``): a list price above the estimate's whole range is no reason to plan on the dearer
    card; the plan stays on the stand-in, the listed part its plan B (``in_region_fallback``)."""
    from advisor.plan import overseas44

    if not overseas44.on():
        return False
    was = result.costs.recommended_monthly if result.costs is not None else None
    now = r.costs.recommended_monthly if r.costs is not None else None
    return was is not None and now is not None and now.low > was.high


def _kv_short(r: PlanResult) -> bool:
    """A replica's KV cache holds fewer requests at the full context than the replica carries at the peak: the part
    had in the region is no lead where it is that much tighter than the plan's (kv_pick's rule for a card it moves to;
    s34 lead: q25's 4 × A10 TP2 in Hong Kong held 12 at the full context against 15 at the peak, 30 with one down,
    for about three times the stand-in L40S's month; the L40S stays, its quote first and the A10 its plan B)."""
    return kv_short(r.capacity.kv_fit if r.capacity is not None else None)


def _kv_added(r: PlanResult) -> bool:
    """The plan holds the full context only with replicas ``kv_plan42`` added for it (its N+1 finding says so): as
    tight a part as ``_kv_short``'s, fixed by a dearer month (s40: q25's A10 in Hong Kong at a loose TPOT target)."""
    return any(f.id == "sizing.redundancy" and "kvp42" in f.title_key for f in r.findings)


def kv_short(k: Any) -> bool:
    """A ``KvFit`` holding fewer requests at the full context than a replica carries at the peak."""
    return k is not None and k.at_full < k.peak_per_replica


def _weighed(r: PlanResult) -> tuple[str, str] | None:
    """How the hosted API was weighed against the plan: the re-plan's "only GPU allowed" must not turn it into the
    team's own choice of GPU (``self_host_asked``)."""
    return (r.start_with.form, r.start_with.reason) if r.start_with is not None else None


def _key(s: dict[str, Any], part: str) -> str:
    """The text of a switch: a two-node plan's overseas node (``node_supply``) has its own, naming the node."""
    return f"twonode36.{part}" if s.get("node") else f"supply36.{part}.{_variant(s)}"


def _variant(s: dict[str, Any]) -> str:
    if s["kind"] == "region":
        return "region"
    return "job" if s["per_job"] else "sales"


def _where(n: int | None) -> Any:
    return {"tr": "supply36.key.step", "step": n} if n is not None else ""


def step_number(result: PlanResult, first: int) -> int | None:
    return next((i for i, s in enumerate(result.next_steps[:first], start=1) if s.id == STEP_ID), None)


def hardware_clause(result: PlanResult, lang: str, first: int) -> str:
    """Page 1's hardware row: why this part and not the cheaper one, and the step that quotes it; "" elsewhere."""
    s = result.supply_switch
    if s is None or s.get("quiet"):
        return ""
    n = step_number(result, first)
    return render(lang, _key(s, "key"), {**params(s), "where": _where(n)})


def choice_text(result: PlanResult, lang: str) -> str:
    """The why-this-GPU paragraph: the choice's own text, then the cheaper part this plan is not sized on and why.
    The re-plan considered only this part, so its "the only setup among the GPUs considered" would read as if no
    other part met the target: the setup is then named as the one sized here instead."""
    g = result.gpu_choice
    if g is None:
        return ""
    s = result.supply_switch
    if s is None or s.get("node"):  # a node's switch: this paragraph is the mainland node's, the node's finding says it
        return g.text_in(lang)
    if g.alternatives or g.unsourced_cheaper is not None:
        return g.text_in(lang) + render(lang, f"supply36.choice.{_variant(s)}", params(s))
    return render(lang, f"supply36.choice.{_variant(s)}_only", {**params(s), "chosen": g._option_text(g.chosen, lang)})


def rests_on_quote(result: PlanResult) -> bool:
    """The plan rests on a stand-in price for a part no provider in its region is known to sell, and no part priced
    there meets the target within the budget: the feasibility row is then conditional, and the budget row's "within
    budget" holds only at the stand-in price (blind review 30, q25: "'within budget' ... is conditional")."""
    fb = result.in_region_fallback
    if fb is None or not result.feasible or result.supply_switch is not None:
        return False
    if result.start_with is not None and result.start_with.form == "hosted_api":  # an API leads: its own row
        return False
    budget = _budget_high(result)
    # the quote step names a plan B that meets the target within the budget: a plain yes stays true
    return not (bool(fb["meets"]) and (budget is None or fb["monthly"][1] <= budget))


def stand_in_budget_text(result: PlanResult, lang: str) -> str | None:
    """Page 1's budget verdict where ``rests_on_quote``: the planned part is within the budget at its stand-in price,
    and what is missing is a quote from the region, not budget room (blind review 36, q25/q43: "within budget only
    if a quote confirms the price above; no part priced there today meets the target within it" read as "not
    feasible" against a month a quarter of the budget); the feasibility row says which parts are priced there.
    None elsewhere."""
    if not rests_on_quote(result):
        return None
    fb = result.in_region_fallback
    assert fb is not None  # rests_on_quote holds only with a fallback record
    return render(lang, "prc44.budget.stand_in", {"region": {"tr": f"plan.region.{fb['region']}"}})


def feasible_text(result: PlanResult, lang: str, text: str) -> str:
    """The feasibility row: conditional where the plan rests on a part no provider in its region is known to sell
    and no part priced there meets the target within the budget (q43: "'feasible: yes' overclaims"); ``text``
    unchanged elsewhere."""
    fb = result.in_region_fallback
    if fb is None or not rests_on_quote(result):
        return text
    step = next((i for i, s in enumerate(result.next_steps, start=1) if s.id == "quotes"), None)
    # the quote its own condition, the reason after it, not a clause that reads as one more (vrd44, review 35: q25)
    # name the part priced there the engine checked, and what it misses: the target, or the budget at its own month
    # (blind review 36, q25: "no other part priced there meets the target within the budget" beside a month a
    # quarter of the budget read as "not feasible")
    key = "prc44.feasible.supply" if not fb["meets"] else "prc44.feasible.supply_budget"
    budget = _budget_high(result)
    if fb["meets"] and budget is not None and fb["monthly"][0] <= budget:  # over it at its top end only
        key = "prc44.feasible.supply_budget_top"
    monthly = money_range(MoneyRange(low=fb["monthly"][0], high=fb["monthly"][1]), fb["currency"])
    return render(lang, key, {"region": {"tr": f"plan.region.{fb['region']}"}, "gpu": fb["instead_of"],
                              "where": _where(step), "rest": text, "listed": fb["gpu"], "n": fb["n"],
                              "monthly": monthly, "pct": round((fb["worst_over"] - 1) * 100)})


__all__ = ["STEP_ID", "choice_text", "feasible_text", "fits_region", "hardware_clause", "kv_short", "lead", "params",
           "pick", "rests_on_quote", "stand_in_budget_text", "step_number",
           "with_step"]
