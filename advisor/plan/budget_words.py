"""The feasibility verdict in words, conditional where the cost range straddles the budget (issue 25, s16-capacity).

The engine judges the budget on the HIGH end of the cost range, but a range whose low end fits and high end does
not is still scored feasible (the plan works if the quotes come in low). The page-1 row said a bare "yes" beside
"over budget at the high end" (q10, q39: "'feasible: yes' says too much; write it as conditionally feasible").
The boolean stays as the engine decides it; the words say the condition.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import budget_fit43, budget_share, capex_condition
from advisor.plan.line_total import judged_total
from advisor.plan.money_text import round_money
from advisor.plan.result import render


def conditional(result: Any) -> bool:
    """Feasible only on the low-end prices: a feasible plan whose cost range straddles the monthly budget, or whose
    purchase straddles the one-off budget (review 18, q17: "feasible: yes" beside a purchase over the grant at its
    high end)."""
    c = result.costs
    return bool(result.feasible and c is not None and c.budget_straddles and c.recommended_monthly is not None
                and c.budget_monthly is not None) or capex_condition.straddles(result)


def feasible_text(result: Any, lang: str, *, words: tuple[str, str] = ("memo.yes", "memo.no")) -> str:
    """"yes" / "no" (``words``: the memo's or the CLI's keys), or "only if the quotes come in at the low end …"
    with the low end, the high end and the budget."""
    if not conditional(result):
        return translate(lang, words[0] if result.feasible else words[1])
    c = result.costs
    if not c.budget_straddles:  # the purchase, not the monthly cost, straddles its budget
        return capex_condition.text(result, lang)
    per = "memo.capacity16.per_job" if c.per_job else "memo.capacity16.per_month"
    # the total the budget was judged on: with a priced network line where page 1 counts it (s23-burst23, q39: the
    # row quoted the GPUs' 107,924 beside a budget row judged on the 109,844 with the line)
    total = judged_total(c) or c.recommended_monthly
    if budget_share.part(total.low, total.high, c.budget_monthly) == "most":  # all but the top (round 13, q39)
        # blind review 34 (q10): the quote the plan fits the budget at, not a share of the range (budget_fit43)
        fit = budget_fit43.quote_at(c, total.low, total.high, c.budget_monthly)
        return render(lang, budget_fit43.key("ownrent24.feasible_unless_top", fit), {
            "low": round_money(total.low), "high": round_money(total.high), "budget": round_money(c.budget_monthly),
            "currency": c.currency, "per": {"tr": per}, "fit": fit or "",
            "pct": budget_share.percent(total.low, total.high, c.budget_monthly)})
    return translate(lang, "memo.capacity16.feasible_if_low", low=round_money(total.low),
                     high=round_money(total.high), budget=round_money(c.budget_monthly),
                     currency=c.currency, per=translate(lang, per))


__all__ = ["conditional", "feasible_text"]
