"""The planning wizard's answers: a versioned, JSON-serialisable public format (users script it).

Every field is optional: ``None`` means "unknown", and the plan says what it assumed instead
(``PlanResult.assumptions``). Field help and labels live in the i18n catalogs under
``plan.field.<name>.help`` / ``plan.field.<name>.label`` (both languages), so the CLI template, the wizard and
the memo explain a field with the same words.

``answers_from_dict`` accepts what ``answers_template`` prints: keys that start with ``_`` (comments) are
ignored at every level. Anything else that is not a known field is refused with a field-level message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from advisor.i18n import translate

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
            raise ValueError(f"low ({self.low}) must not be above high ({self.high})")
        return self


class TokenStats(_Part):
    avg: int | None = Field(None, ge=1, le=10_000_000)
    p95: int | None = Field(None, ge=1, le=10_000_000)

    @model_validator(mode="after")
    def _ordered(self) -> TokenStats:
        if self.avg is not None and self.p95 is not None and self.p95 < self.avg:
            raise ValueError(f"p95 ({self.p95}) cannot be below the average ({self.avg})")
        return self


class UserMix(_Part):
    mainland: float = Field(ge=0, le=1)
    overseas: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _sum(self) -> UserMix:
        if self.mainland + self.overseas > 1.0001:
            raise ValueError("the shares of mainland and overseas users add up to more than 1")
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


FIELDS: tuple[str, ...] = (
    "use_case", "latency_slo", "peak_concurrency", "requests_per_day", "prompt_tokens", "output_tokens",
    "max_context_tokens", "model", "model_customisation", "quantization_acceptable", "user_location", "user_mix",
    "overseas_markets", "mainland_carriers", "icp_status", "mainland_entity", "launch_deadline_days",
    "data_sensitivity", "public_genai_in_mainland", "charges_users", "monthly_budget", "ops_capability",
    "expected_duration_months", "load_pattern", "measured_utilisation", "gpu_constraint", "total_requests",
    "batch_deadline_hours", "audience",
)  # fmt: skip

SUBFIELDS: dict[str, tuple[str, ...]] = {
    "latency_slo": ("ttft_p99_ms", "tpot_p99_ms", "min_output_tok_s_per_user"),
    "requests_per_day": ("low", "high"),
    "prompt_tokens": ("avg", "p95"),
    "output_tokens": ("avg", "p95"),
    "user_mix": ("mainland", "overseas"),
    "data_sensitivity": ("level", "personal_info", "pi_subjects_per_year", "sensitive_pi_subjects_per_year", "sector"),
    "monthly_budget": ("amount", "currency"),
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

    @field_validator("requests_per_day")
    @classmethod
    def _rpd(cls, v: int | CountRange | None) -> int | CountRange | None:
        if isinstance(v, int) and not 0 <= v <= 10**12:
            raise ValueError("requests per day must be between 0 and 10^12")
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
                raise ValueError(f"{code!r} is not a two-letter country code (ISO 3166, e.g. US, JP, SG) nor SEA/EU/global")
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
                raise ValueError(f"unknown GPU {name!r}; `advisor gpus` lists the ids") from None
        if not out:
            raise ValueError("list at least one GPU, or leave this out (null) when any GPU is fine")
        return sorted(set(out))

    # --- convenient views -------------------------------------------------------------------------------
    def known(self) -> dict[str, Any]:
        """The fields the user answered (not None), as JSON-ready values."""
        return {k: v for k, v in self.model_dump(mode="json").items() if v is not None and k != "schema_version"}


class AnswersError(ValueError):
    """The answers are not valid; ``problems`` lists (field path, message) pairs, one per mistake."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{where}: {msg}" for where, msg in problems))


def _strip_comments(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_comments(v) for k, v in value.items() if not (isinstance(k, str) and k.startswith("_"))}
    if isinstance(value, list):
        return [_strip_comments(v) for v in value]
    return value


def _message(err: dict[str, Any]) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", "")).removeprefix("Value error, ")
    if kind == "extra_forbidden":
        return "unknown field (check the spelling; `advisor plan --template` lists every field)"
    if kind == "literal_error":
        ctx = err.get("ctx") or {}
        expected = ctx.get("expected")
        return f"must be one of {expected}" if expected else msg
    return msg


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if not (isinstance(p, str) and (p in ("int", "CountRange") or "[" in p))]
    return ".".join(parts) or "answers"


def answers_from_dict(data: Any) -> PlanAnswers:
    """Validate a decoded JSON value; raise AnswersError with field-level messages (never anything else)."""
    if not isinstance(data, dict):
        raise AnswersError([("answers", "expected a JSON object of field → answer (see `advisor plan --template`)")])
    try:
        clean = _strip_comments(data)
    except RecursionError:
        raise AnswersError([("answers", "nested too deeply")]) from None
    version = clean.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
        raise AnswersError(
            [("schema_version", f"written for answers format {version}; this app reads up to {SCHEMA_VERSION}")]
        )
    try:
        answers = PlanAnswers.model_validate(clean)
    except ValidationError as exc:
        seen: dict[str, str] = {}
        for err in exc.errors():
            loc = tuple(err["loc"])
            given = err.get("input")
            # requests_per_day is int | {low, high}: report the branch the user meant
            if "int" in loc[1:2] and isinstance(given, dict) or "CountRange" in loc[1:2] and not isinstance(given, dict):
                continue
            seen.setdefault(_where(loc), _message(err))
        model = clean.get("model")
        if isinstance(model, str) and model.strip() and "model" not in seen:
            seen.update(_model_problems(model))
        raise AnswersError(sorted(seen.items()) or [("answers", str(exc))]) from None
    except (TypeError, ValueError, RecursionError) as exc:  # pragma: no cover - pydantic wraps these
        raise AnswersError([("answers", str(exc))]) from None
    if answers.model is not None and (problems := _model_problems(answers.model)):
        raise AnswersError(sorted(problems.items()))
    return answers


def _model_problems(name: str) -> dict[str, str]:
    from advisor.plan.models import resolve_plan_model

    try:
        resolve_plan_model(name)
    except AnswersError as exc:
        return dict(exc.problems)
    return {}


def load_answers(path: str | Path) -> PlanAnswers:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise AnswersError([("file", f"{path} does not exist")]) from None
    except OSError as exc:
        raise AnswersError([("file", f"{path} cannot be read: {exc.strerror or exc}")]) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise AnswersError([("file", f"{path} is not UTF-8 text")]) from None
    except json.JSONDecodeError as exc:
        raise AnswersError([("file", f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")]) from None
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
