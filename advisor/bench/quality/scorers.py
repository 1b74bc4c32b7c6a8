"""Scorers: one model answer against one sample's reference → a score of 0 or 1 and what was read from it.

Every scorer is a small pure function ``(answer, sample) -> Score``. Normalisation is shared: Unicode NFKC
(full-width Ｂ, ５, ：, （ become B, 5, :, ( — Chinese input methods type full-width forms), case-folded,
punctuation removed, whitespace collapsed, and no space kept next to a CJK character (Chinese is written
without spaces, so "答案 是" and "答案是" are the same answer).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.bench.quality.samples import ScoredSample

SCORERS = ("exact", "normalised", "contains", "regex", "numeric", "choice", "json", "rubric")
# Scored by a judge model (advisor.bench.quality.judge), not by a rule here.
JUDGED = ("rubric",)
LETTERS = "ABCDEFGHIJ"

_CJK = r"\u3400-\u9fff\uf900-\ufaff"
_SPACE_NEXT_TO_CJK = re.compile(rf"(?<=[{_CJK}])\s+|\s+(?=[{_CJK}])")
_NUMBER = re.compile(r"[-−]?\d+(?:,\d{3})*(?:\.\d+)?|[-−]?\.\d+")
_ANSWER_MARK = re.compile(r"(?:answer|答案|结果|result)\s*(?:is|是|为|=|:)?", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(frozen=True)
class Score:
    value: float  # 1.0 right, 0.0 wrong
    extracted: str | None = None  # what the scorer read from the answer (a letter, a number, ...), for the report


def _strip_punctuation(text: str) -> str:
    return "".join(" " if unicodedata.category(c).startswith(("P", "S")) else c for c in text)


def normalise(text: str) -> str:
    """NFKC, case-folded, punctuation and symbols dropped, whitespace collapsed, no spaces beside CJK."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(_strip_punctuation(text).split())
    return _SPACE_NEXT_TO_CJK.sub("", text)


def _exact(answer: str, sample: ScoredSample) -> Score:
    ref = sample.reference or ""
    return Score(float(answer.strip() == ref.strip()), answer.strip()[:80])


def _normalised(answer: str, sample: ScoredSample) -> Score:
    got = normalise(answer)
    return Score(float(got == normalise(sample.reference or "")), got[:80])


def _contains(answer: str, sample: ScoredSample) -> Score:
    ref = normalise(sample.reference or "")
    return Score(float(bool(ref) and ref in normalise(answer)), None)


def _regex(answer: str, sample: ScoredSample) -> Score:
    match = re.search(sample.pattern or sample.reference or "", unicodedata.normalize("NFKC", answer))
    return Score(float(match is not None), match.group(0)[:80] if match else None)


def parse_number(text: str) -> float | None:
    """A number as written: "1,250", "−3.5", full-width "１２"; None when it is not one."""
    text = unicodedata.normalize("NFKC", text).strip().replace("−", "-").replace(",", "")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def extract_number(answer: str) -> float | None:
    """The number an answer gives: the first one after "answer is"/"答案是" when it says so, else the last one
    (worked answers end with the result)."""
    text = unicodedata.normalize("NFKC", answer)
    marks = list(_ANSWER_MARK.finditer(text))
    if marks:
        after = _NUMBER.search(text, marks[-1].end())
        if after:
            return parse_number(after.group(0))
    numbers = _NUMBER.findall(text)
    return parse_number(numbers[-1]) if numbers else None


def _numeric(answer: str, sample: ScoredSample) -> Score:
    want = parse_number(sample.reference or "")
    got = extract_number(answer)
    if want is None or got is None:
        return Score(0.0, None if got is None else f"{got:g}")
    tolerance = sample.tolerance if sample.tolerance is not None else 1e-9 * max(1.0, abs(want))
    return Score(float(abs(got - want) <= tolerance), f"{got:g}")


def extract_choice(answer: str, letters: str = LETTERS[:4]) -> str | None:
    """The option letter an answer picks: "答案是 B", "选B", "The answer is (C)", "B. Paris", "(D)", "B"."""
    text = unicodedata.normalize("NFKC", answer).strip()
    cls = f"[{letters}]"  # capitals only: "a" and "I" are words
    alone = rf"(?<![A-Za-z])({cls})(?![A-Za-z])"
    patterns = (
        rf"(?i:answer|答案|选项)\s*(?i:is|是|为|应为|应该是|:)?\s*(?i:option\s*)?[(\[]?\s*{alone}",
        rf"(?i:选择?|choose|pick)\s*[(\[]?\s*{alone}",
        rf"^[(\[]?\s*({cls})\s*(?:[).:、\]]|$)",
        rf"[(\[]\s*({cls})\s*[)\]]",
    )
    for pattern in patterns:
        match = re.search(pattern, text)
        if match:
            return match.group(1)
    singles = set(re.findall(alone, text))
    return singles.pop() if len(singles) == 1 else None


def _choice(answer: str, sample: ScoredSample) -> Score:
    letters = LETTERS[: max(2, len(sample.choices or []))] if sample.choices else LETTERS[:4]
    got = extract_choice(answer, letters)
    if got is None and sample.choices:  # no letter, but the text of exactly one option
        said = normalise(answer)
        hits = [LETTERS[i] for i, c in enumerate(sample.choices) if normalise(c) and normalise(c) in said]
        got = hits[0] if len(hits) == 1 else None
    return Score(float(got is not None and got == (sample.answer or "").upper()), got)


def _json(answer: str, sample: ScoredSample) -> Score:
    text = answer.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        value = json.loads(text)
    except ValueError:
        return Score(0.0, "invalid")
    if sample.required_keys:
        if not isinstance(value, dict):
            return Score(0.0, "not an object")
        missing = [k for k in sample.required_keys if k not in value]
        if missing:
            return Score(0.0, "missing " + ",".join(missing))
    return Score(1.0, "valid")


_FUNCTIONS = {"exact": _exact, "normalised": _normalised, "contains": _contains, "regex": _regex,
              "numeric": _numeric, "choice": _choice, "json": _json}


def score(answer: str, sample: ScoredSample) -> Score:
    """Score one answer with the sample's scorer (a rule: JUDGED scorers are the judge's, not scored here)."""
    if sample.scorer is None or sample.scorer not in _FUNCTIONS:
        raise ValueError(f"no rule scores {sample.scorer!r}")
    return _FUNCTIONS[sample.scorer](answer, sample)
