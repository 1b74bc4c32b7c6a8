"""An offline batch job's memo in a batch job's words, not an online service's (issue 25, blind review 27: q06, q28).

The reviewers read an online service's words in the batch memos: "Before launch" (上线之前) for the duties the job
waits on, "Your users are all in the mainland" (用户都在大陆) for files that never meet a user, and "the service is
to be reached only on your own network" for a job that serves nobody. A batch job starts (开工), its files stay on a
mainland node and the people in them are data subjects. The duties of unknown length it waits on (an outsourcing
review, a PIPL Art. 55 assessment) gate its start, and where the job has a deadline its clock starts only after
them (q28: "make explicit that the outsourcing review and the Art. 55 assessment must finish before the 48-hour
audit clock starts, or the job is infeasible"). The online wording keeps its keys; these are the batch variants,
picked on the answers' use case.
"""

from __future__ import annotations

from typing import Any

BATCH = "offline_batch"
PREFIX = "batchword38"


def is_batch(answers: dict[str, Any] | None) -> bool:
    return (answers or {}).get("use_case") == BATCH


def clock(answers: dict[str, Any] | None) -> dict[str, Any] | None:
    """The next step that settles the duties a batch waits on: said before the job starts and, with a deadline, with
    the clock that starts after them. None for a live service (its "before launch" wording stays)."""
    if not is_batch(answers):
        return None
    hours = (answers or {}).get("batch_deadline_hours")
    if hours:
        return {"key": f"{PREFIX}_next.waits_clock", "params": {"deadline": f"{float(hours):,.0f}"}}
    return {"key": f"{PREFIX}_next.waits", "params": {}}


def blocking_head(answers: dict[str, Any] | None) -> str:
    """The timeline table's last column: "before the job starts" for a batch, "before launch" otherwise."""
    return f"{PREFIX}_timeline.blocking" if is_batch(answers) else "memo.timeline.blocking"


# the finding texts that say "launch" or "users" with a batch variant: (online detail key) -> batch detail key
_DETAILS = {
    "plan.rule.pi.keep_in_mainland.mainland_only.detail": f"{PREFIX}_pi.mainland_only.detail",
    "plan.rule.scaling.prestage_weights.detail": f"{PREFIX}_prestage.detail",
    "plan.rule.scaling.prestage_weights.modelscope.detail": f"{PREFIX}_prestage.modelscope.detail",
    "plan.rule.scaling.prestage_weights.premises.detail": f"{PREFIX}_prestage.premises.detail",
    "plan.rule.scaling.prestage_weights.premises_modelscope.detail": f"{PREFIX}_prestage.premises_modelscope.detail",
}


def batch_detail(got: Any, batch: bool) -> Any:
    """``got`` (a Finding or None) with its batch detail where the job is a batch and one is written; unchanged
    otherwise (its title and sources stay the rule's own)."""
    if got is None or not batch or got.detail_key not in _DETAILS:
        return got
    return got.model_copy(update={"detail_key": _DETAILS[got.detail_key]})


__all__ = ["batch_detail", "blocking_head", "clock", "is_batch"]
