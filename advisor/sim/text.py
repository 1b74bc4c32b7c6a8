"""Deterministic generated text and the simulated server's token counting.

The simulated server has no real tokenizer; it counts tokens with one rule and generates text whose
pieces are each exactly one token by that rule, so ``usage.completion_tokens`` always equals the number of
content pieces streamed. The rule is close to real BPE vocabularies for the text benchmarks send:
one CJK character = 1 token; one run of letters = 1 token per 6 letters (most English words are one token);
one run of digits = 1 token per 3 digits; any other visible character = 1 token.
"""

from __future__ import annotations

import random
import re

_PIECE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]|[A-Za-z]+|[0-9]+|\S")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")

_EN_WORDS = (
    "the model serves tokens from a batch of requests while the cache holds keys and values for every "
    "layer so each step reads weights once and writes one token per sequence until the answer ends with "
    "a clear summary of speed memory and cost for a small team that plans its first deployment"
).split()
_EN_WORDS = [w for w in _EN_WORDS if len(w) <= 6]  # each must be one token by our rule
_ZH_TEXT = (
    "模型在连续批处理中逐 token 生成回答每一步读取一次权重并为每个请求写入一个新的键值缓存首 token 延迟取决于预填充"
    "而每 token 输出耗时取决于显存带宽小团队可以先用模拟服务器熟悉压测流程再在真实的显卡上确认拐点与吞吐"
)
_EN_PUNCT = (".", ",")
_ZH_PUNCT = ("。", "，")


def count_tokens(text: str) -> int:
    """Tokens in ``text`` by the simulator's rule (see the module docstring)."""
    n = 0
    for piece in _PIECE.findall(text):
        c = piece[0]
        if c.isascii() and c.isalpha():
            n += -(-len(piece) // 6)
        elif c.isdigit():
            n += -(-len(piece) // 3)
        else:
            n += 1
    return n


def is_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


class TextGenerator:
    """Endless one-token pieces of English or Chinese text, the same for the same seed."""

    def __init__(self, seed: int | str, language: str = "en") -> None:
        self._rng = random.Random(seed)
        self.chinese = language.lower().startswith("zh")
        self._i = 0

    def next(self) -> str:
        self._i += 1
        rng = self._rng
        if self.chinese:
            if self._i % 17 == 0:
                return rng.choice(_ZH_PUNCT)
            return rng.choice(_ZH_TEXT)
        if self._i % 13 == 0:
            return rng.choice(_EN_PUNCT)
        word = rng.choice(_EN_WORDS)
        return word if self._i == 1 else " " + word

    def take(self, n: int) -> list[str]:
        return [self.next() for _ in range(n)]


def chat_prompt_tokens(messages: list[dict]) -> int:
    """Prompt tokens of a chat request: the contents plus a chat template's few tokens per message."""
    total = 3  # assistant turn header
    for m in messages:
        content = m.get("content", "")
        if isinstance(content, list):  # OpenAI content parts
            content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        total += 4 + count_tokens(str(content or ""))
    return total
