"""The daily request count asked before any budget is committed, where the month's tokens are an estimate (s40-volume,
issue 25, blind review 32).

q30: "The monthly token estimate spans 180M to 2,000M input, an 11× range that should be pinned with a
requests-a-day figure before anyone budgets on it"; q32: "10 % of 200,000 yearly users active daily at 6 requests
each … looks high; flag it more clearly"; q23: "rests on an assumed 1.1M requests a day (peak ÷ 6), so ask for real
request counts". The assumptions list says how each month was estimated; the next steps said nothing of it, so a
reader went from the estimate to quotes and purchases. Where requests a day were not answered (a job is sized by its
own size, not by a day's requests), one step, before the first that commits money, asks for the real count.
"""

from __future__ import annotations

from advisor.plan.result import NextStep, PlanResult

STEP_ID = "count_requests"
# the steps that come before it: the critical path's waits and gate, and the decision an infeasible plan needs
# (``critical_steps``), the owned cards' placement check (``engine``), which spend nothing
LEADING = frozenset({"waits", "ask_first", "gate", "decide_fix", "placement_check"})
PAY_PER_TOKEN = frozenset({"api_first", "api_trial"})  # the first steps of a plan that starts on a hosted API


def applies(result: PlanResult) -> bool:
    """An interactive service whose month the answers do not count (no requests a day), and page 1 does not already
    ask for the count among its open questions (``volume_flip``: where the count decides API or self-host, q22/q24):
    asked once. Not where the plan starts on a hosted API (``PAY_PER_TOKEN``): it bills the tokens used, nothing is
    committed up front, and page 1's price gives the month's range from the floor to the high end (``tokens41``)."""
    a = result.answers or {}
    asked = any(q.field == "requests_per_day" for q in result.open_questions)
    return (a.get("use_case") != "offline_batch" and not a.get("requests_per_day") and not asked
            and not any(s.id in PAY_PER_TOKEN for s in result.next_steps))


def with_step(result: PlanResult) -> list[NextStep]:
    """``result``'s next steps with the count asked once, after the leading steps that spend nothing."""
    steps = list(result.next_steps)
    if not applies(result) or any(s.id == STEP_ID for s in steps):
        return steps
    at = next((i for i, s in enumerate(steps) if s.id not in LEADING), len(steps))
    steps.insert(at, NextStep(id=STEP_ID, key="vol42.next.count", params={}))
    return steps


__all__ = ["LEADING", "STEP_ID", "applies", "with_step"]
