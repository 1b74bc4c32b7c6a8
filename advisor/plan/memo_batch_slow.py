"""Page 1's job cost with its own slow end (issue 25, blind review 22, q06).

A batch plan that runs twice the replicas "so it still finishes if the rate comes in at the slow end" printed the
job's cost at the plan's rate only (¥3,454–3,985) on page 1, while its own finding priced that slow end (38.6 h on 8
replicas: ¥4,803–5,463). The reviewer: "the range should include that". The cost row now says both, the slow end
taken from the finding that computed it (``sizing.batch_doubled``'s ``cost2``), never recomputed here.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render

BATCH_DOUBLED = "sizing.batch_doubled"


def slow_end_cost(result: Any) -> str | None:
    """The job's cost at the slow end of the predicted rate, as the doubling finding printed it; None without one."""
    for f in result.findings:
        if f.id == BATCH_DOUBLED:
            cost2 = f.params.get("cost2")
            if isinstance(cost2, dict) and cost2.get("slow"):
                return str(cost2["slow"])
    return None


def key_clause(result: Any, lang: str) -> str:
    """After page 1's whole-job cost: what the job costs if the rate comes in at the slow end; "" where no finding
    priced it."""
    slow = slow_end_cost(result)
    if slow is None or not result.costs.per_job:
        return ""
    return render(lang, "batchslow34.key.slow_end", {"slow": slow})
