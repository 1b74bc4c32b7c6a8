"""Measured evidence for the memo: what the project's benchmark runs showed (Qt-free).

For each run: the knee (the concurrency where latency starts rising steeply while throughput stops growing),
the TTFT P99 at the highest concurrency that still met the TTFT target, the throughput there, and the peak
GPU memory the telemetry saw. Read through :class:`advisor.bench.store.BenchStore`'s read API (runs, steps,
the stored result) and the telemetry tables of the same database (:class:`advisor.telemetry.store.TelemetryStore`).
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field


class EvidenceError(LookupError):
    """A run asked for is not in the benchmark database (the message names it and the database)."""


class MeasuredLevel(BaseModel):
    concurrency: int
    requests_ok: int
    requests_failed: int
    ttft_p99_ms: float | None
    tpot_p99_ms: float | None
    output_tokens_per_s: float
    status: str = Field("ok", description="the step's status: degraded (failures above the run's limit, a server that "
                        "stopped answering, or a concurrency shortfall) and failed steps measure no latency at that load")


class RunEvidence(BaseModel):
    run_id: str
    label: str = ""
    status: str
    date: str = Field(description="UTC date the run started (YYYY-MM-DD)")
    model: str = ""
    url: str = ""
    simulated: bool = Field(False, description="measured against the embedded simulated server")
    time_scale: float | None = Field(None, description="the simulated server's time scale (durations × scale); None "
                                     "for a real server, or a simulated run that did not record it")
    sim_gpu: str | None = Field(None, description="the GPU a simulated run simulated (from its record), if known")
    requests_ok: int = Field(0, description="successful measured requests over the whole run")
    requests_failed: int = Field(0, description="failed measured requests over the whole run")
    rate_limited: int = Field(0, description="failed requests the server refused as overloaded (HTTP 429)")
    levels: list[MeasuredLevel] = Field(default_factory=list)
    knee_concurrency: int | None = None
    knee_reason: str | None = None
    slo_ttft_ms: float | None = Field(None, description="the TTFT target the figures below are judged against")
    max_concurrency_within_slo: int | None = None
    ttft_p99_at_slo_ms: float | None = Field(None, description="TTFT P99 at max_concurrency_within_slo")
    output_tokens_per_s_at_slo: float | None = None
    peak_gpu_memory_bytes: int | None = None
    gpu_memory_total_bytes: int | None = None
    gpu_names: list[str] = Field(default_factory=list)
    quality: list[dict[str, Any]] = Field(default_factory=list, description="scored A/Bs stored with this run")
    rate_limited_requests: int = Field(0, description="answers that were HTTP 429: a limit in front of the server")

    @property
    def ttft_p99_by_concurrency(self) -> list[tuple[int, float | None]]:
        """The latency curve the memo draws: levels that measured their load (status ok) only."""
        return [(lv.concurrency, lv.ttft_p99_ms) for lv in self.levels if lv.status == "ok"]


def is_simulated_run(run: dict[str, Any]) -> bool:
    """A stored run (``BenchStore.run`` record) made against the embedded simulated server."""
    result = run.get("result") or {}
    telemetry = result.get("telemetry") or {}
    dialect = str(result.get("dialect") or "")
    # a provenance record (``provenance: {simulated, time_scale, gpu, …}`` in the result or the config), when the
    # run has one; else what older runs show: the dialect, simulated telemetry, the simulator's own run label
    recorded = any((part.get("provenance") or {}).get("simulated") is True
                   for part in (result, run.get("config") or {}) if isinstance(part, dict))  # fmt: skip
    return recorded or bool(telemetry.get("simulated")) or "sim" in dialect.lower() or _sim_label(run) is not None


def _sim_label(run: dict[str, Any]) -> dict[str, Any] | None:
    from advisor.bench.sim_label import parse_sim_label

    return parse_sim_label(str(run.get("label") or ""))


def _time_scale(run: dict[str, Any]) -> float | None:
    """The simulated server's time scale as the run recorded it, or None (not recorded: unknown, never 1)."""
    from advisor.bench.provenance import time_scale_of

    return time_scale_of(run.get("result") or {}, run.get("config") or {}, str(run.get("label") or ""))


