"""Prompt sets: synthetic length distributions, real prompt samples, token counting.

Real length distributions are the point: a benchmark with 128-token prompts says little about a service whose
users paste 3,000-token documents. Import a sample of real prompts (JSONL, CSV, ShareGPT) and look at its
histogram before trusting a number.
"""

from __future__ import annotations

import csv
import http.client
import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor import bounded_http
from advisor.bench.protocol import estimate_tokens
from advisor.domain.bench import LengthDist, WorkloadConfig
from advisor.i18n import tr
from advisor.safe_json import JsonInputError, loads, read_bounded


class WorkloadError(ValueError):
    """A dataset could not be read; the message names the file and what was wrong."""


@dataclass(slots=True)
class Prompt:
    text: str | None = None
    messages: list[dict[str, Any]] | None = None
    prompt_tokens: int = 0  # counted (tokenizer) or estimated
    max_tokens: int = 128

    def as_messages(self) -> list[dict[str, Any]]:
        return self.messages if self.messages is not None else [{"role": "user", "content": self.text or ""}]

    def as_text(self) -> str:
        if self.text is not None:
            return self.text
        return "\n".join(str(m.get("content", "")) for m in self.messages or [])


def sample_length(dist: LengthDist, rng: random.Random) -> int:
    if dist.kind == "fixed":
        value = dist.mean
    elif dist.kind == "uniform":
        value = rng.uniform(dist.min, dist.max)
    elif dist.kind == "normal":
        value = rng.gauss(dist.mean, dist.std)
    else:  # lognormal with the given mean and std in tokens
        var = dist.std**2
        sigma2 = math.log(1 + var / dist.mean**2)
        mu = math.log(dist.mean) - sigma2 / 2
        value = rng.lognormvariate(mu, math.sqrt(sigma2))
    return int(min(dist.max, max(dist.min, round(value))))


# Common one-token words; a prompt of N of them is close to N tokens in every BPE vocabulary we know.
_EN = ("the of and to in is you that it he was for on are as with his they at be this have from or one had by word "
       "but not what all were we when your can said there use an each which she do how their if will up other about "
       "out many then them these so some her would make like him into time has look two more write go see number no "
       "way could people my than first water been call who oil its now find long down day did get come made may part").split()
# Common characters; each is about one token in Qwen/DeepSeek/GLM vocabularies (0.6–1.0 in Llama 3).
_ZH = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"


def synthetic_text(tokens: int, rng: random.Random, language: str = "en", per_token: float = 1.0) -> str:
    """Text of about ``tokens`` tokens; a random prefix defeats prefix caching between requests.
    ``per_token``: words (or characters) per token, calibrated against the server's tokenizer when it has one."""
    prefix = f"{rng.randrange(10**8):08d} "
    n = max(1, round((tokens - 3) * per_token))
    if language == "zh":
        return prefix + "".join(rng.choice(_ZH) for _ in range(n))
    return prefix + " ".join(rng.choice(_EN) for _ in range(n))


DATASET_MAX_BYTES = 256 * 1024 * 1024
"""Largest dataset read (256 MiB: about a million chat prompts); a bigger file is refused, not half-read."""
DATASET_MAX_ROWS = 1_000_000
MAX_OUTPUT_TOKENS = 10_000_000


class _RowError(ValueError):
    pass


