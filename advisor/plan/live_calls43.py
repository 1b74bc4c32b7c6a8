"""A live conversation's peak sized as requests in flight: the assumption said once, and its count as a step (issue
25, blind review 34, q09: "Sizing treats 80 simultaneous calls as 80 requests in flight, but a voice agent's LLM
idles while the caller speaks, so real concurrency is likely far lower. Ask for calls-to-requests data before
reserving all 4 GPUs").

The wizard asks for requests in flight at the peak, and the plan sizes on that figure; a team running a voice agent or
a live dialogue often answers with its calls or sessions at once. The answers do not say "calls", so the case is read
from what they do say: an interactive service for the public (people talking to it) with a first-token target the
answers set at or under ``LIVE_TTFT_MS``. Text chats set targets in seconds; half a second or less is a turn spoken
or acted in real time (a voice agent, a game character), where the model works only during the agent's turns and
waits while the person speaks. There the plan (sizing unchanged) says once, in the assumptions, that it is sized as if
every one of them waits on the model at once, and adds the count of ``vllm:num_requests_running`` at the peak, before
the GPUs are reserved, as a step.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import peak_reserved39
from advisor.plan.result import Assumption, NextStep, PlanResult

LIVE_TTFT_MS = 500  # a first-token target at or under this is a live turn (voice, live dialogue), not a text chat
STEP_ID = "live_inflight"
STEP_KEY = "gt43.next.inflight"
ASSUME_KEY = "gt43.assume.inflight"
COMMAND = "advisor gpu --watch --interval 60 --prometheus http://SERVER:8000/metrics"


def applies(result: PlanResult) -> bool:
    a = result.answers or {}
    slo = (a.get("latency_slo") or {}).get("ttft_p99_ms")
    if a.get("use_case") != "interactive" or a.get("audience") != "public" or not slo or float(slo) > LIVE_TTFT_MS:
        return False
    if not a.get("peak_concurrency") or a.get("measured_utilisation") is not None:  # a count already measured
        return False
    if not result.feasible or result.deployment_form == "hosted_api" or result.hardware is None:
        return False
    return not (result.start_with is not None and result.start_with.form == "hosted_api")


def _gpus(result: PlanResult) -> int | None:
    c = result.costs
    n = getattr(c, "gpus", None) if c is not None else None
    return int(n) if n else None


def _params(result: PlanResult) -> dict[str, Any]:
    peak = int((result.answers or {})["peak_concurrency"])
    n = _gpus(result)
    every = n and peak_reserved39.reserved(result.costs)  # "all 4 GPUs" only where every one is reserved
    return {"peak": f"{peak:,}", "gpus": {"tr": "gt43.gpus.n", "n": n} if every else {"tr": "gt43.gpus.some"}}


def with_step(result: PlanResult) -> list[NextStep]:
    """The count of requests in flight at the peak, before the quotes (or last where no quote step follows)."""
    steps = result.next_steps
    if not applies(result) or any(s.id == STEP_ID for s in steps):
        return steps
    step = NextStep(id=STEP_ID, key=STEP_KEY, params=_params(result), command=COMMAND)
    at = next((i + 1 for i, s in enumerate(steps) if s.id == "quotes"), len(steps))
    return [*steps[:at], step, *steps[at:]]


def with_assumption(result: PlanResult) -> None:
    """The assumption said once, in section 8, pointing to the step that counts it."""
    if not applies(result) or any(a.key == ASSUME_KEY for a in result.assumptions):
        return
    n = next((i for i, s in enumerate(result.next_steps, start=1) if s.id == STEP_ID), None)
    if n is None:
        return
    result.assumptions.append(Assumption(field="peak_in_flight", value=(result.answers or {}).get("peak_concurrency"),
                                         key=ASSUME_KEY, params={**_params(result), "step": n}))


def run(result: PlanResult) -> None:
    """The post-plan step: the count's step, then the assumption that names its number."""
    result.next_steps = with_step(result)
    with_assumption(result)


__all__ = ["ASSUME_KEY", "LIVE_TTFT_MS", "STEP_ID", "applies", "run", "with_step"]
