"""Benchmark types: what to measure (endpoint, workload, schedule), one request's record, step summaries.

Clock contract (shared with telemetry): every timestamp is ``time.monotonic()`` seconds (CLOCK_MONOTONIC);
a run carries one wall-clock anchor (``time.time()`` taken at the same instant) so telemetry samples and
request records line up. Durations in summaries are milliseconds (``*_ms``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Api = Literal["chat", "completions"]
ScheduleKind = Literal["single", "fixed", "ramp", "soak", "rate"]
DistKind = Literal["fixed", "uniform", "normal", "lognormal"]

# How a request ended. Only "ok" counts as a success; "cancelled" (the user stopped the run) is excluded
# from every statistic. Everything else is a failure with a class a newcomer can look up in the README.
Outcome = Literal[
    "ok",
    "http_error",  # status >= 400 before any token (429 overload, 5xx, 4xx)
    "connect_error",  # could not connect / connection refused
    "timeout",  # no byte for longer than the read timeout, or total timeout
    "stream_error",  # the server sent an error event mid-stream
    "truncated",  # the stream ended without a finish_reason ([DONE] alone, reset, close, abort)
    "empty",  # HTTP 200 with no token at all
    "invalid",  # the body was not the expected SSE/JSON
    "cancelled",  # the user cancelled the run while it was in flight
]
FAILURES: tuple[str, ...] = ("http_error", "connect_error", "timeout", "stream_error", "truncated", "empty", "invalid")

# Bounds on one run: streams in flight (each costs a socket and a coroutine; beyond this a single machine measures
# itself, not the server) and requests per step.
MAX_CONCURRENCY = 4096
MAX_REQUESTS = 10_000_000
# Closed loop: a step whose steady in-flight count is below this fraction of its target is flagged (shortfall).
SHORTFALL_FRACTION = 0.8
StepStatus = Literal["ok", "degraded", "failed", "cancelled"]

# Where the output token count N came from, best first.
TokenSource = Literal["usage", "timings", "tokenizer", "estimate", "chunks", "max_tokens"]


class EndpointConfig(BaseModel):
    """An OpenAI-compatible server. The API key is never part of this object: it is read at run time."""

    model_config = ConfigDict(extra="forbid")

    url: str = Field(description="base URL, e.g. http://127.0.0.1:8000 or http://host:8000/v1")
    model: str = Field(min_length=1)
    api: Api = "chat"
    api_key_env: str | None = Field(None, description="name of the environment variable holding the key")
    use_keyring: bool = Field(False, description="read the key from the OS keyring (service inference-advisor)")
    timeout_s: float = Field(600.0, gt=0, description="longest a single request may take")
    read_timeout_s: float = Field(120.0, gt=0, description="longest silence between two reads")
    transport: Literal["raw", "raw-loop", "raw-h11", "httpx"] = "raw"
    extra_body: dict[str, Any] = Field(default_factory=dict, description="merged into every request body")

    @field_validator("url")
    @classmethod
    def _url_is_http(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"URL must start with http:// or https:// (got {value!r})")
        from advisor.redact import url_credentials_problem

        problem = url_credentials_problem(value)
        if problem:  # never stored, never sent: the key goes in ADVISOR_API_KEY or the keyring
            raise ValueError(problem)
        return value.rstrip("/")


class LengthDist(BaseModel):
    """A token-length distribution. ``mean`` is the value for ``fixed``; ``min``/``max`` clip every kind."""

    model_config = ConfigDict(extra="forbid")

    kind: DistKind = "fixed"
    mean: float = Field(128, gt=0)
    std: float = Field(0, ge=0, description="standard deviation (normal, lognormal), in tokens")
    min: int = Field(1, ge=1)
    max: int = Field(1_000_000, ge=1)

    @model_validator(mode="after")
    def _check(self) -> LengthDist:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not exceed max ({self.max})")
        if self.kind == "uniform" and self.std == 0 and self.min == 1 and self.max == 1_000_000:
            raise ValueError("a uniform distribution needs min and max")
        return self


class WorkloadConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    prompt_tokens: LengthDist = Field(default_factory=lambda: LengthDist(mean=256))
    output_tokens: LengthDist = Field(default_factory=lambda: LengthDist(mean=128))
    dataset: str | None = Field(None, description="path of a JSONL/CSV/ShareGPT file of real prompts")
    language: Literal["en", "zh"] = "en"
    ignore_eos: bool = Field(False, description="ask the server to generate exactly max_tokens (vLLM/SGLang)")
    seed: int = 0


class SloConfig(BaseModel):
    """Service-level objectives. A request is "good" when it succeeded and meets every SLO that is set."""

    model_config = ConfigDict(extra="forbid")

    ttft_ms: float | None = Field(None, gt=0)
    tpot_ms: float | None = Field(None, gt=0)
    e2e_ms: float | None = Field(None, gt=0)
    percentile: Literal[50, 90, 95, 99] = Field(95, description="the ramp stops when this percentile breaks an SLO")
    max_error_rate: float = Field(0.05, ge=0, le=1, description="the ramp stops above this failure fraction")


class ScheduleConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: ScheduleKind = "fixed"
    concurrency: list[int] = Field(default_factory=lambda: [1], description="one step per value (fixed, ramp)")
    requests: int | None = Field(None, ge=1, le=MAX_REQUESTS, description="requests per step (fixed), max per step (ramp)")
    duration_s: float | None = Field(None, gt=0, description="time per step (fixed), max per step (ramp), soak length")
    max_concurrency: int = Field(256, ge=1, le=MAX_CONCURRENCY, description="ramp: highest level when doubling from 1")
    min_requests_per_step: int = Field(16, ge=1, description="ramp: a step is judged stable after at least this many")
    rate: float | None = Field(None, gt=0, description="open loop: mean requests per second")
    burstiness: float = Field(1.0, gt=0, description="1 = Poisson; below 1 burstier, above 1 more regular (gamma)")
    warmup_requests: int = Field(1, ge=0, description="sent first and excluded from every statistic")
    window_s: float = Field(30.0, gt=0, description="soak: width of the windows for drift")
    client_processes: int = Field(1, ge=1, le=32, description="closed-loop steps split their streams over this many "
                                  "client processes (each with its own event loop); open-loop rate uses one")
    continue_past_knee: bool = Field(False, description="ramp: go on to max_concurrency after a confirmed knee "
                                     "(by default the ramp stops once the step after the knee's is confirmed by the next)")
    stagger: bool = Field(True, description="closed loop: spread a step's first requests over one request's "
                          "duration instead of starting them together (no lock-step waves of prefills)")
    min_step_s: float | None = Field(None, ge=0, le=3600, description="ramp: a step runs at least this long before "
                                     "it ends as stable or at its request count (None: long enough for 3 readings of "
                                     "the server's /metrics when it is read, else no minimum)")

    @field_validator("concurrency")
    @classmethod
    def _positive(cls, value: list[int]) -> list[int]:
        if not value or any(c < 1 for c in value):
            raise ValueError("concurrency levels must be whole numbers of at least 1, e.g. 1,2,4")
        if any(c > MAX_CONCURRENCY for c in value):
            raise ValueError(f"concurrency levels are at most {MAX_CONCURRENCY} streams per run")
        if len(value) > 64:
            raise ValueError("at most 64 concurrency levels")
        return value


class BenchConfig(BaseModel):
    """Everything one run needs. Stored with the run; it never holds a secret."""

    model_config = ConfigDict(extra="forbid")

    endpoint: EndpointConfig
    workload: WorkloadConfig = Field(default_factory=WorkloadConfig)
    schedule: ScheduleConfig = Field(default_factory=ScheduleConfig)
    slo: SloConfig = Field(default_factory=SloConfig)
    label: str = ""


class RequestRecord(BaseModel):
    """One streamed request. Times are monotonic seconds; ``token_times`` are arrival times of the events
    that carried tokens (reasoning included), taken when the bytes arrived, before JSON parsing."""

    model_config = ConfigDict(extra="forbid")

    seq: int
    request_id: str | None = Field(None, description="sent as X-Request-Id (a UUID), so server logs can be matched")
    client_process: int | None = Field(None, description="which client process sent it (--client-processes), else None")
    step: int = 0
    concurrency: int = 1
    warmup: bool = False
    outcome: Outcome = "ok"
    error_class: str | None = None
    error_message: str | None = None
    status: int | None = None
    retry_after_s: float | None = Field(None, ge=0, description="the server's Retry-After (HTTP 429/503), seconds")
    dialect: str | None = None
    finish_reason: str | None = None
    prompt_tokens_target: int | None = None
    max_tokens: int | None = None
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    output_tokens_source: TokenSource | None = None
    reasoning_events: int = 0
    answer_events: int = 0
    output_chars: int = 0
    t_intended: float
    t_start: float
    t_send: float | None = None
    t_headers: float | None = None
    t_first_token: float | None = None
    t_first_answer: float | None = None
    t_last_token: float | None = None
    t_end: float | None = None
    token_times: list[float] = Field(default_factory=list)
    tokens_per_event: list[int] | None = Field(None, description="from per-chunk usage, when the server sends it")
    anomalies: list[str] = Field(default_factory=list)
    kernel_timestamps: bool = Field(False, description="token times are the kernel's receive times (SO_TIMESTAMPNS)")
    late_merged_tokens: int = Field(0, description="tokens that shared a late read with an earlier token: the client "
                                                   "read too late to tell them apart")

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"

    @property
    def ttft_ms(self) -> float | None:
        return None if self.t_first_token is None else (self.t_first_token - self.t_start) * 1e3

    @property
    def ttfa_ms(self) -> float | None:
        return None if self.t_first_answer is None else (self.t_first_answer - self.t_start) * 1e3

    @property
    def e2e_ms(self) -> float | None:
        return None if self.t_last_token is None else (self.t_last_token - self.t_start) * 1e3

    @property
    def tpot_ms(self) -> float | None:
        n = self.output_tokens
        if n is None or n < 2 or self.t_first_token is None or self.t_last_token is None:
            return None
        return (self.t_last_token - self.t_first_token) * 1e3 / (n - 1)

    def itl_ms(self) -> tuple[list[float], bool]:
        """Gaps between tokens, and whether they are true per-token gaps (True) or inter-chunk gaps (False).

        With per-chunk token counts, a gap followed by k tokens counts as k gaps of gap/k each.
        """
        times = self.token_times
        gaps = [(b - a) * 1e3 for a, b in zip(times, times[1:], strict=False)]
        per_event = self.tokens_per_event
        if per_event and len(per_event) == len(times):
            out: list[float] = []
            for gap, k in zip(gaps, per_event[1:], strict=False):
                k = max(1, k)
                out.extend([gap / k] * k)
            return out, True
        exact = self.output_tokens_source in ("usage", "timings") and self.output_tokens == len(times)
        return gaps, exact


class Percentiles(BaseModel):
    count: int = 0
    mean: float | None = None
    p50: float | None = None
    p90: float | None = None
    p95: float | None = None
    p99: float | None = None
    max: float | None = None
    min: float | None = None
    too_few_samples: bool = Field(True, description="fewer than 20 samples: P95/P99 are close to the max")


class ClientHealth(BaseModel):
    loop_lag_p99_ms: float | None = None
    loop_lag_max_ms: float | None = None
    send_delay_p99_ms: float | None = Field(None, description="intended start → request sent (client queueing)")
    cpu_utilisation: float | None = Field(None, description="client process CPU seconds per wall second")
    kernel_timestamps: bool = Field(False, description="reads were stamped by the kernel: loop lag alone does not "
                                                       "distort token times, merged reads do")
    late_merged_fraction: float | None = Field(None, description="tokens merged into a late read / all tokens")
    client_bound: bool = False
    reasons: list[str] = Field(default_factory=list)


class StepSummary(BaseModel):
    step: int
    concurrency: int
    target_rate: float | None = None
    requests_ok: int = 0
    requests_failed: int = 0
    requests_cancelled: int = 0
    arrivals_not_sent: int = Field(0, description="open loop: arrivals still waiting for a slot when the duration "
                                   "ended (never sent; the server could not keep up with the rate)")
    failures: dict[str, int] = Field(default_factory=dict)
    failure_messages: dict[str, str] = Field(
        default_factory=dict, description="failure class → the first error message of that class (what the server said)")
    anomalies: dict[str, int] = Field(default_factory=dict)
    duration_s: float = 0.0
    window_start_s: float | None = Field(None, description="first measured request sent (project clock, seconds)")
    window_end_s: float | None = Field(None, description="last measured request finished (project clock, seconds)")
    output_tokens: int = Field(0, description="output tokens of the successful measured requests")
    ttft_ms: Percentiles = Field(default_factory=Percentiles)
    ttfa_ms: Percentiles = Field(default_factory=Percentiles)
    itl_ms: Percentiles = Field(default_factory=Percentiles)
    itl_kind: Literal["per_token", "inter_chunk"] = "inter_chunk"
    itl_sampled: bool = Field(False, description="more gaps than the bound (200,000): ITL percentiles are from a "
                              "uniform sample of them")
    tpot_ms: Percentiles = Field(default_factory=Percentiles)
    e2e_ms: Percentiles = Field(default_factory=Percentiles)
    output_tokens_per_s: float = 0.0
    requests_per_s: float = 0.0
    achieved_concurrency: float = 0.0
    steady_concurrency: float | None = Field(None, description="closed loop: mean requests in flight from the moment "
                                             "every stream had started until the last request was sent")
    concurrency_shortfall: bool = Field(False, description="steady concurrency below 80 % of the target: the step "
                                        "did not measure the concurrency it names")
    start_stagger_s: float = Field(0.0, description="the step's first requests were spread over this many seconds "
                                   "(0 = started together)")
    # steps long enough to measure (issue #27): a ramp step's minimums, and whether it ran them
    min_requests: int | None = Field(None, description="ramp: requests the step had to finish before it could end")
    min_duration_s: float | None = Field(None, description="ramp: seconds the step had to run before it could end")
    long_enough: bool | None = Field(None, description="ramp: the step ran its minimum requests and duration "
                                     "(None: not a ramp step)")
    server_scrapes: int | None = Field(None, description="readings of the server's /metrics queue during the step "
                                       "(None: not read)")
    status: StepStatus = Field("ok", description="ok; degraded: success rate below 1 − slo.max_error_rate or a concurrency shortfall; "
                               "failed: no request succeeded")
    output_tokens_sources: dict[str, int] = Field(default_factory=dict)
    goodput_requests_per_s: float | None = None
    goodput_fraction: float | None = None
    error_rate: float = 0.0
    client: ClientHealth = Field(default_factory=ClientHealth)
    server_queue: float | None = Field(None, description="mean requests waiting at the server, when scraped")
    stop_reason: str | None = None


class Knee(BaseModel):
    concurrency: int | None = None
    reason: str
    message: str = ""
    evidence: dict[str, Any] = Field(default_factory=dict)
    # the one knee rule (advisor.domain.knee): a knee is confirmed by the step after the one that showed it
    confirmed: bool | None = Field(None, description="the step after the one that showed the knee agreed (or, for "
                                   "error_rate, the failures themselves); False: no step after it yet; None: no knee")
    dismissed: list[int] = Field(default_factory=list, description="candidate knees (concurrency) the next step "
                                 "contradicted: its throughput grew again, so the dip was noise")


class DriftSeries(BaseModel):
    metric: str
    slope_per_min: float | None = None
    ci95: tuple[float, float] | None = None
    relative_change: float | None = Field(None, description="fitted change over the run / fitted start value")
    drifting: bool = False
    windows: list[float] = Field(default_factory=list)


class Drift(BaseModel):
    window_s: float
    series: list[DriftSeries] = Field(default_factory=list)
    drifting: bool = Field(False, description="a latency/throughput trend, an outage or a failure burst")
    requests_failed: int = 0
    failures_per_window: list[int] = Field(default_factory=list)
    outage_windows: list[int] = Field(default_factory=list, description="windows with failures and no success")
    failure_windows: list[int] = Field(default_factory=list, description="windows with more than 5 % failures")


ProbeErrorKind = Literal["connection_refused", "not_llm_server", "tls_mismatch", "tls_untrusted", "tls_client_cert",
                         "unknown_model",
                         "timeout", "auth", "request_failed"]


class ProbeResult(BaseModel):
    dialect: str = "openai"
    dialect_evidence: list[str] = Field(default_factory=list)
    ok: bool = False
    error: str | None = None
    error_kind: ProbeErrorKind | None = Field(None, description="why the probe failed, in one word (None when ok)")
    model_ok: bool | None = Field(None, description="the model is among the served ids (None: /v1/models not served)")
    duration_s: float = 0.0
    usage_in_stream: bool = False
    continuous_usage: bool = False
    reasoning_field: str | None = None
    done_marker: bool = False
    data_prefix_space: bool | None = None
    metrics_endpoint: bool = False
    tokenize_endpoint: str | None = None
    models: list[str] = Field(default_factory=list)
