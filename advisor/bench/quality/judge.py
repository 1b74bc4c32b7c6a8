"""A model-graded rubric: a judge model (any OpenAI-compatible endpoint the user names) reads the question, the
sample's criteria and reference, and one answer, and replies pass or fail.

For answers no rule can score (a summary, a polite refusal, a customer reply), the sample carries ``scorer:
"rubric"`` and a ``rubric`` (what a good answer must do). The judge's prompt is fixed and shown with the result
(:data:`JUDGE_PROMPT` per language, the same for both sides), so a reader can see what was asked; the judge runs at
temperature 0. A reply without a readable verdict scores nothing: that sample is counted as undecided, never as a
pass or a fail. Each request is bounded in time and size (advisor.bounded_http); the judge's key is checked like a
server's key and never stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.bench.quality.samples import ScoredSample
from advisor.bench.quality.scorers import Score
from advisor.bounded_http import request
from advisor.i18n import translate
from advisor.redact import redact_url

JUDGE_MAX_TOKENS = 256
JUDGE_TIMEOUT_S = 60.0
JUDGE_MAX_BYTES = 1024 * 1024
# The last "SCORE: 1" / "SCORE: 0" (or 分数：1) in the reply; a judge that reasons first may mention the other.
_VERDICT = re.compile(r"(?:SCORE|分数|得分)\s*[:：=]\s*([01])\b", re.IGNORECASE)


class JudgeError(RuntimeError):
    """The judge endpoint cannot be used (unreachable, not OpenAI-compatible, refuses the key)."""


@dataclass(frozen=True)
class Judge:
    url: str  # the OpenAI-compatible base URL, e.g. http://host:8000/v1
    model: str
    api_key: str | None = None
    language: str = "en"

    def described(self) -> str:
        """Who judged, for the report: the URL without credentials, and the model."""
        return f"{self.model} @ {redact_url(self.url)}"


def judge_prompt(sample: ScoredSample, answer: str, language: str) -> str:
    """The exact text the judge reads for one answer."""
    return translate(language, "quality.judge.prompt", question=sample.prompt, rubric=sample.rubric or "",
                     reference=sample.reference or translate(language, "quality.judge.no_reference"),
                     answer=answer)


def prompt_template(language: str) -> str:
    """The judge's prompt with its placeholders, as the report shows it."""
    return translate(language, "quality.judge.prompt", question="{question}", rubric="{rubric}",
                     reference="{reference}", answer="{answer}")


def parse_verdict(reply: str) -> float | None:
    """1.0 pass, 0.0 fail, None when the reply gives no verdict the prompt asked for."""
    found = _VERDICT.findall(reply or "")
    return float(found[-1]) if found else None


def _completions_url(base: str) -> str:
    base = base.rstrip("/")
    return base + "/chat/completions" if base.endswith("/v1") else base + "/v1/chat/completions"


def ask(judge: Judge, sample: ScoredSample, answer: str) -> Score:
    """One verdict. A network or protocol failure raises JudgeError; an unreadable reply is Score(nan)."""
    headers = {"Content-Type": "application/json"}
    if judge.api_key:
        headers["Authorization"] = f"Bearer {judge.api_key}"
    body = {"model": judge.model, "temperature": 0, "max_tokens": JUDGE_MAX_TOKENS, "stream": False,
            "messages": [{"role": "user", "content": judge_prompt(sample, answer, judge.language)}]}
    try:
        resp = request("POST", _completions_url(judge.url), headers=headers, json=body, total_s=JUDGE_TIMEOUT_S,
                       max_bytes=JUDGE_MAX_BYTES)
    except OSError as exc:
        raise JudgeError(translate(judge.language, "quality.judge.unreachable", judge=judge.described(),
                                   error=type(exc).__name__)) from None
    if resp.status != 200:
        raise JudgeError(translate(judge.language, "quality.judge.status", judge=judge.described(),
                                   status=resp.status))
    try:
        reply = str(resp.json()["choices"][0]["message"]["content"] or "")
    except (ValueError, KeyError, IndexError, TypeError):
        raise JudgeError(translate(judge.language, "quality.judge.not_openai", judge=judge.described())) from None
    verdict = parse_verdict(reply)
    return Score(float("nan") if verdict is None else verdict, reply.strip()[-120:])


def judge_answers(judge: Judge, samples: list[ScoredSample], answers: dict[str, list[Any]], *,
                  cancelled: Callable[[], bool] = lambda: False,
                  on_progress: Callable[[int, int], None] | None = None) -> dict[tuple[str, int], Score]:
    """Verdicts for every rubric sample each side answered: {(side, position): Score}. Stops early (what was
    judged is kept) when ``cancelled()`` turns true."""
    todo = [(side, pos) for pos, s in enumerate(samples) if s.scorer == "rubric"
            for side, got in answers.items() if pos < len(got) and got[pos] is not None and got[pos].ok]
    out: dict[tuple[str, int], Score] = {}
    for done, (side, pos) in enumerate(todo):
        if cancelled():
            break
        out[(side, pos)] = ask(judge, samples[pos], answers[side][pos].text)
        if on_progress is not None:
            on_progress(done + 1, len(todo))
    return out
