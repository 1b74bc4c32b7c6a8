"""A stored run read back as a :class:`advisor.domain.run.RunResult`, whatever shape it was stored in.

Runs stored since RunResult are its JSON (``result_schema`` 2) and validate as they are. Runs stored before are
untyped dicts that differ by the door they came through (``advisor bench`` stored the runner's dict, status
``cancelled`` for a stop; the app stored the same but showed ``stopped``, and kept a simulated run's setup only
in its label). This module is the one place that knows those old shapes: the status word is mapped, the SLO and
workload come from the stored config, a simulated run's setup is read from its label (the only place it was
kept), and a value that no longer validates is dropped rather than failing the whole run (its other figures
still open).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from advisor.bench.sim_label import parse_sim_label
from advisor.domain.bench import StepSummary
from advisor.domain.run import RunProvenance, RunResult, SimSetup, run_status


def result_from_stored(run: dict[str, Any], steps: list[StepSummary] | None = None) -> RunResult:
    """``run``: a row as :meth:`advisor.bench.store.BenchStore.run` returns it (``status``, ``label``, ``url``,
    ``model``, ``config``, ``result``, ``created_wall``). ``steps``: the run's stored step summaries, used when
    the result has none (a run interrupted before its result was written)."""
    raw: dict[str, Any] = run["result"] if isinstance(run.get("result"), dict) else {}
    config: dict[str, Any] = run["config"] if isinstance(run.get("config"), dict) else {}
    data: dict[str, Any] = dict(raw)
    if not data.get("steps") and steps:
        data["steps"] = [s.model_dump(mode="json") for s in steps]
    # the store's row is the authority on how the run ended (it marks a dead writer's run interrupted)
    data["status"] = run_status(run.get("status") or raw.get("status")).value
    for key in ("run_id", "url", "model", "created_wall"):
        if data.get(key) is None and run.get(key) is not None:
            data[key] = run[key]
    if not data.get("schedule"):
        data["schedule"] = (config.get("schedule") or {}).get("kind")
    if not data.get("label"):
        data["label"] = run.get("label") or config.get("label") or ""
    if not raw.get("result_schema"):
        _upgrade(data, config)
    return _validate(data)


def _upgrade(data: dict[str, Any], config: dict[str, Any]) -> None:
    """Fill what an old-shape result lacks from what was stored beside it."""
    data.setdefault("api", (config.get("endpoint") or {}).get("api") or "chat")
    if data.get("slo") is None:
        data["slo"] = config.get("slo")
    if data.get("workload") is None:
        data["workload"] = config.get("workload")
    setup = data.get("setup")
    scale_recorded = isinstance(setup, dict) and setup.get("time_scale") is not None
    if not isinstance(setup, dict):
        setup = legacy_setup_from_label(str(data.get("label") or ""))
        scale_recorded = setup is not None and setup.pop("scale_recorded", False)
        if setup is not None:
            setup["workload"] = config.get("workload")
            data["setup"] = setup
    if isinstance(setup, dict) and data.get("simulated") is None:
        data["simulated"] = True
    if not isinstance(data.get("provenance"), dict):
        wl: dict[str, Any] = data["workload"] if isinstance(data.get("workload"), dict) else {}
        simulated = True if setup or data.get("dialect") == "simulated" else None
        data["provenance"] = RunProvenance(
            simulated=simulated,
            time_scale=setup.get("time_scale") if isinstance(setup, dict) and scale_recorded else None,
            model=(setup or {}).get("model") or data.get("model"), gpu=(setup or {}).get("gpu"),
            gpus=(setup or {}).get("gpus"), weights=(setup or {}).get("weights"), engine=data.get("dialect"),
            prompt_tokens_mean=_mean(wl.get("prompt_tokens")), output_tokens_mean=_mean(wl.get("output_tokens")),
        ).model_dump(mode="json")


def legacy_setup_from_label(label: str) -> dict[str, Any] | None:
    """Runs the app stored before RunResult kept their simulated setup only in the run label
    (``simulated · 模拟 · model · gpu · weights · gpus[ · ×scale]``). Read here, for those runs only."""
    setup = parse_sim_label(label)
    if setup is None:
        return None
    # a six-part label is older than the time scale: the figure was not recorded (unknown, not 1)
    setup["scale_recorded"] = len(label.split("·")) == 7
    return setup


def _mean(dist: Any) -> float | None:
    value = dist.get("mean") if isinstance(dist, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _validate(data: dict[str, Any]) -> RunResult:
    """RunResult from ``data``; a stored value that no longer validates is dropped (its field takes its default;
    steps are kept one by one) so the rest of the run still opens."""
    if isinstance(data.get("steps"), list):
        kept = []
        for step in data["steps"]:
            try:
                kept.append(StepSummary.model_validate(step))
            except ValidationError:
                continue
        data["steps"] = kept
    if isinstance(data.get("setup"), dict):
        try:
            SimSetup.model_validate(data["setup"])
        except ValidationError:
            data["setup"] = None
    for _ in range(len(data) + 1):
        try:
            return RunResult.model_validate(data)
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]} - {"status"}
            if not bad:
                raise
            for key in bad:
                data.pop(key, None)
    return RunResult.model_validate(data)
