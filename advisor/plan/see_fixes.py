"""Findings whose detail points at the fixes, told when there are none (blind review 12, q07 zh: "见改进建议" pointed at
a section the memo did not have: the 双减 blocker offers no later launch date, so the filing finding's "see the
fixes" led nowhere).

Each such detail has a twin without the pointer; after the fixes are re-planned and filtered, a plan with none left
reads the twin. A plan whose fixes were not checked (a re-plan inside the fix search) keeps the pointer: its fixes
are not shown anywhere.
"""

from __future__ import annotations

from advisor.plan.result import PlanResult

# detail key → the same text without "see the fixes"
WITHOUT_POINTER = {
    "plan.rule.genai.filing_deadline.detail": "plan.rule.genai.filing_deadline.detail_nofix22",
    "plan.rule.cost.budget_short.detail": "plan.rule.cost.budget_short.detail_nofix22",
    "plan.rule.sizing.slo_unmet.detail": "plan.rule.sizing.slo_unmet.detail_nofix22",
}


def drop_pointer_without_fixes(result: PlanResult) -> None:
    """Point no finding at the fixes when the plan offers none."""
    if result.fixes:
        return
    for x in result.findings:
        x.detail_key = WITHOUT_POINTER.get(x.detail_key, x.detail_key)
