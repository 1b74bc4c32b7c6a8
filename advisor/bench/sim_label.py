"""The label of a run against the embedded simulated server: it says so and names the setup
(``simulated · 模拟 · model · gpu · weights · gpus · ×scale``). Runs stored before RunResult kept their simulated
setup only here, so readers of old runs parse it back (``advisor.bench.stored_result``)."""

from __future__ import annotations

from typing import Any

SIM_LABEL = "simulated · 模拟"


def sim_label(model: str, gpu: str, weights: str | None, gpus: int, time_scale: float = 1.0) -> str:
    """The run label of a run against the embedded simulated server: it says so and names the setup."""
    return f"{SIM_LABEL} · {model} · {gpu} · {weights or '-'} · {gpus} · ×{time_scale:g}"


def parse_sim_label(label: str) -> dict[str, Any] | None:
    parts = [p.strip() for p in label.split("·")]
    if len(parts) not in (6, 7) or " · ".join(parts[:2]) != SIM_LABEL:
        return None
    model, gpu, weights, gpus = parts[2:6]
    try:
        n = int(gpus)
        scale = float(parts[6].lstrip("×")) if len(parts) == 7 else 1.0
    except ValueError:
        return None
    return {"model": model, "gpu": gpu, "weights": None if weights == "-" else weights, "gpus": n,
            "time_scale": scale}  # fmt: skip
