"""Quantization A/B: the same prompts against a baseline (A, e.g. BF16) and a candidate (B, e.g. AWQ-INT4 or FP8).

The seed's advice is to compare a quantized model against its unquantized baseline before adopting it. This
module measures both sides the same way and puts the evidence side by side; it never decides whether the quality
is good enough — that judgement stays with the user, who reads the answer pairs.

Two passes per side, A first, then B (never both at once, so neither steals the other's GPU time):

1. **answers**: every prompt once, one at a time, ``temperature 0``; the streamed answer text is kept with its
   TTFT, end-to-end time and token count;
2. **load**: the existing benchmark runner (:class:`advisor.bench.runner.Runner`) over the same prompts at the
   given concurrency levels; the run is stored in the benchmark history (label ``A/B · A`` / ``A/B · B``) so it
   can be reopened and compared there.

Agreement figures over the answer pairs (only pairs where both sides answered):

- **exact-match rate**: answers identical after trimming whitespace;
- **length ratio**: B's output tokens / A's output tokens, per pair (median over pairs);
- **answer similarity**: ``difflib.SequenceMatcher(None, a, b).ratio()`` over *word tokens* (runs of letters or
  digits, each CJK character one token, each punctuation mark one token), 0 = nothing in common, 1 = identical.
  It measures surface overlap, not meaning: two correct answers worded differently score low.

Against the simulated server the "answers" are deterministic placeholder text (seeded by the server's
``--seed`` and the request's lengths), not a model's output: the result is labelled simulated and the verdict says
that the agreement figures carry no information about quality there.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import http.client
import json
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor import bounded_http
from advisor.bench.client import StreamClient, Target, build_record
from advisor.bench.probe import connect_error_kind, tls_client_cert_message, tls_diagnosis
from advisor.bench.protocol import chat_body, completions_body, estimate_tokens
from advisor.bench.provenance import at_real_speed, time_scale_of
from advisor.bench.quality.report import QualityResult, compare_scores
from advisor.bench.quality.samples import SampleError, ScoredSample, builtin_samples, load_samples
from advisor.bench.quality.scorers import JUDGED
from advisor.bench.run_config import RunChoices, build_config
from advisor.bench.workload import Prompt, PromptSource, load_dataset
from advisor.cancel import CancelToken
from advisor.i18n import tr
from advisor.tls import client_cert_refusal

SIM_OWNER = "inference-advisor-simulated"
MAX_ANSWERS = 5_000
DEFAULT_ANSWERS = 8
SIMILARITY_METHOD = "difflib.SequenceMatcher ratio over word tokens (CJK: one token per character)"

DEFAULT_PROMPTS = {
    "en": [
        "Explain in three sentences what a KV cache is and why it grows with context length.",
        "Write a Python function that returns the n-th Fibonacci number iteratively.",
        "Summarise the trade-offs between renting cloud GPUs by the hour and buying a server.",
        "Translate into French: 'The meeting is moved to Thursday at 10 am.'",
        "A train leaves at 9:40 and arrives at 13:05. How long is the trip? Show the arithmetic.",
        "List five checks to run before putting an LLM API in front of paying customers.",
        "What is the capital of Australia, and why is it not Sydney?",
        "Give a JSON object with the fields name, email and signup_date for a made-up user.",
    ],
    "zh": [
        "用三句话解释什么是 KV Cache，以及它为什么会随上下文长度增长。",
        "写一个 Python 函数，用循环返回第 n 个斐波那契数。",
        "比较按小时租用云 GPU 服务器和购买 GPU 物理机的利弊。",
        "把这句话翻译成英文：“会议改到周四上午十点。”",
        "火车 9:40 出发，13:05 到达，路上用了多长时间？请写出计算过程。",
        "上线面向付费用户的大模型 API 之前，列出五项需要检查的事情。",
        "澳大利亚的首都是哪里？为什么不是悉尼？",
        "给出一个虚构用户的 JSON 对象，字段为 name、email 和 signup_date。",
    ],
}

_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W_]+|[^\w\s]", re.UNICODE)


def words(text: str) -> list[str]:
    """Word tokens for the similarity figure: CJK characters one by one, runs of letters/digits, punctuation."""
    return _WORD.findall(text.lower())


def similarity(a: str, b: str) -> float:
    """``SequenceMatcher.ratio`` over :func:`words` (1.0 for two empty answers)."""
    wa, wb = words(a), words(b)
    if not wa and not wb:
        return 1.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


class AbError(ValueError):
    """The A/B cannot start: a side is unreachable, does not serve the model, or the input is wrong."""


class AbSide(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str
    model: str = Field(min_length=1)
    label: str = ""
    api: str = "chat"

    @field_validator("url")
    @classmethod
    def _http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"URL must start with http:// or https:// (got {value!r})")
        return value.rstrip("/")


class AbConfig(BaseModel):
    """A = baseline (e.g. BF16), B = candidate (e.g. quantized). The same prompts go to both."""

    model_config = ConfigDict(extra="forbid")

    a: AbSide
    b: AbSide
    prompts_file: str | None = None
    samples: str = Field("prompts", pattern="^(prompts|builtin)$",
                         description="builtin: the built-in scored samples of `language` instead of the prompts")
    language: str = Field("en", pattern="^(en|zh)$")
    answers: int | None = Field(None, ge=1, le=MAX_ANSWERS, description="prompts answered one at a time for the "
                                "answer pairs (default: 8 plain prompts, or every scored sample)")
    quality_drop: float = Field(0.03, gt=0, lt=1, description="the drop the sample-size hint is for (0.03 = 3 points)")
    task: str | None = Field(None, description="an EvalScope task (gsm8k, ceval, cmmlu, general_qa, ...) scored on "
                             "both sides; needs the [eval] extra")
    task_limit: int = Field(50, ge=1, le=100_000, description="samples of the task per subset")
    task_dataset: str | None = Field(None, description="a local copy of the task's dataset (EvalScope's layout)")
    task_subset: str | None = None
    task_prompt_template: str | None = Field(None, description="overrides the task's prompt template, e.g. {question}")
    judge_url: str | None = Field(None, description="an OpenAI-compatible endpoint whose model scores the samples "
                                  "with scorer \"rubric\" (advisor.bench.quality.judge)")
    judge_model: str | None = Field(None, min_length=1, description="the judge's model id")
    requests: int = Field(16, ge=1, le=10_000, description="requests per load step")
    concurrency: list[int] = Field(default_factory=lambda: [1, 4])
    max_tokens: int = Field(128, ge=1, le=32_768)
    timeout_s: float = Field(120.0, gt=0)
    seed: int = 0

    @field_validator("concurrency")
    @classmethod
    def _levels(cls, value: list[int]) -> list[int]:
        if not value or any(c < 1 for c in value):
            raise ValueError("concurrency levels must be whole numbers of at least 1, e.g. 1,4")
        return sorted(set(value))

    @model_validator(mode="after")
    def _judge_whole(self) -> AbConfig:
        if (self.judge_url is None) != (self.judge_model is None):
            raise ValueError("a judge needs both its URL (--judge-url) and its model (--judge-model)")
        if self.judge_url is not None and not self.judge_url.startswith(("http://", "https://")):
            raise ValueError(f"the judge URL must start with http:// or https:// (got {self.judge_url!r})")
        return self


class AbAnswer(BaseModel):
    ok: bool
    text: str = ""
    error: str | None = None
    ttft_ms: float | None = None
    e2e_ms: float | None = None
    output_tokens: int | None = None
    finish_reason: str | None = None


class AbPair(BaseModel):
    index: int
    prompt: str
    a: AbAnswer
    b: AbAnswer
    exact: bool | None = None
    similarity: float | None = None
    length_ratio: float | None = Field(None, description="B output tokens / A output tokens")


class AbSideResult(BaseModel):
    name: str  # "A" or "B"
    url: str
    model: str
    label: str = ""
    simulated: bool = False
    served_models: list[str] = Field(default_factory=list)
    run_id: str | None = None
    status: str = "not_run"
    steps: list[dict[str, Any]] = Field(default_factory=list)
    knee: dict[str, Any] | None = None
    answers_ok: int = 0
    answers_failed: int = 0
    error: str | None = None
    time_scale: float | None = Field(None, description="the simulated server's time scale its load ran at (its "
                                     "steps are shown at the simulated GPU's real speed); None: a real server")
    # what the simulated server said it models (its /debug/stats, recorded with the side's load run): the A/B page
    # shows these, not whatever its boxes say now (issue #26: the boxes said RTX 4090, the servers ran an L4)
    sim_model: str | None = Field(None, description="the simulated server's model preset, as the server reported it")
    sim_gpu: str | None = Field(None, description="the simulated GPU's catalog id, as the server reported it; None: "
                                "a real server, or a simulator that did not say")
    sim_weights: str | None = Field(None, description="the simulated weight format, as the server reported it")


class AbLevel(BaseModel):
    concurrency: int
    a_output_tokens_per_s: float | None = None
    b_output_tokens_per_s: float | None = None
    throughput_ratio: float | None = Field(None, description="B / A output tokens per second")
    a_ttft_p50_ms: float | None = None
    b_ttft_p50_ms: float | None = None
    a_tpot_p50_ms: float | None = None
    b_tpot_p50_ms: float | None = None
    tpot_ratio: float | None = Field(None, description="B / A TPOT p50 (below 1: B generates faster)")
    a_failed: int = 0
    b_failed: int = 0


class AbAgreement(BaseModel):
    pairs: int = 0
    compared: int = Field(0, description="pairs where both sides answered")
    exact_match_rate: float | None = None
    length_ratio_median: float | None = None
    similarity_median: float | None = None
    similarity_min: float | None = None
    similarity_method: str = SIMILARITY_METHOD


class AbResult(BaseModel):
    status: str = Field(description="completed | stopped | failed")
    simulated: bool = False
    config: AbConfig
    a: AbSideResult
    b: AbSideResult
    levels: list[AbLevel] = Field(default_factory=list)
    agreement: AbAgreement = Field(default_factory=AbAgreement)
    quality: QualityResult | None = Field(None, description="scores against the samples' references, when given")
    quality_id: str | None = Field(None, description="where the quality result is stored in the History")
    pairs: list[AbPair] = Field(default_factory=list)
    verdict: str = ""
    verdict_lines: list[str] = Field(default_factory=list)


@dataclass
class AbEvent:
    kind: str  # phase | answer | step | finished
    data: Any


def load_scored(config: AbConfig) -> list[ScoredSample] | None:
    """The samples to score: the built-in set, or the prompts file when any row carries a reference; None when
    there is nothing to score (plain prompts: answers compared by agreement only)."""
    if config.samples == "builtin":
        samples = list(builtin_samples(config.language))
    elif config.prompts_file:
        try:
            samples = load_samples(config.prompts_file)
        except SampleError:
            if not _looks_scored(config.prompts_file):
                return None  # a plain prompt file (ShareGPT, CSV without references): load_dataset reads it
            raise
        if not any(s.scored for s in samples):
            return None
    else:
        return None
    return samples[: config.answers] if config.answers else samples


def scored_sample_count(path: str) -> int:
    """How many samples a file holds when any row carries a reference (the page answers them all by default);
    0 for a plain prompt file or one that cannot be read as samples (the run says why when it starts)."""
    try:
        samples = load_samples(path)
    except SampleError:
        return 0
    return min(len(samples), MAX_ANSWERS) if any(s.scored for s in samples) else 0


def _looks_scored(path: str) -> bool:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            head = f.read(65536)
    except OSError:
        return False
    return any(f'"{k}"' in head or k in head.split("\n", 1)[0].lower() for k in ("reference", "answer", "choices"))


def load_prompts(config: AbConfig, scored: list[ScoredSample] | None = None) -> list[Prompt]:
    if scored is not None:
        return [s.as_prompt(config.max_tokens) for s in scored]
    if config.prompts_file:
        prompts = load_dataset(config.prompts_file)
    else:
        prompts = [Prompt(text=t, prompt_tokens=estimate_tokens(t)) for t in DEFAULT_PROMPTS[config.language]]
    out = []
    for p in prompts[: config.answers or DEFAULT_ANSWERS]:
        out.append(Prompt(text=p.text, messages=p.messages, prompt_tokens=p.prompt_tokens,
                          max_tokens=config.max_tokens))
    return out


def check_side(side: AbSide, name: str, api_key: str | None = None) -> tuple[list[str], bool]:
    """The served model ids and whether it is our simulated server; AbError when it cannot be used."""
    from advisor.bench.keys import auth_headers

    target = Target.parse(side.url)
    headers = auth_headers(api_key)
    try:  # bounded (wall clock and size), direct, the run's TLS trust, no redirect to another host (issue #29)
        resp = bounded_http.request("GET", target.url(target.path("/models")), headers=headers, total_s=10,
                                    max_bytes=4 * 1024 * 1024)
    except (OSError, http.client.HTTPException) as exc:
        _, said = tls_diagnosis(side.url, connect_error_kind(exc), exc)  # names --ca-bundle/--client-cert
        if said:
            raise AbError(f"{name}: {said}") from None
        raise AbError(tr("ab.error.unreachable", side=name, url=side.url, error=type(exc).__name__)) from None
    if resp.status == 400 and client_cert_refusal(resp.text[:2000]):  # nginx asks for a client certificate
        raise AbError(f"{name}: {tls_client_cert_message(side.url, resp.text[:2000])}")
    if resp.status != 200:
        raise AbError(tr("ab.error.models_status", side=name, url=side.url, status=resp.status))
    try:
        data = resp.json().get("data", [])
        ids = [str(m.get("id")) for m in data if isinstance(m, dict)]
        owners = {str(m.get("owned_by", "")) for m in data if isinstance(m, dict)}
    except (ValueError, AttributeError):
        raise AbError(tr("ab.error.not_llm", side=name, url=side.url)) from None
    simulated = SIM_OWNER in owners or resp.headers.get("x-inference-advisor-simulated") == "true"
    if ids and side.model not in ids:
        raise AbError(tr("ab.error.unknown_model", side=name, model=side.model, served=", ".join(ids)))
    return ids, simulated


async def _answers(side: AbSide, prompts: list[Prompt], api_key: str | None, timeout_s: float, cancel: CancelToken,
                   on_answer: Callable[[int, AbAnswer], None]) -> list[AbAnswer]:
    client = StreamClient(side.url, side.api, api_key=api_key, timeout_s=timeout_s, read_timeout_s=timeout_s)
    out: list[AbAnswer] = []
    try:
        for i, p in enumerate(prompts):
            if cancel.cancelled:
                break
            if side.api == "chat":
                body = chat_body(side.model, p.as_messages(), p.max_tokens)
            else:
                body = completions_body(side.model, p.as_text(), p.max_tokens)
            task = asyncio.ensure_future(client.send(body))
            while not task.done():  # Stop takes effect within 50 ms, even mid-answer
                await asyncio.wait({task}, timeout=0.05)
                if cancel.cancelled and not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    return out
            ex = task.result()
            rec = build_record(ex, seq=i, max_tokens=p.max_tokens, prompt_tokens_target=p.prompt_tokens)
            text = ex.result.text if ex.result is not None else ""
            answer = AbAnswer(ok=rec.ok, text=text, ttft_ms=rec.ttft_ms, e2e_ms=rec.e2e_ms,
                              output_tokens=rec.output_tokens, finish_reason=rec.finish_reason,
                              error=None if rec.ok else f"{rec.outcome}: {rec.error_class}")
            out.append(answer)
            on_answer(i, answer)
    finally:
        await client.aclose()
    return out


def _step_field(step: dict[str, Any], metric: str, stat: str = "p50") -> float | None:
    value = (step.get(metric) or {}).get(stat)
    return None if value is None else float(value)


def _ratio(b: float | None, a: float | None) -> float | None:
    if a is None or b is None or a <= 0:
        return None
    return b / a


def agreement(pairs: list[AbPair]) -> AbAgreement:
    both = [p for p in pairs if p.a.ok and p.b.ok]
    ratios = [p.length_ratio for p in both if p.length_ratio is not None]
    sims = [p.similarity for p in both if p.similarity is not None]
    return AbAgreement(
        pairs=len(pairs), compared=len(both),
        exact_match_rate=(sum(1 for p in both if p.exact) / len(both)) if both else None,
        length_ratio_median=statistics.median(ratios) if ratios else None,
        similarity_median=statistics.median(sims) if sims else None,
        similarity_min=min(sims) if sims else None,
    )


def make_pair(index: int, prompt: Prompt, a: AbAnswer, b: AbAnswer) -> AbPair:
    pair = AbPair(index=index, prompt=prompt.as_text(), a=a, b=b)
    if a.ok and b.ok:
        pair.exact = a.text.strip() == b.text.strip()
        pair.similarity = round(similarity(a.text, b.text), 4)
        na = a.output_tokens or estimate_tokens(a.text)
        nb = b.output_tokens or estimate_tokens(b.text)
        pair.length_ratio = round(nb / na, 4) if na else None
    return pair


def compare_levels(a_steps: list[dict[str, Any]], b_steps: list[dict[str, Any]]) -> list[AbLevel]:
    a_by = {s["concurrency"]: s for s in a_steps if s.get("step", 0) >= 0}
    b_by = {s["concurrency"]: s for s in b_steps if s.get("step", 0) >= 0}
    out = []
    for c in sorted(set(a_by) | set(b_by)):
        sa, sb = a_by.get(c, {}), b_by.get(c, {})
        ta = sa.get("output_tokens_per_s") if sa.get("requests_ok") else None
        tb = sb.get("output_tokens_per_s") if sb.get("requests_ok") else None
        level = AbLevel(
            concurrency=c, a_output_tokens_per_s=ta, b_output_tokens_per_s=tb, throughput_ratio=_ratio(tb, ta),
            a_ttft_p50_ms=_step_field(sa, "ttft_ms"), b_ttft_p50_ms=_step_field(sb, "ttft_ms"),
            a_tpot_p50_ms=_step_field(sa, "tpot_ms"), b_tpot_p50_ms=_step_field(sb, "tpot_ms"),
            a_failed=int(sa.get("requests_failed") or 0), b_failed=int(sb.get("requests_failed") or 0),
        )
        level.tpot_ratio = _ratio(level.b_tpot_p50_ms, level.a_tpot_p50_ms)
        out.append(level)
    return out


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def verdict(result: AbResult) -> list[str]:
    """Sentences that state the speed difference and the answer differences; no quality judgement."""
    lines: list[str] = []
    a, b = result.a, result.b
    for side in (a, b):
        if side.error:
            lines.append(tr("ab.verdict.side_failed", side=side.name, error=side.error))
    measured = [lv for lv in result.levels if lv.throughput_ratio is not None]
    if measured:
        top = measured[-1]
        key = "ab.verdict.faster" if top.throughput_ratio >= 1.0 else "ab.verdict.slower"
        lines.append(tr(key, ratio=_num(top.throughput_ratio if top.throughput_ratio >= 1 else
                                        1 / top.throughput_ratio), concurrency=top.concurrency,
                        a_tok=_num(top.a_output_tokens_per_s, 0), b_tok=_num(top.b_output_tokens_per_s, 0)))
        single = measured[0]
        if single.tpot_ratio is not None:
            lines.append(tr("ab.verdict.tpot", concurrency=single.concurrency, a_tpot=_num(single.a_tpot_p50_ms, 1),
                            b_tpot=_num(single.b_tpot_p50_ms, 1), a_ttft=_num(single.a_ttft_p50_ms, 0),
                            b_ttft=_num(single.b_ttft_p50_ms, 0)))
    elif not any(s.error for s in (a, b)):
        lines.append(tr("ab.verdict.no_speed"))
    failed_levels = [lv for lv in result.levels if lv.a_failed or lv.b_failed]
    if failed_levels:
        lines.append(tr("ab.verdict.load_failures", a=sum(lv.a_failed for lv in failed_levels),
                        b=sum(lv.b_failed for lv in failed_levels)))
    ag = result.agreement
    if ag.compared:
        identical = round((ag.exact_match_rate or 0) * ag.compared)
        lines.append(tr("ab.verdict.answers", identical=identical, compared=ag.compared,
                        similarity=_num(ag.similarity_median), min_similarity=_num(ag.similarity_min),
                        length=_num(ag.length_ratio_median)))
    if a.answers_failed or b.answers_failed:
        lines.append(tr("ab.verdict.answer_failures", a=a.answers_failed, b=b.answers_failed, total=ag.pairs))
    if result.quality is not None:
        lines += result.quality.verdict_lines
    if result.simulated and result.quality is None:  # scored: the quality lines say how the simulator answers
        lines.append(tr("ab.verdict.simulated"))
    scales = sorted({s.time_scale for s in (a, b) if s.time_scale is not None and s.time_scale != 1.0})
    if scales:  # the load ran faster than real time: its figures were converted, and that is said
        lines.append(tr("ab.verdict.time_scale", scale=" / ".join(f"×{x:g}" for x in scales)))
    elif ag.compared and not result.simulated:
        lines.append(tr("ab.verdict.judge"))
    if result.status == "stopped":
        lines.append(tr("ab.verdict.stopped"))
    return lines


def _judge(config: AbConfig, scored: list[ScoredSample], answers: dict[str, list[AbAnswer]],
           api_key: str | None, cancel: CancelToken, emit: Callable[[str, Any], None]) -> dict[str, Any]:
    """The judge's verdicts on the rubric samples, as compare_scores takes them ({} when none are asked for)."""
    if not config.judge_url or not config.judge_model or not any(s.scorer in JUDGED for s in scored):
        return {}
    from advisor.bench.quality.judge import Judge, JudgeError, judge_answers, prompt_template

    judge = Judge(config.judge_url, config.judge_model, api_key, "zh_CN" if config.language == "zh" else "en")
    shown = {"judge": judge.described(), "judge_prompt": prompt_template(judge.language)}
    emit("phase", {"side": "A+B", "phase": "judge", "judge": judge.described()})
    try:
        verdicts = judge_answers(judge, scored, answers, cancelled=lambda: cancel.cancelled,
                                 on_progress=lambda done, total: emit("judged", {"done": done, "total": total}))
    except JudgeError as exc:
        return shown | {"judge_error": str(exc)}
    return shown | {"judged": verdicts}


