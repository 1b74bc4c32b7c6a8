"""The planning wizard's answers: a versioned, JSON-serialisable public format (users script it).

Every field is optional: ``None`` means "unknown", and the plan says what it assumed instead
(``PlanResult.assumptions``). Field help and labels live in the i18n catalogs under
``plan.field.<name>.help`` / ``plan.field.<name>.label`` (both languages), so the CLI template, the wizard and
the memo explain a field with the same words.

``answers_from_dict`` accepts what ``answers_template`` prints: keys that start with ``_`` (comments) are
ignored at every level. Anything else that is not a known field is refused with a field-level message.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from advisor.i18n import translate
from advisor.plan.answer_errors import AnswerProblem, AnswersError
from advisor.plan.models import resolve_plan_model

SCHEMA_VERSION = 1

UseCase = Literal["interactive", "api", "offline_batch"]
Customisation = Literal["none", "fine_tuned"]
QuantOk = Literal["no", "fp8_only", "yes_after_quality_check", "yes"]
UserLocation = Literal["mainland", "hk_tw", "overseas", "mixed"]
Carriers = Literal["telecom", "all_three", "n/a"]
IcpStatus = Literal["none", "in_progress", "filed"]
Level = Literal["low", "medium", "high"]
Currency = Literal["CNY", "USD"]
Ops = Literal["none", "basic", "strong"]
LoadPattern = Literal["stable", "diurnal", "bursty", "one_off_batch"]
Audience = Literal["internal", "business", "public"]
Reach = Literal["lan", "private_network", "internet"]
# the reaches whose users sit on the team's own network (the wizard's "office LAN" and "private network or VPN")
OWN_NETWORK_REACH: tuple[str, ...] = ("lan", "private_network")
GenaiFiling = Literal["none", "in_progress", "registered", "filed"]
# s19-engine19: the engine the team serves with (its stack); the plan prints that engine's command where its flags map
ServingEngine = Literal["vllm", "sglang", "llama_cpp", "ollama", "tgi", "lmdeploy"]
UsageKind = Literal["office", "contact_centre"]


def _refuse(kind: str, **params: Any) -> PydanticCustomError:
    """A validator's refusal, carrying its text's key (``answers.error.<kind>``) and parameters: the message is
    rendered later, in the user's language (the CLI's ``--lang``, the wizard's UI language)."""
    return PydanticCustomError(f"answers.{kind}", f"answers.error.{kind}", params)


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LatencySlo(_Part):
    ttft_p99_ms: float | None = Field(None, gt=0, le=3_600_000)
    tpot_p99_ms: float | None = Field(None, gt=0, le=600_000)
    min_output_tok_s_per_user: float | None = Field(None, gt=0, le=100_000)


class CountRange(_Part):
    low: int = Field(ge=0, le=10**12)
    high: int = Field(ge=0, le=10**12)

    @model_validator(mode="after")
    def _ordered(self) -> CountRange:
        if self.low > self.high:
            raise _refuse("low_above_high", low=self.low, high=self.high)
        return self


class BurstSchedule(_Part):
    """When the bursts of a bursty load come (s15-burst): how many a year, how many days each, and whether their
    dates are known ahead (trade fairs, sales, exam weeks) — then capacity is raised by calendar, not by an
    autoscaler. Each part may be left out; the plan states what it assumed for the missing ones."""

    per_year: int | None = Field(None, ge=1, le=365, description="bursts a year")
    days_each: float | None = Field(None, gt=0, le=365, description="days one burst lasts")
    known_in_advance: bool | None = Field(None, description="the burst dates are known ahead (a calendar)")


class TokenStats(_Part):
    avg: int | None = Field(None, ge=1, le=10_000_000)
    p95: int | None = Field(None, ge=1, le=10_000_000)

    @model_validator(mode="after")
    def _ordered(self) -> TokenStats:
        if self.avg is not None and self.p95 is not None and self.p95 < self.avg:
            raise _refuse("p95_below_avg", p95=self.p95, avg=self.avg)
        return self


class UserMix(_Part):
    mainland: float = Field(ge=0, le=1)
    overseas: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _sum(self) -> UserMix:
        if self.mainland + self.overseas > 1.0001:
            raise _refuse("shares_over_one", mainland=self.mainland, overseas=self.overseas)
        return self


