"""A steady service's own measured GPU utilisation, high, on a multi-year horizon: what it says for owning (issue 25,
blind review 28, q26).

The month of tokens is not read from nvidia-smi's utilisation (it counts the time a kernel runs, not the requests:
``burst.steady_measured``), but the measurement is not set aside either. Steady around the clock and busy for years,
the GPUs have no idle hours a rented setup could be shed for, so the monthly/reserved rent is the like-for-like and
owning's edge at the middle holds over the whole term; and read as the volume's upper end the hosted API's month
grows with it. The reviewers (en: "the core argument, that steady 80 % load over 3 years favours owning, is never
made"; zh: "ask for request counts rather than discarding the measurement") asked for that reading, said as an upper
one beside the request count that would settle it.
"""

from __future__ import annotations

from typing import Any

BUSY = 0.6  # a measured utilisation at or above this reads as a busy fleet (q26's 80 %, q31's 75 %)
YEARS = 24  # months: a multi-year horizon, the term a purchase is weighed over


def reading(answers: Any) -> dict[str, int] | None:
    """{"measured": 80, "months": 36} where the answers measured a busy, steady load for a multi-year horizon and gave
    no requests a day (which would count the volume instead), else None. ``answers``: the plan's answers (a dict or
    the model)."""
    get = answers.get if isinstance(answers, dict) else (lambda k: getattr(answers, k, None))
    measured, months = get("measured_utilisation"), get("expected_duration_months")
    if measured is None or measured < BUSY or get("load_pattern") != "stable" or get("requests_per_day"):
        return None
    if not months or months < YEARS:
        return None
    return {"measured": round(measured * 100), "months": int(months)}


def busy_factor(costs: Any) -> float | None:
    """The month's tokens at the measured utilisation of this setup's capacity ÷ the month's estimated tokens (the
    cost row's "kept 80 % busy" tokens over the tokens row's), where both are known and the first is the larger;
    else None. The hosted API's month is linear in the tokens, so its month at that reading is this × its month."""
    basis = getattr(costs, "per_million_basis", None) or {}
    busy, out = basis.get("output_tokens"), getattr(costs, "output_tokens_per_month", None)
    if not busy or not out or busy <= out:
        return None
    return float(busy) / float(out)


__all__ = ["BUSY", "YEARS", "busy_factor", "reading"]
