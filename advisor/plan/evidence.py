"""Measured evidence for the memo: what the project's benchmark runs showed (Qt-free).

For each run: the knee (the concurrency where latency starts rising steeply while throughput stops growing),
the TTFT P99 at the highest concurrency that still met the TTFT target, the throughput there, and the peak
GPU memory the telemetry saw. Read through :class:`advisor.bench.store.BenchStore`'s read API (runs, steps,
the stored result) and the telemetry tables of the same database (:class:`advisor.telemetry.store.TelemetryStore`).
"""

from __future__ import annotations

import os
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
    rate_limited_requests: int = Field(0, description="answers that were HTTP 429: a limit in front of the server")

    @property
    def ttft_p99_by_concurrency(self) -> list[tuple[int, float | None]]:
        """The latency curve the memo draws: levels that measured their load (status ok) only."""
        return [(lv.concurrency, lv.ttft_p99_ms) for lv in self.levels if lv.status == "ok"]


def _is_simulated(run: dict[str, Any]) -> bool:
    result = run.get("result") or {}
    telemetry = result.get("telemetry") or {}
    dialect = str(result.get("dialect") or "")
    return bool(telemetry.get("simulated")) or "sim" in dialect.lower()


def evidence_from_runs(
    db_path: str | os.PathLike[str] | None, run_ids: list[str], *, slo_ttft_ms: float | None = None
) -> list[RunEvidence]:
    """Evidence for each run id, in the order given (``db_path`` None: the default benchmark database).

    ``slo_ttft_ms`` (the plan's TTFT P99 target) wins over the target stored with the run."""
    from advisor.bench.store import BenchStore, default_path
    from advisor.telemetry.derived import device_summaries
    from advisor.telemetry.store import TelemetryStore

    if not run_ids:
        return []
    path = Path(db_path) if db_path else default_path()
    if not path.is_file():
        raise EvidenceError(f"no benchmark database at {path}: run `advisor bench` first")
    store = BenchStore(path)
    telemetry = TelemetryStore(path)
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
                model=run.get("model") or "", url=run.get("url") or "", simulated=_is_simulated(run),
                levels=levels, knee_concurrency=knee.get("concurrency"), knee_reason=knee.get("reason"),
                slo_ttft_ms=target,
                max_concurrency_within_slo=best.concurrency if best else None,
                ttft_p99_at_slo_ms=best.ttft_p99_ms if best else None,
                output_tokens_per_s_at_slo=best.output_tokens_per_s if best else None,
                peak_gpu_memory_bytes=max(peaks) if peaks else None,
                gpu_memory_total_bytes=max(totals) if totals else None,
                gpu_names=sorted({d.name for d in devices if d.name}),
                rate_limited_requests=sum(n for s in steps for k, n in s.failures.items() if k.endswith("http_429")),
            ))
        return out
    finally:
        telemetry.close()
        store.close()
