"""Whether the generative-AI filing waits for the B25 licence: no source here says so (s25-dates25).

Session 22 (s22-duties22c) set the filing after the licence and counted their days end to end (q07: 151–335 days), on
the reading that the filing is made for a service already holding its ICP filing or licence (grade U). The fourteenth
blind review (q07, q11) read that order as "asserted without a source; they can usually run in parallel", and
deployment facts §2.1–2.2 state the licence's 60-day decision and the filing's review without any order between them.
So both start now, the launch counts the longer one, and the next step says to confirm the order with the provincial
CAC: an unknown said as one, not a sequence the sources do not give.
"""

from __future__ import annotations

from typing import Any

LICENCE = "icp_licence"
# the generative-AI steps: the filing or registration planned for a public service, or the likely one of a service
# any business can buy (``duties18_rules.likely_public_step``)
GENAI_KINDS = ("genai_filing", "genai_registration", "genai_open_weights")  # genai_paths.genai_kind
GENAI_STEPS = (*GENAI_KINDS, *(f"{k}_likely" for k in GENAI_KINDS))


def both_gate(gate: Any, items: list[Any]) -> bool:
    """The launch's gate is a generative-AI step and the B25 licence also blocks the launch (or the other way
    round): the two whose order no source here gives."""
    ids = {i.id for i in items if i.blocking}
    return gate.id in (LICENCE, *GENAI_STEPS) and LICENCE in ids and bool(ids & set(GENAI_STEPS))
