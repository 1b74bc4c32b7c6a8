"""A failed owned server covered by renting its cards for its repair days (s28-own28, ``own_like``): the expected
server-days down a month (failures a GPU-year × repair days, ``resources/plan/server_repair28.json``: a sourced
failure rate, an assumed repair time) × those cards' day rent. Apart from ``own_like`` so that ``cost`` can count it
without importing what reads its own figures."""

from __future__ import annotations

from functools import cache
from typing import Any

from advisor.resources import load_json

HOURS_PER_MONTH = 730.0  # cost.HOURS_PER_MONTH (cost imports this module)


@cache
def repair_facts() -> dict[str, Any]:
    """``server_repair28.json``: failures a GPU-year and repair days, each with its source and grade."""
    return load_json("plan", "server_repair28.json")


def repair_server_days_month(gpus: int) -> tuple[float, float]:
    """Expected server-days down a month for ``gpus`` owned GPUs (each GPU's failure takes its server down)."""
    f, d = repair_facts()["failures_per_gpu_year"], repair_facts()["repair_days"]
    return gpus * f["low"] / 12 * d["low"], gpus * f["high"] / 12 * d["high"]


def repair_rent_month(gpus: int, unit_gpus: int, rent_per_gpu_month: tuple[float, float]) -> tuple[float, float]:
    """Renting a failed server's ``unit_gpus`` cards for its repair days, a month, low and high: the expected
    server-days × those cards' day rent (``rent_per_gpu_month``: the rent a GPU a month, billed around the clock)."""
    days = repair_server_days_month(gpus)
    lo, hi = (unit_gpus * r * 24 / HOURS_PER_MONTH for r in rent_per_gpu_month)
    return days[0] * lo, days[1] * hi


__all__ = ["repair_facts", "repair_rent_month", "repair_server_days_month"]
