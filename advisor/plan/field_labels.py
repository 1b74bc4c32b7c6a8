"""Question labels that follow the other answers (issue 25, s15-polish): one wording in the wizard, its review and
what-if panel, and the memo's list of answers.

An offline batch job's budget is spent once, on the job (it is priced as job hours plus setup, never by month), so
the budget question reads "Budget for the job" / "本次任务预算" there, where a service's reads "Monthly budget".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JOB_BUDGET_LABEL = "plan.field.monthly_budget.label_job"
JOB_BUDGET_HELP = "plan.field.monthly_budget.help_job"


def is_job(answers: Mapping[str, Any] | None) -> bool:
    """Whether the answers describe a one-off batch job rather than a service."""
    return (answers or {}).get("use_case") == "offline_batch"


def label_key(path: str, answers: Mapping[str, Any] | None, default: str) -> str:
    """The label of the question at ``path`` ("monthly_budget" or "monthly_budget.amount") given ``answers``."""
    if path.split(".")[0] == "monthly_budget" and path != "monthly_budget.currency" and is_job(answers):
        return JOB_BUDGET_LABEL
    return default


def help_key(path: str, answers: Mapping[str, Any] | None, default: str) -> str:
    """The tooltip of the question at ``path`` given ``answers`` (the budget's says what the amount covers)."""
    if path.split(".")[0] == "monthly_budget" and is_job(answers):
        return JOB_BUDGET_HELP
    return default