def _sim_gpu(run: dict[str, Any]) -> str | None:
    for part in (run.get("result") or {}, run.get("config") or {}):
        for holder in (part.get("provenance") or {}, part.get("sim") or {}):
            if isinstance(holder, dict) and holder.get("gpu"):
                return str(holder["gpu"])
    label = _sim_label(run)
    return str(label["gpu"]) if label else None


def evidence_from_runs(
    db_path: str | os.PathLike[str] | None, run_ids: list[str], *, slo_ttft_ms: float | None = None
) -> list[RunEvidence]:
    """Evidence for each run id, in the order given (``db_path`` None: the default benchmark database).

    ``slo_ttft_ms`` (the plan's TTFT P99 target) wins over the target stored with the run."""
    from advisor.bench.quality.history import quality_for_runs
    from advisor.bench.store import BenchStore, default_path
    from advisor.telemetry.derived import device_summaries
    from advisor.telemetry.store import TelemetryStore

    if not run_ids:
        return []
    path = Path(db_path) if db_path else default_path()
    if not path.is_file():
        raise EvidenceError(f"no benchmark database at {path}: run `advisor bench` first")
    store = BenchStore(path, read_only=True)  # a reader: the memo never writes to the user's history
    telemetry = TelemetryStore.reader(store.connection)
    try:
        out = []
        for run_id in run_ids:
            run = store.run(run_id)
            if run is None:
                raise EvidenceError(f"benchmark run {run_id!r} is not in {path} (`advisor history` lists the runs)")
            steps = store.steps(run_id)
            result = run.get("result") or {}
            knee = result.get("knee") or {}
            target = slo_ttft_ms
            if target is None:
                target = ((run.get("config") or {}).get("slo") or {}).get("ttft_ms")
            levels = [
                MeasuredLevel(
                    concurrency=s.concurrency, requests_ok=s.requests_ok, requests_failed=s.requests_failed,
                    ttft_p99_ms=s.ttft_ms.p99, tpot_p99_ms=s.tpot_ms.p99, output_tokens_per_s=s.output_tokens_per_s,
                    status=s.status,
                )
                for s in steps if s.requests_ok > 0
            ]
            ok_total = sum(s.requests_ok for s in steps)
            failed_total = sum(s.requests_failed for s in steps)
            limited = sum(n for s in steps for key, n in s.failures.items() if "429" in key)
            # a level with too many failures (or where the server died) is no evidence that the load is served
            within = [lv for lv in levels if target is not None and lv.ttft_p99_ms is not None
                      and lv.ttft_p99_ms <= target and lv.status == "ok"]
            best = max(within, key=lambda lv: lv.concurrency) if within else None
            devices = device_summaries(telemetry.gpu_samples(run_id))
            peaks = [d.peak_used_bytes for d in devices if d.peak_used_bytes is not None]
            totals = [d.total_bytes for d in devices if d.total_bytes is not None]
            out.append(RunEvidence(
                run_id=run_id, label=run.get("label") or "", status=str(run.get("status") or ""),
                date=datetime.fromtimestamp(float(run["created_wall"]), tz=UTC).strftime("%Y-%m-%d"),
                model=run.get("model") or "", url=run.get("url") or "", simulated=is_simulated_run(run),
                time_scale=_time_scale(run), sim_gpu=_sim_gpu(run),
                requests_ok=ok_total, requests_failed=failed_total, rate_limited=limited,
                levels=levels, knee_concurrency=knee.get("concurrency"), knee_reason=knee.get("reason"),
                slo_ttft_ms=target,
                max_concurrency_within_slo=best.concurrency if best else None,
                ttft_p99_at_slo_ms=best.ttft_p99_ms if best else None,
                output_tokens_per_s_at_slo=best.output_tokens_per_s if best else None,
                peak_gpu_memory_bytes=max(peaks) if peaks else None,
                gpu_memory_total_bytes=max(totals) if totals else None,
                gpu_names=sorted({d.name for d in devices if d.name}),
                quality=quality_for_runs(store.connection, [run_id]),
                rate_limited_requests=sum(n for s in steps for k, n in s.failures.items() if k.endswith("http_429")),
            ))
        return out
    finally:
        telemetry.close()
        store.close()


