"""`advisor bench` against our own simulated server: learn what it simulates and at which time scale.

`advisor sim --time-scale 0.1` answers ten times faster than the GPU it models. A run against it measured
wall-clock figures ten times too good and printed them as they were ("152 tok/s" for one user of a 7B model on an
L4, which does ~15): the CLI never knew the scale. It now asks the server (``/debug/stats``), says what is
simulated and at which scale, labels the run as the app labels its own simulated runs (so History, Compare and the
memo read the scale back), prints every step and returns every figure at the simulated GPU's real speed.
"""

from __future__ import annotations

import sys
from typing import Any

from advisor.bench.provenance import at_real_speed, read_simulator, step_at_real_speed
from advisor.bench.report import sim_label
from advisor.i18n import tr


def learn_simulator(config: Any, quiet: bool) -> tuple[Any, dict[str, Any] | None]:
    """(the config, labelled as a simulated run when the user gave no label; what the simulator says) — the
    config unchanged and None when the server is not our simulator."""
    sim = read_simulator(config.endpoint.url)
    if sim is None:
        return config, None
    if not config.label and sim.get("gpu"):
        config = config.model_copy(update={"label": sim_label(sim.get("model") or config.endpoint.model, sim["gpu"],
                                                              sim.get("weights"), sim.get("gpus", 1),
                                                              sim["time_scale"])})  # fmt: skip
    if not quiet:
        what = " · ".join(str(sim[k]) for k in ("model", "gpu", "weights") if sim.get(k))
        scale = sim["time_scale"]
        if abs(scale - 1.0) < 1e-9:
            print(tr("bench.cli.sim_realtime", setup=what), file=sys.stderr)
        else:
            print(tr("bench.cli.sim_scaled", setup=what, scale=f"{scale:g}", k=f"{1 / scale:.3g}"), file=sys.stderr)
    return config, sim


def step_as_shown(step: Any, sim: dict[str, Any] | None) -> Any:
    """A StepSummary at the simulated GPU's real speed (unchanged against a real server or at real time)."""
    if sim is None or abs(sim["time_scale"] - 1.0) < 1e-9:
        return step
    return type(step).model_validate(step_at_real_speed(step.model_dump(mode="json"), sim["time_scale"]))


def with_simulator(result: dict[str, Any], sim: dict[str, Any] | None) -> dict[str, Any]:
    """The run's result saying what was simulated and at which scale, its figures at the GPU's real speed
    (``provenance.shown_at_real_speed``); unchanged when the server was not our simulator."""
    if sim is None:
        return result
    out = dict(result)
    out["simulated"] = True
    out["setup"] = {**{k: v for k, v in sim.items() if k != "time_scale"}, "time_scale": sim["time_scale"],
                    "source": "/debug/stats", "workload": result.get("workload")}  # fmt: skip
    out["provenance"] = {**(result.get("provenance") or {}), "simulated": True, "time_scale": sim["time_scale"]}
    return at_real_speed(out)
