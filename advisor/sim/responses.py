"""Responses of the simulated server: one completion served by the engine, streamed (SSE) or as JSON,
with fault injection, and every chunk stamped with time.monotonic() right before it goes to the transport."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.responses import JSONResponse, Response

from advisor.sim.answers import FixedText
from advisor.sim.engine import FINISHED, Seq
from advisor.sim.faults import Fault
from advisor.sim.text import TextGenerator

if TYPE_CHECKING:
    from advisor.sim.server import SimApp

OWNED_BY = "inference-advisor-simulated"
SIM_HEADER = (b"x-inference-advisor-simulated", b"true")


def _text(sim: SimApp, call: Call) -> TextGenerator | FixedText:
    """The answer's pieces for a built-in scored sample, generated placeholder text otherwise."""
    generated = TextGenerator(f"{sim.config.seed}:{call.prompt_tokens}:{call.max_tokens}", call.language)
    return generated if call.answer is None else FixedText(call.answer, after=generated)


class SimulatedReset(Exception):
    """Raised inside a response to make the server drop the connection mid-stream (fault injection)."""


class _QuietReset(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, SimulatedReset)


logging.getLogger("uvicorn.error").addFilter(_QuietReset())


class Generation:
    """State of one request between the engine (producer of tokens) and its response (consumer)."""

    __slots__ = ("tokens", "token_v", "event", "finished", "seq")

    def __init__(self) -> None:
        self.tokens = 0
        self.token_v: list[float] = []  # virtual time each token was produced
        self.event = asyncio.Event()
        self.finished = False
        self.seq: Seq | None = None

    def on_tokens(self, tokens: int, t: float) -> None:
        while len(self.token_v) < tokens:
            self.token_v.append(t)
        self.tokens = tokens
        self.event.set()

    def on_finish(self, seq: Seq) -> None:
        self.finished = True
        self.event.set()


@dataclass
class Call:
    """A parsed completion request."""

    request_id: str
    endpoint: str  # "chat" or "completions"
    model: str
    stream: bool
    prompt_tokens: int
    max_tokens: int
    include_usage: bool
    continuous_usage: bool
    language: str
    fault: Fault | None
    received_t: float
    created: int = field(default_factory=lambda: int(time.time()))
    answer: list[str] | None = None  # one-token pieces of a built-in sample's answer (advisor.sim.answers)
    finish: str = "length"  # "stop" when the whole answer fits in max_tokens


