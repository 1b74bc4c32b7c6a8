"""A provider's batch API priced for the job: its own line among an offline batch's fixes (issue 25, blind review 25).

q29 (en): "The DeepSeek-V3 batch API at 'about 40,000 CNY' is the cheapest near-quality route and deserves its own
line, not a clause buried in the API bullet." Where ``batch_api_price.priced`` prices the job on a batch API, the
hosted API's fix points to this line, and the line gives the price with its source grade, the price against the
job's budget, and the condition it rests on (a change of model, tested on the team's prompts; its completion window
asked against the deadline). Where the batch model is at least as large as the one asked and costs less than both
the hosted API's low end and the job on the team's own GPUs, the line says it is the cheapest priced route that
keeps such a model: the comparison is the fix list's own figures, nothing more.

Not a ``Fix``: there is no answer that re-plans onto a provider's batch API (the hosted API's re-plan prices the
real-time list), so it is carried on the hosted API's fix (``params["batch_line"]``) and printed after it.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.catalog import get_model
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from advisor.plan.smaller_quality import _billions, _size
from advisor.resources import load_json

KEY = "small36_batchline"
WINDOW_KEY = "batchword38_batchline.ask_window"


def _window() -> dict[str, Any] | None:
    """The completion window batch APIs promise (``batch_api17.json``'s ``window``, with its sources)."""
    got = load_json("plan", "batch_api17.json").get("window")
    return got if isinstance(got, dict) else None


def _times(low: float, budget: float) -> str:
    return f"{low / budget:.1f}".rstrip("0").rstrip(".")


def line(c: Any, row: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """The line's phrase (its cost printed beside it from ``low``/``high``): ``row`` the batch provider's entry in
    ``batch_api17.json``, ``got`` ``batch_api_price.priced``'s answer, in the plan's currency. Whether it is the
    cheapest route that keeps the model's size is weighed once the fixes are priced (``weigh``)."""
    price = got["row"]
    lo, hi, cur = got["low"], got["high"], c.currency
    budget = c.budget_amount
    against: dict[str, Any] | str = ""
    if budget:
        against = {"tr": f"{KEY}.within", "budget": f"{budget:,.0f}", "currency": cur} if hi <= budget else \
            {"tr": f"{KEY}.over", "times": _times(lo, budget), "budget": f"{budget:,.0f}", "currency": cur}
    ask = {"tr": f"{KEY}.ask", "deadline": f"{c.batch_hours:,.0f}"} if c.batch_hours else {"tr": f"{KEY}.ask_any"}
    window = _window()
    if c.batch_hours and window is not None and c.batch_hours < window["hours"]:
        # a deadline inside the window such APIs promise: said with it (review 27, q29 en: "such APIs usually
        # promise completion within a day, not 12 h"), the source the first one that states it
        src = window["sources"][0]
        ask = {"tr": WINDOW_KEY, "deadline": f"{c.batch_hours:,.0f}", "window": f"{window['hours']:,.0f}",
               "url": src["url"], "grade": src["grade"], "date": src["date"]}
    return {"tr": f"{KEY}.line", "provider": row["provider"], "model": price["model_name"], "model_id": got["model_id"],
            "pct": int(row["discount_pct"]), "grade": price.get("grade", "U"), "date": price.get("date", ""),
            "against": against, "near": "", "ask": ask, "low": round(lo), "high": round(hi)}


def weigh(result: Any, model: Any) -> None:
    """The line's "cheapest" clause, once the fixes carry their re-planned costs: where the batch model has at least
    the asked ``model``'s parameters and its high end is below the hosted API fix's low end and the job's low end on
    the team's own GPUs (the sizing's priced job, else the plan's cost). Written into the fix's params in place."""
    b = result.binding_constraint
    own = (b.figures.get("job_low") if b is not None else None) or (
        result.costs.recommended_monthly.low if result.costs.recommended_monthly is not None else None)
    for fix in result.fixes:
        got = fix.params.get("batch_line")
        if not got or own is None or fix.monthly_cost is None:
            continue
        try:
            big, small = _billions(model), _billions(get_model(got["model_id"]))
        except (KeyError, ValueError):
            continue
        if big and small >= big and got["high"] < fix.monthly_cost.low and got["high"] < own:
            fix.params["batch_line"] = {**got, "near": {"tr": f"{KEY}.cheapest", "asked": model.name,
                                                        "small": _size(small), "big": _size(big)}}


def option(fix: Any, currency: str, budget: float | None) -> list[dict[str, Any]]:
    """The line among the next step's options (``critical_steps._decide_choice``), after the hosted API fix that
    carries it, with the budget it needs where it costs more than ``budget`` (the job's, as answered): [] where
    the fix carries none."""
    got = fix.params.get("batch_line")
    if not got:
        return []
    need: dict[str, Any] | str = ""
    if budget is not None and got["high"] > budget:
        need = {"tr": "numbers1_34.next.need.budget", "amount": f"{math.ceil(got['high'] / 1000) * 1000:,.0f}",
                "currency": currency}
    return [{"tr": "numbers1_34.next.option", "fix": {"tr": f"{KEY}.label", "model": got["model"]},
             "cost": money_range(MoneyRange(low=got["low"], high=got["high"]), currency), "need": need,
             "per": {"tr": "numbers1_34.per.job"}}]


def pointer(got: dict[str, Any]) -> dict[str, Any]:
    """The hosted API fix's clause in place of the batch price: the model, priced on the line below."""
    return {"tr": f"{KEY}.pointer", "model": got["row"]["model_name"]}


__all__ = ["KEY", "line", "option", "pointer", "weigh"]
