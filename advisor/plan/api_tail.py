"""A much cheaper hosted API set aside only for a first-token tail the plan did not measure: the check that would
settle it, as a next step (issue 25, blind review 25).

q23 (en): "the hosted API at '$778' is about 5× cheaper at the low end and is dismissed on principle, so benchmark
one from Tokyo before the decision is final." The set-aside line already says its reason plainly (``hosted_bars``'s
latency reason: under a tight first-token target a shared API's queue and round trip are not the team's to control,
and no list price states its P99). That reason is a figure nobody has measured, not a bar: where it is the only
reason the plan keeps its own GPUs (the others in ``hosted_weigh.reasons_to_self_host`` are absent, arrangements a
contract meets apart) and the API's low end is at most ``MUCH`` of the plan's, the next steps time the API: its P99
first token from where the users are, at the peak's concurrency, against the target. Placed before the replica is
started (the step that spends money on the self-hosted plan), after any step the launch waits on. Not where the
set-aside line calls the API's price not comparable (``api_residency``: the prompts may not go where it is served).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import api_residency, gpus_alone40, hosted_bars
from advisor.plan.hosted_processor import ARRANGEMENTS
from advisor.plan.latency_place import ttft_target_given
from advisor.plan.result import NextStep, PlanResult
from advisor.plan.rule_base import Facts, _range, _region

KEY = "small36_apitail"
STEP_ID = "api_tail"
# the API's low end at most this share of the plan's: "much cheaper" (a policy, not a sourced figure: a gap no
# better quote for the GPUs is expected to close, as ``hosted_weigh.LEAD_MARGIN`` reads it)
MUCH = 0.5
# the finding's variants that do not keep the plan for the answers' reason: ruled out by them, led with the API, or
# a yardstick with a quote asked for (no verdict)
NOT_KEPT = ("ruled_out", "alternative", "unserved.")
BEFORE = "serve"  # the step that starts the self-hosted replica


def _kept_for_latency(result: PlanResult, f: Facts) -> bool:
    from advisor.plan.hosted_weigh import reasons_to_self_host

    got = next((x for x in result.findings if x.id == "cost.hosted_weighed"), None)
    if got is None or result.deployment_form == "hosted_api":
        return False
    if any(v in got.title_key for v in NOT_KEPT):
        return False
    why = [w for w in reasons_to_self_host(f) if w["tr"] not in ARRANGEMENTS]
    return bool(why) and all(w["tr"] == hosted_bars.LATENCY_KEY for w in why)


def step(result: PlanResult, f: Facts) -> NextStep | None:
    """The API's tail to measure, where it alone keeps a much cheaper API out (see the module), else None."""
    c = f.ctx
    hosted, own = result.costs.hosted_api_monthly, result.costs.recommended_monthly
    slo = ttft_target_given(c)
    if slo is None or hosted is None or own is None or hosted.low <= 0 or hosted.low > MUCH * own.low:
        return None
    # a price the set-aside line calls not comparable (the prompts may not go where it is served: ``api_residency``)
    # gives no gap to weigh: no step that quotes it (q09's EU voice agent on US lists)
    if api_residency.miss(f) is not None or not _kept_for_latency(result, f):
        return None
    return NextStep(id=STEP_ID, key=f"{KEY}.step", params={
        "model": c.model.name, "region": _region(f.region), "peak": c.peak, "slo": round(slo),
        "hosted": _range(hosted.low, hosted.high, f), "plan": gpus_alone40.plan_figure(result.costs, own, _range(own.low, own.high, f), lambda a, b: _range(a, b, f)),
        "times": f"{own.low / hosted.low:.0f}"})


def with_step(steps: list[NextStep], result: PlanResult, f: Facts) -> list[NextStep]:
    """``steps`` with the API's tail check before the self-hosted replica is started (appended where none is)."""
    got = step(result, f)
    if got is None or any(s.id == STEP_ID for s in steps):
        return steps
    at = next((i for i, s in enumerate(steps) if s.id == BEFORE), len(steps))
    return [*steps[:at], got, *steps[at:]]


def said(result: PlanResult) -> dict[str, Any] | None:
    """The step's params where the plan carries it (for tests and the CLI), else None."""
    return next((s.params for s in result.next_steps if s.id == STEP_ID), None)


__all__ = ["KEY", "MUCH", "STEP_ID", "step", "with_step"]
