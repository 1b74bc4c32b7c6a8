"""Said once in the memo: a finding whose whole instruction is a next step's (session 22, issue 25: a typical memo
in 4 pages).

The plain quantization finding ("The plan uses fp8 weights: check quality first. Quantization saves memory and GPUs
but can change answers; compare against the BF16 baseline on your own prompts before launch.") and the next step
``quant_ab`` ("run the same prompts against a BF16 baseline and the fp8 server and compare answer quality") give the
same instruction, and the step adds the two commands that carry it out. Where the memo lists that step, section 7
leaves the finding out (two to three lines, and a source cited by nothing else). Its variants that say why the
plan quantizes (a faster first token, what fp8 gives on the same GPUs, a higher precision the budget covers, the FP8
KV cache's gain for a job) keep their finding: that reason is said nowhere else. A finding page 1 lists among the
reasons that decide also stays, so that each reason has its paragraph, and that paragraph names the step. The app and ``--json`` keep every finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan.result import Finding, PlanResult

PLAIN_QUALITY_CHECK = "plan.rule.sizing.quantized.detail"
QUALITY_STEP = "quant_ab"


def findings_for_section(findings: Sequence[Finding], result: PlanResult, reasons: Sequence[Finding]
                         ) -> list[Finding]:
    """``findings`` less those a next step of ``result`` says whole and page 1's ``reasons`` do not hold."""
    if not any(s.id == QUALITY_STEP for s in result.next_steps):
        return list(findings)
    kept = {id(f) for f in reasons}
    return [f for f in findings if f.detail_key != PLAIN_QUALITY_CHECK or id(f) in kept]


def point_to_step(rendered: list[dict[str, Any]], findings: Sequence[Finding], result: PlanResult, lang: str) -> None:
    """The plain quantization finding kept in section 7 (page 1 lists it as a reason) says which next step runs the
    comparison, in place of the same instruction in other words (q19, q36: a line each)."""
    number = next((i + 1 for i, s in enumerate(result.next_steps) if s.id == QUALITY_STEP), None)
    if number is None:
        return
    for shown, f in zip(rendered, findings, strict=True):
        if f.detail_key == PLAIN_QUALITY_CHECK:
            shown["detail"] = translate(lang, "pages22b.quality_in_step", n=number)