# ---- which runs are evidence for a plan ------------------------------------------------------------------------
# A run is evidence for a plan only when it measured a real server serving the plan's model on the plan's GPU and
# measured at least one level of load. Everything else is said for what it is: a simulated run under its own
# heading (with its time scale), and a run that is not evidence with the reason, never as "no level met the target".


class ExcludedRun(BaseModel):
    run: RunEvidence
    reason: str = Field(description="interrupted | unfinished | all_failed | rate_limited | nothing_measured | "
                        "other_model | other_gpu | gpu_unknown | no_gpu_plan")
    params: dict[str, Any] = Field(default_factory=dict)


class EvidenceReport(BaseModel):
    """The runs sorted for one plan: ``measured`` (real server, the plan's model and GPU, load measured),
    ``simulated`` (the embedded simulator, the plan's model and GPU: not a measurement), ``excluded`` (with why),
    and the command that would measure the plan (``bench_command``) when nothing real was measured."""

    model: str = ""
    gpu: str | None = None
    measured: list[RunEvidence] = Field(default_factory=list)
    simulated: list[RunEvidence] = Field(default_factory=list)
    excluded: list[ExcludedRun] = Field(default_factory=list)
    bench_command: str | None = None


_UNUSABLE_STATUS = {"interrupted": "interrupted", "running": "unfinished", "cancelled": "unfinished",
                    "stopped": "unfinished"}  # fmt: skip


def unusable_reason(run: RunEvidence) -> tuple[str, dict[str, Any]] | None:
    """Why a run measured nothing a plan can use (None when it did): an interrupted or unfinished run, every
    request failed (or refused with HTTP 429), or no level that measured the load it names."""
    status = (run.status or "").lower()
    if status in _UNUSABLE_STATUS:
        return _UNUSABLE_STATUS[status], {}
    if run.requests_ok == 0 and run.requests_failed > 0:
        if run.rate_limited and run.rate_limited >= run.requests_failed:
            return "rate_limited", {"n": run.requests_failed}
        return "all_failed", {"n": run.requests_failed}
    if not any(lv.status == "ok" for lv in run.levels):
        return "nothing_measured", {}
    return None


def _model_key(name: str) -> str | None:
    """The preset a model name sizes as (instruct, base and quantized releases alike), or None when unknown."""
    from advisor.plan.answers import AnswersError
    from advisor.plan.models import resolve_plan_model

    text = (name or "").strip()
    if not text or text.endswith(".json") or text.startswith((".", "/", "~", "\\")):
        return None
    try:
        return resolve_plan_model(text).spec.id
    except (AnswersError, OSError, ValueError):
        return None


def same_model(run_model: str, plan_models: list[str]) -> bool:
    """The run served one of the plan's model names (its preset, its Hugging Face id, its served name)."""
    names = [m for m in plan_models if m]
    run_norm = (run_model or "").strip().lower()
    if not run_norm or not names:
        return False
    if any(run_norm == m.strip().lower() or run_norm.rsplit("/", 1)[-1] == m.strip().lower().rsplit("/", 1)[-1]
           for m in names):
        return True
    key = _model_key(run_model)
    return key is not None and any(_model_key(m) == key for m in names)


