"""Answers as an editor holds them while they are typed: a dict in the public answers format, read and written by
dotted paths ("latency_slo.ttft_p99_ms"), with parts that may be half-filled.

``clean_answers`` turns such a draft into what ``answers_from_dict`` accepts. The wizard (ui/pages/wizard), the
workload figures (advisor.plan.workload) and the what-if planning (advisor.plan.what_if) share these.
"""

from __future__ import annotations

from typing import Any


def get_path(answers: dict[str, Any], path: str) -> Any:
    """The answer at ``path`` ("model", "prompt_tokens.avg"), or None."""
    head, _, rest = path.partition(".")
    value = answers.get(head)
    if not rest:
        return value
    return value.get(rest) if isinstance(value, dict) else None


def set_path(answers: dict[str, Any], path: str, value: Any) -> None:
    """Set the answer at ``path``; None removes it (and a part left empty)."""
    head, _, rest = path.partition(".")
    if not rest:
        if value is None:
            answers.pop(head, None)
        else:
            answers[head] = value
        return
    part = dict(answers.get(head) or {})
    if value is None:
        part.pop(rest, None)
    else:
        part[rest] = value
    if part:
        answers[head] = part
    else:
        answers.pop(head, None)


def clean_answers(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers as the public format wants them: parts that cannot stand alone are completed or dropped
    (a currency without an amount says nothing; the overseas share of a mix is the rest of the mainland's)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in answers.items() if v is not None}
    for name in ("monthly_budget", "capex_budget"):
        budget = out.get(name)
        if isinstance(budget, dict) and budget.get("amount") is None:
            out.pop(name)
    mix = out.get("user_mix")
    if isinstance(mix, dict):
        if mix.get("mainland") is None:
            out.pop("user_mix")
        else:
            out["user_mix"] = {
                "mainland": mix["mainland"],
                "overseas": round(1.0 - float(mix["mainland"]), 6),
            }
    fleet = out.get("current_fleet")
    if isinstance(fleet, dict) and (fleet.get("gpu") is None or fleet.get("count") is None):
        out.pop("current_fleet")  # a GPU without a count (or a count without a GPU) says nothing yet
    for key in [k for k, v in out.items() if isinstance(v, dict) and not v]:
        out.pop(key)
    return out
