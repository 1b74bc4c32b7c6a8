"""The assumptions list's item where the month was read from the peak (``floor_assume38.peak_text``, s38-usage)."""

from __future__ import annotations

from advisor.plan import floor_assume38
from advisor.plan.result import PlanResult


def peak_read_said(r: PlanResult, lang: str) -> str:
    """The item, asserted to say the month from the peak alone: no per-person estimate beside it (review 29)."""
    a = next(x for x in r.assumptions if x.key in floor_assume38.ESTIMATE_KEYS)
    said = floor_assume38.peak_text(r.costs, a, lang)
    assert said and said != a.text_in(lang), (a.key, said)
    return said
