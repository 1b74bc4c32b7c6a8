"""Whether the latency curve's knee is only the serve command's ``--max-num-seqs`` cap (s25-numbers25; fifteenth
blind review, q39: "the reported 'knee at 12' is just the --max-num-seqs cap, not a real knee"). The curve runs
with the command's cap, so past it requests wait for a seat and the first-token time jumps: the knee rule finds the
cap itself. The memo then calls it the cap, never a predicted knee of the model on this GPU."""

from __future__ import annotations

from advisor.plan.result import PlanResult


def knee_is_cap(result: PlanResult) -> bool:
    """The curve's knee sits at the engine cap and the curve goes past it (levels beyond the cap queue)."""
    knee, seqs = result.latency_curve.knee_concurrency, result.hardware.max_num_seqs
    return bool(knee and seqs and knee == seqs
                and any(p.concurrency > seqs for p in result.latency_curve.points))


def knee_key(result: PlanResult) -> str:
    """The latency table's knee sentence: the cap's where the knee is the cap."""
    return "numbers25.knee_cap" if knee_is_cap(result) else "memo.latency.knee"


def chart_knee_key(result: PlanResult) -> str:
    """The latency chart's knee marker: the cap's where the knee is the cap."""
    return "numbers25.chart_knee_cap" if knee_is_cap(result) else "memo.chart.latency.knee"
