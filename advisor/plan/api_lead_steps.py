"""Next steps that follow a hosted-API headline (issue 25, blind review 18: q34, q36, q42).

Where page 1 leads with a hosted API ("Start on hosted APIs, each served from its user group's region", the
self-hosted plan kept as the one "to move to"), the next steps went straight to "Start one replica on 1 × NVIDIA
L20 48GB": the memo recommended one thing and then set the team to work on the other. Under such a headline the
steps now start with the API: sign up, get its data-processing terms in writing, and time it on the team's own
prompts. The self-hosted replica stays, as a later
step that names its trigger: the break-even volume page 1 prints, or the API falling short on its terms, rate limits
or speed (the headline's own "Move to the self-hosted plan … if …").

Steps that keep their place before the API's: the question that decides whether anything is worth starting
(``ask_first``), the launch's critical path (``gate``/``waits``: the API's launch waits on them too) and an
infeasible plan's decision; an infeasible plan's headline leads with its blockers, not the API, so nothing changes
there. The plan's decision and figures are untouched.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import api_thinking
from advisor.plan.hosted_lead import said_tokens
from advisor.plan.line_cost import WITH_HOST
from advisor.plan.result import NextStep, PlanResult

# what stays before the API's step: the deciding question, the launch's critical path (a filing, a check the launch
# waits for: the API's launch waits on it too) and an infeasible plan's decision (test_plan_critical_steps)
FIRST = ("ask_first", "gate", "waits", "decide_fix")
SERVE = "serve"  # the self-hosted replica the headline keeps for later
SERVE_KEY = "plan.next.serve"  # its plain text, whose command section 2 prints
API_STEP = "api_first"
RAMP = "ramp"  # the pressure test that follows the replica
HOST_STEP = "apicond37_next.api_first_host"  # s35-apicond: the API's step with its host and line to quote
WITH_HOST_STEP = "hostline39_next.api_first_host"  # s37-hostline: the VM quoted by the line's seller (WITH_HOST)
KV_STEP = "kv_replicas"  # kv_replicas42.STEP_ID (which imports the plan's modules this one is imported by)
GATE_KEY = "kvfail42.step.gate"  # its measured go/no-go, where the replicas do not fit the budget
FALLBACK_QUOTES = "apicond37_next.fallback_quotes"  # s35-apicond: the GPU quote as the fallback's
SOAK = "soak"  # the self-hosted soak test (engine ``_service_tests``)
SOAK_FALLBACK = "api43.next.soak_fallback"  # …said as the fallback's (blind review 34)
RATE_LIMIT = "api43.next.with_rate_limit"  # the API's step with its own load test at the peak (blind review 34)
THINK = "sw43.next.think"  # s41-swap: the API's model's thinking switch said where its test is run (blind review 34)


def leads_with_api(result: PlanResult) -> bool:
    """Page 1 leads with a hosted API and keeps this (self-hosted) plan as the one to move to."""
    sw = result.start_with
    return bool(result.feasible and sw is not None and sw.form == "hosted_api"
                and result.deployment_form != "hosted_api")


def api_first(result: PlanResult) -> list[NextStep]:
    """``result.next_steps`` with the API's step first (after ``FIRST``) and the self-hosted replica as a later
    step with its trigger, where page 1 leads with a hosted API; unchanged elsewhere."""
    steps = list(result.next_steps)
    if not leads_with_api(result) or any(s.id in (API_STEP, "api_trial") for s in steps):
        return steps
    n = next((i for i, s in enumerate(steps) if s.id not in (*FIRST, "quotes")), len(steps))
    head, rest = steps[:n], steps[n:]
    # a stand-in price's quote is the self-hosted fallback's (the plan put it first: test_plan_rows18): under an API
    # headline it follows the API's step, before the fallback's replica (blind review 26, q12: a quote for L40S
    # servers came before "start on the hosted API")
    quotes = [s for s in head if s.id == "quotes"]
    head = [s for s in head if s.id != "quotes"]
    # the fallback's replicas to sign with (kv_replicas42) are the fallback's: said so, after its later step; its
    # go/no-go gate is left to section 2's memory sentence, as page 1 leaves the fallback's KV condition out
    # (edge_gate41; q13's fallback: a measured gate on a plan not being signed put its memo a page over)
    kv = [_for_fallback(s) for s in rest if s.id == KV_STEP and s.key != GATE_KEY]
    rest = [s for s in rest if s.id != KV_STEP]
    at = next((i for i, s in enumerate(rest) if s.id == SERVE), None)
    if at is not None:
        then = rest[at + 1] if at + 1 < len(rest) and rest[at + 1].id == RAMP else None
        # the replica and its pressure test as one later step: the API's step is the one step added (q34's memo
        # stayed within its pages, session 28)
        rest[at:at + (2 if then else 1)] = [_later(rest[at], result, then)]
    rest[(at + 1 if at is not None else 0):(at + 1 if at is not None else 0)] = kv
    # the self-hosted soak runs against a server the API path does not have: the fallback's, said so (api43, blind
    # review 34, q24/q36: "a 30-minute soak at 75 concurrent against SERVER:8000" under an API plan)
    rest = [_soak_for_fallback(s) if s.id == SOAK else s for s in rest]
    return [*head, *_icp_move(result), _thinking_off(_api_step(result), result), *(_for_fallback(q) for q in quotes),
            *rest]


ICP_MOVE = "icp_move"
ICP_MOVE_KEY = "rv43.next.icp_move"


def _icp_move(result: PlanResult) -> list[NextStep]:
    """[the mainland host bought now and the ICP filed through it] where the plan launches offshore and moves to the
    mainland once the ICP filing is issued: the filing needs the mainland provider's server or access code, and it
    sets when the prompts stop leaving the mainland (rv43, blind review 34, q21: "the ICP filing needs a mainland
    server or access code bought now: make that next step 1"); [] elsewhere."""
    phased = getattr(result.costs, "phased", None)
    tl = getattr(result, "timeline", None)
    items = {i.id: i for i in getattr(tl, "items", None) or []}
    icp, move = items.get("icp_filing"), items.get("mainland_move")
    if phased is None or phased.then_region != "mainland" or icp is None or move is None:
        return []
    return [NextStep(id=ICP_MOVE, key=ICP_MOVE_KEY, params={"low": icp.days_low, "high": icp.days_high,
                                                           "move_low": move.days_low, "move_high": move.days_high})]


def _thinking_off(step: NextStep, result: PlanResult) -> NextStep:
    """The API's step with the quality test of the model it is priced on run with thinking off (`enable_thinking:
    false` in each request), where that model is a hybrid-thinking one (``api_thinking``) another than the one asked
    for: s41-swap (blind review 34, q12/q24 zh: "move `enable_thinking: false` out of the headline"); page 1's
    condition says "with thinking off" and points here."""
    sw = result.start_with
    change = (sw.params or {}).get("model37") if sw is not None else None
    named = api_thinking.thinkers(str(change.get("other", ""))) if isinstance(change, dict) else []
    if not named:
        return step
    return step.model_copy(update={"key": THINK, "params": {"step": {"tr": step.key, **step.params},
                                                            "model": " / ".join(named), "repo": f"Qwen/{named[0]}"}})


def _soak_for_fallback(step: NextStep) -> NextStep:
    """The soak test as the self-hosted fallback's step ("Only if you self-host: …"), its command kept."""
    return step.model_copy(update={"key": SOAK_FALLBACK})


def _api_step(result: PlanResult) -> NextStep:
    """The API's step (``_api_step_only``) with the API path's own load test where the peak is more than one request:
    its rate limit at the plan's peak in writing and a load test at that level before launch (api43, blind review
    34, q36: "300 concurrent in writing and a load test at that level before the first event"; q24: 50)."""
    step = _api_step_only(result)
    sw = result.start_with
    peak = (sw.params or {}).get("peak") if sw is not None else None
    if not isinstance(peak, int) or peak <= 1:
        return step
    return step.model_copy(update={"key": RATE_LIMIT, "params": {"step": {"tr": step.key, **step.params},
                                                                 "peak": peak}})


def inner_key(step: NextStep) -> str:
    """The API step's own key under the rate-limit sentence (``RATE_LIMIT``), else its key."""
    inner = step.params.get("step") if step.key in (RATE_LIMIT, THINK) else None
    if isinstance(inner, dict) and inner.get("tr") == RATE_LIMIT:  # the thinking switch said after the rate limit
        inner = inner.get("step")
    return str(inner["tr"]) if isinstance(inner, dict) else step.key


def _api_step_only(result: PlanResult) -> NextStep:
    """Sign up, the data terms in writing, the API timed on the team's prompts. No command block: the test is
    section 6's ``advisor bench`` pointed at the provider's URL, named in the text (a block of its own, or the
    concurrency levels, put q34's memo a page over, session 28). Where the lead prices a host for the service in
    front of the API on a premium line (``lead_line.with_line``), that host and its line are the API path's own
    quote, said here (s35-apicond, blind review 27, q21: "the API plan only needs a small front-end server on a
    three-network line", while the only quote step asked for GPU servers)."""
    sw = result.start_with
    cost = (sw.params or {}).get("cost37") if sw is not None else None
    line = result.line_cost
    if isinstance(cost, dict) and cost.get("host") and line is not None and line.line != "any":
        # a line sold only with its provider's hosts: the VM is quoted from that provider, with it (s37-hostline)
        key = WITH_HOST_STEP if line.line in WITH_HOST else HOST_STEP
        return NextStep(id=API_STEP, key=key, params={"region": cost.get("region", ""),
                                                            "line": {"tr": f"plan.line.{line.line}"}})
    return NextStep(id=API_STEP, key="consistent28.next.api_first", params={})


def _for_fallback(step: NextStep) -> NextStep:
    """The GPU servers' quote said as the self-hosted fallback's (q21: under an API lead it read as the plan's)."""
    return step.model_copy(update={"said_for": {"tr": FALLBACK_QUOTES}})


def _later(step: NextStep, result: PlanResult, then: NextStep | None) -> NextStep:
    """"Later, past about 7.7–19 billion tokens a month or if the API falls short (page 1): start one replica …,
    then pressure-test …" (``then``: the pressure test, whose id and command the merged step keeps)."""
    be = result.start_with.break_even if result.start_with else None
    if be is not None and be.capacity_tokens is not None and be.tokens_low > be.capacity_tokens:
        be = None  # s32-apinext32: this setup never carries the break-even (page 1: "never pays on cost alone", q12)
    # the volume in page 1's words (``said_tokens``): one break-even figure where page 1 names one (q36)
    trigger: dict[str, Any] = ({"tr": "consistent28.next.trigger_volume", "tokens": said_tokens(be)}
                               if be is not None else {"tr": "consistent28.next.trigger_short"})
    inner = step.key
    if inner == SERVE_KEY:  # its command is section 2's: named there, not printed a second time in section 9
        inner, step = "consistent28.next.serve_in_sizing", step.model_copy(update={"command": None})
    params: dict[str, Any] = {"trigger": trigger, "step": {"tr": inner, **step.params, "clause": True}}
    if then is None or step.command:  # a serve step with a command of its own stays a step apart
        return step.model_copy(update={"key": "consistent28.next.later", "params": params})
    return then.model_copy(update={"key": "consistent28.next.later_then",
                                   "params": {**params, "then": {"tr": then.key, **then.params, "clause": True}}})


__all__ = ["API_STEP", "FALLBACK_QUOTES", "RATE_LIMIT", "SOAK_FALLBACK", "THINK", "api_first", "inner_key", "leads_with_api"]
