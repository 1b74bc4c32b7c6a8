"""A project file (``*.advisor.json``): the user's inputs and the results they saw, in one versioned document.

The sizing request is stored whole (model and GPU specs included), so a project opens the same way
even after the built-in catalog changes or on a machine without the imported config.json.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor import __version__
from advisor.domain.sizing import SizingRequest

PROJECT_FORMAT = "inference-advisor-project"
PROJECT_VERSION = 2


class SizingSection(BaseModel):
    """The sizing page: what was asked, where the model and GPU came from, and what the calculator said."""

    model_config = ConfigDict(extra="forbid")

    request: SizingRequest
    model_source: Literal["preset", "imported"] = Field("preset", description="a built-in preset or an imported config.json")
    model_file: str | None = Field(None, description="the config.json the model was imported from (for the record)")
    gpu_source: Literal["catalog", "custom"] = Field("catalog", description="a catalog GPU or one the user described")
    result: dict[str, Any] | None = Field(
        None, description="the SizingResult shown when the project was saved (a record; it is recomputed on open)"
    )


class PlanSection(BaseModel):
    """The decision wizard: the answers (public format, see advisor.plan.answers), the user's own price quotes
    (override the built-in price rows) and the wizard page the user was on."""

    model_config = ConfigDict(extra="forbid")

    answers: dict[str, Any] = Field(default_factory=dict, description="PlanAnswers as JSON (validated by advisor.plan)")
    quotes: list[dict[str, Any]] = Field(default_factory=list, description="user price quotes: {gpu, kind, low, high, unit, …}")
    wizard_step: int = Field(0, ge=0)


class BenchmarkSection(BaseModel):
    """The Benchmark page: the target, the workload, the load shape and the SLO. Never the API key (that stays in
    the OS keyring)."""

    model_config = ConfigDict(extra="forbid")

    target: Literal["simulated", "url"] = "simulated"
    url: str = Field("", description="the server's URL when target is 'url'")
    model: str = Field("", description="the served model id to test")
    sim_model: str | None = Field(None, description="the simulated server's model preset")
    sim_gpu: str | None = None
    sim_weights: str | None = None
    sim_gpus: int = Field(1, ge=1)
    sim_time_scale: float = Field(1.0, gt=0)
    exporter_url: str = ""
    preset: str = "short_chat"
    prompt_tokens: int = Field(256, ge=1)
    output_tokens: int = Field(256, ge=1)
    shape: Literal["single", "fixed", "ramp", "soak", "rate"] = "ramp"
    concurrency: int = Field(8, ge=1)
    max_concurrency: int = Field(64, ge=1)
    requests: int = Field(64, ge=1)
    duration_s: float = Field(120.0, gt=0)
    rate: float = Field(4.0, gt=0)
    ttft_p99_ms: float | None = Field(None, gt=0)
    tpot_p99_ms: float | None = Field(None, gt=0)
    ca_bundle: str = Field("", description="CA certificates (a PEM file or a rehashed folder) trusted beside the "
                                           "system store for the URL's certificate, as `advisor bench --ca-bundle`: "
                                           "a path, never a secret; empty: the system store (and ADVISOR_CA_BUNDLE)")
    # mutual TLS (issue #29): paths only; the key's contents never enter a project
    client_cert: str = Field("", description="client certificate (PEM; may hold its key) presented to a server "
                                             "that requires one, as `advisor bench --client-cert`: a path")
    client_key: str = Field("", description="the client certificate's private key (PEM, no passphrase) when not "
                                            "in the certificate's file, as `advisor bench --client-key`: a path")


class AbSection(BaseModel):
    """The Quantization A/B page: both targets, the simulated servers' setup and where it came from, the prompts
    and the load. Never an API key."""

    model_config = ConfigDict(extra="forbid")

    a_url: str = ""
    a_model: str = ""
    a_label: str = ""
    b_url: str = ""
    b_model: str = ""
    b_label: str = ""
    sim_model: str | None = Field(None, description="the simulated servers' model preset")
    sim_gpu: str | None = None
    sim_weights_a: str | None = None
    sim_weights_b: str | None = None
    sim_source: Literal["default", "sizing", "user", "result"] = Field(
        "default", description="where the simulated setup came from: the app's default, the Sizing page, the user, or "
        "the setup the simulated servers of the A/B result shown reported"
    )
    prompts_file: str = Field("", description="a prompt file (empty: the built-in prompts in the app's language)")
    answers: int = Field(8, ge=1, le=5_000)  # advisor.bench.ab.MAX_ANSWERS: a whole scored sample file
    requests: int = Field(16, ge=1, le=10_000)
    concurrency: list[Annotated[int, Field(ge=1, le=100_000)]] = Field(default_factory=lambda: [1, 4], min_length=1, max_length=64)
    max_tokens: int = Field(128, ge=1, le=32_768)
    builtin_samples: bool = Field(False, description="score the built-in samples instead of answering the prompts")
    quality_drop_points: float = Field(3.0, gt=0, lt=100, description="the drop (percentage points) to size the run for")
    task: str = ""
    task_limit: int = Field(50, ge=1, le=100_000)
    task_dataset: str = Field("", description="a local copy of the task's dataset, as a path (empty: from ModelScope)")
    task_subset: str = Field("", description="one subset of the task, e.g. a C-Eval subject (empty: every subset)")
    task_prompt_template: str = Field("", description="the task's prompt template instead of its own (empty: its own)")
    judge_url: str = Field("", description="the judge endpoint for rubric samples (never its API key)")
    judge_model: str = ""


class Project(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["inference-advisor-project"] = PROJECT_FORMAT
    version: int = Field(PROJECT_VERSION, ge=1)
    app_version: str = __version__
    saved_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    title: str = ""
    notes: str = ""
    sizing: SizingSection | None = None
    plan: PlanSection | None = None
    benchmark: BenchmarkSection | None = None
    ab: AbSection | None = None
