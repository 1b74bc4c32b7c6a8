"""Decide: turn a team's answers into a deployment recommendation.

``make_plan(answers, quotes=None) -> PlanResult`` is deterministic and fast (< 200 ms; bench/plan_speed.py):
hard constraints first (filings, lead times, data export, carriers, GPU support and availability), then sizing
on the sizing core and the capacity predictor, then cost. Every conclusion is a ``Finding`` from a rule in
``advisor.plan.rules`` (stable id, severity, sources, confidence).
"""

from __future__ import annotations

from advisor.plan.answers import AnswersError, PlanAnswers, answers_from_dict, answers_template, load_answers
from advisor.plan.result import Finding, PlanResult, Source

__all__ = [
    "AnswersError", "Finding", "PlanAnswers", "PlanResult", "Source", "answers_from_dict", "answers_template",
    "load_answers", "make_plan",
]  # fmt: skip


def make_plan(answers: PlanAnswers, *, quotes: list | None = None) -> PlanResult:
    """The recommendation for ``answers``; ``quotes`` are the user's own prices (override the built-in rows)."""
    from advisor.plan.engine import plan

    return plan(answers, quotes=quotes)
