"""A cloud month within the budget only at the monthly/reserved price, said beside the verdict (blind review 19, q38
zh: "on-demand cost is $3,149–4,283, which can exceed the $4,000 budget, so '在预算内' holds only at reserved pricing
and the memo should say so"). Page 1's cost is the committed month with on demand beside it; the budget verdict
judges the committed one, so where on demand's high end is over the budget that is said once, with its figure."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.money_text import money_range


def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and round(a.low) == round(b.low) and round(a.high) == round(b.high)


def reserved_only_clause(c: Any, lang: str) -> str:
    """" — at the monthly/reserved price only: on demand (…) goes over it" where the verdict is "within" on the
    committed month and on demand's high end is over the budget; "" otherwise."""
    od, budget = c.cloud_on_demand_monthly, c.budget_monthly
    if (not c.within_budget or c.budget_straddles or c.per_job or budget is None or od is None
            or not _same(c.recommended_monthly, c.cloud_monthly) or od.high <= budget):
        return ""
    term = c.cloud_monthly_factor.term_months if c.cloud_monthly_factor is not None else None
    if term:  # the commitment the reserved price assumes, where its factor's row says one (review 22, q38)
        return translate(lang, "kvdef34.budget.reserved_only_term", on_demand=money_range(od, c.currency),
                         term=translate(lang, "kvdef34.term.years" if term % 12 == 0 else "kvdef34.term.months",
                                        n=term // 12 if term % 12 == 0 else term))  # fmt: skip
    return translate(lang, "review30.budget.reserved_only", on_demand=money_range(od, c.currency))


__all__ = ["reserved_only_clause"]
