"""The simulated server's answers to the built-in scored samples (resources/quality/samples_*.jsonl).

A simulated server has no model; to let a first quantization A/B show the whole scoring flow, it recognises the
built-in samples by their prompt text (the last user message, trimmed) and answers with the sample's right
answer (``sim_right``) — except for a stated share of the samples, answered wrong (``sim_wrong``). That share
depends on the weight format (:data:`ERROR_RATES`, or ``--answer-error-rate``) and which samples are wrong is
fixed by the seed: the samples of one language are shuffled once with ``random.Random(f"{seed}:{language}")``
and the first ``round(rate × count)`` are wrong. The order does not depend on the format, so a format with a
higher rate gets every wrong answer of a lower one plus more (as a quantized model mostly keeps its baseline's
mistakes). Any other prompt gets the usual generated placeholder text.

Every piece handed out is exactly one token by the simulator's counting rule (advisor.sim.text), so
``usage.completion_tokens`` still equals the pieces streamed.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

from advisor.resources import resource_path

# Stated error rates per weight format on the built-in samples (documented in docs/simulator.md and shown in the
# A/B verdict). Rough shapes of published quantization losses on short tasks, not measurements of any model.
ERROR_RATES: dict[str, float] = {
    "bf16": 0.02, "fp16": 0.02, "fp8": 0.03, "int8": 0.04, "gptq-int8": 0.04,
    "gptq-int4": 0.08, "awq-int4": 0.08,
    "gguf-q8_0": 0.03, "gguf-q6_k": 0.04, "gguf-q5_k_m": 0.05, "gguf-q4_k_m": 0.08, "gguf-q4_0": 0.10,
}  # fmt: skip
DEFAULT_ERROR_RATE = 0.05  # a format not listed above
LANGUAGES = ("en", "zh")

_PIECE = re.compile(r"\s*(?:[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]|[A-Za-z]{1,6}|[0-9]{1,3}|\S)")


def one_token_pieces(text: str) -> list[str]:
    """``text`` cut into pieces that are one token each by :func:`advisor.sim.text.count_tokens`."""
    return _PIECE.findall(text)


def error_rate_for(weights: str | None) -> float:
    return ERROR_RATES.get((weights or "bf16").lower(), DEFAULT_ERROR_RATE)


@cache
def _rows(language: str) -> tuple[dict, ...]:
    path = resource_path("quality", f"samples_{language}.jsonl")
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else None
        if isinstance(row, dict) and isinstance(row.get("prompt"), str) and "sim_right" in row:
            rows.append(row)
    return tuple(rows)


class BuiltinAnswers:
    """Right or wrong answers to the built-in samples, fixed by ``seed`` and ``error_rate``."""

    def __init__(self, error_rate: float, seed: int = 0) -> None:
        if not 0 <= error_rate <= 1:
            raise ValueError("the answer error rate must be between 0 and 1")
        self.error_rate = error_rate
        self.seed = seed
        self._answers: dict[str, str] = {}
        for language in LANGUAGES:
            rows = list(_rows(language))
            order = list(range(len(rows)))
            random.Random(f"{seed}:{language}").shuffle(order)
            wrong = set(order[: round(error_rate * len(rows))])
            for i, row in enumerate(rows):
                self._answers[row["prompt"].strip()] = row["sim_wrong" if i in wrong else "sim_right"]

    def answer(self, prompt: str) -> str | None:
        """The answer to a built-in prompt, None for any other prompt."""
        return self._answers.get(prompt.strip())

    def wrong_count(self, language: str) -> int:
        return round(self.error_rate * len(_rows(language)))


class FixedText:
    """The answer as one-token pieces, with the same ``next``/``take`` as advisor.sim.text.TextGenerator."""

    def __init__(self, pieces: list[str], after: Any = None) -> None:
        self.pieces = pieces
        self.after = after  # what follows the answer when the client asked for more (ignore_eos)
        self._i = 0

    def next(self) -> str:
        self._i += 1
        if self._i <= len(self.pieces):
            return self.pieces[self._i - 1]
        if self.after is None:
            return ""
        piece = self.after.next()
        # a space between the answer and what follows (whitespace is not a token by the simulator's rule)
        return " " + piece if self._i == len(self.pieces) + 1 and not piece[:1].isspace() else piece

    def take(self, n: int) -> list[str]:
        return [self.next() for _ in range(n)]
