"""Where a run's figures come from, and a time-scaled simulator run's figures at the simulated GPU's real speed.

The simulated server can run faster than the GPU it models (``--time-scale 0.1``: every duration × 0.1). A run
against it measures wall-clock figures ten times too good; shown as they are, "9,447 tok/s" for a 14B model on
one L40S reads as GPU speed. Every view of a run's steps therefore goes through :func:`at_real_speed`, which
divides durations by the scale and multiplies rates by it (the client's own few milliseconds are divided too:
at 0.1 a 1 ms parse reads as 10 ms, a small, stated overstatement), and :func:`time_scale_of` is the one reader of
the scale a run recorded: its result's ``setup``/``provenance``, its config, or (a run stored before RunResult)
the simulator's run label.
"""

from __future__ import annotations

import copy
from typing import Any

from advisor.bench.stored_result import legacy_setup_from_label  # runs stored before RunResult

DURATIONS = ("ttft_ms", "ttfa_ms", "itl_ms", "tpot_ms", "e2e_ms", "queue_ms")
RATES = ("output_tokens_per_s", "requests_per_s", "goodput_requests_per_s", "target_rate", "achieved_rate")


def _scale(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def time_scale_of(result: dict[str, Any] | None = None, config: dict[str, Any] | None = None, label: str = "") -> float | None:
    """The simulated server's time scale a run recorded (1.0: real time), or None where nothing says (a real
    server, or an old run whose scale was not recorded: unknown, never assumed 1)."""
    for part in (result or {}, config or {}):
        for holder in (part, part.get("setup") or {}, part.get("provenance") or {}, part.get("sim") or {}):
            if isinstance(holder, dict) and (s := _scale(holder.get("time_scale"))) is not None:
                return s
    parsed = legacy_setup_from_label(label or str((config or {}).get("label") or ""))
    if parsed is not None and parsed["scale_recorded"]:
        return float(parsed["time_scale"])
    return None


def read_simulator(url: str, timeout_s: float = 3.0) -> dict[str, Any] | None:
    """What the simulated server at ``url`` simulates, from its ``/debug/stats``: ``time_scale`` and, when it says,
    ``model``, ``gpu``, ``weights``, ``gpus``; None when the server does not answer as our simulator does (a real
    server: its scale stays unknown, never assumed)."""
    import http.client

    from advisor import bounded_http
    from advisor.bench.client import Target

    try:  # any server may be asked: bounded in time and size like every side request (issue #29)
        resp = bounded_http.request("GET", Target.parse(url).root + "/debug/stats", total_s=timeout_s,
                                    max_bytes=1024 * 1024)
        data = resp.json() if resp.status == 200 else None
    except (OSError, ValueError, http.client.HTTPException):
        return None
    if not isinstance(data, dict) or data.get("simulated") is not True or _scale(data.get("time_scale")) is None:
        return None
    setup: dict[str, Any] = data["setup"] if isinstance(data.get("setup"), dict) else {}
    out: dict[str, Any] = {"time_scale": float(data["time_scale"]), "model": setup.get("model") or data.get("model")}
    for key in ("gpu", "weights"):
        if isinstance(setup.get(key), str) and setup[key]:
            out[key] = setup[key]
    if isinstance(setup.get("gpus"), int) and not isinstance(setup.get("gpus"), bool) and setup["gpus"] >= 1:
        out["gpus"] = setup["gpus"]
    return out


def step_at_real_speed(step: dict[str, Any], scale: float) -> dict[str, Any]:
    """One step (``StepSummary`` as a dict) with its durations ÷ ``scale`` and rates × ``scale``."""
    if scale == 1.0:
        return step
    out = copy.deepcopy(step)
    for key in DURATIONS:
        pct = out.get(key)
        if isinstance(pct, dict):
            out[key] = {k: (v / scale if isinstance(v, int | float) and not isinstance(v, bool) else v)
                        for k, v in pct.items()}  # fmt: skip
        elif isinstance(pct, int | float) and not isinstance(pct, bool):
            out[key] = pct / scale
    for key in RATES:
        if isinstance(out.get(key), int | float) and not isinstance(out.get(key), bool):
            out[key] = out[key] * scale
    for key in ("duration_s", "window_s", "start_stagger_s"):
        if isinstance(out.get(key), int | float) and not isinstance(out.get(key), bool):
            out[key] = out[key] / scale
    return out


def at_real_speed(result: dict[str, Any]) -> dict[str, Any]:
    """A run's result with every step at the simulated GPU's real speed (unchanged for a real server or a run at
    real time); ``provenance.shown_at_real_speed`` says the figures were converted and from which scale."""
    scale = time_scale_of(result)
    if scale is None or scale == 1.0 or (result.get("provenance") or {}).get("shown_at_real_speed"):
        return result
    out = dict(result)
    out["steps"] = [step_at_real_speed(s, scale) for s in result.get("steps") or []]
    knee = result.get("knee")
    evidence = knee.get("evidence") if isinstance(knee, dict) else None
    if isinstance(knee, dict) and isinstance(evidence, dict) and isinstance(evidence.get("throughput_tok_s"), list):  # the knee's tok/s too
        out["knee"] = {**knee, "evidence": {**evidence, "throughput_tok_s": [
            v * scale if isinstance(v, int | float) and not isinstance(v, bool) else v
            for v in evidence["throughput_tok_s"]]}}
    out["provenance"] = {**(result.get("provenance") or {}), "simulated": True, "time_scale": scale,
                         "shown_at_real_speed": True}  # fmt: skip
    return out
