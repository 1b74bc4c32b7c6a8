"""Where the plan's workload comes from: every figure with its source (Qt-free; the wizard shows it).

The workload (prompt and answer lengths, the longest context, peak concurrency, the TTFT target) decides the
hardware, so it must never be borrowed silently from another page's settings. A figure comes from:

- the user's own answer (``answer``);
- the open project's Sizing page (``sizing``: its context and concurrency, and prompt/answer lengths only where
  the user set them there — the Sizing page's own defaults are not the user's workload);
- a benchmark run the user chose that measured a real server (``run``: its workload as configured); a run
  against the simulated server (the Benchmark page's or the A/B page's) is never offered;
- nowhere: the plan assumes a value and says so (``assumed``: the plan's own assumption text).

``workload_figures`` returns the figures with their sources; ``sizing_source`` and ``run_sources`` what the
wizard offers to take over (the user then confirms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from advisor.i18n import translate
from advisor.plan.draft import get_path

# the answers that make up the workload, in the order they are shown
WORKLOAD_PATHS: tuple[str, ...] = (
    "prompt_tokens.avg", "output_tokens.avg", "max_context_tokens", "peak_concurrency", "latency_slo.ttft_p99_ms",
)  # fmt: skip


@dataclass(frozen=True)
class WorkloadSource:
    """Figures the wizard can take over, and where they come from (an i18n key with parameters)."""

    kind: str  # "sizing" | "run"
    values: dict[str, Any]  # answer path → value
    origin_key: str
    origin_params: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None

    def label_in(self, lang: str) -> str:
        return translate(lang, self.origin_key, **self.origin_params)

    def choice_in(self, lang: str) -> str:
        """The source with its figures, as a chooser lists it: "benchmark run X (real server, 2026-12-01):
        prompt 1,800 · answer 350 tokens"."""
        parts = [translate(lang, f"workload.short.{p}", v=_fmt(v)) for p, v in self.values.items() if p in WORKLOAD_PATHS]
        return translate(lang, "workload.choice", source=self.label_in(lang),
                         figures=translate(lang, "workload.sep").join(parts) or "—")


@dataclass(frozen=True)
class WorkloadFigure:
    path: str
    value: Any  # None: unknown and not assumed (e.g. no TTFT target for a batch)
    source: str  # "answer" | "sizing" | "run" | "assumed" | "unknown"
    source_key: str
    source_params: dict[str, Any] = field(default_factory=dict)

    def source_in(self, lang: str) -> str:
        if self.source == "assumed":  # the plan's own words for its assumption
            from advisor.plan.result import render

            return render(lang, self.source_key, self.source_params)
        return translate(lang, self.source_key, **self.source_params)

    def label_in(self, lang: str) -> str:
        return translate(lang, f"workload.label.{self.path}")

    def value_in(self, lang: str) -> str:
        if self.value is None:
            return translate(lang, "workload.value.unknown")
        return translate(lang, f"workload.value.{self.path}", v=_fmt(self.value))


def _fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return f"{v:,}" if isinstance(v, int) else f"{v:,.4g}" if isinstance(v, float) else str(v)


def sizing_source(request: Any) -> WorkloadSource | None:
    """What the Sizing page says about the workload (its ``SizingRequest``), or None without one."""
    if request is None:
        return None
    values: dict[str, Any] = {}
    prompt = getattr(request, "prompt_tokens", None)
    output = getattr(request, "output_tokens", None)
    if prompt:  # only lengths the user set there: the page's defaults (context − output, …) are nobody's workload
        values["prompt_tokens.avg"] = int(prompt)
    if output:
        values["output_tokens.avg"] = int(output)
    if getattr(request, "context", None):
        values["max_context_tokens"] = int(request.context)
    if getattr(request, "concurrency", None):
        values["peak_concurrency"] = int(request.concurrency)
    if not values:
        return None
    return WorkloadSource(kind="sizing", values=values, origin_key="wizard.origin.sizing")


def is_real_run(run: dict[str, Any]) -> bool:
    """A finished run that measured a real server (not the embedded simulator)."""
    from advisor.plan.evidence import is_simulated_run

    return str(run.get("status") or "") == "completed" and not is_simulated_run(run)


