"""The hosted-API lead's break-even points at page 1's request-count question (issue 25, a typical memo in 4 pages;
session 26).

Where page 1's first open question asks the requests a day and says the volume that flips the choice
(``volume_flip``), the lead's "Self-hosting pays from about … tokens a month" is the same volume in tokens: its
bracket names that question instead of the price list's title (the cost table and the finding cite the list). The
kept plan's paragraph did so since session 25 (``hosted_kept.short_break_even``); the API lead (q12, q34, …) now
too, in the memo only.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.plan import volume_flip
from advisor.plan.hosted_kept import short_break_even
from advisor.plan.result import OpenQuestion, StartWith


def start_with(start: StartWith | None, questions: Sequence[OpenQuestion]) -> StartWith | None:
    """``start`` with its break-even pointing at the first question, where that question is the request count."""
    if start is None or not questions or questions[0].field != volume_flip.FIELD or "be" not in start.params:
        return start
    return start.model_copy(update={"params": {**start.params, "be": short_break_even(start.params["be"])}})
