"""Engine profiles: how vLLM, SGLang, TensorRT-LLM/NIM and llama.cpp serve, as far as the predictor needs it.

Loaded from ``resources/engines/profiles.json`` (values with their public sources). One profile sets, for the
predictor and the simulated server alike:

- ``request_overhead_ms`` — time outside the GPU per request (HTTP and JSON, tokenization, hand-off to the
  engine, first detokenization), part of every TTFT;
- ``step_overhead_ms`` — GPU time per engine step beside the layers' kernels (NVIDIA aiconfigurator's step model: the
  embedding lookup); the CPU's scheduling work is ``scheduler_us_per_seq``, hidden when the engine overlaps it;
- ``saturation`` — ``cap_and_queue`` (a batch cap, ``max_num_seqs``; past it requests wait: TTFT explodes,
  TPOT stays flat) or ``admit_and_slow`` (in-flight batching that keeps admitting while KV blocks last: TTFT
  grows slowly, every decode step gets slower), expressed through the default batch cap;
- the chunked-prefill token budget and batch cap defaults (per GPU class where the engine has one);
- the KV-cache dtype default (FP8 profiles of TensorRT-LLM/NIM quantize the KV cache too) and whether prefix
  caching is on by default;
- ``mixed_prefill`` — whether prompt chunks ride along with the decode steps (vLLM V1, TensorRT-LLM, llama.cpp)
  or a prefill batch runs alone while every decoding request waits (SGLang without --enable-mixed-chunk);
- ``admission_reserve`` — how much KV a waiting request must leave for the running requests' remaining output
  before it is admitted: none in vLLM (admit, preempt later), all of it under TensorRT-LLM's GUARANTEED_NO_EVICT,
  SGLang's decaying ``new_token_ratio``;
- ``schedules_ahead`` — whether the engine's overlapped loop (its versions from ``async_scheduling_since`` on) plans
  the next step while the current one runs, so that a request arriving meanwhile waits one step more.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.domain.gpu import GiB, GpuSpec
from advisor.domain.sizing import EngineSettings, SpeedFactors
from advisor.resources import resource_path
from advisor.versions import at_least

ProfileId = Literal["vllm", "sglang", "trtllm", "llama.cpp"]
PROFILE_IDS: tuple[str, ...] = ("vllm", "sglang", "trtllm", "llama.cpp")
DEFAULT_PROFILE = "vllm"


class EngineProfile(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    label: str
    request_overhead_ms: float = Field(ge=0, le=10_000)
    overhead_parts_ms: dict[str, float] = Field(default_factory=dict)
    step_overhead_ms: float = Field(ge=0, le=1000)
    saturation: Literal["cap_and_queue", "admit_and_slow"]
    max_num_seqs: int = Field(ge=1)
    max_num_batched_tokens: int = Field(ge=16)
    large_gpu: dict[str, int] = Field(default_factory=dict)
    chunked_prefill: bool = True
    kv_cache_dtype: str = "auto"
    kv_fp8_with_fp8_weights: bool = False
    prefix_caching_default: bool = True
    eager_ms_per_layer: float = Field(0.0, ge=0, le=100)  # extra per-step time per layer without CUDA graphs
    stream_token_us: float = Field(0.0, ge=0, le=10_000)  # front-end CPU per streamed token (SpeedFactors)
    scheduler_us_per_seq: float = Field(0.0, ge=0, le=10_000)  # engine-core CPU per running request per step
    # model-runner CPU per step that a synchronous loop (before async_scheduling_since) leaves between GPU steps, for
    # the versions from sync_runner_since on (vLLM: V1's model runner, the default engine from 0.8.0; V0's loop and
    # its multi-step scheduling were another runner: v0_gap_us_per_schedule below)
    sync_runner_us_per_step: float = Field(0.0, ge=0, le=100_000)
    sync_runner_since: str | None = None
    # vLLM V0's loop (the versions before sync_runner_since): each scheduler call leaves the GPU idle while the CPU
    # copies the sampled tokens back, turns them into Python outputs, schedules and prepares the next inputs — every
    # step, or once a window under multi-step scheduling (the simulated server divides it by the window's steps)
    v0_gap_us_per_schedule: float = Field(0.0, ge=0, le=100_000)
    async_scheduling_since: str | None = None  # first version whose scheduler overlaps the GPU step (None: always)
    # vLLM V1 decoded in piecewise CUDA graphs (attention launched eagerly between graph pieces) from the version
    # V1 became the default engine until full graphs for decode became the default: the range of engine versions
    # and the measured gap per layer per step (see profiles.json sources)
    piecewise_graphs_between: tuple[str, str] | None = None
    piecewise_graph_us_per_layer: float = Field(0.0, ge=0, le=10_000)
    # the same gap for an MLA attention layer, whose eager decode path (the absorbed q/v projections around the
    # kernel, the latent cache write) launches several times as many ops from Python as FlashAttention's
    piecewise_mla_graph_us_per_layer: float = Field(0.0, ge=0, le=10_000)
    mixed_prefill: bool = True  # prompt chunks share steps with decode; False: prefill runs first, decode waits
    # whether the engine's overlapped loop (from async_scheduling_since on) plans step n + 1 while step n runs, so a
    # request arriving meanwhile joins step n + 2 (EngineLimits.schedule_ahead); llama.cpp's loop is synchronous
    schedules_ahead: bool = False
    # KV held back for running requests' future tokens at admission (see EngineLimits.admission_reserve)
    admission_reserve: float = Field(0.0, ge=0, le=1)
    admission_reserve_floor: float | None = Field(None, ge=0, le=1)
    admission_reserve_decay_steps: int = Field(0, ge=0)
    calibrated_on: str = ""
    sources: list[str] = Field(default_factory=list)

    @property
    def request_overhead_s(self) -> float:
        return self.request_overhead_ms / 1000.0

    def batch_defaults(self, gpu: GpuSpec | None) -> tuple[int, int]:
        """(max_num_seqs, max_num_batched_tokens) the engine picks on this GPU when not told."""
        if gpu is not None and self.large_gpu and is_large_gpu(gpu):
            return self.large_gpu.get("max_num_seqs", self.max_num_seqs), self.large_gpu.get(
                "max_num_batched_tokens", self.max_num_batched_tokens
            )
        return self.max_num_seqs, self.max_num_batched_tokens

    def kv_dtype_for(self, weights: str, model_dtype: str = "bf16") -> str:
        """The KV-cache dtype the engine uses by default with these weights."""
        if self.kv_fp8_with_fp8_weights and weights.startswith("fp8"):
            return "fp8"
        if self.kv_cache_dtype in ("bf16", "fp16", "fp8"):
            return self.kv_cache_dtype
        return model_dtype if model_dtype in ("bf16", "fp16") else "bf16"


def is_large_gpu(gpu: GpuSpec) -> bool:
    """vLLM's rule for its larger batch defaults: at least 70 GiB and not an A100."""
    return gpu.memory_bytes >= 70 * GiB and "a100" not in (gpu.id + gpu.name).lower()