def run_source(run: dict[str, Any]) -> WorkloadSource | None:
    """The workload a stored run was configured with (``BenchStore.run`` record), when it is a real server's
    finished run that recorded one; None otherwise (a simulated, unfinished or workload-less run)."""
    if not is_real_run(run):
        return None
    config = run.get("config") or {}
    workload = config.get("workload") or {}
    values: dict[str, Any] = {}
    prompt = (workload.get("prompt_tokens") or {}).get("mean")
    output = (workload.get("output_tokens") or {}).get("mean")
    if prompt:
        values["prompt_tokens.avg"] = int(prompt)
    if output:
        values["output_tokens.avg"] = int(output)
    ttft = (config.get("slo") or {}).get("ttft_ms")
    if ttft:
        values["latency_slo.ttft_p99_ms"] = float(ttft)
    if not values:
        return None
    created = run.get("created_wall")
    date = datetime.fromtimestamp(float(created), tz=UTC).strftime("%Y-%m-%d") if created else "—"
    name = run.get("label") or str(run.get("run_id") or "")[:8]
    return WorkloadSource(kind="run", values=values, origin_key="wizard.origin.real_run",
                          origin_params={"run": name, "date": date, "model": run.get("model") or "—"},
                          run_id=run.get("run_id"))  # fmt: skip


def run_sources(db_path: Any = None, limit: int = 20) -> list[WorkloadSource]:
    """The latest real-server runs of the benchmark database that recorded a workload (newest first)."""
    from advisor.bench.store import BenchStore, default_path

    path = Path(db_path) if db_path else default_path()
    if not path.is_file():
        return []
    store = BenchStore(path, read_only=True)  # a reader: writes nothing
    try:
        out = []
        for summary in store.runs()[: limit * 3]:
            if summary.get("status") != "completed":
                continue
            run = store.run(summary["run_id"])
            source = run_source(run) if run else None
            if source is not None:
                out.append(source)
            if len(out) >= limit:
                break
        return out
    finally:
        store.close()


def workload_figures(answers: dict[str, Any], origins: dict[str, tuple[str, dict[str, Any]]] | None = None,
                     ) -> list[WorkloadFigure]:  # fmt: skip
    """Each workload figure the plan will size for, with where it comes from: the user's answer, the source it
    was taken from (``origins``: path → (i18n key, params), as the wizard marks pre-filled answers), or the
    plan's own assumption (resolved exactly as ``advisor.plan`` resolves it)."""
    from advisor.plan.answers import AnswersError, answers_from_dict
    from advisor.plan.context import resolve

    origins = origins or {}
    clean = {k: v for k, v in answers.items() if v is not None}
    try:
        ctx = resolve(answers_from_dict(clean))
    except (AnswersError, ValueError):
        ctx = None
    assumed = {a.field: a for a in ctx.assumptions} if ctx is not None else {}
    resolved = {} if ctx is None else {
        "prompt_tokens.avg": ctx.prompt_avg, "output_tokens.avg": ctx.output_avg, "max_context_tokens": ctx.max_context,
        "peak_concurrency": ctx.peak, "latency_slo.ttft_p99_ms": ctx.ttft_slo_ms,
    }  # fmt: skip
    out = []
    for path in WORKLOAD_PATHS:
        value = get_path(answers, path)
        if value is not None:
            key, params = origins.get(path) or ("workload.source.answer", {})
            source = "answer" if path not in origins else ("run" if "run" in key else "sizing")
            out.append(WorkloadFigure(path, value, source, key, dict(params)))
            continue
        field_name = path.split(".")[0] if path.startswith(("prompt_", "output_")) else path.rsplit(".", 1)[-1]
        a = assumed.get(field_name) or assumed.get(path)
        if a is not None:
            out.append(WorkloadFigure(path, resolved.get(path, a.value), "assumed", a.key, dict(a.params)))
        else:
            out.append(WorkloadFigure(path, resolved.get(path), "unknown" if resolved.get(path) is None else "derived",
                                      "workload.source.unknown" if resolved.get(path) is None else "workload.source.derived"))
    return out


__all__ = ["WORKLOAD_PATHS", "WorkloadFigure", "WorkloadSource", "is_real_run", "run_source", "run_sources",
           "sizing_source", "workload_figures"]  # fmt: skip