def load_dataset(path: str | Path) -> list[Prompt]:
    """Read prompts from JSONL ({"prompt": …} or {"messages": […]}), CSV (a ``prompt`` column, else the first),
    or ShareGPT JSON ([{"conversations": [{"from": "human", "value": …}, {"from": "gpt", …}]}]).

    Bounded (DATASET_MAX_BYTES, DATASET_MAX_ROWS, JSON depth) and strict: a row whose ``messages``, ``prompt``
    or ``max_tokens`` has the wrong shape is a WorkloadError naming the file, the line and the field. Objects
    with none of the known keys are skipped (metadata rows)."""
    p = Path(path)
    if not p.is_file():
        raise WorkloadError(tr("bench.workload.no_file", path=str(p)))
    try:
        raw = read_bounded(p, DATASET_MAX_BYTES)
    except JsonInputError as exc:
        raise WorkloadError(str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WorkloadError(tr("inputs.dataset.not_text", path=str(p))) from None
    del raw
    suffix = p.suffix.lower()
    prompts: list[Prompt] = []

    def add(prompt: Prompt | None, where: str) -> None:
        if prompt is None:
            return
        if len(prompts) >= DATASET_MAX_ROWS:
            raise WorkloadError(tr("inputs.dataset.too_many", path=str(p), most=DATASET_MAX_ROWS))
        prompts.append(prompt)

    if suffix == ".csv":
        try:
            reader = csv.reader(text.splitlines())
            header = next(reader, None)
            if not header:
                raise WorkloadError(tr("bench.workload.empty", path=str(p)))
            names = [h.strip().lower() for h in header]
            col = names.index("prompt") if "prompt" in names else 0
            out_col = names.index("output_tokens") if "output_tokens" in names else None
            for rowno, row in enumerate(reader, 2):
                if len(row) > col and row[col].strip():
                    mt = 0
                    if out_col is not None and len(row) > out_col and row[out_col].strip():
                        try:
                            mt = _output_tokens(int(row[out_col]), "output_tokens")
                        except ValueError:
                            raise WorkloadError(tr("inputs.dataset.bad_row", path=str(p), row=rowno, problem=tr(
                                "inputs.dataset.bad_tokens", field="output_tokens", value=repr(row[out_col][:40]),
                                most=MAX_OUTPUT_TOKENS))) from None  # fmt: skip
                    add(Prompt(text=row[col], max_tokens=mt), str(rowno))
        except csv.Error as exc:
            raise WorkloadError(tr("bench.workload.bad_file", path=str(p), error=str(exc))) from None
    elif text.lstrip().startswith("["):
        try:
            items = loads(text, source=str(p), max_bytes=None)
        except JsonInputError as exc:
            raise WorkloadError(str(exc)) from None
        if not isinstance(items, list):
            raise WorkloadError(tr("bench.workload.empty", path=str(p)))
        for index, item in enumerate(items, 1):
            try:
                add(_from_obj(item), str(index))
            except _RowError as exc:
                raise WorkloadError(tr("inputs.dataset.bad_item", path=str(p), item=index, problem=str(exc))) from None
    else:
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = loads(line, source=f"{p}, line {lineno}", max_bytes=None)
            except JsonInputError as exc:
                if exc.kind != "syntax":
                    raise WorkloadError(str(exc)) from None  # names the file and the line already
                raise WorkloadError(tr("bench.workload.bad_line", path=str(p), line=lineno, error=exc.reason)) from None
            try:
                add(_from_obj(item), str(lineno))
            except _RowError as exc:
                raise WorkloadError(tr("inputs.dataset.bad_row", path=str(p), row=lineno, problem=str(exc))) from None
    if not prompts:
        raise WorkloadError(tr("bench.workload.empty", path=str(p)))
    for prompt in prompts:
        prompt.prompt_tokens = estimate_tokens(prompt.as_text())
    return prompts


def _kind(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str | bool | int | float | None) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _output_tokens(value: Any, field: str) -> int:
    """0 (unset) or a whole number of tokens in 1…MAX_OUTPUT_TOKENS; _RowError otherwise."""
    if value is None:
        return 0
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_OUTPUT_TOKENS:
        raise _RowError(tr("inputs.dataset.bad_tokens", field=field, value=_kind(value), most=MAX_OUTPUT_TOKENS))
    return value


def _content_ok(content: Any) -> bool:
    """OpenAI content: text, or a list of parts ({"type": "text", "text": …}, images …)."""
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(isinstance(part, dict) for part in content)


def _from_obj(item: Any) -> Prompt | None:
    if isinstance(item, str):
        return Prompt(text=item) if item.strip() else None
    if not isinstance(item, dict):
        raise _RowError(tr("inputs.dataset.not_object", value=_kind(item)))
    if "conversations" in item:  # ShareGPT: the first human turn; the first reply sets the output length
        turns = item["conversations"]
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise _RowError(tr("inputs.dataset.bad_conversations", value=_kind(turns)))
        human = next((t.get("value") for t in turns if t.get("from") in ("human", "user")), None)
        reply = next((t.get("value") for t in turns if t.get("from") in ("gpt", "assistant")), None)
        if human is not None and not isinstance(human, str) or reply is not None and not isinstance(reply, str):
            raise _RowError(tr("inputs.dataset.bad_conversations", value=_kind(turns)))
        if not human:
            return None
        return Prompt(text=human, max_tokens=estimate_tokens(reply) if reply else 0)
    if "messages" in item:
        messages = item["messages"]
        if not isinstance(messages, list):
            raise _RowError(tr("inputs.dataset.messages_not_list", value=_kind(messages)))
        for n, m in enumerate(messages, 1):
            if not isinstance(m, dict) or not isinstance(m.get("role"), str) or not _content_ok(m.get("content")):
                raise _RowError(tr("inputs.dataset.bad_message", n=n, value=_kind(m)))
        msgs = [m for m in messages if m.get("role") != "assistant"]
        return Prompt(messages=msgs, max_tokens=_output_tokens(item.get("max_tokens"), "max_tokens")) if msgs else None
    if "prompt" in item:
        prompt = item["prompt"]
        if not isinstance(prompt, str):
            raise _RowError(tr("inputs.dataset.prompt_not_text", value=_kind(prompt)))
        field = "max_tokens" if item.get("max_tokens") is not None else "output_tokens"
        return Prompt(text=prompt, max_tokens=_output_tokens(item.get(field), field))
    return None


def histogram(lengths: list[int], bins: int = 10) -> list[dict[str, int]]:
    """Equal-width bins over [min, max] of the token lengths: [{"lo", "hi", "count"}]."""
    if not lengths:
        return []
    lo, hi = min(lengths), max(lengths)
    if lo == hi:
        return [{"lo": lo, "hi": hi, "count": len(lengths)}]
    width = (hi - lo) / bins
    counts = [0] * bins
    for n in lengths:
        counts[min(bins - 1, int((n - lo) / width))] += 1
    return [{"lo": round(lo + i * width), "hi": round(lo + (i + 1) * width), "count": c} for i, c in enumerate(counts)]


_TOKENIZE_MAX_BYTES = 16 * 1024 * 1024  # a token list of a long prompt; never a flood


class Tokenizer:
    """Token counts from the server's own tokenizer when it has one, else the estimate.

    Endpoints tried (first that answers wins): vLLM ``POST /tokenize {"model", "prompt"}`` → ``count``;
    SGLang ``POST /v1/tokenize`` (same shape); llama.cpp ``POST /tokenize {"content"}`` → ``tokens``;
    TGI ``POST /tokenize {"inputs"}`` → a list.
    """

    CANDIDATES = (("/tokenize", "vllm"), ("/v1/tokenize", "sglang"), ("/tokenize", "llamacpp"), ("/tokenize", "tgi"),
                  ("/extras/tokenize/count", "llamacpp_python"))  # llama-cpp-python: {"input"} -> {"count"}
    PATHS = {"sglang": "/v1/tokenize", "llamacpp_python": "/extras/tokenize/count"}

    def __init__(self, root_url: str | None = None, model: str = "", *, api_key: str | None = None,
                 kind: str | None = None, timeout: float = 5.0) -> None:
        self.root = root_url.rstrip("/") if root_url else None
        self.model = model
        self.kind = kind
        from advisor.redact import check_api_key

        api_key = check_api_key(api_key)
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout
        self._session = bounded_http.Session()  # keep-alive: one handshake per thread, not one per prompt

    def close(self) -> None:
        self._session.close()

    def _body(self, kind: str, text: str) -> dict[str, Any]:
        if kind in ("vllm", "sglang"):
            return {"model": self.model, "prompt": text}
        if kind == "llamacpp_python":
            return {"input": text, "model": self.model}
        if kind == "llamacpp":
            return {"content": text}
        return {"inputs": text}

    @staticmethod
    def _count(data: Any) -> int | None:
        if isinstance(data, list):
            return len(data)
        if isinstance(data, dict):
            if isinstance(data.get("count"), int):
                return data["count"]
            if isinstance(data.get("tokens"), list):
                return len(data["tokens"])
        return None

    def detect(self) -> str | None:
        """Find which tokenize endpoint the server has; None if none. ``timeout`` bounds the whole search (all
        candidates together), not each try."""
        if self.root is None:
            return None
        import time

        deadline = time.monotonic() + self._timeout
        for path, kind in self.CANDIDATES:
            left = deadline - time.monotonic()
            if left <= 0.05:
                return None
            try:  # bounded as a whole: a trickling server cannot hold the start of a run
                resp = bounded_http.request("POST", self.root + path, json=self._body(kind, "hello world"),
                                            headers=self._headers, total_s=left, max_bytes=_TOKENIZE_MAX_BYTES)
            except (OSError, ValueError, http.client.HTTPException):
                continue
            if resp.status == 200:
                try:
                    if self._count(resp.json()):
                        self.kind = kind
                        return kind
                except ValueError:
                    continue
        return None

    def count(self, text: str) -> tuple[int, str]:
        """(tokens, source) with source "tokenizer" or "estimate"."""
        if self.root is not None and self.kind is not None:
            path = self.PATHS.get(self.kind, "/tokenize")
            try:
                resp = self._session.request("POST", self.root + path, json=self._body(self.kind, text),
                                             headers=self._headers, total_s=self._timeout,
                                             max_bytes=_TOKENIZE_MAX_BYTES)
                n = self._count(resp.json()) if resp.status == 200 else None
                if n is not None:
                    return n, "tokenizer"
            except (OSError, ValueError, http.client.HTTPException):
                pass
        return estimate_tokens(text), "estimate"


class PromptSource:
    """Endless prompts for a run: synthetic lengths or cycling through a dataset (shuffled with the seed)."""

    def __init__(self, config: WorkloadConfig, dataset: list[Prompt] | None = None) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.dataset = dataset
        if config.dataset and dataset is None:
            self.dataset = load_dataset(config.dataset)
        if self.dataset:
            self.rng.shuffle(self.dataset)
        self._i = 0
        self.per_token = 1.0
        self.token_source = "estimate"

    def calibrate(self, tokenizer: Tokenizer, limit: int = 2000, *, workers: int = 8,
                  on_progress: Any = None) -> None:
        """Count with the server's tokenizer: dataset prompts (up to ``limit``) get exact lengths, and
        synthetic prompts are scaled so that N requested tokens are N tokens for this model. Dataset prompts
        are counted ``workers`` at a time over kept-alive connections; ``on_progress(done, total)`` is called
        every 100 prompts (a large dataset's start-up is shown, not silent)."""
        if tokenizer.kind is None:
            return
        if self.dataset:
            from concurrent.futures import ThreadPoolExecutor

            todo = self.dataset[:limit]
            with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="tokenize") as pool:
                for done, (prompt, (n, source)) in enumerate(
                        zip(todo, pool.map(lambda p: tokenizer.count(p.as_text()), todo), strict=True), 1):
                    if source == "tokenizer":
                        prompt.prompt_tokens = n
                        self.token_source = "tokenizer"
                    if on_progress is not None and (done % 100 == 0 or done == len(todo)):
                        on_progress(done, len(todo))
            tokenizer.close()
            return
        probe_tokens = 512
        text = synthetic_text(probe_tokens, random.Random(0), self.config.language)
        n, source = tokenizer.count(text)
        if source == "tokenizer" and n > 0:
            self.per_token = (probe_tokens - 3) / max(1, n - 3)
            self.token_source = "tokenizer"

    def __iter__(self) -> Iterator[Prompt]:
        return self

    def __next__(self) -> Prompt:
        cfg = self.config
        if self.dataset:
            base = self.dataset[self._i % len(self.dataset)]
            self._i += 1
            max_tokens = base.max_tokens or sample_length(cfg.output_tokens, self.rng)
            return Prompt(text=base.text, messages=base.messages, prompt_tokens=base.prompt_tokens,
                          max_tokens=max(1, max_tokens))
        n = sample_length(cfg.prompt_tokens, self.rng)
        return Prompt(text=synthetic_text(n, self.rng, cfg.language, self.per_token), prompt_tokens=n,
                      max_tokens=sample_length(cfg.output_tokens, self.rng))
