"""The decision wizard (决策向导): plain questions, one step per screen, then the recommendation.

Steps: what you are building → model and quality → where your users are → compliance → money and people →
review → result. Every question has a "why we ask" line; empty is "unknown" and always valid; a value that
cannot be used is marked on its field, in words, before Next lets you on. Answers are pre-filled from the
Sizing page (only where still unknown, marked so, and confirmed by the user); real benchmark runs are offered.

The result screen shows ``advisor.plan.make_plan``'s recommendation; what-if answers on it re-plan at once and
highlight what changed. The memo is written by ``ui.memo_export.write_memo`` (Markdown or PDF, atomically),
never over an existing file without asking. The page's state (answers and the step) lives in the project file's
``plan`` section.

One file per panel: page.py (the page), header.py, question_steps.py, review_panel.py, result_panel.py,
workload_prefill.py, memo_export_flow.py. The questions themselves are ui/widgets/wizard_fields.py's ``STEPS``;
the Qt-free work is advisor.plan.draft (answers by path, ``clean_answers``), advisor.plan.what_if (planning,
what-if variants, pre-planning) and advisor.plan.evidence_runs (the runs a memo cites).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.draft import clean_answers
from advisor.plan.evidence_runs import measured_evidence
from advisor.plan.what_if import plan_for, prewarm_plans
from advisor.plan.what_if import what_if_variants as _variants
from ui.pages.wizard.memo_export_flow import ExportDialog
from ui.pages.wizard.page import RESULT_STEP, WizardPage
from ui.pages.wizard.result_panel import WHAT_IF_CHOICES
from ui.widgets.wizard_fields import ALL_FIELDS


def what_if_variants(answers: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers as each what-if choice on the result screen would make them (``advisor.plan.what_if``)."""
    return _variants(answers, WHAT_IF_CHOICES)


__all__ = [
    "ALL_FIELDS", "RESULT_STEP", "ExportDialog", "WizardPage", "clean_answers", "measured_evidence", "plan_for",
    "prewarm_plans", "what_if_variants",
]  # fmt: skip
