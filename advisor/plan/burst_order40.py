"""The order of a hybrid's two cloud paths for its bursts, by the budget (s38-burstc, blind review 30, q39).

Review 30 (en: "'Feasible as asked: yes' sits next to 'a burst month at neither end' … lead with the hosted-API
overflow"; zh: "make API overflow the default burst path with H800 as the fallback"), after reviews 27–29 had asked
for rented cloud GPUs for the peaks (own base + cloud capacity for the peaks). Both paths stay in page 1's one
sentence; where only the overflow on a hosted API fits the budget (the data may go there, its burst month within the
budget at its high end, the rented burst month over it), the API comes first and the rented GPUs are its fallback,
said over the budget. A rented part not sold new (H800/A800: existing stock since the October 2023 export rule) gets
the supply clause: capacity confirmed in writing before the first burst. Pure: reads the burst-month finding and the
bill page 1 already shows.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burst_bill, burst_path
from advisor.plan.money_text import money_range, round_money
from advisor.plan.result import MoneyRange, render

FINDING = "cost.burst_month"


def _may_go(answers: Any) -> bool:
    """Low-sensitivity data with personal information answered "no" (``burst_path.data_may_go`` on a dict too)."""
    if not isinstance(answers, dict):
        return burst_path.data_may_go(answers)
    ds = answers.get("data_sensitivity") or {}
    return ds.get("level") == "low" and ds.get("personal_info") is False


def _bill(result: Any) -> Any:
    return burst_bill.bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
                           getattr(result.hardware, "gpu", None))


def api_first(result: Any) -> bool:
    """Only the API's overflow fits the budget: its burst month within at the high end, the rented one over it."""
    f = next((x for x in getattr(result, "findings", []) or [] if x.id == FINDING), None)
    api = f.params.get("api") if f is not None else None
    if not isinstance(api, dict) or not api.get("range") or not api.get("burst") or not _may_go(result.answers):
        return False
    b = _bill(result)
    if b is None or b.budget is None:
        return False
    return float(api["range"][1]) <= b.budget < b.burst_month[1]


def rented_over_both(result: Any) -> bool:
    """The rented burst month is over the budget at both ends of its range (feasibility then conditional)."""
    b = _bill(result)
    return b is not None and b.budget is not None and b.burst_month[0] > b.budget


def stock_only(result: Any) -> bool:
    """The bursts rent a part not sold new (existing stock only since the October 2023 export rule)."""
    from advisor.plan.gpu_choice import not_sold_new

    hyb = getattr(result.costs, "hybrid", None)
    gid = getattr(hyb, "burst_gpu", None) if hyb is not None else None
    return bool(gid) and not_sold_new(str(gid))


def feasible_text(result: Any, lang: str, text: str) -> str:
    """Page 1's "Feasible as asked" where the API's overflow fits and the rented burst months are over the budget at
    both ends: yes with the overflow on the API, over the budget with rented GPUs; ``text`` elsewhere."""
    if not (result.feasible and api_first(result) and rented_over_both(result)):
        return text
    b = _bill(result)
    month = money_range(MoneyRange(low=b.burst_month[0], high=b.burst_month[1]), result.costs.currency)
    f = next(x for x in result.findings if x.id == FINDING)
    lo, hi = f.params["api"]["range"]
    api = money_range(MoneyRange(low=lo, high=hi), result.costs.currency)  # as the budget row says it
    return render(lang, "burstc40_feasible.text", {"api": api, "month": month, "budget": round_money(b.budget),
                                                   "currency": result.costs.currency})


def fold_rows(rows: list[tuple[str, str]], result: Any, labels: set[str]) -> list[tuple[str, str]]:
    """The cost table less its per-million rows (``labels``) for a hybrid with a burst bill: they divide the month of
    the whole setup rented (the cost table's comparison row), a figure no part of the hybrid pays (review 30, q39:
    "the cost-per-token … rows can go"); ``rows`` elsewhere."""
    if str(getattr(result, "deployment_form", "") or "") != "hybrid" or _bill(result) is None:
        return rows
    return [(label, value) for label, value in rows if label not in labels]


__all__ = ["api_first", "feasible_text", "fold_rows", "rented_over_both", "stock_only"]
