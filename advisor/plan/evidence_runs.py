"""Which stored benchmark runs a plan's memo looks at: a read of the benchmark database (Qt-free; the wizard's
memo export calls it)."""

from __future__ import annotations

import logging
from typing import Any

_log = logging.getLogger(__name__)


def measured_evidence(result: Any, project_path: Any = None) -> list[Any]:
    """The benchmark runs of the plan's model (``result``: a PlanResult, or the answers as a dict), for the memo's
    evidence section (empty when none): the open project's own runs (``project_path``: its saved file) when it has
    any of that model, else the latest of any (runs of an unsaved project, of a terminal, or from before runs were
    linked to projects). The memo itself sorts them (``advisor.plan.evidence.plan_evidence``): only a real server's
    run on the plan's GPU is measured evidence; simulated, interrupted, failed and other-GPU runs are shown apart,
    with why."""
    try:
        from advisor.bench.history import project_key
        from advisor.bench.store import BenchStore, default_path
        from advisor.plan.evidence import evidence_from_runs, same_model

        if result is None or not default_path().is_file():
            return []
        if isinstance(result, dict):  # the answers alone (no plan yet): their model and TTFT target
            names, slo = [str(result.get("model") or "")], (result.get("latency_slo") or {}).get("ttft_p99_ms")
        else:
            hw = result.hardware
            names = [str(n) for n in (hw.model, hw.model_name, (result.answers or {}).get("model")) if n]
            slo = result.latency_curve.slo_ttft_p99_ms
        store = BenchStore(default_path(), read_only=True)  # a reader: writes nothing
        try:
            runs = [r for r in store.runs()[:50]
                    if r.get("status") != "running" and same_model(str(r.get("model") or ""), names)]  # fmt: skip
        finally:
            store.close()
        key = project_key(project_path) if project_path else None
        mine = ([r for r in runs if key and r.get("project_id") == key] or runs)[:6]
        if not mine:
            return []
        return evidence_from_runs(None, [r["run_id"] for r in mine], slo_ttft_ms=slo)
    except Exception:  # evidence is optional: a memo without it is still a memo
        _log.info("benchmark evidence unavailable", exc_info=True)
        return []
