"""OpenAI-compatible streaming: request bodies, and an incremental SSE parser that survives every dialect.

The dialects we normalise (bytes in ``tests/fixtures/sse/``; sources in each sidecar ``.json``):

- vLLM / SGLang / LMDeploy: ``data: {json}\\n\\n``; a role-only first delta (``"content": ""``), a usage-only
  final chunk (``"choices": []``) with ``stream_options.include_usage``, per-chunk usage with
  ``continuous_usage_stats``; mid-stream errors as ``data: {"error": {...}}`` (vLLM older:
  ``{"object": "error", ...}``); reasoning as ``reasoning_content`` (vLLM ≥ 0.10: ``reasoning``).
- llama.cpp: ``data: {json}``, usage and ``timings`` in the finishing chunk, ``reasoning_content``; errors as
  a non-standard ``error: {json}`` SSE field. llama-server (seen live): usage only with ``include_usage`` (a last
  ``choices: []`` chunk), ``timings`` always (its ``predicted_n`` counts the answer when there is no usage), U+FFFD
  for a token that does not complete a character, and a prompt longer than a slot's context is an HTTP 400.
- Ollama (``/v1``): ``role`` in every delta, ``reasoning`` deltas, errors as ``data: {"error": {...}}``.
- TGI (axum SSE): ``data:{json}`` *without* the space, ``:`` keep-alive comments, errors as
  ``data:{"error": "...", "error_type": "..."}``.

Hot path: :meth:`SseParser.feed` takes the bytes and the arrival time; it splits lines and parses one JSON per
event, nothing more. Everything else (counts, classification) is done once, in :meth:`SseParser.finish`.
"""

from __future__ import annotations

import contextvars
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FINISH_OK = frozenset({"stop", "length", "tool_calls", "function_call", "eos_token", "stop_sequence", "eos", "content_filter"})
# finish reasons that mean the server gave up on the request: a truncated response, not a success
FINISH_ABORTED = frozenset({"abort", "aborted", "cancelled", "canceled", "preempted", "error"})

# Bounds against a hostile or broken server: one SSE line (a JSON chunk) may not exceed MAX_LINE_BYTES, and the
# text kept for the token estimate is capped (its length is still counted).
MAX_LINE_BYTES = 1 << 20
MAX_TEXT_CHARS = 1 << 20


class _Invalid(Exception):
    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name} in JSON")


# One decoder for every chunk: json.loads(..., parse_constant=...) would build a new decoder per call.
_decode = json.JSONDecoder(parse_constant=_reject_constant).decode