class UnknownProfileError(ValueError):
    pass


@cache
def load_profiles() -> dict[str, EngineProfile]:
    raw = json.loads(resource_path("engines", "profiles.json").read_text(encoding="utf-8"))
    return {k: EngineProfile(id=k, **v) for k, v in raw.items() if not k.startswith("_")}


def get_profile(name: str | None) -> EngineProfile:
    key = (name or DEFAULT_PROFILE).strip().lower()
    key = {"tensorrt-llm": "trtllm", "trt-llm": "trtllm", "nim": "trtllm", "llamacpp": "llama.cpp", "llama-cpp": "llama.cpp"}.get(key, key)
    profiles = load_profiles()
    if key not in profiles:
        raise UnknownProfileError(f"unknown engine profile {name!r}; choose one of: {', '.join(profiles)}")
    return profiles[key]


def resolve_engine(engine: EngineSettings | None, profile: EngineProfile, gpu: GpuSpec | None) -> EngineSettings:
    """``engine`` with the batch settings it leaves open (None) set to what the engine picks on this GPU."""
    engine = engine or EngineSettings()
    if engine.max_num_seqs is not None and engine.max_num_batched_tokens is not None:
        return engine
    seqs, tokens = profile.batch_defaults(gpu)
    return engine.model_copy(update={
        "max_num_seqs": seqs if engine.max_num_seqs is None else engine.max_num_seqs,
        "max_num_batched_tokens": tokens if engine.max_num_batched_tokens is None else engine.max_num_batched_tokens,
    })  # fmt: skip


def factors_for(profile: EngineProfile, base: SpeedFactors | None = None) -> SpeedFactors:
    """``base`` (the user's MFU and MBU) with the engine's own per-step overhead, front-end cost per token,
    scheduler cost per running request and fused-MoE kernel (unless ``base`` names one: a benchmark of a given
    engine version, ``base.engine_version``, also decides whether that version's scheduler overlapped the GPU and
    whether it decoded in piecewise CUDA graphs)."""
    base = base or SpeedFactors()
    # the current version overlaps; an older one named in base.engine_version may not have, unless it was
    # told to (vLLM 0.11's --async-scheduling: base sets scheduler_overlaps itself)
    overlaps = (base.scheduler_overlaps if "scheduler_overlaps" in base.model_fields_set
                else base.engine_version is None or profile.async_scheduling_since is None
                or at_least(base.engine_version, profile.async_scheduling_since))  # fmt: skip
    update: dict[str, object] = {
        "step_overhead_ms": profile.step_overhead_ms,
        "stream_token_us": profile.stream_token_us,
        "scheduler_us_per_seq": profile.scheduler_us_per_seq,
        "scheduler_overlaps": overlaps,
    }
    if (not overlaps and profile.sync_runner_us_per_step and "runner_us_per_step" not in base.model_fields_set
            and base.engine_version and profile.sync_runner_since and at_least(base.engine_version, profile.sync_runner_since)):
        update["runner_us_per_step"] = profile.sync_runner_us_per_step  # a synchronous loop: between every two steps
    elif (not overlaps and profile.v0_gap_us_per_schedule and "runner_us_per_step" not in base.model_fields_set
            and base.engine_version and profile.sync_runner_since and not at_least(base.engine_version, profile.sync_runner_since)):
        update["runner_us_per_step"] = profile.v0_gap_us_per_schedule  # V0's loop: the GPU idles at every scheduler call
    if "graph_gap_us_per_layer" not in base.model_fields_set and base.engine_version and profile.piecewise_graphs_between:
        since, until = profile.piecewise_graphs_between  # an older version that decoded in piecewise graphs
        if at_least(base.engine_version, since) and not at_least(base.engine_version, until):
            update["graph_gap_us_per_layer"] = profile.piecewise_graph_us_per_layer
            update["graph_gap_us_per_mla_layer"] = profile.piecewise_mla_graph_us_per_layer or profile.piecewise_graph_us_per_layer
    if "kernel_engine" not in base.model_fields_set:
        update["kernel_engine"] = profile.id
    return base.model_copy(update=update)
