"""Page 1 of a hybrid whose bursts' cloud paths are ordered by the budget, as three steps (s39-burst3, issue #25).

Blind review 31 (q39, en: "put the vllm:num_requests_running count first and show the budget verdict only after
it"; zh: "the headline is one long conditional sentence with three alternatives … rewrite page 1 as three steps:
measure first; send the overflow to the API by default once rate limits are confirmed in writing; rent only if the
API fails, over budget, on placeholder prices and legacy stock"). Where ``burst_order40.api_first`` holds (only the
hosted API's burst month fits the budget) and the fleet's measured load and the plan's curve disagree (step 1's
count decides whether the bursts need the cloud at all), the recommendation reads First / Second / Third, and the
budget row's burst months are said as what holds once the count confirms nvidia-smi's reading. Pure: reads the
findings page 1 already shows.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burst_order40
from advisor.plan.result import render

FINDING = "cost.burst_month"
DISAGREE = "sizing.fleet_load_disagrees"


def _finding(result: Any, fid: str) -> Any:
    return next((x for x in getattr(result, "findings", []) or [] if x.id == fid), None)


def rent_placeholder(result: Any) -> bool:
    """The bursts' rented part is priced on a placeholder row (grade U, no quote of the user's) among its rows."""
    hyb = getattr(result.costs, "hybrid", None)
    gid = getattr(hyb, "burst_gpu", None) if hyb is not None else None
    rows = [p for p in result.costs.prices or [] if gid and p.gpu == gid and p.kind in ("on_demand", "monthly")]
    return any(p.grade == "U" and not p.user_quote for p in rows)


def applies(result: Any) -> bool:
    """The three steps apply: only the API's overflow fits the budget and step 1's count gates the bursts."""
    d = _finding(result, DISAGREE)
    return d is not None and d.params.get("carry") is not None and burst_order40.api_first(result)


def headline(result: Any, lang: str, disagree: dict[str, Any], basis: Any) -> str:
    """The recommendation's three steps: count, the API overflow by default (its rate limits in writing), the rented
    part only if the API falls short (over the budget, a placeholder price, export-era stock where they hold).
    s40-q39 (blind review 33): the count leads with the two bases it decides between (nvidia-smi's reading the plan
    is priced on, the curve on which nothing is added); the rented burst month's figure is said once, in the budget
    finding the headline points to, not here ("repeated four times; say it once")."""
    f = _finding(result, FINDING)
    p = f.params
    over = "burst41_steps.over" if burst_order40.rented_over_both(result) else "burst41_steps.over_high"
    return render(lang, "burst41_steps.decide", {
        "count": disagree.get("count"), "util": disagree.get("util"), "carry": disagree.get("carry"),
        "burst": p["api"]["burst"],
        "api_month": p["api"]["month"], "rented": disagree.get("rented"), "basis": basis,
        "over": {"tr": over},
        "placeholder": {"tr": "burst41_steps.placeholder"} if rent_placeholder(result) else "",
        "stock": {"tr": "burst41_steps.stock"} if burst_order40.stock_only(result) else ""})


API_FORMS = {"memo.fleet13.form.hybrid": "numbers1_34.form.hybrid", "memo.fleet13.form.hybrid.buys":
             "numbers1_34.form.hybrid.buys", "memo.form.hybrid": "numbers1_34.form.hybrid.servers"}


def form_key(result: Any, key: str) -> str:
    """The headline's form without "rent cloud GPUs for the peak" where the three steps apply: the API overflow is
    the bursts' default and renting the fallback (s40-q39, blind review 33: "the headline says 'rent cloud GPUs for
    the peak', but the body makes a hosted API the default and renting the third option"); ``key`` elsewhere. The
    same keys ``memo_text15.form_key`` takes where an API leads the bursts."""
    return API_FORMS.get(key, key) if applies(result) else key


def budget_clause(result: Any, lang: str, clause: str) -> str:
    """The budget row's burst months (``clause``, "; a burst month renting: …") said as what holds once step 1's
    count confirms nvidia-smi's reading, where the three steps apply; ``clause`` elsewhere."""
    if not clause or not applies(result):
        return clause
    return render(lang, "burst41_budget.if_confirmed", {"util": _finding(result, DISAGREE).params.get("util"),
                                                        "clause": clause.lstrip("; ；")})


__all__ = ["applies", "budget_clause", "form_key", "headline", "rent_placeholder"]
