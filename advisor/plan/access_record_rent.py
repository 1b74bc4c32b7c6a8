"""A filed mainland service whose plan rents GPU servers: the ICP access record said plainly, not only as a question
(s31-bigctx32; blind review 20b, q10 en: "renting GPUs from a new cloud provider usually needs the ICP access record
(接入备案) moved or added there. Say that plainly, because the plan likely changes provider").

Where the answers do not say whether the filed service moves (``hosting_move`` unknown), the plan assumes it stays
where it runs, and page 1 asks. A plan that rents cloud GPU servers may rent them from another provider than the one
that holds the filing; the assumption then says the rule itself first: renting from another provider needs an access
record with it (the duration of ``icp.access_record``, from the facts' durations), then what the plan assumed. The
rule itself (``icp.access_record``, q31) fires where the answers say the service moves.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import duration

GENERAL_KEY = "plan.assume.hosting_move"
RENTED_KEY = "bigctx32.assume.hosting_move.rented"


def _restated(key: str, params: dict[str, Any], form: str) -> tuple[str, dict[str, Any]] | None:
    if key != GENERAL_KEY or form != "cloud":
        return None
    lo, hi = duration("icp_access_record")
    return RENTED_KEY, {**params, "low": lo, "high": hi}


def restate(assumptions: list[Any], questions: list[Any], form: str) -> tuple[list[Any], list[Any]]:
    """The assumptions and open questions with the hosting-move assumption said for a rented plan (same objects
    otherwise; those restated are copies)."""
    out_a = []
    for a in assumptions:
        got = _restated(a.key, a.params, form)
        out_a.append(a if got is None else a.model_copy(update={"key": got[0], "params": got[1]}))
    out_q = []
    for q in questions:
        got = _restated(q.assumption_key or "", q.assumption_params, form)
        out_q.append(q if got is None else q.model_copy(update={"assumption_key": got[0],
                                                                "assumption_params": got[1]}))
    return out_a, out_q


__all__ = ["RENTED_KEY", "restate"]
