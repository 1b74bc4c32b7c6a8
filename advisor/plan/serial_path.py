"""Steps that run one after another, not side by side: the generative-AI filing after the B25 licence (issue 25,
twelfth blind review q07, s22-duties22c).

The timeline took the longest blocking step as the earliest launch and ran the others "alongside" it. The review of
q07 (en): "the education approval must come before the B25, and the CAC filing usually expects the ICP/B25 in hand,
so 91–245 days is optimistic; show the serial path". A paid service on a mainland node goes online under its B25
licence (``icp.licence_b25``), and the generative-AI filing is made for a service going online under its ICP filing
or licence (the reading ``unknowns`` already states for an unfiled service: grade U, consultancies describe the
ICP filing or licence as a precondition of listing an AI product). So the filing step is marked ``after`` the
licence, and the launch counts their days end to end. The sector's approval before the licence has no length here
(an untimed step, "not before it is granted"); its order is in its own label.
"""

from __future__ import annotations

from typing import Any

LICENCE = "icp_licence"
SECTOR_APPROVAL = "sector_approval"  # before the licence (Order 292 Art. 5), of no length stated here
# the generative-AI steps: the filing or registration planned for a public service, or the likely one of a service
# any business can buy (``duties18_rules.likely_public_step``)
GENAI_KINDS = ("genai_filing", "genai_registration", "genai_open_weights")  # genai_paths.genai_kind
GENAI_STEPS = (*GENAI_KINDS, *(f"{k}_likely" for k in GENAI_KINDS))


def chain_after_licence(items: list[Any]) -> list[Any]:
    """``items`` with each blocking generative-AI step marked to start after the blocking B25 licence step, when
    both are there with known lengths; unchanged otherwise."""
    licence = next((i for i in items if i.id == LICENCE and i.blocking and i.length_known), None)
    if licence is None:
        return items
    return [i.model_copy(update={"after": LICENCE}) if i.id in GENAI_STEPS and i.blocking and i.length_known else i
            for i in items]


def span(item: Any, items: list[Any]) -> tuple[int, int]:
    """(low, high) days from now until ``item`` is done: its own days after those of the step it waits for."""
    lo, hi = item.days_low or 0, item.days_high or 0
    before = next((i for i in items if i.id == item.after), None) if item.after else None
    if before is None:
        return lo, hi
    b_lo, b_hi = span(before, items)
    return b_lo + lo, b_hi + hi


def before_of(item: Any, items: list[Any]) -> Any | None:
    """The step ``item`` waits for, or None."""
    return next((i for i in items if i.id == item.after), None) if item.after else None
