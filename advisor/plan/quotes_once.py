"""The request for price quotes said once (s23-pages23, issue 25: "a typical memo fits in 4 PDF pages"; reviewers of
the mainland memos read two "get quotes" warnings: the finding "Mainland GPU prices are placeholders … get quotes"
and, at the end, the step "Replace the built-in prices with your providers' quotes … and re-run the plan").

Where the placeholder-price finding asks for quotes, the generic quotes step at the end of the remaining steps is
left out: the finding says it, with the prices it concerns. A quotes step that leads the steps (a purchase on
placeholder prices, ``placeholder_purchase.quotes_first``) is the plan's first action and stays.
"""

from __future__ import annotations

from advisor.plan.result import Finding, NextStep

QUOTE_FINDINGS = frozenset({"cost.mainland_prices"})  # findings whose title ends "get quotes"


def said_once(steps: list[NextStep], findings: list[Finding]) -> list[NextStep]:
    """``steps`` without the generic quotes step where a finding already asks for quotes."""
    if not any(f.id in QUOTE_FINDINGS for f in findings):
        return steps
    return [s for i, s in enumerate(steps) if not (s.id == "quotes" and s.key == "plan.next.quotes" and i > 0)]


__all__ = ["QUOTE_FINDINGS", "said_once"]
