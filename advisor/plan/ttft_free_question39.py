"""The open question on an assumed TTFT target, short where the recommendation line opens on the owner's decision
(s37-quote, blind review 28, q04: "the alternative stated once"). Above both ``headline25`` and ``memo_ttft_free``
(the headline imports the latter): no import cycle.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import headline25
from advisor.plan.memo_ttft_free import KEY, form_clause
from advisor.plan.result import render


def leads(result: Any, lang: str) -> bool:
    """The recommendation line opens on the owner's decision: the clause is the whole of what the headline adds."""
    head = form_clause(result, lang)
    return bool(head) and headline25.headline_clause(result, lang) == head


def question_text(q: Any, result: Any, lang: str) -> str | None:
    """The open question on the target, short where the recommendation line opens on the owner's decision (review
    28, q04: "the alternative stated once"): what the plan is sized for, pointing to that decision; None elsewhere
    (the question as the engine words it)."""
    if q.assumption_key != KEY or not leads(result, lang):
        return None
    from advisor.i18n import translate
    from advisor.plan.question_lead import without_lead

    p = q.assumption_params
    short = render(lang, "quote39_question.ttft_free", {"value": f"{p['value']:,}", "peak": p.get("peak", "")})
    return translate(lang, "plan.question.line_assumed", question=q.question_in(lang),
                     assumed=without_lead(short, lang), changes=q.changes_in(lang))


__all__ = ["leads", "question_text"]
