"""The embedded simulated OpenAI-compatible server: a real HTTP server on 127.0.0.1 that behaves like vLLM.

Endpoints: ``GET /v1/models``, ``POST /v1/chat/completions``, ``POST /v1/completions`` (SSE streaming and
plain JSON), ``POST /tokenize`` (vLLM's shape), ``GET /health``, ``GET /version``, ``GET /metrics`` (vLLM
metric names plus DCGM-exporter-style GPU metrics labelled ``simulated="true"``),
``GET /debug/ground-truth`` and ``GET /debug/stats``. Token timing follows the continuous-batching engine
in real time (``time_scale`` < 1 runs faster than the simulated GPU, for tests).

Everything it serves says it is simulated: ``owned_by: inference-advisor-simulated`` in /v1/models and an
``x-inference-advisor-simulated: true`` header on every response.

Python API (UI tests and the benchmark engine use it in-process)::

    with SimServer(SimServerConfig.from_setup(setup, time_scale=0.1)) as server:
        client = openai.OpenAI(base_url=server.base_url + "/v1", api_key="x")
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from advisor import safe_json
from advisor.sim.answers import BuiltinAnswers, error_rate_for, one_token_pieces
from advisor.sim.engine import EngineLimits, Seq, StepCosts
from advisor.sim.faults import Fault, FaultRates, FaultSpecError, parse_fault
from advisor.sim.ground_truth import ChunkLog, GroundTruth
from advisor.sim.metrics import LiveCollector, buckets_125, slip_summary
from advisor.sim.realtime import RealtimeEngine
from advisor.sim.responses import (
    OWNED_BY,
    SIM_HEADER,
    STATUS_ERRORS,
    ApiError,
    Call,
    EngineResponse,
    Generation,
)
from advisor.sim.text import chat_prompt_tokens, count_tokens, is_cjk

MiB = 1024**2
GiB = 1024**3

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GpuInfo:
    """What the DCGM-style metrics describe (per GPU of the tensor-parallel group)."""

    name: str = "Simulated GPU"
    memory_bytes: int = 80 * GiB
    tdp_watts: float = 700.0
    count: int = 1
    gpu_memory_utilization: float = 0.9


@dataclass
class SimServerConfig:
    model_name: str
    costs: StepCosts
    limits: EngineLimits
    max_model_len: int
    aliases: tuple[str, ...] = ()
    gpu: GpuInfo = field(default_factory=GpuInfo)
    time_scale: float = 1.0
    faults: FaultRates | None = None
    seed: int = 0
    language: str = "en"  # "en" or "zh": the language of generated text (a Chinese prompt also gets Chinese)
    weights: str | None = None  # the weight format served: sets the error rate on the built-in scored samples
    answer_error_rate: float | None = None  # overrides ERROR_RATES[weights] (advisor.sim.answers)
    api_key: str | None = None
    ground_truth_path: Path | None = None
    ground_truth_keep: int = 5_000  # requests kept in memory for /debug/ground-truth (oldest dropped first)
    host: str = "127.0.0.1"
    port: int = 0
    gpu_id: str | None = None  # the catalog id of the simulated GPU (in /debug/stats: a client labels its run)

    @classmethod
    def from_setup(cls, setup: Any, **kwargs: Any) -> SimServerConfig:
        """From an :class:`advisor.sim.costs.SimSetup` (model + GPU sized by the sizing core)."""
        aliases = tuple(a for a in {setup.model.id, setup.model.hf_repo or ""} if a and a != setup.model.id)
        gpu = GpuInfo(
            name=setup.gpu.name,
            memory_bytes=setup.gpu.effective_memory_bytes,
            tdp_watts=setup.gpu.tdp_watts,
            count=setup.gpus,
            gpu_memory_utilization=setup.sizing.request.engine.gpu_memory_utilization,
        )
        return cls(
            model_name=setup.model.id, costs=setup.costs, limits=setup.limits, max_model_len=setup.max_model_len,
            aliases=aliases, gpu=gpu, **{"weights": setup.weights, "gpu_id": setup.gpu.id, **kwargs},
        )  # fmt: skip


# ------------------------------------------------------------------------------------------------ the app
class SimApp:
    """The ASGI application and the state behind it (engine, metrics, ground truth)."""

    def __init__(self, config: SimServerConfig) -> None:
        self.config = config
        self.names = {config.model_name, *config.aliases}
        self.rt = RealtimeEngine(config.costs, config.limits, config.time_scale)
        rate = config.answer_error_rate if config.answer_error_rate is not None else error_rate_for(config.weights)
        self.answers = BuiltinAnswers(rate, config.seed)  # the built-in scored samples (quantization A/B demo)
        self.ground_truth = GroundTruth(config.ground_truth_keep, config.ground_truth_path)
        self.registry = CollectorRegistry(auto_describe=True)
        self._init_metrics()
        self._engine_task: asyncio.Task[None] | None = None
        self.active_streams = 0
        self.chunks_sent = 0
        self.chunk_slips: deque[float] = deque(maxlen=50_000)  # send time − engine schedule, content chunks
        self.requests_total = 0
        self.prompt_tokens_total = 0
        self.finished_by_reason: dict[str, int] = {"length": 0, "stop": 0, "abort": 0}
        self.started_mono = time.monotonic()
        self.closing = False
        self.live: set[Generation] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.app = Starlette(
            routes=[
                Route("/v1/models", self.models, methods=["GET"]),
                Route("/v1/chat/completions", self.chat, methods=["POST"]),
                Route("/v1/completions", self.completions, methods=["POST"]),
                Route("/tokenize", self.tokenize, methods=["POST"]),
                Route("/health", self.health, methods=["GET"]),
                Route("/version", self.version, methods=["GET"]),
                Route("/metrics", self.metrics, methods=["GET"]),
                Route("/debug/ground-truth", self.debug_ground_truth, methods=["GET"]),
                Route("/debug/stats", self.debug_stats, methods=["GET"]),
            ],
            lifespan=self._lifespan,
            exception_handlers={ApiError: self._api_error},
        )

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> Any:
        self.rt.anchor = time.monotonic()
        self.loop = asyncio.get_running_loop()
        self._engine_task = asyncio.create_task(self.rt.run(), name="sim-engine")
        try:
            yield
        finally:
            self._engine_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._engine_task
            self.ground_truth.close()

    def shutdown_streams(self) -> None:
        """Stopping: cut every open response at once (like a server process going away) instead of letting
        uvicorn wait out its graceful-shutdown timeout. Runs on the server's loop."""
        self.closing = True
        for gen in list(self.live):
            gen.event.set()

    async def _api_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return exc.response()

    # ----------------------------------------------------------------------------------- small endpoints
    async def health(self, request: Request) -> Response:
        return Response(status_code=200, headers={SIM_HEADER[0].decode(): "true"})

    async def version(self, request: Request) -> Response:
        return self._json({"version": "simulated", "server": OWNED_BY})

    async def models(self, request: Request) -> Response:
        self._check_auth(request)
        created = int(time.time())
        data: list[dict[str, object]] = [
            {
                "id": name,
                "object": "model",
                "created": created,
                "owned_by": OWNED_BY,
                "root": self.config.model_name,
                "parent": None,
                "max_model_len": self.config.max_model_len,
                "permission": [],
            }
            for name in [self.config.model_name, *self.config.aliases]
        ]
        return self._json({"object": "list", "data": data})

    async def tokenize(self, request: Request) -> Response:
        body = await self._body(request)
        if "messages" in body:
            n = chat_prompt_tokens(body["messages"])
        else:
            n = count_tokens(str(body.get("prompt", "")))
        return self._json({"count": n, "max_model_len": self.config.max_model_len, "tokens": list(range(n))})

    def _json(self, data: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers={SIM_HEADER[0].decode(): "true"})

    def _check_auth(self, request: Request) -> None:
        key = self.config.api_key
        if key and request.headers.get("authorization", "") != f"Bearer {key}":
            raise ApiError(401, "Unauthorized", "AuthenticationError")

    async def _body(self, request: Request) -> dict[str, Any]:
        try:  # bounded: deep nesting or a 5,000-digit number is a 400, not a RecursionError/ValueError 500
            body = safe_json.loads(await request.body() or b"{}", source="the request body")
        except safe_json.JsonInputError as exc:
            raise ApiError(400, str(exc), "BadRequestError") from None
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object", "BadRequestError")
        return body

    # ------------------------------------------------------------------------------------ completions
    async def chat(self, request: Request) -> Response:
        return await self._complete(request, "chat")

    async def completions(self, request: Request) -> Response:
        return await self._complete(request, "completions")

    async def _complete(self, request: Request, endpoint: str) -> Response:
        received = time.monotonic()
        try:
            self._check_auth(request)
            body = await self._body(request)
            call = self._parse_call(request, body, endpoint, received)
        except ApiError as err:
            return err.response()
        self.requests_total += 1
        fault = call.fault
        if fault is not None and fault.status is not None:
            message, err_type = STATUS_ERRORS[fault.status]
            if fault.status == 404:
                message = f"The model `{call.model}` does not exist. (simulated fault)"
            headers = {"retry-after": f"{fault.retry_after_s:g}"} if fault.status in (429, 503) else {}
            self._record_refusal(call, fault.status)
            return ApiError(fault.status, message, err_type, headers).response()
        return EngineResponse(self, call)

    def _parse_call(self, request: Request, body: dict[str, Any], endpoint: str, received: float) -> Call:
        model = body.get("model")
        if not isinstance(model, str) or not model:
            raise ApiError(400, "`model` is required: the id listed by GET /v1/models", "BadRequestError")
        if model not in self.names:
            raise ApiError(404, f"The model `{model}` does not exist.", "NotFoundError")
        if body.get("n", 1) not in (1, None):
            raise ApiError(400, "the simulated server supports n=1 only", "BadRequestError")
        language = self.config.language
        if endpoint == "chat":
            messages = body.get("messages")
            if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
                raise ApiError(400, "`messages` must be a non-empty list of {\"role\", \"content\"} objects", "BadRequestError")
            prompt_tokens = chat_prompt_tokens(messages)
            last = messages[-1].get("content", "") if isinstance(messages[-1], dict) else ""
            if isinstance(last, str) and is_cjk(last):
                language = "zh"
            prompt_text = last if isinstance(last, str) else ""
        else:
            prompt = body.get("prompt")
            prompt_text = prompt if isinstance(prompt, str) else ""
            if isinstance(prompt, list) and prompt and all(isinstance(t, int) for t in prompt):
                prompt_tokens = len(prompt)  # token ids
            elif isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], str):
                prompt_tokens = count_tokens(prompt[0])
                language = "zh" if is_cjk(prompt[0]) else language
            elif isinstance(prompt, str):
                prompt_tokens = count_tokens(prompt)
                language = "zh" if is_cjk(prompt) else language
            else:
                raise ApiError(400, "`prompt` must be a string (or a list of token ids)", "BadRequestError")
        prompt_tokens = max(1, prompt_tokens)
        max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
        room = self.config.max_model_len - prompt_tokens
        if max_tokens is None:
            max_tokens = min(room, 256) if body.get("ignore_eos") is None else room
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            raise ApiError(400, "`max_tokens` must be a positive whole number", "BadRequestError")
        if prompt_tokens + max_tokens > self.config.max_model_len:
            raise ApiError(
                400,
                f"This model's maximum context length is {self.config.max_model_len} tokens. However, you requested "
                f"{prompt_tokens + max_tokens} tokens ({prompt_tokens} in the messages, {max_tokens} in the completion). "
                "Please reduce the length of the messages or completion.",
                "BadRequestError",
            )
        options = body.get("stream_options") or {}
        if not isinstance(options, dict):  # OpenAI answers 400 here; a 500 with a traceback would blame the server
            raise ApiError(400, "`stream_options` must be an object such as {\"include_usage\": true}", "BadRequestError")
        fault = self._fault(request, body, max_tokens)
        answer, finish = None, "length"
        if (known := self.answers.answer(prompt_text)) is not None:  # a built-in scored sample: its answer, then stop
            answer = one_token_pieces(known)
            if len(answer) <= max_tokens and not body.get("ignore_eos"):  # ignore_eos: the answer, then more text
                max_tokens, finish = max(1, len(answer)), "stop"
        request_id = request.headers.get("x-request-id") or (
            ("chatcmpl-" if endpoint == "chat" else "cmpl-") + uuid.uuid4().hex
        )
        return Call(
            request_id=request_id,
            endpoint=endpoint,
            model=model,
            stream=bool(body.get("stream", False)),
            prompt_tokens=prompt_tokens,
            max_tokens=max_tokens,
            include_usage=bool(options.get("include_usage", False)),
            continuous_usage=bool(options.get("continuous_usage_stats", False)),
            language=language,
            fault=fault,
            received_t=received,
            answer=answer,
            finish=finish,
        )

    def _fault(self, request: Request, body: dict[str, Any], max_tokens: int) -> Fault | None:
        try:
            if spec := request.headers.get("x-sim-fault"):
                return parse_fault(spec, "header")
            if isinstance(spec := body.get("sim_fault"), str) and spec:
                return parse_fault(spec, "body")
        except FaultSpecError as exc:
            raise ApiError(400, f"bad X-Sim-Fault / sim_fault: {exc}", "BadRequestError") from None
        if self.config.faults is not None:
            return self.config.faults.draw(max_tokens)
        return None

    def _record_refusal(self, call: Call, status: int) -> None:
        rec = self._new_record(call)
        rec["status"] = status
        rec["outcome"] = f"http_{status}"
        rec["completed_t"] = time.monotonic()
        self.ground_truth.add(rec)
        self.ground_truth.finish(rec)

    def _new_record(self, call: Call) -> dict[str, Any]:
        return {
            "request_id": call.request_id,
            "endpoint": call.endpoint,
            "model": call.model,
            "stream": call.stream,
            "prompt_tokens": call.prompt_tokens,
            "max_tokens": call.max_tokens,
            "completion_tokens": 0,
            "received_t": call.received_t,
            "status": 200,
            "outcome": "pending",
            "fault": call.fault.describe() if call.fault else None,
            "fault_source": call.fault.source if call.fault else None,
            "clock": "time.monotonic",
            "time_scale": self.config.time_scale,
            "chunks": ChunkLog(),
        }

    # --------------------------------------------------------------------------------------- metrics
    def _init_metrics(self) -> None:
        labels = ["model_name", "engine"]
        reg = self.registry
        lat = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0,
               960.0, 1920.0, 7680.0]  # fmt: skip
        tok_buckets = buckets_125(self.config.max_model_len)

        def hist(name: str, doc: str, buckets: list[float]) -> Any:
            return Histogram(name, doc, labels, buckets=buckets, registry=reg).labels(self.config.model_name, "0")

        self.h_ttft = hist(
            "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
            [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0,
             80.0, 160.0, 640.0, 2560.0],
        )  # fmt: skip
        itl_buckets = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0,
                       40.0, 80.0]  # fmt: skip
        self.h_tpot = hist("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.", itl_buckets)
        self.h_itl = hist("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", itl_buckets)
        self.h_e2e = hist("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", lat)
        self.h_queue = hist("vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", lat)
        self.h_prefill = hist("vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", lat)
        self.h_decode = hist("vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", lat)
        self.h_prompt = hist("vllm:request_prompt_tokens", "Number of prefill tokens processed.", tok_buckets)
        self.h_gen = hist("vllm:request_generation_tokens", "Number of generation tokens processed.", tok_buckets)
        reg.register(LiveCollector(self))

    def observe_finished(self, call: Call, gen: Generation, seq: Seq) -> None:
        wall = self.rt.wall
        if seq.first_token_t is None or seq.finish_t is None:
            return
        arrival = wall(seq.arrival)
        first = wall(seq.first_token_t)
        self.h_ttft.observe(first - arrival)
        self.h_e2e.observe(wall(seq.finish_t) - arrival)
        if seq.first_sched is not None:
            self.h_queue.observe(wall(seq.first_sched) - arrival)
            self.h_prefill.observe(first - wall(seq.first_sched))
        self.h_decode.observe(wall(seq.finish_t) - first)
        self.h_prompt.observe(call.prompt_tokens)
        self.h_gen.observe(gen.tokens)
        scale = self.config.time_scale
        times = gen.token_v
        for a, b in zip(times, times[1:], strict=False):
            self.h_itl.observe((b - a) * scale)
        if len(times) > 1:  # per request, as vLLM's request-level TPOT (one observation, not one per token)
            self.h_tpot.observe((times[-1] - times[0]) * scale / (len(times) - 1))

    async def metrics(self, request: Request) -> Response:
        return Response(
            generate_latest(self.registry),
            media_type="text/plain; version=0.0.4; charset=utf-8",
            headers={SIM_HEADER[0].decode(): "true"},
        )

    # ----------------------------------------------------------------------------------------- debug
    async def debug_ground_truth(self, request: Request) -> Response:
        rid = request.query_params.get("request_id")
        if rid is None:
            ids = self.ground_truth.ids()
            return self._json({"clock": "time.monotonic", "requests": ids[-1000:], "count": len(ids)})
        rec = self.ground_truth.get(rid)
        if rec is None:
            return ApiError(404, f"no ground truth for request {rid!r} (unknown, or dropped from memory)", "NotFoundError").response()
        return self._json(rec)

    async def debug_stats(self, request: Request) -> Response:
        """Engine state and timing quality; ``?reset=1`` starts a new slip window after reading."""
        stats = self.stats()
        if request.query_params.get("reset"):
            self.rt.slips.clear()
            self.chunk_slips.clear()
        return self._json(stats)

    def stats(self) -> dict[str, Any]:
        eng = self.rt.engine
        return {
            "simulated": True,
            "model": self.config.model_name,
            "time_scale": self.config.time_scale,
            # what is simulated, so a client (advisor bench) can say it and label its run as the app does
            "setup": {"model": self.config.model_name, "gpu": self.config.gpu_id, "weights": self.config.weights,
                      "gpus": self.config.gpu.count},
            "running": len(eng.running),
            "waiting": len(eng.waiting) + len(eng._arrivals),
            "kv_cache_usage": eng.blocks_used / eng.limits.kv_blocks,
            "steps": eng.steps,
            "preemptions": eng.preemptions,
            "active_streams": self.active_streams,
            "chunks_sent": self.chunks_sent,
            "requests": self.requests_total,
            "step_slip": self.rt.slip_stats(),
            "chunk_slip": slip_summary(self.chunk_slips),
            "resyncs": self.rt.resyncs,
        }