_VENDOR = re.compile(r"^(nvidia|amd|huawei|intel)\s+(geforce\s+|instinct\s+|ascend\s+)?", re.I)
_SIZE = re.compile(r"(\d+)\s*gb?\b", re.I)


def gpu_matches(name: str, gpu_id: str) -> bool | None:
    """Whether a GPU name as a run recorded it (NVML's "NVIDIA L40S", a simulator's id "l40s-48g") is the catalog
    GPU ``gpu_id``: True, False, or None when the catalog does not know the GPU (so nobody can tell)."""
    from advisor.catalog import CatalogError, get_gpu

    text = re.sub(r"\s*\((simulated|模拟)\)\s*$", "", (name or "").strip(), flags=re.I)
    if not text:
        return None
    try:
        plan_gpu = get_gpu(gpu_id)
    except CatalogError:
        return None
    try:
        if get_gpu(text).id == plan_gpu.id:
            return True
    except CatalogError:
        pass
    # NVML names ("NVIDIA H100 80GB HBM3", "NVIDIA L20") against catalog names ("NVIDIA H100 SXM5 80GB")
    def words(s: str) -> list[str]:
        return [w for w in re.split(r"[\s\-_/]+", _VENDOR.sub("", s.strip()).lower()) if w]

    seen, plan = words(text), words(plan_gpu.name)
    if not seen or not plan or seen[0] != plan[0]:
        return False
    sizes_seen = {m for m in _SIZE.findall(text)}
    sizes_plan = {m for m in _SIZE.findall(plan_gpu.name)} or {str(round(plan_gpu.memory_bytes / 1e9))}
    return not sizes_seen or bool(sizes_seen & sizes_plan)


def classify_evidence(runs: list[RunEvidence], *, model_names: list[str], gpu_id: str | None,
                      bench_command: str | None = None) -> EvidenceReport:
    """Sort ``runs`` for a plan whose model answers to ``model_names`` and whose GPU is ``gpu_id``."""
    report = EvidenceReport(model=next((m for m in model_names if m), ""), gpu=gpu_id)
    for run in runs:
        why = unusable_reason(run)
        if why is not None:
            report.excluded.append(ExcludedRun(run=run, reason=why[0], params=why[1]))
            continue
        if not same_model(run.model, model_names):
            report.excluded.append(ExcludedRun(run=run, reason="other_model", params={"model": run.model or "—"}))
            continue
        if not gpu_id:  # a hosted API, or no setup that fits: no GPU of the plan's own to measure
            report.excluded.append(ExcludedRun(run=run, reason="no_gpu_plan", params={}))
            continue
        names = ([run.sim_gpu] if run.sim_gpu else []) + list(run.gpu_names)
        verdicts = [gpu_matches(n, gpu_id) for n in names]
        if not names or all(v is None for v in verdicts):
            report.excluded.append(ExcludedRun(run=run, reason="gpu_unknown", params={}))
            continue
        if not any(verdicts):
            report.excluded.append(ExcludedRun(run=run, reason="other_gpu", params={"gpu": ", ".join(names)}))
            continue
        (report.simulated if run.simulated else report.measured).append(run)
    if not report.measured and gpu_id:
        report.bench_command = bench_command
    return report


def plan_evidence(result: Any, runs: list[RunEvidence]) -> EvidenceReport:
    """``classify_evidence`` for a :class:`~advisor.plan.result.PlanResult`: its model (preset, display name,
    the model and checkpoint the answers named), its GPU, and its own pressure-test command."""
    hw = result.hardware
    answers = result.answers or {}
    names = [str(n) for n in (hw.model, hw.model_name, answers.get("model"), answers.get("checkpoint"),
                              answers.get("model_name")) if n]  # fmt: skip
    command = next((s.command for s in result.next_steps if s.id == "ramp" and s.command), None)
    return classify_evidence(list(runs), model_names=names, gpu_id=hw.gpu, bench_command=command)
