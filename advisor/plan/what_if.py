"""Planning from a draft of the answers, as the wizard's result screen does: the plan itself, every what-if
variant of it, and planning those ahead so a what-if change answers at once.

Qt-free; the wizard runs these on its worker thread (``ui.workers.TaskRunner``) with a cancel token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.cancel import Cancelled, cancel_scope
from advisor.plan.draft import clean_answers, get_path, set_path


def plan_for(answers: dict[str, Any], quotes: list[Any] | None = None) -> Any:
    """Validate and plan a draft (raises ``AnswersError`` with field-level problems)."""
    from advisor.plan import answers_from_dict, make_plan

    return make_plan(answers_from_dict(clean_answers(answers)), quotes=quotes or None)


def what_if_variants(answers: dict[str, Any], choices: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The answers as each what-if choice would make them: for every field of ``choices`` (path → its choices),
    each choice and "unknown" that differs from the answer now. The budget is left out: it never changes the
    sizing, so its variants plan nothing new."""
    out = []
    for path, options in choices.items():
        if path.startswith("monthly_budget"):
            continue
        for value in (None, *options):
            if value != get_path(answers, path):
                variant = {k: (dict(v) if isinstance(v, dict) else v) for k, v in answers.items()}
                set_path(variant, path, value)
                out.append(variant)
    return out


def prewarm_plans(token: Any, variants: list[dict[str, Any]], quotes: list[Any] | None) -> int:
    """Plan each variant once so its hardware's simulated levels are cached (``advisor.plan.sizing``): the first
    what-if change to a region or format not seen yet then answers as fast as a repeated one. Returns how many
    were planned; stops within one predictor level when cancelled (a real what-if is waiting, or the window closes)."""
    done = 0
    for variant in variants:
        token.raise_if_cancelled()
        try:
            with cancel_scope(token):
                plan_for(variant, quotes)
        except Cancelled:
            raise
        except Exception:  # noqa: BLE001 - a variant the engine refuses is simply not pre-planned
            continue
        done += 1
    return done