class DataSensitivity(_Part):
    level: Level | None = None
    personal_info: bool | None = None
    pi_subjects_per_year: int | None = Field(None, ge=0, le=10**11)
    sensitive_pi_subjects_per_year: int | None = Field(None, ge=0, le=10**11)
    sector: str | None = Field(None, max_length=80, description="e.g. medical, finance, education, general")


class Budget(_Part):
    amount: float = Field(ge=0, le=1e12)
    currency: Currency = "CNY"


class FleetGpus(_Part):
    """One GPU type the team runs today: its catalog id and how many."""

    gpu: str = Field(min_length=1, max_length=100, description="catalog GPU id, e.g. h100-sxm-80g")
    count: int = Field(ge=1, le=1_000_000)

    @field_validator("gpu")
    @classmethod
    def _known_gpu(cls, v: str) -> str:
        from advisor.catalog import CatalogError, get_gpu

        try:
            return get_gpu(v).id
        except CatalogError:
            raise _refuse("gpu_unknown", name=str(v)) from None


class CurrentFleet(FleetGpus):
    """GPUs the team runs today (utilisation stays in ``measured_utilisation``): one type, and optionally the
    other types it runs beside it (s14-plan: a securities firm's 16 H20 and 16 L20)."""

    others: list[FleetGpus] | None = Field(None, max_length=16, description="other GPU types the team runs beside "
                                           "this one, each {gpu, count}")
    # fleet load (s14-fleetload): the fleet's measured load is this service's own base load, not other work
    load_is_this_service: bool | None = Field(None, description="true: the fleet's GPUs all serve this service and "
                                              "measured_utilisation is its load today (the base); the peak above it "
                                              "is added. false/unset: the load is other work, only the free share "
                                              "is used")
    peak_multiple: float | None = Field(None, ge=1, le=100, description="with load_is_this_service: the peak as a "
                                        "multiple of today's load (3 = demand triples)")

    @model_validator(mode="after")
    def _types_once(self) -> CurrentFleet:
        ids = [self.gpu, *(o.gpu for o in self.others or ())]
        if len(set(ids)) != len(ids):
            raise _refuse("fleet_repeated", gpus=", ".join(sorted({g for g in ids if ids.count(g) > 1})))
        return self


FIELDS: tuple[str, ...] = (
    "use_case", "latency_slo", "peak_concurrency", "requests_per_day", "prompt_tokens", "output_tokens",
    "max_context_tokens", "model", "model_customisation", "quantization_acceptable", "user_location", "user_mix",
    "overseas_markets", "mainland_carriers", "icp_status", "mainland_entity", "launch_deadline_days",
    "data_sensitivity", "public_genai_in_mainland", "charges_users", "monthly_budget", "ops_capability",
    "expected_duration_months", "load_pattern", "measured_utilisation", "gpu_constraint", "total_requests",
    "batch_deadline_hours", "audience", "reach",
    # obligations (s12): the generative-AI filing status; an ICP-filed service moving data centre / provider
    "genai_filing", "hosting_move",
    "current_fleet",  # GPU choice (s12-gpuchoice)
    "capex_budget", "model_name", "checkpoint",
    "minors",  # minors (s13-duties)
    "burst_schedule",  # bursty and hybrid loads (s15-burst)
    "users",  # s18-volume: the people who use a staff tool, for its month of tokens
    "open_signup",  # s18-genai3: a business service any business can sign up for, or contracted customers only
    "serving_engine",  # s19-engine19: the team's serving engine; the serve command is that engine's
    "usage_kind",  # s19-volume19: how a staff tool's people use it (office staff now and then, agents every contact)
)  # fmt: skip

SUBFIELDS: dict[str, tuple[str, ...]] = {
    "latency_slo": ("ttft_p99_ms", "tpot_p99_ms", "min_output_tok_s_per_user"),
    "requests_per_day": ("low", "high"),
    "prompt_tokens": ("avg", "p95"),
    "output_tokens": ("avg", "p95"),
    "user_mix": ("mainland", "overseas"),
    "data_sensitivity": ("level", "personal_info", "pi_subjects_per_year", "sensitive_pi_subjects_per_year", "sector"),
    "monthly_budget": ("amount", "currency"),
    "current_fleet": ("gpu", "count", "others", "load_is_this_service", "peak_multiple"),
    "capex_budget": ("amount", "currency"),
    "burst_schedule": ("per_year", "days_each", "known_in_advance"),
}