def run_ab(config: AbConfig, *, store_path: str | None = None, store: bool = True, cancel: CancelToken | None = None,
           on_event: Callable[[AbEvent], None] | None = None, api_key_a: str | None = None,
           api_key_b: str | None = None, transport: str = "raw", project_id: str | None = None,
           judge_api_key: str | None = None) -> AbResult:
    """Run the whole A/B (blocks; call it from a worker thread). Raises AbError before any load when a side
    cannot be used; a side that fails later is reported in its ``error`` and the status becomes failed.
    ``project_id``: both stored runs belong to that project (``advisor.bench.history.project_key``).
    Each side's load is one :func:`advisor.bench.session.run_benchmark` run (probed, prompt lengths counted by
    the server's tokenizer, telemetry sampled, stored), as ``advisor bench`` runs it."""
    from advisor.bench.session import TelemetryOptions, run_benchmark
    from advisor.bench.store import BenchStore
    from advisor.domain.run import RunStatus

    cancel = cancel or CancelToken()

    def emit(kind: str, data: Any) -> None:
        if on_event is not None:
            try:
                on_event(AbEvent(kind, data))
            except Exception:  # a broken consumer must not stop the measurement
                pass

    scored = load_scored(config)
    prompts = load_prompts(config, scored)
    if config.task:  # a wrong local dataset is said now, not as EvalScope's error after both load runs
        from advisor.bench.quality.task_dataset import dataset_problem

        problem = dataset_problem(config.task, config.task_dataset, config.task_subset)
        if problem:
            raise AbError(problem)
    keys = {"A": api_key_a, "B": api_key_b}
    sides = {"A": config.a, "B": config.b}
    results = {name: AbSideResult(name=name, url=s.url, model=s.model, label=s.label) for name, s in sides.items()}
    for name, side in sides.items():  # both checked before any load: a wrong model id is caught here
        results[name].served_models, results[name].simulated = check_side(side, name, keys[name])
    answers: dict[str, list[AbAnswer]] = {}
    for name, side in sides.items():
        if cancel.cancelled:
            break
        res = results[name]
        emit("phase", {"side": name, "phase": "answers", "total": len(prompts)})
        answers[name] = asyncio.run(_answers(
            side, prompts, keys[name], config.timeout_s, cancel,
            lambda i, ans, n=name: emit("answer", {"side": n, "index": i, "total": len(prompts), "answer": ans})))
        res.answers_ok = sum(1 for x in answers[name] if x.ok)
        res.answers_failed = sum(1 for x in answers[name] if not x.ok)
        if cancel.cancelled:
            break
        emit("phase", {"side": name, "phase": "load", "levels": config.concurrency})
        bench = build_config(RunChoices(  # the same builder as advisor bench and the Benchmark page
            url=side.url, model=side.model, api=side.api, transport=transport, timeout_s=config.timeout_s,
            read_timeout_s=min(config.timeout_s, 120.0), output_tokens={"mean": config.max_tokens}, seed=config.seed,
            shape="fixed", levels=tuple(config.concurrency), requests=config.requests, client_processes=1,
            label=f"A/B · {name} · {side.label or side.model}"))
        source = PromptSource(bench.workload, [Prompt(text=p.text, messages=p.messages,
                                                      prompt_tokens=p.prompt_tokens, max_tokens=p.max_tokens)
                                               for p in prompts])
        db = BenchStore(store_path) if store else None

        def on_run_event(ev: Any, n: str = name) -> None:
            if ev.kind == "step":
                emit("step", {"side": n, "step": ev.data})

        try:
            run = run_benchmark(bench, store=db, telemetry=TelemetryOptions(), cancel=cancel, on_event=on_run_event,
                                api_key=keys[name], prompts=source, probe_timeout_s=min(30.0, config.timeout_s),
                                project_id=project_id)
        except Exception as exc:  # reported with the side; the other side's evidence is kept
            res.error = f"{type(exc).__name__}: {exc}"[:300]
            res.status = "failed"
            continue
        finally:
            if db is not None:
                db.connection.close()
        res.run_id = run.run_id
        # a simulated server sped up (time scale < 1) is shown at the simulated GPU's real speed, as everywhere
        shown = at_real_speed(run.as_dict())
        res.steps = list(shown.get("steps") or [])
        res.knee = shown.get("knee")
        res.time_scale = time_scale_of(shown) if res.simulated else None
        prov = run.provenance
        if res.simulated and prov.simulated and prov.gpu:  # learnt from the server itself (advisor.bench.session)
            res.sim_model, res.sim_gpu, res.sim_weights = prov.model, prov.gpu, prov.weights
        ok = run.requests_ok
        res.status = "stopped" if run.status is RunStatus.stopped else ("completed" if ok else "failed")
        if run.error_kind is not None and not cancel.cancelled:  # the probe, the store or a bug: said as it is
            res.error = run.error
        elif not ok and not cancel.cancelled:
            res.error = tr("ab.error.no_success", side=name)
    pairs = [make_pair(i, p, answers.get("A", [])[i] if i < len(answers.get("A", [])) else AbAnswer(ok=False, error="not run"),
                       answers.get("B", [])[i] if i < len(answers.get("B", [])) else AbAnswer(ok=False, error="not run"))
             for i, p in enumerate(prompts)]
    if cancel.cancelled:
        status = "stopped"
    elif any(r.status == "failed" for r in results.values()):
        status = "failed"
    else:
        status = "completed"
    result = AbResult(status=status, simulated=any(r.simulated for r in results.values()), config=config,
                      a=results["A"], b=results["B"], levels=compare_levels(results["A"].steps, results["B"].steps),
                      agreement=agreement(pairs), pairs=pairs)
    if config.task and not cancel.cancelled:
        from advisor.bench.quality.evalscope_task import compare_task

        emit("phase", {"side": "A+B", "phase": "task", "task": config.task, "limit": config.task_limit})
        result.quality = compare_task(
            (config.a.url, config.a.model), (config.b.url, config.b.model), config.task, limit=config.task_limit,
            seed=config.seed, dataset_path=config.task_dataset, subset=config.task_subset,
            api_keys=(api_key_a, api_key_b), max_tokens=config.max_tokens, prompt_template=config.task_prompt_template,
            drop=config.quality_drop, simulated=result.simulated, cancelled=lambda: cancel.cancelled,
            on_progress=lambda side, done: emit("task_answered", {"side": side, "done": done, "task": config.task,
                                                                  "limit": config.task_limit}))
        if result.quality is None:  # stopped during the task: the load runs stand, no half comparison is kept
            result.status = "stopped"
    elif scored is not None:
        judging = _judge(config, scored, answers, judge_api_key, cancel, emit)
        result.quality = compare_scores(scored, answers.get("A", []), answers.get("B", []), seed=config.seed,
                                        drop=config.quality_drop, simulated=result.simulated, **judging)
    if result.quality is not None and store and result.a.run_id and result.b.run_id:
        from advisor.bench.quality.history import save_quality

        try:
            result.quality_id = save_quality(store_path, result)
        except Exception as exc:  # the A/B's figures are still returned and printed; saying it was not stored
            result.verdict_lines.append(tr("quality.store_failed", error=f"{type(exc).__name__}: {exc}"[:200]))
    result.verdict_lines = verdict(result) + result.verdict_lines
    result.verdict = " ".join(result.verdict_lines)
    emit("finished", result)
    return result


