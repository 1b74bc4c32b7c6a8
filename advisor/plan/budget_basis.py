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


def _reserved_only(c: Any) -> bool:
    """The verdict is "within" on the committed month and on demand's high end is over the budget."""
    od, budget = c.cloud_on_demand_monthly, c.budget_monthly
    return not (not c.within_budget or c.budget_straddles or c.per_job or budget is None or od is None
                or not _same(c.recommended_monthly, c.cloud_monthly) or od.high <= budget)


def _term(c: Any, lang: str) -> str:
    """"a 1-year": the commitment the reserved price assumes, where its factor's row says one (review 22, q38)."""
    term = c.cloud_monthly_factor.term_months if c.cloud_monthly_factor is not None else None
    if not term:
        return ""
    return translate(lang, "kvdef34.term.years" if term % 12 == 0 else "kvdef34.term.months",
                     n=term // 12 if term % 12 == 0 else term)


def reserved_only_clause(c: Any, lang: str) -> str:
    """" — at the monthly/reserved price only: on demand (…) goes over it" where the verdict is "within" on the
    committed month and on demand's high end is over the budget; "" otherwise."""
    if not _reserved_only(c):
        return ""
    od, term = money_range(c.cloud_on_demand_monthly, c.currency), _term(c, lang)
    # "over at the high end" only where on demand's low end is within the budget (review 28, q41: 22,808–24,944
    # against 20,000 is over at both ends; the decision line already said so, the budget row did not)
    if _over_all(c):
        if term:
            return translate(lang, "spare39_budget.reserved_only_term_all", on_demand=od, term=term)
        return translate(lang, "spare39_budget.reserved_only_all", on_demand=od)
    if term:
        return translate(lang, "kvdef34.budget.reserved_only_term", on_demand=od, term=term)
    return translate(lang, "review30.budget.reserved_only", on_demand=od)


def _over_all(c: Any) -> bool:
    """On demand's month is over the budget at both ends, not only at the high end."""
    return c.cloud_on_demand_monthly.low > c.budget_monthly


def decision_clause(c: Any, lang: str) -> str:
    """" Within the budget only on a 1-year commitment; on demand it is …, over at the high end." after the
    recommendation's first line, where the budget holds only at the committed price (issue #25, blind review 27:
    q38/q41 "the 1-year commitment should sit in the decision line, not only in the table"); "" otherwise."""
    if not _reserved_only(c):
        return ""
    od, term = money_range(c.cloud_on_demand_monthly, c.currency), _term(c, lang)
    # over at both ends, or only at the high end (review 28, q41: "on demand (22,808–24,944 CNY) is over the 20,000
    # CNY budget at both ends, not 'at the high end'")
    over = translate(lang, "commit38_decision.over_all" if _over_all(c) else "commit38_decision.over_high")
    if term:
        return translate(lang, "commit38_decision.term", on_demand=od, term=term, over=over)
    return translate(lang, "commit38_decision.reserved", on_demand=od, over=over)


__all__ = ["decision_clause", "reserved_only_clause"]
