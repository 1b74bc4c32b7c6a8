"""The capacity rows of an offline batch job's memo (issue 25, s15-polish): a job is judged by the hours it takes,
not by an interactive latency target, so its table says how many requests run at once, the throughput and the job's
hours (with the GPU-hours and the deadline), never a P99 TTFT or TPOT "at the peak" nobody waits on.

The figures are the plan's own: the replica's sequences (as many as its KV cache holds), the output tokens/s of all
replicas and the job's hours from the sizing screen (``PlanResult.capacity``); requests an hour and GPU-hours follow
from them and the answers' request count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from advisor.plan.result import Finding, PlanResult, render


def is_batch(result: PlanResult) -> bool:
    return (result.answers or {}).get("use_case") == "offline_batch"


def batch_capacity_rows(result: PlanResult, t: Callable[..., str], num: Callable[..., str]) -> list[tuple[str, str]]:
    """(label, value) rows for a batch plan with GPUs of its own: requests in flight, throughput, the job's hours."""
    hw, cap = result.hardware, result.capacity
    answers: dict[str, Any] = result.answers or {}
    rows: list[tuple[str, str]] = []
    if cap.concurrency_per_replica:
        rows.append((t("memo.batch15.in_flight"), t("memo.batch15.in_flight_value", total=num(cap.peak_concurrency),
                                                    per=num(cap.concurrency_per_replica))))
    total = cap.output_tokens_per_s_total
    if total is not None:
        hours = cap.batch_hours
        requests = answers.get("total_requests")
        per_hour = requests / hours if requests and hours else None
        value = t("memo.unit.tok_s", n=num(total))
        if per_hour is not None:
            value = t("memo.batch15.throughput_value", tok_s=value, per_hour=num(round(per_hour)))
        rows.append((t("memo.cap.total"), value))
    if cap.batch_hours is not None:
        gpu_hours = cap.batch_hours * (hw.total_gpus or 0)
        deadline = answers.get("batch_deadline_hours")
        key = "memo.batch15.hours_value_deadline" if deadline else "memo.batch15.hours_value"
        rows.append((t("memo.cap.batch_hours"), t(key, hours=num(cap.batch_hours, 1), gpu_hours=num(round(gpu_hours)),
                                                   deadline=num(deadline))))
    return rows


MARGIN_DETAIL = "plan.rule.sizing.batch_throughput.margin.detail"


def margin_said_once(rendered: list[dict[str, Any]], findings: Sequence[Finding], result: PlanResult,
                     lang: str) -> None:
    """The job's sizing finding opened on what section 2 says already: a batch is judged by throughput (section 3's
    sentence) and each replica runs as many requests as its KV cache holds (the capacity table's row). In the memo it
    keeps what only it says, the deadline's margin and what it is for (q06, q28; session 30); the app and ``--json``
    keep the full text."""
    if not is_batch(result) or not result.capacity.concurrency_per_replica:
        return  # no capacity table row names the replica's KV-cache-full batch
    for shown, f in zip(rendered, findings, strict=True):
        if f.detail_key == MARGIN_DETAIL:
            shown["detail"] = render(lang, "pages30.batch_margin", f.params)
