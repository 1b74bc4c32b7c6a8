"""Whether the plan led keeps an N+1 spare, for the wording that speaks of one (issue #25, blind review 21, q10).

q10's one server leads without a spare (``engine._spare_dropped``), yet its speed row said "every replica at its
planned load, the spare included" and its rent finding "(the always-on replica with its N+1 spare, or whole
servers)": words of the two-server plan it no longer leads with. Those phrases follow this test instead: a spare is
kept where the plan names one — a spare unit laid out, a spare the units hold among them (``spare_in_units``) or a
spare replica inside servers bought without a spare server (``spare_by_rent``) — which is exactly where the rules
write a ``sizing.redundancy`` finding or the capacity states the load with the spare down."""

from __future__ import annotations

from typing import Any

from advisor.plan import spare_in_units

REDUNDANCY = "sizing.redundancy"


def in_candidate(ch: Any) -> bool:
    """A sized candidate (``sizing.Candidate``) keeps a spare: a spare unit, one held in the units, or one by rent."""
    lay = getattr(ch, "layout", None)
    if lay is None:
        return False
    return bool(lay.spare_units) or spare_in_units.units(ch) is not None or "spare_by_rent" in getattr(ch, "notes", ())


def in_result(result: Any) -> bool:
    """The plan's result keeps a spare: the capacity's load with the spare down, or the N+1 finding."""
    cap = getattr(result, "capacity", None)
    if cap is not None and cap.serving_replicas is not None:
        return True
    lay = getattr(getattr(result, "hardware", None), "layout", None)
    if lay is not None and lay.spare_units:
        return True
    return any(f.id == REDUNDANCY for f in getattr(result, "findings", ()))


__all__ = ["in_candidate", "in_result"]