_MARKETS = {"SEA", "EU", "global"}


class PlanAnswers(BaseModel):
    """What the team told the wizard. ``None`` everywhere is valid: the plan then assumes and says so."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = Field(SCHEMA_VERSION, ge=1)
    use_case: UseCase | None = None
    latency_slo: LatencySlo | None = None
    peak_concurrency: int | None = Field(None, ge=1, le=1_000_000)
    requests_per_day: int | CountRange | None = Field(None)
    prompt_tokens: TokenStats | None = None
    output_tokens: TokenStats | None = None
    max_context_tokens: int | None = Field(None, ge=16, le=10_000_000)
    model: str | None = Field(None, min_length=1, max_length=500)
    model_customisation: Customisation | None = None
    quantization_acceptable: QuantOk | None = None
    user_location: UserLocation | None = None
    user_mix: UserMix | None = None
    overseas_markets: list[str] | None = None
    mainland_carriers: Carriers | None = None
    icp_status: IcpStatus | None = None
    mainland_entity: bool | None = None
    launch_deadline_days: int | None = Field(None, ge=0, le=3650)
    data_sensitivity: DataSensitivity | None = None
    public_genai_in_mainland: bool | None = None
    charges_users: bool | None = None
    monthly_budget: Budget | None = None
    ops_capability: Ops | None = None
    expected_duration_months: int | None = Field(None, ge=1, le=120)
    load_pattern: LoadPattern | None = None
    measured_utilisation: float | None = Field(None, ge=0, le=1)
    gpu_constraint: list[str] | None = None
    total_requests: int | None = Field(None, ge=1, le=10**12)
    batch_deadline_hours: float | None = Field(None, gt=0, le=24 * 365)
    audience: Audience | None = Field(None, description="internal staff only, business customers, or the public")
    reach: Reach | None = Field(None, description="who can reach the service: the office LAN, a private network or "
                                "VPN, or the public internet")
    # obligations: the service's CAC generative-AI filing/registration status, and whether an ICP-filed service
    # is moving to another data centre or provider (the ICP access record follows the servers)
    genai_filing: GenaiFiling | None = Field(None, description="the service's generative-AI filing (备案) or "
                                             "registration (登记) status: none, in_progress, registered, filed")
    hosting_move: bool | None = Field(None, description="an ICP-filed service is moving to another data centre "
                                      "or hosting provider")
    # --- GPU choice (s12-gpuchoice): continuity with the GPUs the team runs today ---------------------------
    current_fleet: CurrentFleet | None = Field(None, description="GPUs the team runs today: {gpu: catalog id, count}")
    # forms and fine-tuned models (s12-forms): a one-off hardware budget, and the team's own model by name
    capex_budget: Budget | None = Field(None, description="one-off budget for buying hardware (amount + currency)")
    model_name: str | None = Field(None, min_length=1, max_length=200,
                                   description="display name of the team's fine-tuned model (served under it)")
    checkpoint: str | None = Field(None, min_length=1, max_length=1000,
                                   description="the fine-tuned model's checkpoint: a local path or a repository id")
    # minors (s13-duties): the users, or the people whose personal information it handles, include minors (< 18)
    minors: bool | None = Field(None, description="the users, or the people whose personal information the service "
                                                  "handles, include minors (under 18; under 14 is sensitive PI)")
    # --- bursty and hybrid loads (s15-burst): when the bursts come, so the rented share of hours, the month's
    # volume and calendar-vs-autoscaler follow from the answers, not from a fixed 35 % ---------------------------
    burst_schedule: BurstSchedule | None = Field(None, description="a bursty load's bursts: {per_year, days_each, "
                                                 "known_in_advance}")
    # --- a staff tool's month of tokens (s18-volume): without requests a day, its people × an assumed number of
    # requests each a working day (advisor.plan.people_volume); without this, the people at the peak ---------------
    users: int | None = Field(None, ge=1, le=100_000_000, description="people who use the service (a staff tool: "
                              "the staff who use it, not only those at the peak)")
    # --- a business service's reach (s18-genai3, eighth blind review): any business can sign up (true: likely
    # offered to the public under the generative-AI rules, so the filing is planned) or only customers under a
    # contract the company names (false: the answer "not public" stands); unknown: asked, and said as a caveat ----
    open_signup: bool | None = Field(None, description="a business service: any business can sign up (true) or "
                                     "only customers under a contract you name (false)")
    # --- the serving engine the team runs (s19-engine19): SGLang gets its own launch line and is simulated as SGLang;
    # llama.cpp, Ollama, TGI and LMDeploy get the settings to set by hand (their flags do not map one to one);
    # unknown: the plan serves with vLLM, its own recommendation, no assumption about the team ------------------------
    serving_engine: ServingEngine | None = Field(None, description="the serving engine your team runs: vllm, sglang, "
                                                 "llama_cpp, ollama, tgi or lmdeploy")
    # --- how a staff tool's people use it (s19-volume19, q41): office staff now and then (about 20 requests a
    # working day, assumed) or a contact centre's agents on every call or chat (about 56 a shift, from handle time
    # and occupancy benchmarks: advisor.plan.staff_usage); unknown: office, said as an assumption and asked --------
    usage_kind: UsageKind | None = Field(None, description="a tool people use: office staff now and then (office) "
                                         "or a contact centre's agents on every call or chat (contact_centre)")

    @field_validator("model_name", "checkpoint")
    @classmethod
    def _name_text(cls, v: str | None) -> str | None:
        """A name goes into shell commands, titles and memos: no line breaks, no control characters, no surrounding
        spaces (an empty or all-space name is no name), no ``user:password@`` in a URL."""
        if v is None:
            return v
        v = v.strip()
        if not v:
            raise _refuse("empty")
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in v):
            raise _refuse("control_chars")
        from advisor.redact import url_credentials_problem

        if url_credentials_problem(v):  # it lands in commands and memos: a password in it never does
            raise _refuse("url_credentials")
        return v

    @field_validator("requests_per_day")
    @classmethod
    def _rpd(cls, v: int | CountRange | None) -> int | CountRange | None:
        if isinstance(v, int) and not 0 <= v <= 10**12:
            raise _refuse("requests_per_day_range", low=0, high=10**12)
        return v

    @field_validator("overseas_markets")
    @classmethod
    def _markets(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        out = []
        for code in v:
            c = code.strip()
            if c in _MARKETS or c.lower() == "global":
                out.append("global" if c.lower() == "global" else c)
            elif len(c) == 2 and c.isascii() and c.isalpha():
                out.append(c.upper())
            else:
                raise _refuse("market", code=str(code))
        return out

    @field_validator("gpu_constraint")
    @classmethod
    def _gpus(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        from advisor.catalog import CatalogError, get_gpu

        out = []
        for name in v:
            try:
                out.append(get_gpu(name).id)
            except CatalogError:
                raise _refuse("gpu_unknown", name=str(name)) from None
        if not out:
            raise _refuse("gpu_list_empty")
        return sorted(set(out))

    # --- convenient views -------------------------------------------------------------------------------
    def known(self) -> dict[str, Any]:
        """The fields the user answered (not None), as JSON-ready values."""
        return {k: v for k, v in self.model_dump(mode="json").items() if v is not None and k != "schema_version"}


def _strip_comments(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_comments(v) for k, v in value.items() if not (isinstance(k, str) and k.startswith("_"))}
    if isinstance(value, list):
        return [_strip_comments(v) for v in value]
    return value


# pydantic's error types → our keys (answers.error.<key>): what is wrong, and what is allowed
_KEYS = {
    "int_type": "whole_number", "int_parsing": "whole_number", "int_from_float": "whole_number",
    "int_parsing_size": "whole_number", "float_type": "number", "float_parsing": "number", "finite_number": "number",
    "bool_type": "yes_no", "bool_parsing": "yes_no", "string_type": "text", "string_too_short": "empty",
    "string_too_long": "too_long", "list_type": "list", "missing": "missing",
    "model_type": "object", "dict_type": "object", "model_attributes_type": "object",
}  # fmt: skip
_RANGE = {"greater_than_equal", "greater_than", "less_than_equal", "less_than"}
_PARTS: dict[str, type[BaseModel]] = {
    "latency_slo": LatencySlo, "requests_per_day": CountRange, "prompt_tokens": TokenStats,
    "output_tokens": TokenStats, "user_mix": UserMix, "data_sensitivity": DataSensitivity, "monthly_budget": Budget,
    "current_fleet": CurrentFleet,
    "capex_budget": Budget,
    "burst_schedule": BurstSchedule,
}  # fmt: skip


def _bounds(path: list[str]) -> tuple[Any, Any, bool]:
    """(low, high, low_exclusive) of the numeric field at ``path`` (from its pydantic constraints)."""
    model: type[BaseModel] = PlanAnswers if len(path) == 1 else _PARTS.get(path[0], PlanAnswers)
    info = model.model_fields.get(path[-1])
    low = high = None
    exclusive = False
    for m in info.metadata if info else ():
        if getattr(m, "ge", None) is not None:
            low = m.ge
        elif getattr(m, "gt", None) is not None:
            low, exclusive = m.gt, True
        if getattr(m, "le", None) is not None:
            high = m.le
    return low, high, exclusive


def _known_names(path: list[str]) -> list[str]:
    return [*FIELDS, "schema_version"] if len(path) == 1 else list(SUBFIELDS.get(path[0], ()))


def _problem(err: dict[str, Any], path: list[str]) -> AnswerProblem:
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    where = ".".join(path) or "answers"
    if kind.startswith("answers."):  # our own validators
        return AnswerProblem(where, f"answers.error.{kind.removeprefix('answers.')}", dict(ctx))
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(path[-1], _known_names(path), n=1, cutoff=0.75)
        if close:
            return AnswerProblem(where, "answers.error.unknown_field_close", {"name": close[0]})
        return AnswerProblem(where, "answers.error.unknown_field")
    if kind == "literal_error":
        return AnswerProblem(where, "answers.error.choice", {"choices": {"or": re.findall(r"'([^']*)'", str(ctx.get("expected", "")))}})
    if path and path[0] == "requests_per_day" and len(path) == 1 and kind in _KEYS:
        return AnswerProblem(where, "answers.error.requests_per_day")
    if kind in _RANGE:
        low, high, exclusive = _bounds(path)
        if low is not None and high is not None:
            return AnswerProblem(where, "answers.error.above_upto" if exclusive else "answers.error.between",
                                 {"low": low, "high": high})  # fmt: skip
        if low is not None:
            return AnswerProblem(where, "answers.error.more_than" if exclusive else "answers.error.at_least", {"low": low})
        return AnswerProblem(where, "answers.error.at_most", {"high": high if high is not None else ctx.get("le", ctx.get("lt"))})
    if kind == "string_too_long":
        return AnswerProblem(where, "answers.error.too_long", {"max": ctx.get("max_length")})
    if kind == "missing" and len(path) >= 2:
        return AnswerProblem(where, "answers.error.missing", {"name": path[-1], "parent": ".".join(path[:-1])})
    if kind in ("model_type", "dict_type", "model_attributes_type") and path and path[0] in SUBFIELDS:
        return AnswerProblem(where, "answers.error.object", {"keys": {"and": list(SUBFIELDS[path[0]])}})
    if kind in _KEYS:
        return AnswerProblem(where, f"answers.error.{_KEYS[kind]}")
    return AnswerProblem(where, "answers.error.other", {"message": str(err.get("msg", "")).removeprefix("Value error, ")})


def _rpd_branch(loc: tuple[Any, ...]) -> str | None:
    """For requests_per_day (a number or {low, high}): which of pydantic's two branches the error is from."""
    if len(loc) >= 2 and loc[0] == "requests_per_day" and isinstance(loc[1], str):
        return "int" if loc[1] == "int" else "range" if "CountRange" in loc[1] else None
    return None


