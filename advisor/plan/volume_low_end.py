"""The low end of an assumed monthly volume as the cost table's tokens row prints it (input + output tokens), for
a request count said beside it (blind review 16, q24: "this plan estimates 3,600–36,000 a day" ran from the middle
estimate to the in-flight reading and skipped the row's own low end, 10 requests a person, about 1,400 a day).

The row's figures are the only record of that end (people_volume, public_volume, volume_range build it into the
basis phrase), so they are read back from there: one figure, the one the reader sees.
"""

from __future__ import annotations

from typing import Any

FLOOR = "busiest_hour_floor"  # the basis key of an estimate raised to its busiest hour's floor (volume_peak.floor)


def _number(text: Any) -> float | None:
    """"66,000,000" → 66000000.0; None for anything else."""
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def tokens(basis: Any) -> float | None:
    """Input + output tokens a month at the tokens row's low end, None where the row gives none."""
    if not isinstance(basis, dict) or basis.get(FLOOR):
        return None  # an estimate raised to the busiest hour's floor has no lower end (s28-volume28)
    low = basis.get("low")
    where = low if isinstance(low, dict) and "low_in" in low else basis
    inp, out = _number(where.get("low_in")), _number(where.get("low_out"))
    return inp + out if inp is not None and out is not None else None


__all__ = ["tokens"]
