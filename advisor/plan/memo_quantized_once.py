"""The lower precision's gain said once: in section 2's layouts tried (issue 25, a typical memo in 4 pages; session 26).

Where the plan keeps fp8 (or int8) weights for what they give on the same GPUs, section 2's "Layouts tried" sentence
gives the gain with its figures ("at the peak's 15 requests a replica, fp8's predicted P99 TPOT is 38.2 ms against
bf16's 56.9 ms …"), and section 7's quality-check finding said the same clause again (q12, q05, q34, …). In the memo
the finding points to section 2 for the figures and keeps its check, or names the next step that runs the check
(``quant_ab``, with its commands) where the memo lists one; the app and ``--json`` keep its full text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.plan.memo_steps_once import QUALITY_STEP
from advisor.plan.result import Finding, PlanResult, render

GAIN_DETAIL = "plan.rule.sizing.quantized.gain.detail"
IN_SIZING = "pages26.quantized_gain_in_sizing"
STEP_CHECKS = "pages26.quantized_gain_and_step"  # the gain in section 2, the check in a next step


def gain_in_sizing(rendered: list[dict[str, Any]], findings: Sequence[Finding], result: PlanResult, layouts: str,
                   lang: str) -> None:
    """Shorten the quality-check finding in ``rendered`` where ``layouts`` (section 2's sentence) gives its gain; where
    a next step runs the comparison too (``quant_ab``), the finding names that step for the check."""
    if not layouts:
        return
    step = next((i + 1 for i, s in enumerate(result.next_steps) if s.id == QUALITY_STEP), None)
    for shown, f in zip(rendered, findings, strict=True):
        why = f.params.get("why")
        if f.detail_key != GAIN_DETAIL or not isinstance(why, dict):
            continue
        if render(lang, str(why["tr"]), {k: v for k, v in why.items() if k != "tr"}) in layouts:
            shown["detail"] = render(lang, GAIN_DETAIL, {**f.params, "why": {"tr": IN_SIZING}}) if step is None \
                else render(lang, STEP_CHECKS, {**f.params, "n": step})


KV_DETAILS = {"plan.rule.sizing.quantized.kv_fp8.detail": "pages30.kv_fp8_step",
              "plan.rule.sizing.quantized.kv_only.detail": "pages30.kv_only_step"}


def kv_check_in_step(rendered: list[dict[str, Any]], findings: Sequence[Finding], result: PlanResult,
                     lang: str) -> None:
    """A batch's FP8 KV cache finding ended in the check that next step ``quant_ab`` gives with its commands ("compare
    a sample of the job against the BF16 baseline before the run", q06, q28; session 30): in the memo it names the
    step instead. The app and ``--json`` keep the full text."""
    step = next((i + 1 for i, s in enumerate(result.next_steps) if s.id == QUALITY_STEP), None)
    if step is None:
        return
    for shown, f in zip(rendered, findings, strict=True):
        if f.detail_key in KV_DETAILS:
            shown["detail"] = render(lang, KV_DETAILS[f.detail_key], {**f.params, "n": step})