def _path(loc: tuple[Any, ...]) -> list[str]:
    """The error's location as the answers file names it (pydantic's union branch left out)."""
    parts = list(loc)
    if _rpd_branch(loc):
        del parts[1]
    return [str(p) for p in parts] or ["answers"]


def answers_from_dict(data: Any) -> PlanAnswers:
    """Validate a decoded JSON value; raise AnswersError with field-level messages (never anything else)."""
    if not isinstance(data, dict):
        raise AnswersError([AnswerProblem("answers", "answers.error.not_object")])
    try:
        clean = _strip_comments(data)
    except RecursionError:
        raise AnswersError([AnswerProblem("answers", "answers.error.too_deep")]) from None
    version = clean.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        raise AnswersError([AnswerProblem("schema_version", "answers.error.newer_format",
                                          {"version": version, "supported": SCHEMA_VERSION})])  # fmt: skip
    try:
        answers = PlanAnswers.model_validate(clean)
    except ValidationError as exc:
        seen: dict[str, AnswerProblem] = {}
        rpd_is_range = isinstance(clean.get("requests_per_day"), dict)
        for err in exc.errors():
            loc = tuple(err["loc"])
            # requests_per_day is int | {low, high}: report the branch the user meant
            branch = _rpd_branch(loc)
            if branch == "int" and rpd_is_range or branch == "range" and not rpd_is_range:
                continue
            problem = _problem(err, _path(loc))
            seen.setdefault(problem.field, problem)
        model = clean.get("model")
        if isinstance(model, str) and model.strip() and "model" not in seen:
            seen.update(_model_problems(model))
        raise AnswersError([seen[k] for k in sorted(seen)] or [AnswerProblem("answers", "answers.error.other",
                                                                              {"message": str(exc)})]) from None  # fmt: skip
    except (TypeError, ValueError, RecursionError) as exc:  # pragma: no cover - pydantic wraps these
        raise AnswersError([AnswerProblem("answers", "answers.error.other", {"message": str(exc)})]) from None
    if answers.model is not None and (problems := _model_problems(answers.model)):
        raise AnswersError([problems[k] for k in sorted(problems)])
    if answers.schema_version > SCHEMA_VERSION:  # written as 2.0 or "2": the check above saw no integer
        raise AnswersError([AnswerProblem("schema_version", "answers.error.newer_format",
                                          {"version": answers.schema_version, "supported": SCHEMA_VERSION})])  # fmt: skip
    return answers