class ApiError(Exception):
    def __init__(self, status: int, message: str, err_type: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.err_type = err_type
        self.headers = headers or {}

    def response(self) -> JSONResponse:
        body = {"error": {"message": self.message, "type": self.err_type, "param": None, "code": self.status}}
        headers = {SIM_HEADER[0].decode(): "true", **self.headers}
        return JSONResponse(body, status_code=self.status, headers=headers)


STATUS_ERRORS = {
    401: ("Unauthorized (simulated fault)", "AuthenticationError"),
    404: ("The model does not exist (simulated fault).", "NotFoundError"),
    429: ("Too many requests (simulated fault)", "RateLimitError"),
    500: ("Internal server error (simulated fault)", "InternalServerError"),
    503: ("Service unavailable: the engine is overloaded (simulated fault)", "ServiceUnavailableError"),
}


class EngineResponse(Response):
    """A completion served by the engine: SSE or JSON. Stamps each chunk right before ``send``."""

    def __init__(self, sim: SimApp, call: Call) -> None:
        self.sim = sim
        self.call = call
        self.status_code = 200
        self.background = None
        self._template: tuple[bytes, bytes] | None = None
        self._seq: Seq | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        sim, call = self.sim, self.call
        record = sim._new_record(call)
        sim.ground_truth.add(record)
        gen = Generation()
        seq = sim.rt.submit(call.prompt_tokens, call.max_tokens, gen)
        gen.seq = seq
        self._seq = seq
        disconnected = asyncio.Event()

        async def watch() -> None:
            while True:
                msg = await receive()
                if msg["type"] == "http.disconnect":
                    disconnected.set()
                    gen.event.set()
                    return

        watcher = asyncio.create_task(watch())
        sim.active_streams += 1
        sim.live.add(gen)
        try:
            if call.stream:
                await self._stream(send, gen, record, disconnected)
            else:
                await self._plain(send, gen, record, disconnected)
        finally:
            sim.active_streams -= 1
            sim.live.discard(gen)
            watcher.cancel()
            if seq.state != FINISHED:
                sim.rt.abort(seq)
                sim.finished_by_reason["abort"] += 1
            else:
                sim.finished_by_reason["length"] += 1
                sim.observe_finished(call, gen, seq)
            if record["outcome"] == "pending" and disconnected.is_set():
                record["outcome"] = "client_disconnected"
            self._settle(record)
            sim.ground_truth.finish(record)

    def _settle(self, record: dict[str, Any]) -> None:
        """Final fields of the ground-truth record (idempotent)."""
        seq = self._seq
        if record["outcome"] == "pending":
            record["outcome"] = "ok"
        record.setdefault("completed_t", time.monotonic())
        if seq is not None:
            record["preemptions"] = seq.preemptions

    def _headers(self, content_type: bytes, extra: list[tuple[bytes, bytes]] | None = None) -> list[tuple[bytes, bytes]]:
        headers = [
            (b"content-type", content_type),
            SIM_HEADER,
            (b"x-request-id", self.call.request_id.encode("latin-1", "replace")),
        ]
        return headers + (extra or [])

    async def _send_chunk(self, send: Any, record: dict[str, Any], data: bytes, kind: str, tokens: int = 0,
                          scheduled: float | None = None, more: bool = True) -> None:
        if not more:
            self._settle(record)  # complete before the last bytes leave: a client may ask right after
        t = time.monotonic()  # right before the bytes are handed to the transport
        record["chunks"].append(t, kind, tokens, len(data), scheduled)
        await send({"type": "http.response.body", "body": data, "more_body": more})
        self.sim.chunks_sent += 1
        if scheduled is not None:
            self.sim.chunk_slips.append(t - scheduled)

    async def _send_many(self, send: Any, record: dict[str, Any], chunks: list[tuple[bytes, str, int, float | None]]) -> None:
        t = time.monotonic()  # right before the bytes are handed to the transport
        slips = self.sim.chunk_slips
        for data, kind, tokens, scheduled in chunks:
            record["chunks"].append(t, kind, tokens, len(data), scheduled)
            if scheduled is not None:
                slips.append(t - scheduled)
        await send({"type": "http.response.body", "body": b"".join(c[0] for c in chunks), "more_body": True})
        self.sim.chunks_sent += len(chunks)

    # ------------------------------------------------------------------------------------- streaming
    async def _stream(self, send: Any, gen: Generation, record: dict[str, Any], disconnected: asyncio.Event) -> None:
        sim, call = self.sim, self.call
        fault = call.fault or Fault()
        await send({
            "type": "http.response.start", "status": 200,
            "headers": self._headers(b"text/event-stream; charset=utf-8", [(b"cache-control", b"no-cache")]),
        })  # fmt: skip
        record["headers_sent_t"] = time.monotonic()
        text = _text(sim, call)
        sent = 0
        stalled = False
        # Chunks due together (the handler woke late, or a stall ended) go out in one write, as a server
        # under load does; each still gets its own ground-truth entry with the shared send time.
        pending: list[tuple[bytes, str, int, float | None]] = []

        async def flush() -> None:
            if pending:
                await self._send_many(send, record, pending)
                pending.clear()

        while sent < call.max_tokens:
            if not (gen.tokens > sent or gen.finished or disconnected.is_set() or sim.closing):
                gen.event.clear()
                await gen.event.wait()
            if disconnected.is_set():
                return
            if sim.closing:
                record["outcome"] = "server_shutdown"
                raise SimulatedReset(call.request_id)
            if gen.finished and gen.tokens <= sent and gen.seq is not None and gen.seq.state != FINISHED:
                return
            while sent < gen.tokens:
                if fault.any:
                    await flush()
                    if fault.stall_s is not None and not stalled and sent >= fault.stall_after:
                        stalled = True
                        record["stall_s"] = fault.stall_s
                        await asyncio.sleep(fault.stall_s)
                    if fault.reset_after is not None and sent >= fault.reset_after:
                        record["outcome"] = "reset"
                        raise SimulatedReset(call.request_id)
                    if fault.error_after is not None and sent >= fault.error_after:
                        await self._error_event(send, record, fault.dialect)
                        return
                    if fault.malformed_after is not None and sent == fault.malformed_after and "malformed" not in record:
                        record["malformed"] = True
                        await self._send_chunk(send, record, self._malformed(), "malformed")
                sent += 1
                last = sent == call.max_tokens
                piece = text.next()
                scheduled = sim.rt.wall(gen.token_v[sent - 1])
                if sent == 1:
                    record["first_token_scheduled_t"] = scheduled
                    if call.endpoint == "chat":
                        pending.append((self._chunk({"role": "assistant", "content": ""}, None, 0), "role", 0, scheduled))
                pending.append((self._content_chunk(piece, call.finish if last else None, sent), "content", 1, scheduled))
                record["completion_tokens"] = sent
            await flush()
        if call.include_usage:
            await self._send_chunk(send, record, self._usage_chunk(sent), "usage")
        await self._send_chunk(send, record, b"data: [DONE]\n\n", "done", more=False)

    def _content_chunk(self, piece: str, finish: str | None, completion_tokens: int) -> bytes:
        """The hot path: a content chunk from a prebuilt template (same bytes as _chunk would give)."""
        if finish is not None or (self.call.include_usage and self.call.continuous_usage):
            return self._chunk({"content": piece}, finish, completion_tokens, piece)
        template = self._template
        if template is None:
            marker = "\u0000MARK\u0000"
            full = self._chunk({"content": marker}, None, 0, marker).decode()
            head, _, tail = full.partition(json.dumps(marker, ensure_ascii=False))
            template = self._template = (head.encode(), tail.encode())
        return template[0] + json.dumps(piece, ensure_ascii=False).encode() + template[1]

    def _chunk(self, delta: dict[str, Any], finish: str | None, completion_tokens: int, piece: str = "") -> bytes:
        call = self.call
        if call.endpoint == "chat":
            choice: dict[str, Any] = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            obj = "chat.completion.chunk"
        else:
            choice = {"index": 0, "text": piece, "logprobs": None, "finish_reason": finish, "stop_reason": None}
            obj = "text_completion"
        body: dict[str, Any] = {
            "id": call.request_id, "object": obj, "created": call.created, "model": call.model, "choices": [choice],
        }  # fmt: skip
        if call.include_usage and call.continuous_usage:
            body["usage"] = self._usage(completion_tokens)
        return b"data: " + json.dumps(body, ensure_ascii=False).encode() + b"\n\n"

    def _usage(self, completion_tokens: int) -> dict[str, int]:
        p = self.call.prompt_tokens
        return {"prompt_tokens": p, "total_tokens": p + completion_tokens, "completion_tokens": completion_tokens}

    def _usage_chunk(self, completion_tokens: int) -> bytes:
        call = self.call
        obj = "chat.completion.chunk" if call.endpoint == "chat" else "text_completion"
        body = {
            "id": call.request_id, "object": obj, "created": call.created, "model": call.model, "choices": [],
            "usage": self._usage(completion_tokens),
        }  # fmt: skip
        return b"data: " + json.dumps(body).encode() + b"\n\n"

    def _malformed(self) -> bytes:
        return b'data: {"id": "' + self.call.request_id.encode() + b'", "object": "chat.completion.chunk", "choices": [{"delta": {"content": "\n\n'

    async def _error_event(self, send: Any, record: dict[str, Any], dialect: str) -> None:
        message = "simulated engine error in the middle of the stream"
        record["outcome"] = f"error_event_{dialect}"
        if dialect == "tgi":
            # TGI: an SSE data event (no space after the colon) with error and error_type; no [DONE].
            data = b"data:" + json.dumps({"error": message, "error_type": "generation"}).encode() + b"\n\n"
            await self._send_chunk(send, record, data, "error", more=False)
        elif dialect == "llamacpp":
            # llama.cpp server: a non-standard "error:" field line carrying the error object; no [DONE].
            data = b"error: " + json.dumps({"code": 500, "message": message, "type": "server_error"}).encode() + b"\n\n"
            await self._send_chunk(send, record, data, "error", more=False)
        else:
            # vLLM: a data event holding {"error": {...}}, then [DONE].
            err = {"error": {"object": "error", "message": message, "type": "InternalServerError", "param": None, "code": 500}}
            await self._send_chunk(send, record, b"data: " + json.dumps(err).encode() + b"\n\n", "error")
            await self._send_chunk(send, record, b"data: [DONE]\n\n", "done", more=False)

    # ----------------------------------------------------------------------------------- non-streaming
    async def _plain(self, send: Any, gen: Generation, record: dict[str, Any], disconnected: asyncio.Event) -> None:
        sim, call = self.sim, self.call
        fault = call.fault or Fault()
        while not gen.finished and not disconnected.is_set() and not sim.closing:
            gen.event.clear()
            await gen.event.wait()
        if disconnected.is_set():
            return
        if sim.closing and not gen.finished:
            record["outcome"] = "server_shutdown"
            raise SimulatedReset(call.request_id)
        if fault.stall_s is not None:
            record["stall_s"] = fault.stall_s
            await asyncio.sleep(fault.stall_s)
        if fault.error_after is not None:
            record["outcome"] = f"error_{fault.dialect}"
            record["status"] = 500
            err = ApiError(500, "simulated engine error", "InternalServerError").response()
            await err({"type": "http"}, None, send)
            return
        text = "".join(_text(sim, call).take(gen.tokens))
        if call.endpoint == "chat":
            choice: dict[str, Any] = {
                "index": 0, "message": {"role": "assistant", "content": text, "tool_calls": []},
                "logprobs": None, "finish_reason": call.finish, "stop_reason": None,
            }  # fmt: skip
            obj = "chat.completion"
        else:
            choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": call.finish, "stop_reason": None}
            obj = "text_completion"
        body = json.dumps({
            "id": call.request_id, "object": obj, "created": call.created, "model": call.model,
            "choices": [choice], "usage": self._usage(gen.tokens),
        }, ensure_ascii=False).encode()  # fmt: skip
        if fault.malformed_after is not None:
            body = body[: len(body) // 2]
            record["malformed"] = True
        await send({
            "type": "http.response.start", "status": 200,
            "headers": self._headers(b"application/json", [(b"content-length", str(len(body)).encode())]),
        })  # fmt: skip
        record["headers_sent_t"] = time.monotonic()
        if fault.reset_after is not None:
            await self._send_chunk(send, record, body[: len(body) // 3], "body")
            record["outcome"] = "reset"
            raise SimulatedReset(call.request_id)
        record["completion_tokens"] = gen.tokens
        await self._send_chunk(send, record, body, "body", gen.tokens, more=False)