def _opt_str(value: Any, kind: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _Invalid(kind)


def _opt_count(value: Any) -> int | None:
    """A token count: a non-negative whole number (JSON ints only; bools, floats, strings are refused)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Invalid("bad_usage")
    return value


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: CJK characters ≈ 0.75 token each (Qwen/DeepSeek/Llama-3 tokenizers put
    1–1.6 Chinese characters in a token); other text ≈ 1 token per 4 non-space characters (English BPE)."""
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    other = len(text) - cjk - text.count(" ") - text.count("\n")
    return max(1, round(cjk * 0.75 + max(0, other) / 4.0))


def _stream_body(model: str, payload: dict[str, Any], max_tokens: int, ignore_eos: bool, continuous_usage: bool,
                 extra: dict[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        **payload,
        "stream": True,
        "max_tokens": max_tokens,
        "stream_options": {"include_usage": True, "continuous_usage_stats": continuous_usage},
        "temperature": 0,
    }
    if ignore_eos:
        body["ignore_eos"] = True
    if extra:
        body.update(extra)
    return body


def chat_body(model: str, messages: list[dict[str, Any]], max_tokens: int, *, ignore_eos: bool = False,
              continuous_usage: bool = True, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    # Both names: newer servers read max_completion_tokens, older ones only max_tokens.
    payload = {"messages": messages, "max_completion_tokens": max_tokens}
    return _stream_body(model, payload, max_tokens, ignore_eos, continuous_usage, extra)


def completions_body(model: str, prompt: str, max_tokens: int, *, ignore_eos: bool = False,
                     continuous_usage: bool = True, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return _stream_body(model, {"prompt": prompt}, max_tokens, ignore_eos, continuous_usage, extra)


@dataclass(slots=True)
class StreamResult:
    """What one stream said, after :meth:`SseParser.finish`. Times are monotonic seconds."""

    token_times: list[float] = field(default_factory=list)
    tokens_per_event: list[int] | None = None
    t_first_answer: float | None = None
    reasoning_events: int = 0
    answer_events: int = 0
    text: str = ""
    finish_reason: str | None = None
    done: bool = False
    usage_completion_tokens: int | None = None
    usage_prompt_tokens: int | None = None
    usage_seen: bool = False
    continuous_usage: bool = False
    # llama.cpp's own counts from its "timings" object (llama-server sends it on the last chunk, with or without
    # usage): tokens generated, and prompt tokens evaluated plus those reused from the cache
    timings_predicted: int | None = None
    timings_prompt: int | None = None
    error: str | None = None
    error_type: str | None = None
    invalid: str | None = None
    invalid_kind: str | None = None  # why the chunk was refused (with ``invalid``): not_json, bad_delta, …
    events: int = 0
    t_last_event: float | None = None  # arrival of the last SSE event (keep-alive comments do not count)
    unknown_lines: int = 0  # lines that are not SSE at all (an HTML page, a proxy's text)
    unknown_sample: str | None = None
    text_chars: int = 0  # length of all text received (``text`` itself is capped)
    keepalives: int = 0
    data_prefix_space: bool | None = None
    reasoning_field: str | None = None
    hints: set[str] = field(default_factory=set)


# The run's live count of token-bearing events, as they arrive: a one-element list the runner sets for its own
# asyncio tasks (each task copies the context it was made in), so every parser made while it sends counts into it
# without the transports passing it along. The live throughput plot reads it; None outside a run.
LIVE_TOKENS: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("live_tokens", default=None)


class SseParser:
    """Incremental SSE parser for one response body. Feed it bytes with their arrival time."""

    __slots__ = ("_buf", "_data", "_t_event", "r", "_last_usage", "_per_event", "_texts", "_event", "_text_len",
                 "_data_bytes", "abort", "max_token_events", "_live", "on_text")

    def __init__(self, max_token_events: int | None = None, on_text: Callable[[str], None] | None = None) -> None:
        """``max_token_events``: more token-bearing events than this abort the request (``too_many_tokens``):
        an endless stream is not counted forever. ``on_text``: called with each piece of text as it is parsed
        (answer, reasoning or tool call), for a view that shows an answer arriving."""
        self._buf = b""
        self._data: list[bytes] = []
        self._t_event = 0.0
        self.r = StreamResult()
        self._last_usage: int | None = None
        self._per_event: list[int | None] = []
        self._texts: list[str] = []
        self._event = b""
        self._text_len = 0
        self._data_bytes = 0
        self.abort: str | None = None  # set when the stream must be dropped (a bound was exceeded)
        self.max_token_events = max_token_events
        self._live = LIVE_TOKENS.get()
        self.on_text = on_text

    def feed(self, data: bytes, t: float) -> None:
        if self.abort is not None:
            return
        buf = self._buf + data if self._buf else data
        if b"\r" in buf:
            buf = buf.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = buf.split(b"\n")
        self._buf = lines.pop()  # the unfinished tail
        if len(self._buf) > MAX_LINE_BYTES:
            self._buf = b""
            self.abort = "line_too_long"
            self._invalid("line_too_long", b"")
            return
        for line in lines:
            if not line:
                if self._data:
                    self._dispatch(t)
                continue
            c = line[0]
            if c == 0x3A:  # ":" comment = keep-alive
                self.r.keepalives += 1
                continue
            if line.startswith(b"data:"):
                value = line[5:]
                self._data_bytes += len(value)
                if self._data_bytes > MAX_LINE_BYTES:  # an event of endless data: lines
                    self._data = []
                    self.abort = "line_too_long"
                    self._invalid("line_too_long", b"")
                    return
                if value[:1] == b" ":
                    value = value[1:]
                    if self.r.data_prefix_space is None:
                        self.r.data_prefix_space = True
                elif self.r.data_prefix_space is None:
                    self.r.data_prefix_space = False
                self._data.append(value)
            elif line.startswith(b"error:"):  # llama.cpp's non-standard SSE field
                self._data.append(b'{"error":' + line[6:].strip() + b"}")
            elif line.startswith(b"{"):  # no SSE framing at all (NDJSON, or a plain JSON answer): one object per line
                self._data.append(line)
                self._dispatch(t)
            elif line.startswith(b"event:"):
                self._event = line[6:].strip()[:64]
            elif not line.startswith((b"id:", b"retry:", b"data", b"id", b"event")):
                # not SSE: an HTML page, a proxy's text. Remembered for the classification (not_llm_server)
                if self.r.unknown_lines == 0:
                    self.r.unknown_sample = line[:200].decode("utf-8", "replace")
                self.r.unknown_lines += 1
            # "id:", "retry:" carry nothing we need

    def _dispatch(self, t: float) -> None:
        raw = self._data[0] if len(self._data) == 1 else b"\n".join(self._data)
        self._data = []
        self._data_bytes = 0
        event, self._event = self._event, b""
        r = self.r
        r.events += 1
        r.t_last_event = t
        if raw == b"[DONE]":
            r.done = True
            return
        if self.abort is not None:
            return
        try:
            obj = _decode(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            self._invalid("not_json", raw)
            return
        if not isinstance(obj, dict):
            self._invalid("not_an_object", raw)
            return
        err = obj.get("error")
        if err is not None or obj.get("object") == "error" or event == b"error":
            self._error(obj, err)
            return
        try:
            self._chunk(obj, t)
        except _Invalid as bad:
            self._invalid(bad.kind, raw)

    def _invalid(self, kind: str, raw: bytes) -> None:
        """A chunk that breaks the protocol: the request fails as ``invalid:<kind>`` (first problem kept)."""
        r = self.r
        if r.invalid is None:
            r.invalid = raw[:200].decode("utf-8", "replace")
            r.invalid_kind = kind

    def _chunk(self, obj: dict[str, Any], t: float) -> None:
        """Validate and apply one chunk. Every value is type-checked before it is used (no exception but
        :class:`_Invalid` leaves this method), so a hostile server cannot crash the worker."""
        r = self.r
        usage = obj.get("usage")
        choices = obj.get("choices")
        got_tokens = False
        if choices is not None and not isinstance(choices, list):
            raise _Invalid("bad_choices")
        if choices:
            choice = choices[0]
            if not isinstance(choice, dict):
                raise _Invalid("bad_choice")
            delta = choice.get("delta")
            if delta is None and "message" in choice:  # the server ignored stream=true: one JSON answer
                delta = choice.get("message") or {}
                r.hints.add("not_streamed")
            if delta is not None:
                if not isinstance(delta, dict):
                    raise _Invalid("bad_delta")
                content = _opt_str(delta.get("content"), "bad_content")
                reasoning = _opt_str(delta.get("reasoning_content"), "bad_reasoning")
                rfield = "reasoning_content"
                if not reasoning:
                    reasoning = _opt_str(delta.get("reasoning"), "bad_reasoning")
                    rfield = "reasoning"
                tools = delta.get("tool_calls")
                if tools is not None and not (isinstance(tools, list) and all(isinstance(c, dict) for c in tools)):
                    raise _Invalid("bad_tool_calls")
                if content or tools:
                    got_tokens = True
                    if r.t_first_answer is None:
                        r.t_first_answer = t
                    r.answer_events += 1
                    if content:
                        self._text(content)
                    if tools:
                        for call in tools:
                            fn = call.get("function") or {}
                            if not isinstance(fn, dict):
                                raise _Invalid("bad_tool_calls")
                            self._text((_opt_str(fn.get("name"), "bad_tool_calls") or "")
                                       + (_opt_str(fn.get("arguments"), "bad_tool_calls") or ""))
                if reasoning:
                    if not got_tokens:
                        r.reasoning_events += 1
                    got_tokens = True
                    r.reasoning_field = rfield
                    self._text(reasoning)
            else:
                text = _opt_str(choice.get("text"), "bad_text")
                if text:
                    got_tokens = True
                    if r.t_first_answer is None:
                        r.t_first_answer = t
                    r.answer_events += 1
                    self._text(text)
            fr = choice.get("finish_reason")
            if fr is not None and not isinstance(fr, str):
                raise _Invalid("bad_finish_reason")
            if fr:
                r.finish_reason = fr[:64]
            elif choice.get("stop") is True and "timings" in obj:
                r.finish_reason = r.finish_reason or "stop"
        if got_tokens:
            r.token_times.append(t)
            if self._live is not None:
                self._live[0] += 1
            if self.max_token_events is not None and len(r.token_times) > self.max_token_events:
                self.abort = "too_many_tokens"
                self._invalid("too_many_tokens", b"")
        if usage is not None and not isinstance(usage, dict):
            raise _Invalid("bad_usage")
        if usage:
            r.usage_seen = True
            ct = _opt_count(usage.get("completion_tokens"))
            pt = _opt_count(usage.get("prompt_tokens"))
            if pt is not None:
                r.usage_prompt_tokens = pt
            if ct is not None:
                if got_tokens:
                    prev = self._last_usage or 0
                    if ct < prev:
                        raise _Invalid("usage_decreased")
                    self._per_event.append(ct - prev)
                    r.continuous_usage = True
                r.usage_completion_tokens = ct
                self._last_usage = ct
        elif got_tokens:
            self._per_event.append(None)
        if "timings" in obj:
            r.hints.add("llamacpp")
            timings = obj["timings"]
            if isinstance(timings, dict):  # extra figures: a malformed one is ignored, not a broken chunk
                predicted, prompt_n, cache_n = (timings.get(k) for k in ("predicted_n", "prompt_n", "cache_n"))
                if _is_count(predicted):
                    r.timings_predicted = predicted
                if _is_count(prompt_n):
                    r.timings_prompt = prompt_n + (cache_n if _is_count(cache_n) else 0)
        fp = obj.get("system_fingerprint")
        if isinstance(fp, str):
            r.hints.add("fp:" + fp[:24])

    def _text(self, text: str) -> None:
        if self.on_text is not None:
            self.on_text(text)
        # the text only feeds a token estimate and the output length: keep a bounded amount
        if self._text_len < MAX_TEXT_CHARS:
            self._texts.append(text[: MAX_TEXT_CHARS - self._text_len])
        self._text_len += len(text)

    def _error(self, obj: dict[str, Any], err: Any) -> None:
        r = self.r
        if isinstance(err, dict):
            r.error = str(err.get("message") or err)
            r.error_type = str(err.get("type") or err.get("code") or "error")
        elif isinstance(err, str):
            r.error = err
            r.error_type = str(obj.get("error_type") or "error")
        else:  # {"object": "error", "message": ..., "type": ...}
            r.error = str(obj.get("message") or obj)
            r.error_type = str(obj.get("type") or "error")

    def finish(self, t: float | None = None) -> StreamResult:
        """Flush a last event that had no blank line after it, and compute the per-event token counts."""
        if self._buf.strip():
            line, self._buf = self._buf, b""
            self.feed(line + b"\n\n", t if t is not None else self._t_event)
        elif self._data:
            self._dispatch(t if t is not None else self._t_event)
        r = self.r
        r.text = "".join(self._texts)
        r.text_chars = self._text_len
        if self._text_len > len(r.text):
            r.hints.add("text_capped")
        per = self._per_event
        if r.continuous_usage and per and len(per) == len(r.token_times) and all(k is not None for k in per):
            r.tokens_per_event = [k for k in per if k is not None]  # all of them (checked above)
        return r


def guess_dialect(result: StreamResult, owned_by: str | None = None, server_header: str | None = None) -> tuple[str, list[str]]:
    """Name the server family from what it sent. Evidence is listed so a user can check the guess."""
    evidence: list[str] = []
    owner = (owned_by or "").lower()
    for name, key in (("vllm", "vllm"), ("sglang", "sglang"), ("lmdeploy", "lmdeploy"), ("llamacpp", "llamacpp"),
                      ("ollama", "ollama"), ("tgi", "text-generation-inference"), ("simulated", "simulated")):
        if key in owner:
            evidence.append(f"/v1/models owned_by={owned_by}")
            return name, evidence
    if "llamacpp" in result.hints:
        return "llamacpp", ["timings field in chunks"]
    fps = [h[3:] for h in result.hints if h.startswith("fp:")]
    if any(fp == "fp_ollama" for fp in fps):
        return "ollama", ["system_fingerprint=fp_ollama"]
    if any(fp.startswith("vllm-") for fp in fps):  # vLLM >= 0.11 stamps its version, e.g. vllm-0.32.0-7c6c1922
        return "vllm", [f"system_fingerprint={fps[0]}"]
    if any(re.fullmatch(r"b\d+-[0-9a-f]+", fp) for fp in fps):
        return "llamacpp", [f"system_fingerprint={fps[0]}"]
    if result.data_prefix_space is False:
        evidence.append("'data:' without a space (axum SSE)")
        return "tgi", evidence
    if server_header and "uvicorn" in server_header.lower():
        evidence.append("server: uvicorn (vLLM, SGLang or LMDeploy)")
    return "openai", evidence