# -------------------------------------------------------------------------------------------- the server
class SimServer:
    """The simulated server on 127.0.0.1: ``start()`` in a background thread (or ``with``), or ``serve()``."""

    def __init__(self, config: SimServerConfig) -> None:
        self.config = config
        self.sim = SimApp(config)
        self._sock: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @property
    def port(self) -> int:
        if self._sock is None:
            raise RuntimeError("the server is not bound yet")
        return int(self._sock.getsockname()[1])

    @property
    def base_url(self) -> str:
        return f"http://{self.config.host}:{self.port}"

    def ground_truth(self, request_id: str) -> dict[str, Any] | None:
        return self.sim.ground_truth.get(request_id)

    def stats(self) -> dict[str, Any]:
        return self.sim.stats()

    def _bind(self) -> socket.socket:
        if self.config.host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the simulated server only listens on loopback (127.0.0.1)")
        # proto=IPPROTO_TCP matters: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say they are
        # TCP, and with Nagle on, a chunk written while the headers wait for a delayed ACK is held ~20–40 ms.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(("127.0.0.1", self.config.port))
        sock.listen(2048)
        sock.setblocking(False)
        self._sock = sock
        return sock

    def _uvicorn(self) -> uvicorn.Server:
        config = uvicorn.Config(
            # log_config=None: do not reconfigure the host process's logging (the UI and tests embed us).
            self.sim.app, log_config=None, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2,
            timeout_keep_alive=30, backlog=2048, http="h11",
        )  # fmt: skip
        server = uvicorn.Server(config)
        # uvicorn re-raises a caught SIGTERM after shutting down (the process then dies of it); we handle
        # the signals ourselves so that a stop on SIGINT/SIGTERM is a clean exit with status 0.
        server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
        self._server = server
        return server

    async def serve(self, on_ready: Any = None) -> None:
        """Serve in the current event loop until SIGINT/SIGTERM (main thread) or :meth:`stop`."""
        sock = self._sock or self._bind()
        server = self._uvicorn()
        if threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()

            def on_signal() -> None:
                if server.should_exit:
                    server.force_exit = True  # a second Ctrl+C: do not wait at all
                self.sim.shutdown_streams()
                server.should_exit = True

            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, on_signal)

        async def announce() -> None:
            while not server.started:
                if server.should_exit:
                    return
                await asyncio.sleep(0.01)
            if on_ready is not None:
                on_ready(self)

        task = asyncio.create_task(announce())
        try:
            await server.serve(sockets=[sock])
        finally:
            task.cancel()

    def start(self, timeout: float = 15.0) -> SimServer:
        """Serve in a daemon thread; returns once the server accepts connections."""
        self._bind()
        ready = threading.Event()

        def run() -> None:
            try:
                asyncio.run(self.serve(on_ready=lambda _s: ready.set()))
            except BaseException as exc:  # surfaced to the caller of start()
                self._error = exc
                ready.set()

        self._thread = threading.Thread(target=run, name=f"sim-server-{self.port}", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            self.stop()
            raise RuntimeError("the simulated server did not start in time")
        if self._error is not None:
            raise RuntimeError(f"the simulated server failed to start: {self._error}") from self._error
        return self

    def stop(self, timeout: float = 10.0) -> None:
        loop = self.sim.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop may have just finished
                loop.call_soon_threadsafe(self.sim.shutdown_streams)
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._sock is not None:
            self._sock.close()

    def __enter__(self) -> SimServer:
        return self.start() if self._thread is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def run_sim_server(config: SimServerConfig) -> Iterator[SimServer]:
    """``with run_sim_server(cfg) as server: ... server.base_url``"""
    server = SimServer(config).start()
    try:
        yield server
    finally:
        server.stop()