def sim_setup_line(result: AbResult) -> str | None:
    """One sentence naming what the simulated servers ran, as they reported it (GPU by its catalog name), or None
    when neither side said (real servers)."""
    parts = []
    for side in (result.a, result.b):
        if side.sim_gpu is None:
            continue
        gpu = side.sim_gpu
        try:
            from advisor.catalog import get_gpu

            gpu = get_gpu(side.sim_gpu).name
        except Exception:  # a GPU the catalog no longer has: its id, as the server said it
            pass
        parts.append(tr("ab.sim_setup.side", side=side.name, model=side.sim_model or side.model, gpu=gpu,
                        weights=side.sim_weights or "-"))
    return tr("ab.sim_setup.line", sides=tr("ab.sim_setup.sep").join(parts)) if parts else None


def to_markdown(result: AbResult) -> str:
    """The A/B as Markdown (copy into a memo or a chat)."""
    a, b = result.a, result.b
    lines = [f"# {tr('ab.md.title')}", ""]
    if result.simulated:
        lines += [f"> {tr('ab.md.simulated')}", ""]
    setup = sim_setup_line(result)
    if setup:
        lines += [f"> {setup}", ""]
    lines += [f"- A: `{a.model}` @ {a.url}" + (f" ({a.label})" if a.label else ""),
              f"- B: `{b.model}` @ {b.url}" + (f" ({b.label})" if b.label else ""), ""]
    lines += [f"## {tr('ab.md.verdict')}", ""] + [f"- {line}" for line in result.verdict_lines] + [""]
    lines += [f"## {tr('ab.md.speed')}", "",
              "| " + " | ".join([tr("ab.col.concurrency"), "A tok/s", "B tok/s", "B/A", "A TPOT p50", "B TPOT p50",
                                  "A TTFT p50", "B TTFT p50"]) + " |",
              "|" + "---|" * 8]
    for lv in result.levels:
        lines.append(f"| {lv.concurrency} | {_num(lv.a_output_tokens_per_s, 0)} | {_num(lv.b_output_tokens_per_s, 0)} "
                     f"| {_num(lv.throughput_ratio)} | {_num(lv.a_tpot_p50_ms, 1)} ms | {_num(lv.b_tpot_p50_ms, 1)} ms "
                     f"| {_num(lv.a_ttft_p50_ms, 0)} ms | {_num(lv.b_ttft_p50_ms, 0)} ms |")
    ag = result.agreement
    lines += ["", f"## {tr('ab.md.agreement')}", "",
              f"- {tr('ab.fig.exact')}: {_num((ag.exact_match_rate or 0) * 100, 0)}% ({ag.compared}/{ag.pairs})",
              f"- {tr('ab.fig.similarity')}: {_num(ag.similarity_median)} (min {_num(ag.similarity_min)}) — "
              f"{ag.similarity_method}",
              f"- {tr('ab.fig.length')}: {_num(ag.length_ratio_median)}", ""]
    if result.quality is not None:
        from advisor.bench.quality.report import quality_markdown

        lines += quality_markdown(result.quality)
    lines += [f"## {tr('ab.md.pairs')}", ""]
    for p in result.pairs:
        lines += [f"### {p.index + 1}. {p.prompt[:120]}", "",
                  f"**A** ({_num(p.a.output_tokens, 0)} tok): {p.a.text if p.a.ok else '⚠ ' + (p.a.error or '')}", "",
                  f"**B** ({_num(p.b.output_tokens, 0)} tok): {p.b.text if p.b.ok else '⚠ ' + (p.b.error or '')}", "",
                  f"{tr('ab.fig.similarity')}: {_num(p.similarity)} · {tr('ab.fig.length')}: {_num(p.length_ratio)}", ""]
    return "\n".join(lines)


def result_json(result: AbResult) -> str:
    return json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=2)
