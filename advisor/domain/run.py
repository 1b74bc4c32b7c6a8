"""One benchmark run's result, typed: what ``advisor.bench.session.run_benchmark`` returns and what the store keeps.

Before this type the result was a ``dict`` that each caller changed differently (the CLI added ``definitions``,
the Benchmark page ``slo`` and a ``stopped`` status where the CLI said ``cancelled``, and readers recovered a
simulated run's setup by parsing its label). Now every caller gets the same object, and the stored result is its
JSON (``model_dump(mode="json")``). Runs stored before it are read by
:func:`advisor.bench.stored_result.result_from_stored`.

The JSON keeps every key ``advisor bench --json`` printed before (the contract in ARCHITECTURE.md); the one
value that changed is ``status``: a stopped run says ``stopped`` everywhere (it said ``cancelled`` on the
command line and in the store). ``exit_code`` (130 on Ctrl+C) is unchanged.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.domain.bench import Drift, Knee, ProbeResult, SloConfig, StepSummary, WorkloadConfig

RESULT_SCHEMA = 2  # 1 (implicit): the untyped dicts stored before RunResult; 2: RunResult's JSON


class RunStatus(StrEnum):
    """How a run ended: one word per outcome, the same in the CLI, the app, the A/B, the store and History."""

    completed = "completed"  # every step met the success threshold at its concurrency
    degraded = "degraded"  # some step fell below the success rate or short of its concurrency
    failed = "failed"  # no request succeeded, the probe failed, or the run could not be recorded
    stopped = "stopped"  # the user stopped it (Ctrl+C, SIGTERM, the Stop button); what was measured is kept
    interrupted = "interrupted"  # the process that wrote it died (read back from the store only)
    running = "running"  # read back from the store while another process still writes it


# Older words for the same outcomes, as runs stored before RunResult say them.
LEGACY_STATUS = {"cancelled": RunStatus.stopped, "canceled": RunStatus.stopped}


def run_status(word: str | None) -> RunStatus:
    """A stored status word as a :class:`RunStatus` (``cancelled`` is ``stopped``); an unknown word reads as
    failed — never more optimistic than what was stored."""
    if word in LEGACY_STATUS:
        return LEGACY_STATUS[word]
    try:
        return RunStatus(word or "failed")
    except ValueError:
        return RunStatus.failed


class SimSetup(BaseModel):
    """What the embedded simulated server modelled for this run (the app starts it; the A/B and the CLI may be
    pointed at one). Stored with the result, so no reader has to parse the run's label for it."""

    model_config = ConfigDict(extra="ignore")

    model: str
    gpu: str
    weights: str | None = None
    gpus: int = Field(1, ge=1)
    time_scale: float = Field(1.0, gt=0, description="simulated durations × this (0.1: ten times faster)")
    workload: dict[str, Any] | None = Field(None, description="the run's workload config, for the predicted curve")


class RunProvenance(BaseModel):
    """Where the run's figures come from. Unknown stays None (a real server's GPU when nothing reported it)."""

    model_config = ConfigDict(extra="ignore")

    simulated: bool | None = Field(None, description="against the embedded simulated server (None: not known, "
                                   "e.g. --no-probe against a server that does not say)")
    time_scale: float | None = Field(None, description="the simulator's time scale (None: a real server or not "
                                     "recorded)")
    model: str | None = None
    gpu: str | None = Field(None, description="the simulated GPU, or the GPU NVML saw during the run")
    gpus: int | None = None
    weights: str | None = None
    engine: str | None = Field(None, description="the server's dialect as the probe found it (vllm, sglang, …)")
    prompt_tokens_mean: float | None = None
    output_tokens_mean: float | None = None
    shown_at_real_speed: bool = Field(False, description="set by advisor.bench.provenance.at_real_speed on a "
                                      "view whose figures were converted; never on a stored result")


class RunWorkload(WorkloadConfig):
    """The workload config plus what the run learnt about its prompts."""

    prompt_token_counts: str | None = Field(None, description="where prompt lengths came from: tokenizer or "
                                            "estimate")
    dataset_prompts: int | None = None
    prompt_tokens_histogram: list[dict[str, Any]] | None = None


ErrorKind = Literal["probe", "store", "internal"]


class RunResult(BaseModel):
    """A finished (or stopped, or failed) benchmark run.

    ``extra="allow"``: a key the engine adds before it is declared here still travels to the JSON and the store
    (a test lists the runner's keys against the declared fields, so it gets declared)."""

    model_config = ConfigDict(extra="allow")

    result_schema: int = RESULT_SCHEMA
    run_id: str | None = None
    status: RunStatus
    stop_reason: str | None = Field(None, description="why the load stopped early: probe_failed, disk_full, …")
    url: str = ""
    model: str = ""
    api: str = "chat"
    schedule: str | None = Field(None, description="the schedule's kind: single, fixed, ramp, soak, rate")
    label: str = ""
    dialect: str | None = None
    steps: list[StepSummary] = Field(default_factory=list)
    knee: Knee | None = None
    requests_ok: int = 0
    requests_failed: int = 0
    concurrency_shortfall: list[int] = Field(default_factory=list)
    client_errors: list[str] = Field(default_factory=list)
    timestamps: str | None = Field(None, description="which clock stamped the tokens: kernel, event_loop, mixed")
    store_problems: list[dict[str, Any]] = Field(default_factory=list)
    incomplete: dict[str, Any] | None = None
    drift: Drift | None = None
    exit_code: int = 0
    error: str | None = Field(None, description="what went wrong, in words (probe, store or a bug)")
    error_kind: ErrorKind | None = None
    message: str | None = Field(None, description="the probe's verdict when it stopped the run")
    probe: ProbeResult | None = None
    workload: RunWorkload | None = None
    slo: SloConfig | None = None
    definitions: dict[str, str] = Field(default_factory=dict)
    telemetry: dict[str, Any] | None = None
    simulated: bool | None = None
    setup: SimSetup | None = None
    provenance: RunProvenance = Field(default_factory=RunProvenance)
    created_wall: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON object (``advisor bench --json``, the stored result, what the views read). A section that
        only some runs have is left out when it is empty, as before RunResult (``telemetry`` without
        sampling, ``drift`` outside a soak, ``error`` without one, a dataset's figures without a dataset)."""
        out = self.model_dump(mode="json")
        for key in _OMIT_WHEN_NONE:
            if out.get(key) is None:
                out.pop(key, None)
        if isinstance(out.get("workload"), dict):
            for key in ("dataset_prompts", "prompt_tokens_histogram"):
                if out["workload"].get(key) is None:
                    out["workload"].pop(key, None)
        return out


_OMIT_WHEN_NONE = ("telemetry", "drift", "error", "error_kind", "message", "setup", "created_wall")