def _model_problems(name: str) -> dict[str, AnswerProblem]:
    try:
        resolve_plan_model(name)
    except AnswersError as exc:
        return {p.field: p for p in exc.issues}
    return {}


def load_answers(path: str | Path) -> PlanAnswers:
    from advisor.safe_json import JsonInputError, loads, read_bounded

    path = Path(path)
    try:  # the one JSON reader: 64 MiB, nesting depth, NaN and 5,000-digit numbers bounded
        raw = read_bounded(path)
        data = loads(raw, source=str(path), max_bytes=None)
    except JsonInputError as exc:
        if exc.kind == "missing":
            raise AnswersError([AnswerProblem("file", "answers.error.file_missing", {"path": str(path)})]) from None
        if exc.kind == "not_text":
            raise AnswersError([AnswerProblem("file", "answers.error.not_utf8", {"path": str(path)})]) from None
        if exc.kind == "syntax":
            raise AnswersError([AnswerProblem("file", "answers.error.not_json", {
                "path": str(path), "line": exc.line, "column": exc.column, "reason": exc.reason})]) from None
        raise AnswersError([AnswerProblem("file", "answers.error.file_unreadable",
                                          {"path": str(path), "reason": exc.reason})]) from None
    return answers_from_dict(data)


def field_label(name: str, lang: str) -> str:
    return translate(lang, f"plan.field.{name}.label")


def field_help(name: str, lang: str) -> str:
    return translate(lang, f"plan.field.{name}.help")


def answers_template(lang: str = "en") -> str:
    """A commented skeleton: every field null (= unknown) with a ``_name`` comment key before it.

    ``advisor plan --answers`` accepts the output as it is (comment keys are ignored)."""
    out: dict[str, Any] = {"_comment": translate(lang, "plan.template.intro"), "schema_version": SCHEMA_VERSION}
    for name in FIELDS:
        out[f"_{name}"] = f"{field_label(name, lang)}: {field_help(name, lang)}"
        subs = SUBFIELDS.get(name)
        if subs and name != "requests_per_day":
            out[name] = None
            example: dict[str, Any] = {}
            for sub in subs:
                example[sub] = None
            out[f"_{name}_example"] = example
        else:
            out[name] = None
    return json.dumps(out, ensure_ascii=False, indent=2) + "\n"
