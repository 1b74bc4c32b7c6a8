"""Types of the capacity predictor and the simulated server: workloads in, predicted curves out.

The predictor answers "what latency and throughput will this model see on this GPU at concurrency N?"
with the same vocabulary as a measured benchmark step (``ttft_ms``, ``tpot_ms`` … with mean/p50/p90/p95/p99),
so a prediction and a measurement can be drawn on the same chart.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# "sharegpt": the shape of the ShareGPT sample vLLM's serving benchmark sends (resources/workloads/sharegpt.json),
# scaled to ``mean``: 18 % of its answers are under 20 tokens, which a lognormal of the same mean does not give.
DistributionKind = Literal["fixed", "uniform", "normal", "lognormal", "sharegpt"]
SHAREGPT_SPAN = 5  # the sample's longest prompt is 4.5 × its mean (answers 3.9 ×): the default max keeps all of it
KneeReason = Literal["queueing", "kv_cache", "compute", "not_reached"]


class LengthDistribution(BaseModel):
    """Token counts of prompts or outputs. ``fixed`` always gives ``mean``; the others spread around it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: DistributionKind = "fixed"
    mean: int = Field(gt=0, le=10_000_000, description="average length in tokens")
    min: int = Field(1, ge=1, description="shortest length in tokens")
    max: int | None = Field(None, ge=1, description="longest length in tokens (None: 4 × mean; sharegpt: 5 × mean)")
    cv: float = Field(0.5, ge=0, le=5, description="spread: standard deviation ÷ mean (normal, lognormal)")

    @model_validator(mode="after")
    def _ordered(self) -> LengthDistribution:
        hi = self.upper
        if self.min > self.mean or self.mean > hi:
            raise ValueError(
                f"lengths must satisfy min ≤ mean ≤ max, got min={self.min}, mean={self.mean}, max={hi}"
            )
        return self

    @property
    def upper(self) -> int:
        if self.max is not None:
            return self.max
        return self.mean * (SHAREGPT_SPAN if self.kind == "sharegpt" else 4)

    @classmethod
    def fixed(cls, tokens: int) -> LengthDistribution:
        return cls(kind="fixed", mean=tokens, min=1, max=tokens)


class SimWorkload(BaseModel):
    """What the simulated users send: prompt and output lengths (outputs run to their length, like ignore_eos)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prompt: LengthDistribution = Field(default_factory=lambda: LengthDistribution.fixed(512))
    output: LengthDistribution = Field(default_factory=lambda: LengthDistribution.fixed(256))
    seed: int = 0


class Percentiles(BaseModel):
    """Summary of one latency metric over the requests of a level (milliseconds)."""

    model_config = ConfigDict(extra="forbid")

    mean: float | None
    p50: float | None
    p90: float | None
    p95: float | None
    p99: float | None


class LevelPrediction(BaseModel):
    """One point of the curve: a fixed concurrency (closed loop) or a request rate (open loop)."""

    model_config = ConfigDict(extra="forbid")

    concurrency: int | None = Field(description="requests kept in flight (closed loop); None for a request rate")
    request_rate: float | None = Field(None, description="requests per second offered (open loop)")
    requests: int = Field(description="requests measured at this level")
    ttft_ms: Percentiles
    tpot_ms: Percentiles
    itl_ms: Percentiles
    e2e_ms: Percentiles
    output_tokens_per_s: float
    requests_per_s: float
    kv_usage: dict[str, float] = Field(description="fraction of KV blocks in use: mean and max over time")
    queue: dict[str, float] = Field(description="requests waiting (not yet running): mean and max over time")
    running: dict[str, float] = Field(description="requests in the running batch: mean and max over time")
    preemptions: int = Field(description="requests evicted to free KV blocks (recomputed later)")
    rejected: int = Field(0, description="requests longer than the whole KV cache (a real server refuses them)")
    mean_in_flight: float = Field(description="time-averaged requests in the server (Little's law check)")
    simulated_requests: int = Field(0, description="requests the engine ran for this level, warm-up included")
    steps: int = Field(0, description="engine steps (forward passes) simulated for this level")
    extended_from: int | None = Field(
        None, description="simulated at this concurrency and extended by Little's law (deeply saturated level)"
    )


class Knee(BaseModel):
    """Where adding concurrency stops paying: latency rises while throughput stalls."""

    model_config = ConfigDict(extra="forbid")

    concurrency: int | None = Field(description="last level worth running; None when no knee within the levels")
    request_rate: float | None = Field(None, description="the same, for a curve of request rates (open loop)")
    reason: KneeReason
    evidence: dict[str, float | int | str | None] = Field(default_factory=dict)
    # the one knee rule (advisor.domain.knee), as measured ramps read it
    confirmed: bool | None = Field(None, description="the level after the one that showed the knee agreed; False: "
                                   "no level after it; None: no knee")
    dismissed: list[int] = Field(default_factory=list, description="candidate knees (concurrency) the next level "
                                 "contradicted (its throughput grew again)")


class Prediction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    simulated: bool = True
    levels: list[LevelPrediction]
    knee: Knee
    engine: dict[str, float | int | str] = Field(default_factory=dict, description="the engine limits simulated")
    cpu_seconds: float = 0.0
    architecture: Literal["dense", "moe"] | None = Field(
        None, description="the model's group for the TPOT likely range (advisor.sizing.accuracy.architecture_group)"
    )
