"""Sample files with references (JSONL / CSV / JSON list) and the built-in bilingual set.

A row is a prompt (``prompt`` text, or ``messages`` as OpenAI chat messages) plus, to be scored, either a
``reference`` or ``choices`` + ``answer`` (an option letter), and optionally ``scorer`` (one of
:data:`advisor.bench.quality.scorers.SCORERS`), ``tolerance`` (numeric, absolute), ``pattern`` (regex) and
``required_keys`` (json; in CSV a ``|``-separated list; ``choices`` likewise). ``scorer: "rubric"`` with a
``rubric`` (what a good answer must do) is scored by a judge model the user names (advisor.bench.quality.judge);
without a judge such rows are answered and counted as not scored. Without ``scorer`` the kind
is chosen from the row: choices → ``choice``, a reference that is a number → ``numeric``, else ``normalised``.
Rows without a reference are still answered (their answers are shown) but not scored.

Every problem is a :class:`SampleError` naming the file, the line and the field.
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from advisor.bench.quality.scorers import LETTERS, SCORERS, parse_number
from advisor.bench.workload import Prompt, WorkloadError, _from_obj, _RowError
from advisor.i18n import tr
from advisor.resources import resource_path
from advisor.safe_json import JsonInputError, loads, read_bounded

MAX_BYTES = 64 * 1024 * 1024
MAX_SAMPLES = 20_000
BUILTIN_LANGUAGES = ("en", "zh")


class SampleError(WorkloadError):
    """A sample file cannot be used; the message names the file, the line and the field."""


class ScoredSample(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    prompt: str  # the text shown in reports (the last user message for chat rows)
    messages: list[dict[str, Any]] | None = None
    max_tokens: int = 0  # 0: the A/B's own max_tokens
    scorer: str | None = None  # None: answered, not scored
    reference: str | None = None
    choices: list[str] | None = None
    answer: str | None = None
    tolerance: float | None = Field(None, ge=0)
    pattern: str | None = None
    required_keys: list[str] | None = None
    rubric: str | None = None  # scorer "rubric": what a good answer must do, read by the judge model
    category: str = ""

    @property
    def scored(self) -> bool:
        return self.scorer is not None

    def as_prompt(self, max_tokens: int) -> Prompt:
        return Prompt(text=None if self.messages else self.prompt, messages=self.messages,
                      max_tokens=self.max_tokens or max_tokens)

    def expected(self) -> str:
        """The reference as a reader sees it (for reports)."""
        if self.scorer == "choice":
            return self.answer or ""
        if self.scorer == "json":
            return "JSON" + (f" {{{', '.join(self.required_keys)}}}" if self.required_keys else "")
        if self.scorer == "regex":
            return f"/{self.pattern or self.reference}/"
        if self.scorer == "rubric":
            return self.rubric or ""
        return self.reference or ""


def _text_list(value: Any, field: str) -> list[str] | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = [v.strip() for v in value.split("|")]
    if not isinstance(value, list) or not all(isinstance(v, str | int | float) for v in value):
        raise _RowError(tr("quality.sample.bad_list", field=field))
    return [str(v) for v in value]


def sample_from_row(row: dict[str, Any], default_id: str) -> ScoredSample | None:
    """One row → a sample (None for a metadata row without a prompt); _RowError names the field."""
    prompt = _from_obj(row)
    if prompt is None:
        return None
    ref = row.get("reference")
    if ref is not None and not isinstance(ref, str | int | float) or isinstance(ref, bool):
        raise _RowError(tr("quality.sample.reference_not_text"))
    reference = None if ref is None or ref == "" else str(ref)
    choices = _text_list(row.get("choices"), "choices")
    answer = row.get("answer")
    answer = str(answer).strip().upper() if answer not in (None, "") else None
    scorer = row.get("scorer") or None
    if scorer is not None and scorer not in SCORERS:
        raise _RowError(tr("quality.sample.bad_scorer", scorer=str(scorer)[:40], known=", ".join(SCORERS)))
    if scorer is None:
        if choices or answer:
            scorer = "choice"
        elif reference is not None:
            scorer = "numeric" if parse_number(reference) is not None else "normalised"
    if scorer == "choice":
        letters = LETTERS[: len(choices)] if choices else LETTERS
        if not answer or answer not in letters:
            raise _RowError(tr("quality.sample.bad_answer", answer=answer or "", letters=", ".join(letters)))
    elif scorer in ("exact", "normalised", "contains", "numeric") and reference is None:
        raise _RowError(tr("quality.sample.needs_reference", scorer=scorer))
    rubric = row.get("rubric")
    rubric = " ".join(str(rubric).split())[:2000] if isinstance(rubric, str) and rubric.strip() else None
    if scorer == "rubric" and rubric is None:
        raise _RowError(tr("quality.sample.needs_rubric"))
    if scorer == "numeric" and parse_number(reference or "") is None:
        raise _RowError(tr("quality.sample.not_number", value=(reference or "")[:40]))
    pattern = row.get("pattern") or (reference if scorer == "regex" else None)
    if scorer == "regex":
        if not pattern:
            raise _RowError(tr("quality.sample.needs_reference", scorer=scorer))
        try:
            re.compile(str(pattern))
        except re.error as exc:
            raise _RowError(tr("quality.sample.bad_regex", error=str(exc))) from None
    tolerance = row.get("tolerance")
    if tolerance not in (None, ""):
        tol = parse_number(str(tolerance))
        if tol is None or tol < 0:
            raise _RowError(tr("quality.sample.bad_tolerance", value=str(tolerance)[:40]))
        tolerance = tol
    else:
        tolerance = None
    text = prompt.text if prompt.text is not None else str((prompt.messages or [{}])[-1].get("content", ""))
    return ScoredSample(
        id=str(row.get("id") or default_id), prompt=text, messages=prompt.messages, max_tokens=prompt.max_tokens,
        scorer=scorer, reference=reference, choices=choices, answer=answer, tolerance=tolerance,
        pattern=str(pattern) if pattern else None, required_keys=_text_list(row.get("required_keys"), "required_keys"),
        rubric=rubric, category=str(row.get("category") or ""),
    )


def _rows(path: Path, text: str) -> list[tuple[str, Any]]:
    """(where, row) pairs: CSV rows as dicts, JSON list items, or JSONL lines."""
    if path.suffix.lower() == ".csv":
        try:
            reader = csv.DictReader(text.splitlines())
            return [(str(n), {(k or "").strip().lower(): v for k, v in row.items()}) for n, row in enumerate(reader, 2)]
        except csv.Error as exc:
            raise SampleError(tr("bench.workload.bad_file", path=str(path), error=str(exc))) from None
    if text.lstrip().startswith("["):
        try:
            items = loads(text, source=str(path), max_bytes=None)
        except JsonInputError as exc:
            raise SampleError(str(exc)) from None
        return [(str(n), item) for n, item in enumerate(items, 1)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append((str(n), loads(line, source=f"{path}, line {n}", max_bytes=None)))
            except JsonInputError as exc:
                raise SampleError(str(exc)) from None
    return out


def load_samples(path: str | Path) -> list[ScoredSample]:
    """Samples of a file (scored and unscored); SampleError for a file that cannot be used."""
    p = Path(path)
    if not p.is_file():
        raise SampleError(tr("bench.workload.no_file", path=str(p)))
    try:
        text = read_bounded(p, MAX_BYTES).decode("utf-8-sig")
    except JsonInputError as exc:
        raise SampleError(str(exc)) from None
    except UnicodeDecodeError:
        raise SampleError(tr("inputs.dataset.not_text", path=str(p))) from None
    samples: list[ScoredSample] = []
    for where, row in _rows(p, text):
        try:
            if not isinstance(row, dict):
                row = {"prompt": row} if isinstance(row, str) else row
                if not isinstance(row, dict):
                    raise _RowError(tr("inputs.dataset.not_object", value=type(row).__name__))
            sample = sample_from_row(row, f"{p.stem}-{where}")
        except _RowError as exc:
            raise SampleError(tr("inputs.dataset.bad_row", path=str(p), row=where, problem=str(exc))) from None
        if sample is not None:
            samples.append(sample)
            if len(samples) > MAX_SAMPLES:
                raise SampleError(tr("inputs.dataset.too_many", path=str(p), most=MAX_SAMPLES))
    if not samples:
        raise SampleError(tr("bench.workload.empty", path=str(p)))
    return samples


def builtin_path(language: str) -> Path:
    return resource_path("quality", f"samples_{language}.jsonl")


@cache
def builtin_samples(language: str) -> tuple[ScoredSample, ...]:
    """The built-in scored samples of one language (see resources/quality/README.md)."""
    if language not in BUILTIN_LANGUAGES:
        raise SampleError(tr("quality.sample.no_builtin", language=language))
    return tuple(load_samples(builtin_path(language)))

